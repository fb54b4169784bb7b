package dev.rmtemu.model.compiler;

import dev.rmtemu.model.ir.VliwOp;
import dev.rmtemu.model.ir.Expr;
import dev.rmtemu.model.ir.Stmt;
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
                IrWalk.forEachExpr(e, x -> value(d, x, tables, out));
            }
            if (s instanceof Stmt.Assign a) {
                Field f = a.dest();
                if (!f.visibleIn(g)) {
                    out.add(g, n, "field " + f.name(), "written in " + g.label() + " but belongs to " + f.gress().label());
                }
                if (a.value() instanceof Expr.Const c && Long.compareUnsigned(c.value(), f.mask()) > 0) {
                    out.add(g, n, "field " + f.name(), "constant " + Long.toUnsignedString(c.value())
                            + " does not fit its " + f.width() + " bits");
                }
            } else if (s instanceof Stmt.Execute e) {
                RegisterArray r = e.action().array();
                long max = ValueRange.max(e.index());
                if (Long.compareUnsigned(max, r.size() - 1L) > 0) {
                    out.add(g, n, "register array " + r.name(), "index " + e.index() + " can reach "
                            + Long.toUnsignedString(max) + " but the array has " + r.size()
                            + " cells (use a power-of-two size, or fold the index onto the size)");
                }
            } else if (s instanceof Stmt.If i) {
                walk(d, i.then(), tables, out);
                walk(d, i.otherwise(), tables, out);
            } else if (s instanceof Stmt.Apply a) {
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
            }
        }
    }

    private void value(StageDecl d, Expr x, Deque<MatchTable> tables, Refusals out) {
        Gress g = d.gress();
        int n = d.number();
        if (x instanceof Expr.Read r && !r.field().visibleIn(g)) {
            out.add(g, n, "field " + r.field().name(), "read in " + g.label() + " but belongs to " + r.field().gress().label());
        } else if (x instanceof Expr.HashOut h && (h.unit().stage() != n || h.unit().gress() != g)) {
            out.add(g, n, "hash unit " + h.unit().name(), "read here but placed in " + h.unit().gress().label()
                    + " stage " + h.unit().stage() + " (a hash output is used in its own stage)");
        } else if (x instanceof Expr.ActionData a && !tables.contains(a.table())) {
            out.add(g, n, "table " + a.table().name(), "action data read outside the table's actions");
        } else if (x instanceof Expr.Binary b && (b.op() == VliwOp.SHL || b.op() == VliwOp.SHR)
                && b.right() instanceof Expr.Const c && Long.compareUnsigned(c.value(), 63) > 0) {
            out.add(g, n, "expression " + b, "shift by " + Long.toUnsignedString(c.value()) + " is not below the 64-bit word");
        }
    }
}
