package dev.rmtemu.model.register;

/** Comparison of a stateful-ALU condition (unsigned, within the word width). */
public enum CmpOp {
    EQ, NE, LT, LE, GT, GE;

    /** The operator as written in P4 ({@code ==}, {@code <}, ...). */
    public String symbol() {
        return switch (this) {
            case EQ -> "==";
            case NE -> "!=";
            case LT -> "<";
            case LE -> "<=";
            case GT -> ">";
            case GE -> ">=";
        };
    }

    /** The comparison on unsigned words (gateways and the IR use it too). */
    public boolean holds(long a, long b) {
        return test(a, b);
    }

    boolean test(long a, long b) {
        int c = Long.compareUnsigned(a, b);
        return switch (this) {
            case EQ -> c == 0;
            case NE -> c != 0;
            case LT -> c < 0;
            case LE -> c <= 0;
            case GT -> c > 0;
            case GE -> c >= 0;
        };
    }
}
