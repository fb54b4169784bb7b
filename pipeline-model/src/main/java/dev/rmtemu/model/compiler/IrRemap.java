package dev.rmtemu.model.compiler;

import dev.rmtemu.model.ir.Condition;
import dev.rmtemu.model.ir.Expr;
import dev.rmtemu.model.ir.Stmt;
import dev.rmtemu.model.extern.Counter;
import dev.rmtemu.model.extern.Meter;
import dev.rmtemu.model.hash.HashUnit;
import dev.rmtemu.model.register.RegisterAction;
import dev.rmtemu.model.table.MatchTable;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Rewrites IR onto placed elements: every table, hash unit, register action, counter and meter
 * a statement names is replaced by its placed twin (same name, a stage); fields stay as they are.
 */
final class IrRemap {
    private final Map<Object, Object> twins;

    IrRemap(Map<Object, Object> twins) {
        this.twins = twins;
    }

    Object map(Object element) {
        Object twin = twins.get(element);
        if (twin == null) {
            throw new IllegalStateException("no placed twin for " + element);
        }
        return twin;
    }

    Condition condition(Condition c) {
        return new Condition(expr(c.left()), c.op(), expr(c.right()));
    }

    List<Stmt> block(List<Stmt> b) {
        List<Stmt> out = new ArrayList<>(b.size());
        b.forEach(s -> out.add(stmt(s)));
        return out;
    }

    Stmt stmt(Stmt s) {
        return s.accept(stmts);
    }

    Expr expr(Expr e) {
        return e.accept(exprs);
    }

    private final Stmt.Visitor<Stmt> stmts = new Stmt.Visitor<>() {
        @Override
        public Stmt assign(Stmt.Assign s) {
            return new Stmt.Assign(s.dest(), expr(s.value()));
        }

        @Override
        public Stmt execute(Stmt.Execute s) {
            return new Stmt.Execute((RegisterAction) map(s.action()), expr(s.index()),
                    expr(s.inLo()), expr(s.inHi()));
        }

        @Override
        public Stmt gateway(Stmt.If s) {
            return new Stmt.If(condition(s.condition()), block(s.then()), block(s.otherwise()));
        }

        @Override
        public Stmt apply(Stmt.Apply s) {
            TreeMap<Integer, List<Stmt>> actions = new TreeMap<>();
            s.actions().forEach((id, b) -> actions.put(id, block(b)));
            return new Stmt.Apply((MatchTable) map(s.table()), actions, block(s.miss()));
        }

        @Override
        public Stmt count(Stmt.Count s) {
            return new Stmt.Count((Counter) map(s.counter()), expr(s.index()), expr(s.adjust()));
        }

        @Override
        public Stmt meter(Stmt.ExecuteMeter s) {
            return new Stmt.ExecuteMeter((Meter) map(s.meter()), expr(s.index()), expr(s.color()), expr(s.adjust()));
        }
    };

    private final Expr.Visitor<Expr> exprs = new Expr.Visitor<>() {
        @Override
        public Expr read(Expr.Read e) {
            return e;
        }

        @Override
        public Expr constant(Expr.Const e) {
            return e;
        }

        @Override
        public Expr hashOut(Expr.HashOut e) {
            return new Expr.HashOut((HashUnit) map(e.unit()));
        }

        @Override
        public Expr regOut(Expr.RegOut e) {
            return new Expr.RegOut((RegisterAction) map(e.action()));
        }

        @Override
        public Expr actionData(Expr.ActionData e) {
            return new Expr.ActionData((MatchTable) map(e.table()));
        }

        @Override
        public Expr meterOut(Expr.MeterOut e) {
            return new Expr.MeterOut((Meter) map(e.meter()));
        }

        @Override
        public Expr binary(Expr.Binary e) {
            return new Expr.Binary(e.op(), expr(e.left()), expr(e.right()), e.width());
        }
    };
}
