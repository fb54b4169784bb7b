package dev.rmtemu.model.register;

/**
 * One register action as straight-line code: the conditions, predicated
 * updates and output of the action with its operands, ops and constants
 * fixed, the way a P4 compiler fixes a stateful ALU's configuration. Each
 * action gets a class of its own from {@link KernelCompiler}; an abstract
 * class (not an interface) so the per-packet call is a plain virtual call.
 */
public abstract class RegisterKernel {
    /**
     * Runs the action on cell {@code index} ({@code hi} is null for single-word arrays); returns its output.
     * Public so that a generated stage class calls a program's kernels directly.
     */
    public abstract long execute(long[] lo, long[] hi, int index, long inLo, long inHi);

    /** Unsigned minimum (the ALU's MIN); called by generated code. */
    static long minUnsigned(long a, long b) {
        // unsigned order as signed order with the sign bit flipped: Long.compareUnsigned is a
        // call the JIT declines to inline into large generated methods
        return a + Long.MIN_VALUE <= b + Long.MIN_VALUE ? a : b;
    }

    /** Unsigned maximum (the ALU's MAX); called by generated code. */
    static long maxUnsigned(long a, long b) {
        return a + Long.MIN_VALUE >= b + Long.MIN_VALUE ? a : b;
    }
}
