package dev.rmtemu.model.ir;

import dev.rmtemu.model.extern.Counter;
import dev.rmtemu.model.extern.Meter;
import dev.rmtemu.model.extern.MeterColor;
import dev.rmtemu.model.phv.Field;
import dev.rmtemu.model.register.RegisterAction;
import dev.rmtemu.model.table.MatchTable;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * Builds a list of IR statements: the body of a stage, a gateway branch or a
 * table action. The code that calls it runs once, when the program is built.
 */
public final class Block {
    /** Statements, and table applications whose action blocks may still be added. */
    private final List<Object> stmts = new ArrayList<>();

    /** {@code dest = value} (visible from the next stage). */
    public Block set(Field dest, Expr value) {
        stmts.add(new Stmt.Assign(dest, value));
        return this;
    }

    /** {@code dest = value} for a constant. */
    public Block set(Field dest, long value) {
        return set(dest, Ir.constant(value));
    }

    /** Runs a register action on a cell, with both stateful-ALU inputs zero. */
    public Block execute(RegisterAction a, Expr index) {
        return execute(a, index, Ir.constant(0), Ir.constant(0));
    }

    public Block execute(RegisterAction a, Expr index, Expr inLo) {
        return execute(a, index, inLo, Ir.constant(0));
    }

    public Block execute(RegisterAction a, Expr index, Expr inLo, Expr inHi) {
        if (a.array().direct()) {
            throw new IllegalArgumentException("register " + a.array().name() + " is direct on table " + a.array().table().name()
                    + ": its cell is the entry that hit, not an index");
        }
        stmts.add(new Stmt.Execute(a, index, inLo, inHi));
        return this;
    }

    /**
     * Runs a register action of a direct register on the cell of the entry that hit (inside an
     * action of its table; on a miss, the miss entry's cell): TNA's {@code DirectRegisterAction.execute()}.
     */
    public Block executeDirect(RegisterAction a, Expr inLo, Expr inHi) {
        if (!a.array().direct()) {
            throw new IllegalArgumentException("register " + a.array().name() + " is indirect: run its action at an index");
        }
        stmts.add(new Stmt.Execute(a, Ir.constant(0), inLo, inHi));
        return this;
    }

    /** Counts the packet in cell {@code index} of an indirect counter. */
    public Block count(Counter c, Expr index) {
        return count(c, index, Ir.constant(0));
    }

    /** Counts the packet in cell {@code index}, {@code adjust} bytes fewer (TNA's adjust_byte_count). */
    public Block count(Counter c, Expr index, Expr adjust) {
        if (c.direct()) {
            throw new IllegalArgumentException("counter " + c.name() + " is direct on table " + c.table().name()
                    + ": its cell is the entry that hit, not an index");
        }
        stmts.add(new Stmt.Count(c, index, adjust));
        return this;
    }

    /** Counts the packet in a direct counter's cell of the entry that hit (inside an action of its table). */
    public Block count(Counter c) {
        if (!c.direct()) {
            throw new IllegalArgumentException("counter " + c.name() + " is indirect: count it at an index");
        }
        stmts.add(new Stmt.Count(c, Ir.constant(0), Ir.constant(0)));
        return this;
    }

    /** Counts the packet in a direct counter's cell of the entry that hit, {@code adjust} bytes fewer. */
    public Block countDirect(Counter c, Expr adjust) {
        if (!c.direct()) {
            throw new IllegalArgumentException("counter " + c.name() + " is indirect: count it at an index");
        }
        stmts.add(new Stmt.Count(c, Ir.constant(0), adjust));
        return this;
    }

    /** Runs an indirect meter on cell {@code index} with pre-colour {@code color}, {@code adjust} bytes fewer. */
    public Block meter(Meter m, Expr index, Expr color, Expr adjust) {
        if (m.direct()) {
            throw new IllegalArgumentException("meter " + m.name() + " is direct on table " + m.table().name()
                    + ": its cell is the entry that hit, not an index");
        }
        stmts.add(new Stmt.ExecuteMeter(m, index, color, adjust));
        return this;
    }

    /** Runs a direct meter on the entry that hit with pre-colour {@code color}, {@code adjust} bytes fewer. */
    public Block meterDirect(Meter m, Expr color, Expr adjust) {
        if (!m.direct()) {
            throw new IllegalArgumentException("meter " + m.name() + " is indirect: run it at an index");
        }
        stmts.add(new Stmt.ExecuteMeter(m, Ir.constant(0), color, adjust));
        return this;
    }

