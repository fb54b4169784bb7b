package dev.rmtemu.model.compiler;

import dev.rmtemu.model.extern.Meter;
import dev.rmtemu.model.hash.HashUnit;
import dev.rmtemu.model.ir.Expr;
import dev.rmtemu.model.ir.Stmt;
import dev.rmtemu.model.phv.Field;
import dev.rmtemu.model.phv.Gress;
import dev.rmtemu.model.program.ControlDecl;
import dev.rmtemu.model.program.StageProgram;
import dev.rmtemu.model.register.RegisterAction;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;

/**
 * A control's apply body split into placement units, in program order: each gateway and
 * table application is one, a table's own action code goes with it, and each maximal run of
 * instructions and register actions in one block is one (split where a statement reads or
 * writes again a field the run already wrote: program order makes it see the new value).
 * Placement cuts a run that no stage can hold into {@link #pieces}.
 */
final class ControlUnits {
    private final List<PlacementUnit> units;
    /** The program, for the fields an indirect table's action selector hashes (read where the table matches). */
    private final StageProgram program;

    private ControlUnits(List<PlacementUnit> units, StageProgram program) {
        this.units = units;
        this.program = program;
    }

    /** Appends the units of {@code c}'s body to {@code units} (their order continues the list's). */
    static void split(ControlDecl c, List<PlacementUnit> units, StageProgram program) {
        new ControlUnits(units, program).walk(c.gress(), c.body(), null, List.of());
    }

    private void walk(Gress g, List<Stmt> block, PlacementUnit parent, List<PlacementUnit.Choice> path) {
        List<Stmt> run = new ArrayList<>();
        for (Stmt s : block) {
            Stmt.If i = IrWalk.gateway(s);
            Stmt.Apply a = IrWalk.application(s);
            if (i == null && a == null) {
                if (readsOrRewrites(run, s)) {
                    // program order: a statement that reads or writes again what the run wrote sees
                    // the new value, so it is an action of its own, after the run (a PHV write is
                    // visible from the next stage)
                    flush(g, run, parent, path);
                    run = new ArrayList<>();
                }
                run.add(s);
                continue;
            }
            flush(g, run, parent, path);
            run = new ArrayList<>();
            PlacementUnit u = new PlacementUnit(units.size(), g, i != null ? PlacementUnit.Kind.GATEWAY : PlacementUnit.Kind.TABLE, s, List.of(), parent, path);
            units.add(u);
            if (i != null) {
                u.name = "if (" + i.condition() + ")";
                for (Expr side : List.of(i.condition().left(), i.condition().right())) {
                    collect(u, side, true);
                }
            } else {
                u.name = a.table().name();
                u.matchReads.addAll(a.table().key());
                u.matchReads.addAll(program.selectorKey(a.table().name()));
            }
            List<List<Stmt>> branches = s.branches();
            for (int b = 0; b < branches.size(); b++) {
                List<PlacementUnit.Choice> deeper = new ArrayList<>(path);
                deeper.add(new PlacementUnit.Choice(s, b));
                if (a != null) {
                    // a table's own action code runs with the table; what it applies is controlled by it
                    List<Stmt> nested = new ArrayList<>();
                    for (Stmt x : branches.get(b)) {
                        if (IrWalk.gateway(x) == null && IrWalk.application(x) == null) {
                            actionCode(u, x);
                        } else {
                            nested.add(x);
                        }
                    }
                    walk(g, nested, u, List.copyOf(deeper));
                } else {
                    walk(g, branches.get(b), u, List.copyOf(deeper));
                }
            }
        }
        flush(g, run, parent, path);
    }

    /** True when {@code s} reads a field a statement of {@code run} writes, or writes one again. */
    private static boolean readsOrRewrites(List<Stmt> run, Stmt s) {
        if (run.isEmpty()) {
            return false;
        }
        PlacementUnit before = new PlacementUnit(-1, null, PlacementUnit.Kind.ACTION, null, List.of(), null, List.of());
        run.forEach(x -> actionCode(before, x));
        PlacementUnit next = new PlacementUnit(-1, null, PlacementUnit.Kind.ACTION, null, List.of(), null, List.of());
        actionCode(next, s);
        return PlacementUnit.first(before.writes, next.reads()) != null || PlacementUnit.first(before.writes, next.writes) != null;
    }

    private void flush(Gress g, List<Stmt> run, PlacementUnit parent, List<PlacementUnit.Choice> path) {
        if (!run.isEmpty()) {
            units.add(action(units.size(), g, run, parent, path));
        }
    }

