package dev.rmtemu.model.compiler;

import dev.rmtemu.model.extern.Counter;
import dev.rmtemu.model.extern.Meter;
import dev.rmtemu.model.hash.HashUnit;
import dev.rmtemu.model.ir.IrInterpreter;
import dev.rmtemu.model.ir.Stmt;
import dev.rmtemu.model.phv.Gress;
import dev.rmtemu.model.program.ControlDecl;
import dev.rmtemu.model.program.ElementPlacement;
import dev.rmtemu.model.program.StageDecl;
import dev.rmtemu.model.program.StageDependency;
import dev.rmtemu.model.program.StageProgram;
import dev.rmtemu.model.register.RegisterAction;
import dev.rmtemu.model.register.RegisterArray;
import dev.rmtemu.model.table.MatchTable;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Placed units as stages: each stage's hash units, register arrays and actions, tables and
 * code, the code being the control's body cut down to what runs in that stage (a gateway
 * repeated in each later stage its branches reach), on elements made anew with their stage.
 */
final class PlacedStages {
    private final StageProgram program;
    private final Map<Gress, ControlDecl> controls;
    /** The unit each statement belongs to (a table's action code: none, it goes with the table). */
    private final Map<Stmt, PlacementUnit> byStmt = new IdentityHashMap<>();

    PlacedStages(StageProgram program, Map<Gress, ControlDecl> controls, List<PlacementUnit> units) {
        this.program = program;
        this.controls = controls;
        units.forEach(this::bind);
    }

    /** Makes {@code u} the unit of its statements (a piece of a split run takes over its statements). */
    void bind(PlacementUnit u) {
        if (u.stmt != null) {
            byStmt.put(u.stmt, u);
        }
        for (Stmt x : u.group) {
            byStmt.put(x, u);
        }
    }


    /** The program with {@code placed} units in their stages; {@code complete} also records the reasons. */
    StageProgram build(List<PlacementUnit> placed, boolean complete) {
        Map<Object, Object> remap = new IdentityHashMap<>();
        Map<PlacementUnit, Boolean> in = new IdentityHashMap<>();
        placed.forEach(u -> in.put(u, true));
        Map<Gress, Map<Integer, StageParts>> parts = new EnumMap<>(Gress.class);
        List<RegisterArray> registers = new ArrayList<>(program.registers());
        List<MatchTable> tables = new ArrayList<>(program.tables());
        List<HashUnit> hashes = new ArrayList<>(program.hashes());
        List<Counter> counters = new ArrayList<>(program.counters());
        List<Meter> meters = new ArrayList<>(program.meters());
        for (PlacementUnit u : placed) {
            StageParts sp = parts.computeIfAbsent(u.gress, g -> new TreeMap<>())
                    .computeIfAbsent(u.stage, n -> new StageParts());
            for (HashUnit h : u.hashes) {
                if (!remap.containsKey(h)) {
                    HashUnit c = h.inStage(u.stage);
                    remap.put(h, c);
                    hashes.set(h.id(), c);
                    sp.hashes.add(c);
                }
            }
            for (RegisterArray r : u.arrays) {
                if (!remap.containsKey(r) && !r.direct()) {
                    RegisterArray c = r.placed(u.stage, null);
                    remap.put(r, c);
                    registers.set(r.id(), c);
                    sp.registers.add(c);
                }
            }
            for (RegisterAction a : u.runs) {
                if (!remap.containsKey(a) && !a.array().direct()) {
                    RegisterAction c = a.on((RegisterArray) remap.get(a.array()));
                    remap.put(a, c);
                    sp.actions.add(c);
                }
            }
            MatchTable t = u.table();
            if (t != null) {
                MatchTable c = new MatchTable(t.id(), t.name(), t.kind(), t.key(), t.size(), t.actionDataBits(), t.gress(),
                        u.stage, t.constEntries(), t.actions(), t.options(), t.fieldKinds());
                remap.put(t, c);
                tables.set(t.id(), c);
                sp.tables.add(c);
            }
            // after the table: a direct register array, counter or meter belongs to its table's placed twin
            for (RegisterArray r : u.arrays) {
                if (!remap.containsKey(r) && r.direct()) {
                    RegisterArray c = r.placed(u.stage, (MatchTable) remap.get(r.table()));
                    remap.put(r, c);
                    registers.set(r.id(), c);
                    sp.registers.add(c);
                }
            }
            for (RegisterAction a : u.runs) {
                if (!remap.containsKey(a) && a.array().direct()) {
                    RegisterAction c = a.on((RegisterArray) remap.get(a.array()));
                    remap.put(a, c);
                    sp.actions.add(c);
                }
            }
            for (Counter x : u.counters) {
                if (!remap.containsKey(x)) {
                    Counter c = new Counter(x.id(), x.name(), x.type(), x.widthBits(), x.size(), x.gress(), u.stage,
                            x.direct() ? (MatchTable) remap.get(x.table()) : null);
                    remap.put(x, c);
                    counters.set(x.id(), c);
                    sp.counters.add(c);
                }
            }
            for (Meter x : u.meters) {
                if (!remap.containsKey(x)) {
                    Meter c = x.placed(u.stage, x.direct() ? (MatchTable) remap.get(x.table()) : null);
                    remap.put(x, c);
                    meters.set(x.id(), c);
                    sp.meters.add(c);
                }
            }
        }
        IrRemap ir = new IrRemap(remap);
        Map<Gress, List<StageDecl>> stages = new EnumMap<>(Gress.class);
        for (Map.Entry<Gress, Map<Integer, StageParts>> e : parts.entrySet()) {
            Gress g = e.getKey();
            List<StageDecl> decls = new ArrayList<>();
            for (Map.Entry<Integer, StageParts> s : e.getValue().entrySet()) {
                int n = s.getKey();
                StageParts sp = s.getValue();
                List<Stmt> body = project(controls.get(g).body(), n, in, ir);
                decls.add(new StageDecl(g, n, dependency(g, n, placed), sp.hashes, sp.registers, sp.actions, sp.tables,
                        new IrInterpreter(g, n, sp.actions, sp.tables, sp.meters, body), body, sp.counters, sp.meters));
            }
            stages.put(g, decls);
        }
        List<ElementPlacement> why = new ArrayList<>();
        if (complete) {
            for (PlacementUnit u : placed) {
                PlacementUnit.Why w = u.why;
                why.add(new ElementPlacement(u.gress, u.kind.label, u.name, u.stage, w.cause(), w.on() == null ? "" : w.on().name,
                        w.field(), w.minStage(), u.pushedBy));
            }
        }
        return program.placed(stages, registers, tables, hashes, counters, meters, why);
    }

