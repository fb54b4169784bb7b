package dev.rmtemu.model.ir;

import dev.rmtemu.model.extern.Meter;
import dev.rmtemu.model.hash.HashUnit;
import dev.rmtemu.model.phv.Field;
import dev.rmtemu.model.register.RegisterAction;
import dev.rmtemu.model.table.MatchTable;

/**
 * A value a stage computes with: a PHV field as the packet entered the stage,
 * a constant, the output of one of the stage's hash units, the output of a
 * register action the stage runs, the action data of the table entry that hit,
 * or one VLIW operation over two values. Values are unsigned 64-bit words.
 * Passes and back ends dispatch on the kind with a {@link Visitor}: a new kind
 * of value does not compile until every one of them handles it.
 */
public sealed interface Expr {

    /** One method per kind of value: what a pass or back end does with it. */
    interface Visitor<R> {
        R read(Read e);

        R constant(Const e);

        R hashOut(HashOut e);

        R regOut(RegOut e);

        R actionData(ActionData e);

        R binary(Binary e);

        R meterOut(MeterOut e);
    }

    <R> R accept(Visitor<R> v);

    /** The value of a constant; null for any value known only at run time. */
    Long constantValue();

    /** A PHV field as it entered the stage (VLIW semantics). */
    record Read(Field field) implements Expr {
        @Override
        public <R> R accept(Visitor<R> v) {
            return v.read(this);
        }

        @Override
        public Long constantValue() {
            return null;
        }

        @Override
        public String toString() {
            return field.name();
        }
    }

    record Const(long value) implements Expr {
        @Override
        public <R> R accept(Visitor<R> v) {
            return v.constant(this);
        }

        @Override
        public Long constantValue() {
            return value;
        }

        @Override
        public String toString() {
            return Long.toUnsignedString(value);
        }
    }

    /** A hash unit's output over the PHV as it entered the stage. */
    record HashOut(HashUnit unit) implements Expr {
        @Override
        public <R> R accept(Visitor<R> v) {
            return v.hashOut(this);
        }

        @Override
        public Long constantValue() {
            return null;
        }

        @Override
        public String toString() {
            return unit.name() + ".get()";
        }
    }

    /** The output word of a register action run earlier in the same stage on the same control path. */
    record RegOut(RegisterAction action) implements Expr {
        @Override
        public <R> R accept(Visitor<R> v) {
            return v.regOut(this);
        }

        @Override
        public Long constantValue() {
            return null;
        }

        @Override
        public String toString() {
            return action.array().name() + "." + action.name() + ".output";
        }
    }

    /** The action data of the entry that hit, inside one of a table's action blocks. */
    record ActionData(MatchTable table) implements Expr {
        @Override
        public <R> R accept(Visitor<R> v) {
            return v.actionData(this);
        }

        @Override
        public Long constantValue() {
            return null;
        }

        @Override
        public String toString() {
            return table.name() + ".action_data";
        }
    }

    /** The colour a meter gave the packet, earlier in the same stage on the same control path. */
    record MeterOut(Meter meter) implements Expr {
        @Override
        public <R> R accept(Visitor<R> v) {
            return v.meterOut(this);
        }

        @Override
        public Long constantValue() {
            return null;
        }

        @Override
        public String toString() {
            return meter.name() + ".color";
        }
    }

    /**
     * One VLIW operation. {@code width} is the width a width-aware operation works at
     * ({@link VliwOp#widthAware()}: 1..64; for CONCAT the right operand's); 0 for the others,
     * which work on the 64-bit word.
     */
    record Binary(VliwOp op, Expr left, Expr right, int width) implements Expr {
        public Binary {
            if (op.widthAware() ? width < 1 || width > 64 : width != 0) {
                throw new IllegalArgumentException("operation " + op + " at width " + width
                        + (op.widthAware() ? " (1..64)" : " (it works on the word: 0)"));
            }
        }

        /** An operation on the 64-bit word. */
        public Binary(VliwOp op, Expr left, Expr right) {
            this(op, left, right, 0);
        }

        @Override
        public <R> R accept(Visitor<R> v) {
            return v.binary(this);
        }

        @Override
        public Long constantValue() {
            return null;
        }

        @Override
        public String toString() {
            if (op == VliwOp.CONCAT) {
                return "(" + left + " ++ (bit<" + width + ">) " + right + ")";
            }
            if (op.widthAware() && op.functional()) {
                String type = "(int<" + width + ">) ";
                return op.symbol() + "(" + type + left + ", " + type + right + ")";
            }
            if (op == VliwOp.SHRS) {
                return "((int<" + width + ">) " + left + " >> " + right + ")";
            }
            if (op.widthAware()) {
                String type = (op.signed() ? "(int<" : "(bit<") + width + ">) ";
                return "(" + type + left + " " + op.symbol() + " " + type + right + ")";
            }
            return op.functional() ? op.symbol() + "(" + left + ", " + right + ")" : "(" + left + " " + op.symbol() + " " + right + ")";
        }
    }
}