    /** The action unit of {@code run} (statements of one block, in program order), named by its first extern or its writes. */
    static PlacementUnit action(int order, Gress g, List<Stmt> run, PlacementUnit parent, List<PlacementUnit.Choice> path) {
        PlacementUnit u = new PlacementUnit(order, g, PlacementUnit.Kind.ACTION, null, List.copyOf(run), parent, path);
        List<String> sets = new ArrayList<>();
        String first = null;
        for (Stmt s : run) {
            actionCode(u, s);
            Stmt.Assign as = IrWalk.assignment(s);
            Stmt.Execute ex = IrWalk.execution(s);
            if (as != null) {
                sets.add(as.dest().name());
            } else if (first == null) {
                first = ex != null ? ex.action().array().name() + "." + ex.action().name() : externName(s);
            }
        }
        u.name = first != null ? first : "set(" + String.join(", ", sets) + ")";
        return u;
    }

    /**
     * An action run cut where it may go to different stages: contiguous pieces in program order,
     * none cut between two statements that use one register array, register action (its run and
     * its output), hash unit, counter or meter, since each of those lives in one stage. A run
     * holds no read or rewrite of what it writes ({@link #readsOrRewrites}), so a later piece
     * never reads what an earlier one writes; an earlier piece that reads what a later one
     * writes keeps a reverse dependency on it (same stage or later), so every statement still
     * reads the values the run started with.
     */
    static List<List<Stmt>> pieces(List<Stmt> run) {
        List<Set<Object>> uses = new ArrayList<>();
        for (Stmt s : run) {
            PlacementUnit one = new PlacementUnit(-1, null, PlacementUnit.Kind.ACTION, null, List.of(), null, List.of());
            actionCode(one, s);
            Set<Object> mine = Collections.newSetFromMap(new IdentityHashMap<>());
            mine.addAll(one.arrays);
            mine.addAll(one.runs);
            mine.addAll(one.outputsRead);
            mine.addAll(one.hashes);
            mine.addAll(one.counters);
            mine.addAll(one.meters);
            mine.addAll(one.coloursRead);
            uses.add(mine);
        }
        // reach: the last statement that shares something with one of the current piece; the
        // piece ends at a statement that is its own reach
        List<List<Stmt>> out = new ArrayList<>();
        int start = 0;
        int reach = 0;
        for (int i = 0; i < run.size(); i++) {
            for (int j = run.size() - 1; j > reach; j--) {
                if (!Collections.disjoint(uses.get(i), uses.get(j))) {
                    reach = j;
                    break;
                }
            }
            reach = Math.max(reach, i);
            if (reach == i) {
                out.add(List.copyOf(run.subList(start, i + 1)));
                start = i + 1;
            }
        }
        return out;
    }

    /** The counter a count statement counts or the meter a meter statement runs, by name. */
    private static String externName(Stmt s) {
        Stmt.Count c = IrWalk.counting(s);
        return c != null ? c.counter().name() + ".count" : IrWalk.metering(s).meter().name() + ".execute";
    }

    /** Adds an instruction, register action, count or meter (of an action run or a table's action) to a unit. */
    private static void actionCode(PlacementUnit u, Stmt s) {
        Stmt.Assign as = IrWalk.assignment(s);
        if (as != null) {
            u.writes.add(as.dest());
            collect(u, as.value(), false);
            return;
        }
        Stmt.Count count = IrWalk.counting(s);
        if (count != null) {
            u.counters.add(count.counter());
            // a stats address comes over the input crossbar (hash distribution), the byte adjustment from the PHV
            collect(u, count.index(), true);
            collect(u, count.adjust(), false);
            return;
        }
        Stmt.ExecuteMeter meter = IrWalk.metering(s);
        if (meter != null) {
            u.meters.add(meter.meter());
            collect(u, meter.index(), true);
            collect(u, meter.color(), true);
            collect(u, meter.adjust(), false);
            return;
        }
        Stmt.Execute ex = IrWalk.execution(s);
        u.runs.add(ex.action());
        u.arrays.add(ex.action().array());
        // a stateful ALU's index and inputs come over the input crossbar: a match read (IXBAR_READ)
        for (Expr e : List.of(ex.index(), ex.inLo(), ex.inHi())) {
            collect(u, e, true);
        }
    }

    /** Records what an expression reads: fields (at the crossbar or the PHV ALU), hash units, outputs, action data. */
    private static void collect(PlacementUnit u, Expr e, boolean crossbar) {
        IrWalk.forEachExpr(e, x -> {
            Field f = IrWalk.fieldRead(x);
            HashUnit h = IrWalk.hashOutput(x);
            RegisterAction r = IrWalk.registerOutput(x);
            Expr.ActionData d = IrWalk.actionDataRead(x);
            Meter m = IrWalk.meterOutput(x);
            if (m != null) {
                u.coloursRead.add(m);
            }
            if (f != null) {
                (crossbar ? u.matchReads : u.actionReads).add(f);
            } else if (h != null) {
                u.hashes.add(h);
                u.matchReads.addAll(h.inputs()); // a hash is computed from crossbar bytes
            } else if (r != null) {
                u.outputsRead.add(r);
            } else if (d != null) {
                u.actionDataRead.add(d.table());
            }
        });
    }
}
