package dev.rmtemu.model.runtime;

import dev.rmtemu.model.extern.CounterCells;
import dev.rmtemu.model.extern.MeterCells;
import dev.rmtemu.model.ir.VliwOp;
import dev.rmtemu.model.phv.Gress;
import dev.rmtemu.model.table.TableState;

/**
 * One gress of a program as one generated method ({@link GressCompiler}): every
 * stage's code straight-line, PHV fields the stage writes in locals until the
 * stage ends (VLIW semantics), register outputs and action data in locals, and
 * the program's register-action kernels, hash kernels and tables as static
 * constants of the generated class, so each call site sees one receiver.
 * Stateless: register storage and table entries come in as arguments, so one
 * instance serves every switch running the program.
 */
public abstract class GressCode {
    protected GressCode() {
    }

    /**
     * Runs one pass: {@code phv} is the PHV's committed slots (updated stage by
     * stage), {@code lo}/{@code hi} the pipe and gress's register storage by array id, {@code externs}
     * its counters and meters.
     */
    public abstract void run(long[] phv, Phv p, long[][] lo, long[][] hi, TableState[] tables, ExternFile externs, long packet);

    /** A counter's cells (generated code: the file's array is package-private). */
    public static CounterCells counter(ExternFile x, int id) {
        return x.counters[id];
    }

    /** A meter's cells. */
    public static MeterCells meter(ExternFile x, int id) {
        return x.meters[id];
    }

    // ---- helpers the generated code calls (small, so the JIT inlines them) ----

    /** Unsigned minimum, as {@link VliwOp#MIN}: the sign bit flipped makes it a signed compare (no call to inline). */
    public static long min(long a, long b) {
        return a + Long.MIN_VALUE <= b + Long.MIN_VALUE ? a : b;
    }

    /** Unsigned maximum, as {@link VliwOp#MAX}. */
    public static long max(long a, long b) {
        return a + Long.MIN_VALUE >= b + Long.MIN_VALUE ? a : b;
    }

    public static long shl(long a, long b) {
        return VliwOp.SHL.apply(a, b);
    }

    public static long shr(long a, long b) {
        return VliwOp.SHR.apply(a, b);
    }

    public static long div(long a, long b) {
        return VliwOp.DIV.apply(a, b);
    }

    public static long mod(long a, long b) {
        return VliwOp.MOD.apply(a, b);
    }

    /** Saturating add on bit<W>, as {@link VliwOp#SADDU}. */
    public static long saddu(long a, long b, int width) {
        return VliwOp.SADDU.apply(a, b, width);
    }

    /** Saturating subtract on bit<W>, as {@link VliwOp#SSUBU}. */
    public static long ssubu(long a, long b, int width) {
        return VliwOp.SSUBU.apply(a, b, width);
    }

    /** Saturating add on int<W>, as {@link VliwOp#SADDS}. */
    public static long sadds(long a, long b, int width) {
        return VliwOp.SADDS.apply(a, b, width);
    }

    /** Saturating subtract on int<W>, as {@link VliwOp#SSUBS}. */
    public static long ssubs(long a, long b, int width) {
        return VliwOp.SSUBS.apply(a, b, width);
    }

    /** Concatenation, b of {@code width} bits, as {@link VliwOp#CONCAT}. */
    public static long concat(long a, long b, int width) {
        return VliwOp.CONCAT.apply(a, b, width);
    }

    /** Arithmetic shift right on int<W>, as {@link VliwOp#SHRS}. */
    public static long shrs(long a, long b, int width) {
        return VliwOp.SHRS.apply(a, b, width);
    }

    /** Signed minimum on int<W>, as {@link VliwOp#MINS}. */
    public static long mins(long a, long b, int width) {
        return VliwOp.MINS.apply(a, b, width);
    }

    /** Signed maximum on int<W>, as {@link VliwOp#MAXS}. */
    public static long maxs(long a, long b, int width) {
        return VliwOp.MAXS.apply(a, b, width);
    }

    /** The violation for an index outside its array (the compiler proves most indexes in range). */
    public static PipelineViolation indexOutOfRange(long packet, int gress, int stage, String array, long index, int size) {
        return new PipelineViolation(PipelineViolation.Kind.REGISTER_INDEX_OUT_OF_RANGE, packet, Gress.values()[gress], stage,
                array, "index " + Long.toUnsignedString(index) + ", size " + size);
    }
}
