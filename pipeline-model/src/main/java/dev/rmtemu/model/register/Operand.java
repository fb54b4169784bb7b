package dev.rmtemu.model.register;

/**
 * An input of a stateful-ALU expression: a stored word, one of the two ALU
 * inputs the stage supplies (from PHV or hash outputs), a constant, or a row of the
 * stateful ALU's register file (TNA's {@code RegisterParam}: a value the control plane
 * sets at run time; {@code constant} holds the row).
 */
public record Operand(Kind kind, long constant) {
    public enum Kind { REG_LO, REG_HI, IN_LO, IN_HI, CONST, PARAM }

    public static final Operand REG_LO = new Operand(Kind.REG_LO, 0);
    public static final Operand REG_HI = new Operand(Kind.REG_HI, 0);
    public static final Operand IN_LO = new Operand(Kind.IN_LO, 0);
    public static final Operand IN_HI = new Operand(Kind.IN_HI, 0);

    public static Operand constant(long value) {
        return new Operand(Kind.CONST, value);
    }

    /** Row {@code row} of the register file of the array's stateful ALU (see {@link RegisterArray#params()}). */
    public static Operand param(int row) {
        return new Operand(Kind.PARAM, row);
    }

    boolean touchesHi() {
        return kind == Kind.REG_HI || kind == Kind.IN_HI;
    }

    boolean isRegister() {
        return kind == Kind.REG_LO || kind == Kind.REG_HI;
    }

    @Override
    public String toString() {
        return switch (kind) {
            case REG_LO -> "lo";
            case REG_HI -> "hi";
            case IN_LO -> "in_lo";
            case IN_HI -> "in_hi";
            case CONST -> Long.toString(constant);
            case PARAM -> "param" + constant;
        };
    }
}
