package dev.rmtemu.model.register;

/**
 * A boolean function of the (at most two) conditions, as a 4-entry truth table:
 * bit {@code c0 | c1 << 1} is set when the predicate holds. This is how Tofino's
 * stateful ALU selects update branches and output.
 */
public record Predicate(int truthTable) {
    /** Conditions a predicate can name (c0 and c1): the most any register action may evaluate. */
    public static final int CONDITIONS = 2;

    public static final Predicate ALWAYS = new Predicate(0b1111);
    public static final Predicate C0 = new Predicate(0b1010);
    public static final Predicate NOT_C0 = new Predicate(0b0101);
    public static final Predicate C1 = new Predicate(0b1100);
    public static final Predicate NOT_C1 = new Predicate(0b0011);
    public static final Predicate C0_AND_C1 = new Predicate(0b1000);
    public static final Predicate C0_AND_NOT_C1 = new Predicate(0b0010);
    public static final Predicate NOT_C0_AND_C1 = new Predicate(0b0100);
    public static final Predicate NEITHER = new Predicate(0b0001);
    public static final Predicate C0_OR_C1 = new Predicate(0b1110);

    public Predicate {
        if (truthTable < 0 || truthTable > 0b1111) {
            throw new IllegalArgumentException("truth table must be 4 bits: " + truthTable);
        }
    }

    /** True when the predicate depends on condition 1. */
    boolean usesC1() {
        return ((truthTable >> 2) & 0b11) != (truthTable & 0b11);
    }

    /** True when the predicate depends on condition 0. */
    boolean usesC0() {
        return ((truthTable >> 1) & 0b101) != (truthTable & 0b101);
    }
}
