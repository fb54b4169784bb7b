package dev.rmtemu.model.register;

/** What an update branch computes from its two operands (results wrap at the word width). */
public enum AluOp {
    /** a */
    SET,
    ADD,
    /** a - b */
    SUB,
    AND,
    OR,
    XOR,
    /** unsigned minimum */
    MIN,
    /** unsigned maximum */
    MAX
}
