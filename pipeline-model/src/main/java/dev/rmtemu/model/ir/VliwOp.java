package dev.rmtemu.model.ir;

/**
 * The operation of one VLIW instruction: what a PHV container's ALU can do to
 * its operands in one stage. MUL, DIV and MOD exist so that a program can say
 * what it means; on a Tofino-like target they are legal only by a power-of-two
 * constant (a shift or a mask), which the compiler's operator pass checks.
 * Comparisons and MIN/MAX are unsigned, as on the hardware's 8/16/32-bit ALUs.
 * The saturating operations and CONCAT work at a width (an {@link Expr.Binary}'s
 * {@code width}): Tofino's container ALU has saturating add and subtract, unsigned
 * and signed (bf-asm's saddu, sadds, ssubu, ssubs), and places one source's bits
 * above another's in one deposit-field instruction.
 */
public enum VliwOp {
    ADD("+"), SUB("-"), AND("&"), OR("|"), XOR("^"), SHL("<<"), SHR(">>"), MIN("min"), MAX("max"),
    MUL("*"), DIV("/"), MOD("%"),
    /** P4's {@code |+|} on bit<W>: the sum, or 2^W-1 when it does not fit. */
    SADDU("|+|"),
    /** P4's {@code |-|} on bit<W>: the difference, or 0 below zero. */
    SSUBU("|-|"),
    /** P4's {@code |+|} on int<W> (two's complement): the sum clamped to -2^(W-1)..2^(W-1)-1, as its W-bit pattern. */
    SADDS("|+|"),
    /** P4's {@code |-|} on int<W>, clamped likewise. */
    SSUBS("|-|"),
    /** P4's {@code a ++ b} with b of W bits: a's bits above b's low W bits. */
    CONCAT("++"),
    /** P4's {@code >>} on int<W>: the arithmetic shift, the sign bit copied in (bf-asm's shrs). */
    SHRS(">>"),
    /** TNA's min on int<W> (bf-asm's mins). */
    MINS("min"),
    /** TNA's max on int<W> (bf-asm's maxs). */
    MAXS("max");

    private final String symbol;

    VliwOp(String symbol) {
        this.symbol = symbol;
    }

    public String symbol() {
        return symbol;
    }

    /** True for the operations whose result depends on a width (saturating arithmetic, concatenation). */
    public boolean widthAware() {
        return this == SADDU || this == SSUBU || this == SADDS || this == SSUBS || this == CONCAT || signed();
    }

    /** True for the saturating add and subtract. */
    public boolean saturating() {
        return this == SADDU || this == SSUBU || this == SADDS || this == SSUBS;
    }

    /** True for the operations on int<W> (two's complement at the width). */
    public boolean signed() {
        return this == SADDS || this == SSUBS || this == SHRS || this == MINS || this == MAXS;
    }

    /** True for the operations written as a function call (min, max) rather than infix. */
    public boolean functional() {
        return this == MIN || this == MAX || this == MINS || this == MAXS;
    }

    /**
     * The result on 64-bit words. A shift by 64 or more gives 0 (the bits leave
     * the container); division and modulo by zero give 0 rather than trapping,
     * because a switch ALU has no way to trap. A width-aware operation works at 64 bits here.
     */
    public long apply(long a, long b) {
        return apply(a, b, 64);
    }

    /**
     * The result at {@code width} bits (1..64) for a width-aware operation: its operands'
     * low {@code width} bits, as the container ALU sees them (for CONCAT the width is the
     * right operand's: a's bits above b's). The other operations ignore the width.
     */
    public long apply(long a, long b, int width) {
        return switch (this) {
            case SADDU -> saturatingAddUnsigned(a & mask(width), b & mask(width), width);
            case SSUBU -> Long.compareUnsigned(a & mask(width), b & mask(width)) <= 0 ? 0 : (a & mask(width)) - (b & mask(width));
            case SADDS -> clampSigned(signExtend(a, width) + signExtend(b, width), a, b, false, width);
            case SSUBS -> clampSigned(signExtend(a, width) - signExtend(b, width), a, b, true, width);
            case CONCAT -> (width >= 64 ? 0 : a << width) | (b & mask(width));
            case SHRS -> signExtend(a, width) >> (Long.compareUnsigned(b, 63) > 0 ? 63 : b) & mask(width);
            case MINS -> (signExtend(a, width) <= signExtend(b, width) ? a : b) & mask(width);
            case MAXS -> (signExtend(a, width) >= signExtend(b, width) ? a : b) & mask(width);
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

    /** All ones in the low {@code width} bits. */
    public static long mask(int width) {
        return width >= 64 ? -1L : (1L << width) - 1;
    }

    /** The W-bit two's-complement value {@code v} as a long. */
    public static long signExtend(long v, int width) {
        return width >= 64 ? v : v << (64 - width) >> (64 - width);
    }

    private static long saturatingAddUnsigned(long a, long b, int width) {
        long sum = a + b;
        // at 64 bits a carry out shows as a sum below an operand; below 64 the sum has bits above the mask
        boolean over = width >= 64 ? Long.compareUnsigned(sum, a) < 0 : (sum & ~mask(width)) != 0;
        return over ? mask(width) : sum;
    }

    /**
     * {@code r} (a + b or a - b of W-bit signed values) clamped to W bits, as its W-bit pattern.
     * Below 64 bits r is exact; at 64 an overflow shows in the signs (Math.addExact's test).
     */
    private static long clampSigned(long r, long a, long b, boolean subtract, int width) {
        long max = width >= 64 ? Long.MAX_VALUE : (1L << (width - 1)) - 1;
        long min = -max - 1;
        if (width >= 64) {
            boolean overflow = subtract ? ((a ^ b) & (a ^ r)) < 0 : ((a ^ r) & (b ^ r)) < 0;
            return overflow ? (a < 0 ? min : max) : r;
        }
        return (r > max ? max : Math.max(r, min)) & mask(width);
    }
}
