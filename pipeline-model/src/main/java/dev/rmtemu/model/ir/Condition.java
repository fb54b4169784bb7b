package dev.rmtemu.model.ir;

import dev.rmtemu.model.register.CmpOp;

/** A gateway condition: one unsigned comparison of two values. */
public record Condition(Expr left, CmpOp op, Expr right) {
    public boolean holds(long a, long b) {
        return op.holds(a, b);
    }

    @Override
    public String toString() {
        return left + " " + op.symbol() + " " + right;
    }
}
