package dev.rmtemu.model.compiler;

import dev.rmtemu.model.ir.Expr;
import dev.rmtemu.model.ir.Stmt;
import dev.rmtemu.model.ir.VliwOp;
import dev.rmtemu.model.phv.Field;
import dev.rmtemu.model.phv.Gress;
import dev.rmtemu.model.program.StageDecl;
import dev.rmtemu.model.register.RegisterArray;
import dev.rmtemu.model.table.MatchTable;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;

/**
 * Widths and types: every field read or written belongs to the gress; a
 * constant fits the field it is written to; a hash output is read in its own
 * stage; action data is read only inside its table's actions; a shift is by
 * less than a word; a register index cannot reach past the array.
 */
final class WidthsAndTypesPass implements CompilerPass {
    @Override
    public String name() {
        return "widths-and-types";
    }

    @Override
    public String rule() {
        return "fields of the gress, constants within the field's width, hash outputs in their stage, "
                + "action data inside its table's actions, register indexes within the array";
    }

    @Override
    public void run(PassInput in, Refusals out) {
        for (StageDecl d : IrStages.of(in.program())) {
            walk(d, d.body(), new ArrayDeque<>(), out);
        }
    }

    private void walk(StageDecl d, List<Stmt> block, Deque<MatchTable> tables, Refusals out) {
        Gress g = d.gress();
        int n = d.number();
        for (Stmt s : block) {
            for (Expr e : IrWalk.reads(s)) {
                IrWalk.visitAll(e, new Values(d, tables, out));
            }
            s.accept(new Stmt.Visitor<Void>() {
                @Override
                public Void count(Stmt.Count x) {
                    if (!x.counter().direct()) {
                        index("counter " + x.counter().name(), x.index(), x.counter().size());
                    }
                    return null;
                }

                @Override
                public Void meter(Stmt.ExecuteMeter x) {
                    if (!x.meter().direct()) {
                        index("meter " + x.meter().name(), x.index(), x.meter().size());
                    }
                    return null;
                }

                private void index(String what, Expr index, int size) {
                    long max = ValueRange.max(index);
                    if (Long.compareUnsigned(max, size - 1L) > 0) {
                        out.add(g, n, what, "index " + index + " can reach " + Long.toUnsignedString(max) + " but it has "
                                + size + " cells (use a power-of-two size, or fold the index onto the size)");
                    }
                }

                @Override
                public Void assign(Stmt.Assign a) {
                    Field f = a.dest();
                    if (!f.visibleIn(g)) {
                        out.add(g, n, "field " + f.name(), "written in " + g.label() + " but belongs to " + f.gress().label());
                    }
                    Long c = a.value().constantValue();
                    if (c != null && Long.compareUnsigned(c, f.mask()) > 0) {
                        out.add(g, n, "field " + f.name(), "constant " + Long.toUnsignedString(c)
                                + " does not fit its " + f.width() + " bits");
                    }
                    return null;
                }

                @Override
                public Void execute(Stmt.Execute e) {
                    RegisterArray r = e.action().array();
                    long max = ValueRange.max(e.index());
                    if (Long.compareUnsigned(max, r.size() - 1L) > 0) {
                        out.add(g, n, "register array " + r.name(), "index " + e.index() + " can reach "
                                + Long.toUnsignedString(max) + " but the array has " + r.size()
                                + " cells (use a power-of-two size, or fold the index onto the size)");
                    }
                    return null;
                }

                @Override
                public Void gateway(Stmt.If i) {
                    walk(d, i.then(), tables, out);
                    walk(d, i.otherwise(), tables, out);
                    return null;
                }

                @Override
                public Void apply(Stmt.Apply a) {
                    for (Field f : a.table().key()) {
                        if (!f.visibleIn(g)) {
                            out.add(g, n, "table " + a.table().name(), "key field " + f.name() + " belongs to " + f.gress().label());
                        }
                    }
                    tables.push(a.table());
                    for (List<Stmt> b : a.actions().values()) {
                        walk(d, b, tables, out);
                    }
                    tables.pop();
                    walk(d, a.miss(), tables, out);
                    return null;
                }
            });
        }
    }

    /** The rules on each value a statement reads. */
    private static final class Values implements Expr.Visitor<Void> {
        @Override
        public Void meterOut(Expr.MeterOut x) {
            return null;
        }

        private final StageDecl d;
        private final Deque<MatchTable> tables;
        private final Refusals out;

        Values(StageDecl d, Deque<MatchTable> tables, Refusals out) {
            this.d = d;
            this.tables = tables;
            this.out = out;
        }

        @Override
        public Void read(Expr.Read r) {
            Gress g = d.gress();
            if (!r.field().visibleIn(g)) {
                out.add(g, d.number(), "field " + r.field().name(), "read in " + g.label() + " but belongs to "
                        + r.field().gress().label());
            }
            return null;
        }

        @Override
        public Void constant(Expr.Const c) {
            return null;
        }

        @Override
        public Void hashOut(Expr.HashOut h) {
            if (h.unit().stage() != d.number() || h.unit().gress() != d.gress()) {
                out.add(d.gress(), d.number(), "hash unit " + h.unit().name(), "read here but placed in "
                        + h.unit().gress().label() + " stage " + h.unit().stage() + " (a hash output is used in its own stage)");
            }
            return null;
        }

        @Override
        public Void regOut(Expr.RegOut r) {
            return null;
        }

        @Override
        public Void actionData(Expr.ActionData a) {
            if (!tables.contains(a.table())) {
                out.add(d.gress(), d.number(), "table " + a.table().name(), "action data read outside the table's actions");
            }
            return null;
        }

        @Override
        public Void binary(Expr.Binary b) {
            Long c = b.right().constantValue();
            if ((b.op() == VliwOp.SHL || b.op() == VliwOp.SHR || b.op() == VliwOp.SHRS) && c != null && Long.compareUnsigned(c, 63) > 0) {
                out.add(d.gress(), d.number(), "expression " + b, "shift by " + Long.toUnsignedString(c)
                        + " is not below the 64-bit word");
            }
            return null;
        }
    }
}
