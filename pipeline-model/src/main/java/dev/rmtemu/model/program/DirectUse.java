package dev.rmtemu.model.program;

import dev.rmtemu.model.ir.Stmt;
import dev.rmtemu.model.table.MatchTable;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;

/**
 * A direct register, counter or meter is addressed by the entry that hit (bf-p4c addresses a direct
 * attached table from the match entry's overhead), or on a miss by the logical table's miss
 * address (the miss cell, {@link dev.rmtemu.model.extern.Counter#cells()}), so it may only
 * count or run inside an action of its own table: a hit action or the miss (default) block,
 * never outside the table.
 */
final class DirectUse {
    private DirectUse() {
    }

    static void check(List<Stmt> body, String where) {
        walk(body, new ArrayDeque<>(), where);
    }

    private static void walk(List<Stmt> block, Deque<MatchTable> hitOf, String where) {
        for (Stmt s : block) {
            s.accept(new Stmt.Visitor<Void>() {
                @Override
                public Void assign(Stmt.Assign a) {
                    return null;
                }

                @Override
                public Void execute(Stmt.Execute e) {
                    require(e.action().array().table(), "direct register " + e.action().array().name());
                    return null;
                }

                @Override
                public Void gateway(Stmt.If i) {
                    walk(i.then(), hitOf, where);
                    walk(i.otherwise(), hitOf, where);
                    return null;
                }

                @Override
                public Void apply(Stmt.Apply a) {
                    for (Map.Entry<Integer, List<Stmt>> e : a.actions().entrySet()) {
                        hitOf.push(a.table());
                        walk(e.getValue(), hitOf, where);
                        hitOf.pop();
                    }
                    hitOf.push(a.table());
                    walk(a.miss(), hitOf, where);
                    hitOf.pop();
                    return null;
                }

                @Override
                public Void count(Stmt.Count c) {
                    require(c.counter().table(), "direct counter " + c.counter().name());
                    return null;
                }

                @Override
                public Void meter(Stmt.ExecuteMeter m) {
                    require(m.meter().table(), "direct meter " + m.meter().name());
                    return null;
                }

                private void require(MatchTable t, String what) {
                    if (t != null && !hitOf.contains(t)) {
                        throw new IllegalArgumentException(where + ": " + what + " is used outside an action of table "
                                + t.name() + " (a direct cell is the entry that hit, or the miss entry's)");
                    }
                }
            });
        }
    }
}