    private static final class StageParts {
        final List<HashUnit> hashes = new ArrayList<>();
        final List<RegisterArray> registers = new ArrayList<>();
        final List<RegisterAction> actions = new ArrayList<>();
        final List<MatchTable> tables = new ArrayList<>();
        final List<Counter> counters = new ArrayList<>();
        final List<Meter> meters = new ArrayList<>();
    }

    /**
     * How stage {@code n} waits for stage n-1 (its latency): a match dependency of one of its
     * elements on one there, else an action (or output) dependency, else none (concurrent), as
     * p4c labels a stage from {@code DependencyGraph::find_mau_dependency}. Stage 0 follows the parser.
     */
    private StageDependency dependency(Gress g, int n, List<PlacementUnit> placed) {
        if (n == 0) {
            return StageDependency.MATCH;
        }
        StageDependency d = StageDependency.CONCURRENT;
        for (PlacementUnit b : placed) {
            if (b.gress != g || b.stage != n) {
                continue;
            }
            for (PlacementUnit a : placed) {
                if (a.gress != g || a.stage != n - 1 || a.order >= b.order) {
                    continue;
                }
                PlacementUnit.Why w = PlacementUnit.dependency(a, b);
                if (w == null) {
                    continue;
                }
                if (w.cause().equals(PlacementUnit.MATCH)) {
                    return StageDependency.MATCH;
                }
                if (w.cause().equals(PlacementUnit.ACTION) || w.cause().equals(PlacementUnit.OUTPUT)) {
                    d = StageDependency.ACTION;
                }
            }
        }
        return d;
    }

    /** The statements of {@code block} that run in stage {@code n}, gateways repeated where their branches reach it. */
    private List<Stmt> project(List<Stmt> block, int n, Map<PlacementUnit, Boolean> in, IrRemap ir) {
        List<Stmt> out = new ArrayList<>();
        for (Stmt s : block) {
            PlacementUnit u = byStmt.get(s);
            if (u == null || in.get(u) == null) {
                continue; // a statement of a unit not placed (yet)
            }
            if (u.kind == PlacementUnit.Kind.ACTION) {
                if (u.stage == n && u.group.get(0) == s) {
                    u.group.forEach(x -> out.add(ir.stmt(x)));
                }
            } else if (u.kind == PlacementUnit.Kind.GATEWAY) {
                Stmt.If i = IrWalk.gateway(s);
                List<Stmt> then = project(i.then(), n, in, ir);
                List<Stmt> otherwise = project(i.otherwise(), n, in, ir);
                if (u.stage == n || u.stage < n && (!then.isEmpty() || !otherwise.isEmpty())) {
                    out.add(new Stmt.If(ir.condition(i.condition()), then, otherwise));
                }
            } else if (u.stage == n) {
                Stmt.Apply a = IrWalk.application(s);
                TreeMap<Integer, List<Stmt>> actions = new TreeMap<>();
                for (Map.Entry<Integer, List<Stmt>> e : a.actions().entrySet()) {
                    actions.put(e.getKey(), tableBranch(e.getValue(), n, in, ir));
                }
                out.add(new Stmt.Apply((MatchTable) ir.map(a.table()), actions, tableBranch(a.miss(), n, in, ir)));
            }
        }
        return out;
    }

    private List<Stmt> tableBranch(List<Stmt> block, int n, Map<PlacementUnit, Boolean> in, IrRemap ir) {
        List<Stmt> out = new ArrayList<>();
        for (Stmt x : block) {
            if (IrWalk.gateway(x) == null && IrWalk.application(x) == null) {
                out.add(ir.stmt(x));
            } else {
                out.addAll(project(List.of(x), n, in, ir));
            }
        }
        return out;
    }
}
