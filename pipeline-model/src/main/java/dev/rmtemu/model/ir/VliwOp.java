package dev.rmtemu.model.ir;

/**
 * The operation of one VLIW instruction: what a PHV container's ALU can do to
 * its operands in one stage. MUL, DIV and MOD exist so that a program can say
 * what it means; on a Tofino-like target they are legal only by a power-of-two
 * constant (a shift or a mask), which the compiler's operator pass checks.
 * Comparisons and MIN/MAX are unsigned, as on the hardware's 8/16/32-bit ALUs.
 */
public enum VliwOp {
    ADD("+"), SUB("-"), AND("&"), OR("|"), XOR("^"), SHL("<<"), SHR(">>"), MIN("min"), MAX("max"),
    MUL("*"), DIV("/"), MOD("%");

    private final String symbol;

    VliwOp(String symbol) {
        this.symbol = symbol;
    }

    public String symbol() {
        return symbol;
    }

    /** True for the operations written as a function call (min, max) rather than infix. */
    public boolean functional() {
        return this == MIN || this == MAX;
    }

    /**
     * The result on 64-bit words. A shift by 64 or more gives 0 (the bits leave
     * the container); division and modulo by zero give 0 rather than trapping,
     * because a switch ALU has no way to trap.
     */
    public long apply(long a, long b) {
        return switch (this) {
            case ADD -> a + b;
            case SUB -> a - b;
            case AND -> a & b;
            case OR -> a | b;
            case XOR -> a ^ b;
            case SHL -> Long.compareUnsigned(b, 64) >= 0 ? 0 : a << b;
            case SHR -> Long.compareUnsigned(b, 64) >= 0 ? 0 : a >>> b;
            case MIN -> Long.compareUnsigned(a, b) <= 0 ? a : b;
            case MAX -> Long.compareUnsigned(a, b) >= 0 ? a : b;
            case MUL -> a * b;
            case DIV -> b == 0 ? 0 : Long.divideUnsigned(a, b);
            case MOD -> b == 0 ? 0 : Long.remainderUnsigned(a, b);
        };
    }
}
