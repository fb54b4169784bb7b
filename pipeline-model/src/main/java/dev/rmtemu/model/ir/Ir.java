package dev.rmtemu.model.ir;

import dev.rmtemu.model.extern.Meter;
import dev.rmtemu.model.hash.HashUnit;
import dev.rmtemu.model.phv.Field;
import dev.rmtemu.model.register.CmpOp;
import dev.rmtemu.model.register.RegisterAction;
import dev.rmtemu.model.table.MatchTable;

/**
 * Short names for building IR values and conditions, so that a program's
 * stage code reads like its P4 control: {@code set(count, output(inc))},
 * {@code when(eq(read(hit), constant(0)), ...)}. Import statically.
 */
public final class Ir {
    private Ir() {
    }

    public static Expr read(Field f) {
        return new Expr.Read(f);
    }

    public static Expr constant(long v) {
        return new Expr.Const(v);
    }

    public static Expr hash(HashUnit h) {
        return new Expr.HashOut(h);
    }

    public static Expr output(RegisterAction a) {
        return new Expr.RegOut(a);
    }

    /** The colour a meter gave the packet in this stage. */
    public static Expr color(Meter m) {
        return new Expr.MeterOut(m);
    }

    /** What an LPF (the filtered value) or a WRED (its drop or no-drop value) gave the packet in this stage. */
    public static Expr filterOutput(Meter m) {
        return new Expr.MeterOut(m);
    }

    public static Expr actionData(MatchTable t) {
        return new Expr.ActionData(t);
    }

    public static Expr op(VliwOp op, Expr a, Expr b) {
        return new Expr.Binary(op, a, b);
    }

    /** A width-aware operation ({@link VliwOp#widthAware()}) at {@code width} bits. */
    public static Expr op(VliwOp op, Expr a, Expr b, int width) {
        return new Expr.Binary(op, a, b, width);
    }

    /** P4's {@code a |+| b} on bit<W> ({@code signed}: on int<W>). */
    public static Expr saturatingAdd(Expr a, Expr b, int width, boolean signed) {
        return op(signed ? VliwOp.SADDS : VliwOp.SADDU, a, b, width);
    }

    /** P4's {@code a |-| b} on bit<W> ({@code signed}: on int<W>). */
    public static Expr saturatingSub(Expr a, Expr b, int width, boolean signed) {
        return op(signed ? VliwOp.SSUBS : VliwOp.SSUBU, a, b, width);
    }

    /** P4's {@code a ++ b}, b of {@code rightWidth} bits. */
    public static Expr concat(Expr a, Expr b, int rightWidth) {
        return op(VliwOp.CONCAT, a, b, rightWidth);
    }

    public static Expr add(Expr a, Expr b) {
        return op(VliwOp.ADD, a, b);
    }

    public static Expr sub(Expr a, Expr b) {
        return op(VliwOp.SUB, a, b);
    }

    public static Expr and(Expr a, Expr b) {
        return op(VliwOp.AND, a, b);
    }

    public static Expr or(Expr a, Expr b) {
        return op(VliwOp.OR, a, b);
    }

    public static Expr xor(Expr a, Expr b) {
        return op(VliwOp.XOR, a, b);
    }

    public static Expr shl(Expr a, Expr b) {
        return op(VliwOp.SHL, a, b);
    }

    public static Expr shr(Expr a, Expr b) {
        return op(VliwOp.SHR, a, b);
    }

    public static Expr min(Expr a, Expr b) {
        return op(VliwOp.MIN, a, b);
    }

    public static Expr max(Expr a, Expr b) {
        return op(VliwOp.MAX, a, b);
    }

    public static Expr mul(Expr a, Expr b) {
        return op(VliwOp.MUL, a, b);
    }

    public static Expr div(Expr a, Expr b) {
        return op(VliwOp.DIV, a, b);
    }

    public static Expr mod(Expr a, Expr b) {
        return op(VliwOp.MOD, a, b);
    }

    public static Condition eq(Expr a, Expr b) {
        return new Condition(a, CmpOp.EQ, b);
    }

    public static Condition ne(Expr a, Expr b) {
        return new Condition(a, CmpOp.NE, b);
    }

    public static Condition lt(Expr a, Expr b) {
        return new Condition(a, CmpOp.LT, b);
    }

    public static Condition le(Expr a, Expr b) {
        return new Condition(a, CmpOp.LE, b);
    }

    public static Condition gt(Expr a, Expr b) {
        return new Condition(a, CmpOp.GT, b);
    }

    public static Condition ge(Expr a, Expr b) {
        return new Condition(a, CmpOp.GE, b);
    }
}