    /** Runs an indirect meter colour-blind on cell {@code index}; its colour is {@link Ir#color}. */
    public Block meter(Meter m, Expr index) {
        return meter(m, index, Ir.constant(MeterColor.GREEN));
    }

    /** Runs an indirect meter colour-aware: {@code color} is the packet's pre-colour. */
    public Block meter(Meter m, Expr index, Expr color) {
        if (m.direct()) {
            throw new IllegalArgumentException("meter " + m.name() + " is direct on table " + m.table().name()
                    + ": its cell is the entry that hit, not an index");
        }
        stmts.add(new Stmt.ExecuteMeter(m, index, color, Ir.constant(0)));
        return this;
    }

    /** Runs a direct meter colour-blind on the entry that hit (inside an action of its table). */
    public Block meter(Meter m) {
        return meterAware(m, Ir.constant(MeterColor.GREEN));
    }

    /** Runs a direct meter colour-aware on the entry that hit. */
    public Block meterAware(Meter m, Expr color) {
        if (!m.direct()) {
            throw new IllegalArgumentException("meter " + m.name() + " is indirect: run it at an index");
        }
        stmts.add(new Stmt.ExecuteMeter(m, Ir.constant(0), color, Ir.constant(0)));
        return this;
    }

    /**
     * Runs an indirect LPF ({@code Lpf.execute(val, index)}) or WRED ({@code Wred.execute(val,
     * index)}) on cell {@code index} with sample {@code value}; its output (the filtered value, or
     * the WRED's drop or no-drop value) is {@link Ir#filterOutput}. The value rides where a
     * meter's pre-colour does: the meter ALU's input.
     */
    public Block filter(Meter m, Expr value, Expr index) {
        requireFilter(m);
        if (m.direct()) {
            throw new IllegalArgumentException(m.kind() + " " + m.name() + " is direct on table " + m.table().name()
                    + ": its cell is the entry that hit, not an index");
        }
        stmts.add(new Stmt.ExecuteMeter(m, index, value, Ir.constant(0)));
        return this;
    }

    /** Runs a direct LPF or WRED ({@code execute(val)}) on the entry that hit, inside an action of its table. */
    public Block filterDirect(Meter m, Expr value) {
        requireFilter(m);
        if (!m.direct()) {
            throw new IllegalArgumentException(m.kind() + " " + m.name() + " is indirect: run it at an index");
        }
        stmts.add(new Stmt.ExecuteMeter(m, Ir.constant(0), value, Ir.constant(0)));
        return this;
    }

    private static void requireFilter(Meter m) {
        if (!m.filtersValue()) {
            throw new IllegalArgumentException("meter " + m.name() + " marks colours: run it with meter(...)");
        }
    }

    /** A gateway with only a true branch. */
    public Block when(Condition c, Consumer<Block> then) {
        return when(c, then, b -> { });
    }

    public Block when(Condition c, Consumer<Block> then, Consumer<Block> otherwise) {
        stmts.add(new Stmt.If(c, of(then), of(otherwise)));
        return this;
    }

    /** Applies a table; add its action blocks on the returned object. */
    public TableApply apply(MatchTable t) {
        TableApply a = new TableApply(t);
        stmts.add(a);
        return a;
    }

    public List<Stmt> statements() {
        List<Stmt> out = new ArrayList<>(stmts.size());
        for (Object s : stmts) {
            out.add(s instanceof TableApply t ? t.toStmt() : (Stmt) s);
        }
        return List.copyOf(out);
    }

    static List<Stmt> of(Consumer<Block> code) {
        Block b = new Block();
        code.accept(b);
        return b.statements();
    }

    /** The action blocks of one table application. */
    public static final class TableApply {
        private final MatchTable table;
        private final TreeMap<Integer, List<Stmt>> actions = new TreeMap<>();
        private List<Stmt> miss = List.of();

        private TableApply(MatchTable table) {
            this.table = table;
        }

        /** What an entry with action id {@code actionId} does on a hit. */
        public TableApply on(int actionId, Consumer<Block> code) {
            if (actions.containsKey(actionId)) {
                throw new IllegalArgumentException("table " + table.name() + ": action " + actionId + " given twice");
            }
            if (table.actions().declared() && table.actions().byId(actionId) == null) {
                throw new IllegalArgumentException("table " + table.name() + ": action id " + actionId + " is not one of its declared actions");
            }
            actions.put(actionId, of(code));
            return this;
        }

        /** What a miss does (the default action). */
        public TableApply miss(Consumer<Block> code) {
            miss = of(code);
            return this;
        }

        Stmt toStmt() {
            return new Stmt.Apply(table, actions, miss);
        }
    }
}
