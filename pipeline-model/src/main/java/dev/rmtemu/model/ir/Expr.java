package dev.rmtemu.model.ir;

import dev.rmtemu.model.hash.HashUnit;
import dev.rmtemu.model.phv.Field;
import dev.rmtemu.model.register.RegisterAction;
import dev.rmtemu.model.table.MatchTable;

/**
 * A value a stage computes with: a PHV field as the packet entered the stage,
 * a constant, the output of one of the stage's hash units, the output of a
 * register action the stage runs, the action data of the table entry that hit,
 * or one VLIW operation over two values. Values are unsigned 64-bit words.
 */
public sealed interface Expr {

    /** A PHV field as it entered the stage (VLIW semantics). */
    record Read(Field field) implements Expr {
        @Override
        public String toString() {
            return field.name();
        }
    }

    record Const(long value) implements Expr {
        @Override
        public String toString() {
            return Long.toUnsignedString(value);
        }
    }

    /** A hash unit's output over the PHV as it entered the stage. */
    record HashOut(HashUnit unit) implements Expr {
        @Override
        public String toString() {
            return unit.name() + ".get()";
        }
    }

    /** The output word of a register action run earlier in the same stage on the same control path. */
    record RegOut(RegisterAction action) implements Expr {
        @Override
        public String toString() {
            return action.array().name() + "." + action.name() + ".output";
        }
    }

    /** The action data of the entry that hit, inside one of a table's action blocks. */
    record ActionData(MatchTable table) implements Expr {
        @Override
        public String toString() {
            return table.name() + ".action_data";
        }
    }

    record Binary(VliwOp op, Expr left, Expr right) implements Expr {
        @Override
        public String toString() {
            return op.functional() ? op.symbol() + "(" + left + ", " + right + ")" : "(" + left + " " + op.symbol() + " " + right + ")";
        }
    }
}
