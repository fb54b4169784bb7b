package dev.rmtemu.model.compiler;

import dev.rmtemu.model.UserError;
import dev.rmtemu.model.check.ResourceChecker;
import dev.rmtemu.model.check.ResourceReport;
import dev.rmtemu.model.hash.HashUnit;
import dev.rmtemu.model.ir.Expr;
import dev.rmtemu.model.ir.IrInterpreter;
import dev.rmtemu.model.ir.Stmt;
import dev.rmtemu.model.phv.Field;
import dev.rmtemu.model.phv.Gress;
import dev.rmtemu.model.program.ControlDecl;
import dev.rmtemu.model.program.ElementPlacement;
import dev.rmtemu.model.program.StageDecl;
import dev.rmtemu.model.program.StageDependency;
import dev.rmtemu.model.program.StageProgram;
import dev.rmtemu.model.register.RegisterAction;
import dev.rmtemu.model.register.RegisterArray;
import dev.rmtemu.model.table.MatchTable;
import dev.rmtemu.model.target.TargetProfile;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Table placement for a program whose gresses are controls (no stages named): builds the
 * table dependency graph of each control and puts every table, gateway and action (a run of
 * instructions and register actions, p4c's synthesized action table) in the earliest stage its
 * dependencies and the stage's resources allow, honouring {@code @stage(N)} pins.
 *
 * <p>The rules follow p4c's Tofino back end: dependency kinds are those of
 * {@code mau/table_dependency_graph.h} ({@code DependencyGraph::dependencies_t}), found as
 * {@code FindDataDependencyGraph} finds them (a field written by an earlier element and read
 * at the match input crossbar — keys, gateway conditions, hash and stateful-ALU inputs — is
 * IXBAR_READ, "match"; read by an instruction, ACTION_READ, "action"; written again, OUTPUT;
 * read earlier and written later, ANTI, "reverse"; an element under a gateway branch or a
 * table's result, CONTROL); their stage distances are those of
 * {@code FindDependencyGraph::finalize_dependence_graph} (match, action and output: the next
 * stage; control and reverse: the same stage or later); elements that can never both run on
 * one packet (different branches of one gateway or table, {@code mau/table_mutex.cpp}) have no
 * data dependency. Elements go in program order, each to its earliest legal stage and further
 * down while that stage's resources (the {@link StageResourcesPass} accounting) are full, as
 * {@code mau/table_placement.cpp} tries a table stage by stage; ties never depend on hash order.
 *
 * <p>rmtemu's IR has no next-table chain across stages, so a gateway whose branch holds
 * elements of later stages is evaluated again in each of those stages; that is refused when a
 * field its condition reads is written in between. Elements applied under a table's result run
 * in the table's stage.
 */
public final class TablePlacer {
    /** Dependency kinds, in the order a reason prefers them. */
    private static final String MATCH = "match";
    private static final String ACTION = "action";
    private static final String OUTPUT = "output";
    private static final String CONTROL = "control";
    private static final String REVERSE = "reverse";

    private final StageProgram program;
    private final TargetProfile target;
    private final List<Unit> units = new ArrayList<>();
    private final Map<Gress, ControlDecl> controls = new EnumMap<>(Gress.class);

    private TablePlacer(StageProgram program, TargetProfile target) {
        this.program = program;
        this.target = target;
    }

    /** {@code program} itself when it names its stages; placed for {@code target} otherwise. */
    public static StageProgram placeIfNeeded(StageProgram program, TargetProfile target) {
        return program.isPlaced() ? program : place(program, target);
    }

    /**
     * Places every control of {@code program} for {@code target}. A program that needs more
     * stages than the target has, or whose pins break a dependency, is refused ({@link UserError},
     * exit 3, one line naming the dependency chain or the pin).
     */
    public static StageProgram place(StageProgram program, TargetProfile target) {
        TablePlacer p = new TablePlacer(program, target);
        for (Gress g : Gress.values()) {
            ControlDecl c = program.control(g);
            if (c != null) {
                p.controls.put(g, c);
                p.decompose(c);
            }
        }
        for (Gress g : p.controls.keySet()) {
            p.checkUses(p.controls.get(g));
        }
        for (Unit u : p.units) {
            p.place(u);
        }
        p.checkLength();
        p.checkReplicatedGateways();
        return p.build(p.units, true);
    }

    // ---------------------------------------------------------------- the elements

    enum Kind {
        TABLE("table"), GATEWAY("gateway"), ACTION("action");

        final String label;

        Kind(String label) {
            this.label = label;
        }
    }

    /** One branch choice on the way to an element: the gateway or table and the branch taken. */
    private record Choice(Stmt at, int branch) {
    }

    /** What sets an element's earliest stage: a dependency on an earlier element, a pin, or nothing. */
    private record Why(String cause, Unit on, String field, int minStage) {
    }

    /** A placement unit: a table with its actions, a gateway, or a run of instructions and register actions. */
    private static final class Unit {
        final int order;
        final Gress gress;
        final Kind kind;
        final Stmt stmt;
        final List<Stmt> group;
        final Unit parent;
        final List<Choice> path;
        final Set<Field> matchReads = new LinkedHashSet<>();
        final Set<Field> actionReads = new LinkedHashSet<>();
        final Set<Field> writes = new LinkedHashSet<>();
        final Set<RegisterArray> arrays = new LinkedHashSet<>();
        final Set<HashUnit> hashes = new LinkedHashSet<>();
        final Set<RegisterAction> runs = new LinkedHashSet<>();
        final Set<RegisterAction> outputsRead = new LinkedHashSet<>();
        final Set<MatchTable> actionDataRead = new LinkedHashSet<>();
        String name;
        int stage = -1;
        Why why;
        String pushedBy = "";

        Unit(int order, Gress gress, Kind kind, Stmt stmt, List<Stmt> group, Unit parent, List<Choice> path) {
            this.order = order;
            this.gress = gress;
            this.kind = kind;
            this.stmt = stmt;
            this.group = group;
            this.parent = parent;
            this.path = path;
        }

        MatchTable table() {
            return kind == Kind.TABLE ? ((Stmt.Apply) stmt).table() : null;
        }

        /** True when no packet runs both: they part at one gateway or table into different branches. */
        boolean exclusiveWith(Unit o) {
            int n = Math.min(path.size(), o.path.size());
            for (int i = 0; i < n; i++) {
                Choice a = path.get(i);
                Choice b = o.path.get(i);
                if (a.at() != b.at()) {
                    return false;
                }
                if (a.branch() != b.branch()) {
                    return true;
                }
            }
            return false;
        }

        boolean under(Unit ancestor) {
            for (Unit p = parent; p != null; p = p.parent) {
                if (p == ancestor) {
                    return true;
                }
            }
            return false;
        }

        /** The nearest table this element is applied under, or null. */
        Unit tableAbove() {
            for (Unit p = parent; p != null; p = p.parent) {
                if (p.kind == Kind.TABLE) {
                    return p;
                }
            }
            return null;
        }

        Set<Field> reads() {
            Set<Field> all = new LinkedHashSet<>(matchReads);
            all.addAll(actionReads);
            return all;
        }
    }

    /** Splits a control's body into units, in program order. */
    private void decompose(ControlDecl c) {
        walk(c.gress(), c.body(), null, List.of());
        for (Unit u : units) {
            if (u.gress == c.gress()) {
                resolvePin(c, u);
            }
        }
    }

    private void walk(Gress g, List<Stmt> block, Unit parent, List<Choice> path) {
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
            Unit u = new Unit(units.size(), g, i != null ? Kind.GATEWAY : Kind.TABLE, s, List.of(), parent, path);
            units.add(u);
            if (i != null) {
                u.name = "if (" + i.condition() + ")";
                for (Expr side : List.of(i.condition().left(), i.condition().right())) {
                    collect(u, side, true);
                }
            } else {
                u.name = a.table().name();
                u.matchReads.addAll(a.table().key());
            }
            List<List<Stmt>> branches = s.branches();
            for (int b = 0; b < branches.size(); b++) {
                List<Choice> deeper = new ArrayList<>(path);
                deeper.add(new Choice(s, b));
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
        Unit before = new Unit(-1, null, Kind.ACTION, null, List.of(), null, List.of());
        run.forEach(x -> actionCode(before, x));
        Unit next = new Unit(-1, null, Kind.ACTION, null, List.of(), null, List.of());
        actionCode(next, s);
        return first(before.writes, next.reads()) != null || first(before.writes, next.writes) != null;
    }

    private void flush(Gress g, List<Stmt> run, Unit parent, List<Choice> path) {
        if (run.isEmpty()) {
            return;
        }
        Unit u = new Unit(units.size(), g, Kind.ACTION, null, List.copyOf(run), parent, path);
        units.add(u);
        List<String> sets = new ArrayList<>();
        String first = null;
        for (Stmt s : run) {
            actionCode(u, s);
            Stmt.Assign as = IrWalk.assignment(s);
            Stmt.Execute ex = IrWalk.execution(s);
            if (as != null) {
                sets.add(as.dest().name());
            } else if (first == null) {
                first = ex.action().array().name() + "." + ex.action().name();
            }
        }
        u.name = first != null ? first : "set(" + String.join(", ", sets) + ")";
    }

    /** Adds an instruction or register action (of an action run or a table's action) to a unit. */
    private static void actionCode(Unit u, Stmt s) {
        Stmt.Assign as = IrWalk.assignment(s);
        if (as != null) {
            u.writes.add(as.dest());
            collect(u, as.value(), false);
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
    private static void collect(Unit u, Expr e, boolean crossbar) {
        IrWalk.forEachExpr(e, x -> {
            Field f = IrWalk.fieldRead(x);
            HashUnit h = IrWalk.hashOutput(x);
            RegisterAction r = IrWalk.registerOutput(x);
            Expr.ActionData d = IrWalk.actionDataRead(x);
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

    private String where(Unit u) {
        return "program " + program.name() + ": " + u.gress.label() + " " + u.kind.label + " " + u.name;
    }

    /** Every declared element is used, and stage-local values are read only where they exist. */
    private void checkUses(ControlDecl c) {
        Set<Object> used = Collections.newSetFromMap(new IdentityHashMap<>());
        Map<MatchTable, Unit> applied = new IdentityHashMap<>();
        for (Unit u : units) {
            if (u.gress != c.gress()) {
                continue;
            }
            used.addAll(u.hashes);
            used.addAll(u.arrays);
            used.addAll(u.runs);
            MatchTable t = u.table();
            if (t != null) {
                used.add(t);
                if (applied.put(t, u) != null) {
                    throw new UserError(where(u) + ": applied twice (a table is applied once per control, as in P4)");
                }
            }
            for (RegisterAction r : u.outputsRead) {
                if (!u.runs.contains(r)) {
                    throw new UserError(where(u) + ": reads the output of register action " + r.array().name() + "."
                            + r.name() + " outside the action that runs it; assign the output to a field and read the field");
                }
            }
            for (MatchTable d : u.actionDataRead) {
                if (u.table() != d) {
                    throw new UserError(where(u) + ": reads the action data of table " + d.name()
                            + " outside that table's actions");
                }
            }
        }
        List<String> unused = new ArrayList<>();
        c.tables().stream().filter(t -> !used.contains(t)).forEach(t -> unused.add("table " + t.name()));
        c.registers().stream().filter(r -> !used.contains(r)).forEach(r -> unused.add("register array " + r.name()));
        c.hashes().stream().filter(h -> !used.contains(h)).forEach(h -> unused.add("hash unit " + h.name()));
        if (!unused.isEmpty()) {
            throw new UserError("program " + program.name() + ": the " + c.gress().label() + " control declares "
                    + String.join(", ", unused) + " but its apply body never uses it");
        }
    }

    /** The {@code @stage(N)} that binds a unit: its table's, or that of an array or hash unit it uses. */
    private final Map<Unit, Integer> pins = new IdentityHashMap<>();
    private final Map<Unit, String> pinned = new IdentityHashMap<>();

    private void resolvePin(ControlDecl c, Unit u) {
        List<String> names = new ArrayList<>();
        if (u.table() != null) {
            names.add(u.table().name());
        }
        u.arrays.forEach(r -> names.add(r.name()));
        u.hashes.forEach(h -> names.add(h.name()));
        for (String n : names) {
            Integer pin = c.pins().get(n);
            if (pin == null) {
                continue;
            }
            Integer before = pins.get(u);
            if (before != null && !before.equals(pin)) {
                throw new UserError(where(u) + ": @stage(" + before + ") on " + pinned.get(u) + " and @stage(" + pin
                        + ") on " + n + " cannot both hold (one element, one stage)", Compilation.EXIT_REFUSED, null);
            }
            pins.put(u, pin);
            pinned.put(u, n);
        }
    }

    // ---------------------------------------------------------------- dependencies

    /** The strongest dependency of {@code b} on the earlier {@code a}, or null when they are concurrent. */
    private static Why dependency(Unit a, Unit b) {
        boolean exclusive = a.exclusiveWith(b);
        if (!exclusive) {
            Field f = first(a.writes, b.matchReads);
            if (f != null) {
                return new Why(MATCH, a, f.name(), a.stage + 1);
            }
            f = first(a.writes, b.actionReads);
            if (f != null) {
                return new Why(ACTION, a, f.name(), a.stage + 1);
            }
            f = first(a.writes, b.writes);
            if (f != null) {
                return new Why(OUTPUT, a, f.name(), a.stage + 1);
            }
        }
        if (b.under(a)) {
            return new Why(CONTROL, a, "", a.stage);
        }
        if (!exclusive) {
            Field f = first(a.reads(), b.writes);
            if (f != null) {
                return new Why(REVERSE, a, f.name(), a.stage);
            }
        }
        return null;
    }

    /** The first field (by PHV slot) in both sets, or null. */
    private static Field first(Set<Field> a, Set<Field> b) {
        Field best = null;
        for (Field f : a) {
            if (b.contains(f) && (best == null || f.slot() < best.slot())) {
                best = f;
            }
        }
        return best;
    }

    // ---------------------------------------------------------------- placement

    private void place(Unit u) {
        Why why = new Why("start", null, "", 0);
        for (Unit a : units) {
            if (a == u) {
                break;
            }
            if (a.gress != u.gress) {
                continue;
            }
            Why d = dependency(a, u);
            if (d != null && d.minStage() > why.minStage() || d != null && why.on() == null && d.minStage() == why.minStage()) {
                why = d;
            }
        }
        int earliest = why.minStage();
        Unit sharer = sharer(u);
        Integer pin = pins.get(u);
        Unit table = u.tableAbove();
        int stage;
        if (pin != null) {
            if (pin < earliest) {
                throw new UserError("program " + program.name() + ": @stage(" + pin + ") on " + pinned.get(u) + " breaks "
                        + describe(why, u) + ", which needs stage " + earliest + " or later", Compilation.EXIT_REFUSED, null);
            }
            if (sharer != null && sharer.stage != pin) {
                throw new UserError("program " + program.name() + ": @stage(" + pin + ") on " + pinned.get(u) + " but "
                        + shared(u, sharer) + " is used by " + sharer.name + " in stage " + sharer.stage,
                        Compilation.EXIT_REFUSED, null);
            }
            stage = pin;
            why = new Why("pin", null, "", pin);
        } else if (sharer != null || table != null) {
            Unit anchor = sharer != null ? sharer : table;
            String what = sharer != null ? shared(u, sharer) : "the result of table " + table.name;
            if (earliest > anchor.stage) {
                throw new UserError(where(u) + ": needs stage " + earliest + " or later (" + describe(why, u) + ") but "
                        + what + " is in stage " + anchor.stage + (sharer != null ? ", used by " + sharer.name
                        : "; rmtemu carries a table's result only within its stage"), Compilation.EXIT_REFUSED, null);
            }
            stage = anchor.stage;
            if (sharer != null && stage > earliest) {
                why = new Why("shared", sharer, shared(u, sharer), stage);
            } else if (sharer == null && stage > earliest) {
                why = new Why(CONTROL, table, "", stage);
            }
        } else {
            stage = earliest;
            List<String> pushes = new ArrayList<>();
            while (true) {
                String full = full(u, stage);
                if (full == null) {
                    break;
                }
                pushes.add(full);
                stage++;
            }
            u.pushedBy = String.join("; ", pushes);
        }
        if (pin != null || sharer != null || table != null) {
            String full = full(u, stage);
            if (full != null) {
                throw new UserError(where(u) + ": must be in stage " + stage + " (" + (pin != null ? "@stage(" + pin + ")"
                        : sharer != null ? shared(u, sharer) : "table " + table.name) + ") but " + full,
                        Compilation.EXIT_REFUSED, null);
            }
        }
        u.stage = stage;
        u.why = new Why(why.cause(), why.on(), why.field(), earliest);
    }

    /** An earlier unit of the same gress using a register array or hash unit this one uses (it fixes the stage). */
    private Unit sharer(Unit u) {
        for (Unit a : units) {
            if (a == u) {
                return null;
            }
            if (a.gress == u.gress && (!disjoint(a.arrays, u.arrays) || !disjoint(a.hashes, u.hashes))) {
                return a;
            }
        }
        return null;
    }

    private static boolean disjoint(Set<?> a, Set<?> b) {
        for (Object o : a) {
            if (b.contains(o)) {
                return false;
            }
        }
        return true;
    }

    private static String shared(Unit u, Unit sharer) {
        for (RegisterArray r : u.arrays) {
            if (sharer.arrays.contains(r)) {
                return "register array " + r.name();
            }
        }
        for (HashUnit h : u.hashes) {
            if (sharer.hashes.contains(h)) {
                return "hash unit " + h.name();
            }
        }
        return "";
    }

    private static String describe(Why why, Unit u) {
        if (why.on() == null) {
            return "nothing";
        }
        return "its " + why.cause() + " dependency on " + why.on().name + (why.field().isEmpty() ? "" : " (" + why.field() + ")");
    }

    /**
     * The first resource of stage {@code stage} that is over budget with {@code u} there, or null
     * when it fits. A stage holding nothing else is never full: what does not fit an empty stage
     * does not fit any, and the resource pass refuses it with its own line.
     */
    private String full(Unit u, int stage) {
        if (target.stagesPerGress() != TargetProfile.UNLIMITED && stage >= target.stagesPerGress()) {
            return null;
        }
        boolean alone = true;
        List<Unit> trial = new ArrayList<>();
        for (Unit a : units) {
            if (a.stage >= 0 && a != u) {
                trial.add(a);
                alone &= a.stage != stage;
            }
        }
        if (alone) {
            return null;
        }
        int saved = u.stage;
        u.stage = stage;
        trial.add(u);
        trial.sort(Comparator.comparingInt(x -> x.order));
        StageProgram p = build(trial, false);
        u.stage = saved;
        ResourceReport r = ResourceChecker.check(p, target, StageLogicCount.of(p, target));
        if (!r.failing(stage, u.gress)) {
            return null;
        }
        String prefix = "stage " + stage + " ";
        for (String f : r.failures()) {
            if (f.startsWith(prefix)) {
                return f;
            }
        }
        return prefix + "is full";
    }

    // ---------------------------------------------------------------- refusals after placement

    /** A gress longer than the target: refused naming the dependency chain that makes it long. */
    private void checkLength() {
        if (target.stagesPerGress() == TargetProfile.UNLIMITED) {
            return;
        }
        for (Gress g : controls.keySet()) {
            Unit last = null;
            for (Unit u : units) {
                if (u.gress == g && (last == null || u.stage > last.stage)) {
                    last = u;
                }
            }
            if (last == null || last.stage < target.stagesPerGress()) {
                continue;
            }
            List<Unit> chain = new ArrayList<>();
            for (Unit u = last; u != null; u = u.why.on()) {
                chain.add(0, u);
            }
            StringBuilder b = new StringBuilder();
            for (int i = 0; i < chain.size(); i++) {
                Unit u = chain.get(i);
                if (i > 0) {
                    Why w = u.why;
                    b.append(" -(").append(w.cause()).append(w.field().isEmpty() ? "" : ": " + w.field()).append(")-> ");
                }
                b.append(u.name);
                if (!u.pushedBy.isEmpty()) {
                    b.append(" [stage ").append(u.why.minStage()).append(u.stage - u.why.minStage() > 1 ? ".." + (u.stage - 1) : "")
                            .append(" full]");
                }
            }
            throw new UserError("program " + program.name() + ": " + g.label() + " needs " + (last.stage + 1) + " stages, "
                    + target.name() + " has " + target.stagesPerGress() + ": " + b, Compilation.EXIT_REFUSED, null);
        }
    }

    /**
     * A gateway is evaluated again in each later stage that holds an element of its branches;
     * a field its condition reads must not change between its stage and those.
     */
    private void checkReplicatedGateways() {
        for (Unit gw : units) {
            if (gw.kind != Kind.GATEWAY) {
                continue;
            }
            int last = gw.stage;
            for (Unit u : units) {
                if (u.under(gw)) {
                    last = Math.max(last, u.stage);
                }
            }
            for (Unit w : units) {
                if (w.gress != gw.gress || w.stage < gw.stage || w.stage >= last || w.exclusiveWith(gw)) {
                    continue;
                }
                Field f = first(w.writes, gw.matchReads);
                if (f != null) {
                    throw new UserError(where(gw) + " (stage " + gw.stage + ") controls elements up to stage " + last
                            + ", and rmtemu evaluates it again in each of those stages, but " + f.name() + ", which it reads, is "
                            + "written in stage " + w.stage + " by " + w.name + "; copy the condition's result into a field "
                            + "first", Compilation.EXIT_REFUSED, null);
                }
            }
        }
    }

    // ---------------------------------------------------------------- the placed program

    /** The program with {@code placed} units in their stages; {@code complete} also records the reasons. */
    private StageProgram build(List<Unit> placed, boolean complete) {
        Map<Object, Object> remap = new IdentityHashMap<>();
        Map<Unit, Boolean> in = new IdentityHashMap<>();
        placed.forEach(u -> in.put(u, true));
        Map<Gress, Map<Integer, StageParts>> parts = new EnumMap<>(Gress.class);
        List<RegisterArray> registers = new ArrayList<>(program.registers());
        List<MatchTable> tables = new ArrayList<>(program.tables());
        List<HashUnit> hashes = new ArrayList<>(program.hashes());
        for (Unit u : placed) {
            StageParts sp = parts.computeIfAbsent(u.gress, g -> new TreeMap<>())
                    .computeIfAbsent(u.stage, n -> new StageParts());
            for (HashUnit h : u.hashes) {
                if (!remap.containsKey(h)) {
                    HashUnit c = new HashUnit(h.id(), h.name(), h.algorithm(), h.inputs(), h.outputBits(), h.gress(), u.stage);
                    remap.put(h, c);
                    hashes.set(h.id(), c);
                    sp.hashes.add(c);
                }
            }
            for (RegisterArray r : u.arrays) {
                if (!remap.containsKey(r)) {
                    RegisterArray c = new RegisterArray(r.id(), r.name(), r.wordBits(), r.pair(), r.size(), r.gress(), u.stage);
                    remap.put(r, c);
                    registers.set(r.id(), c);
                    sp.registers.add(c);
                }
            }
            for (RegisterAction a : u.runs) {
                if (!remap.containsKey(a)) {
                    RegisterAction c = a.on((RegisterArray) remap.get(a.array()));
                    remap.put(a, c);
                    sp.actions.add(c);
                }
            }
            MatchTable t = u.table();
            if (t != null) {
                MatchTable c = new MatchTable(t.id(), t.name(), t.kind(), t.key(), t.size(), t.actionDataBits(), t.gress(),
                        u.stage, t.constEntries());
                remap.put(t, c);
                tables.set(t.id(), c);
                sp.tables.add(c);
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
                        new IrInterpreter(g, n, sp.actions, sp.tables, body), body));
            }
            stages.put(g, decls);
        }
        List<ElementPlacement> why = new ArrayList<>();
        if (complete) {
            for (Unit u : placed) {
                Why w = u.why;
                why.add(new ElementPlacement(u.gress, u.kind.label, u.name, u.stage, w.cause(), w.on() == null ? "" : w.on().name,
                        w.field(), w.minStage(), u.pushedBy));
            }
        }
        return program.placed(stages, registers, tables, hashes, why);
    }

    private static final class StageParts {
        final List<HashUnit> hashes = new ArrayList<>();
        final List<RegisterArray> registers = new ArrayList<>();
        final List<RegisterAction> actions = new ArrayList<>();
        final List<MatchTable> tables = new ArrayList<>();
    }

    /**
     * How stage {@code n} waits for stage n-1 (its latency): a match dependency of one of its
     * elements on one there, else an action (or output) dependency, else none (concurrent), as
     * p4c labels a stage from {@code DependencyGraph::find_mau_dependency}. Stage 0 follows the parser.
     */
    private StageDependency dependency(Gress g, int n, List<Unit> placed) {
        if (n == 0) {
            return StageDependency.MATCH;
        }
        StageDependency d = StageDependency.CONCURRENT;
        for (Unit b : placed) {
            if (b.gress != g || b.stage != n) {
                continue;
            }
            for (Unit a : placed) {
                if (a.gress != g || a.stage != n - 1 || a.order >= b.order) {
                    continue;
                }
                Why w = dependency(a, b);
                if (w == null) {
                    continue;
                }
                if (w.cause().equals(MATCH)) {
                    return StageDependency.MATCH;
                }
                if (w.cause().equals(ACTION) || w.cause().equals(OUTPUT)) {
                    d = StageDependency.ACTION;
                }
            }
        }
        return d;
    }

    /** The statements of {@code block} that run in stage {@code n}, gateways repeated where their branches reach it. */
    private List<Stmt> project(List<Stmt> block, int n, Map<Unit, Boolean> in, IrRemap ir) {
        List<Stmt> out = new ArrayList<>();
        for (Stmt s : block) {
            Unit u = unitOf(s);
            if (u == null || in.get(u) == null) {
                continue; // a statement of a unit not placed (yet)
            }
            if (u.kind == Kind.ACTION) {
                if (u.stage == n && u.group.get(0) == s) {
                    u.group.forEach(x -> out.add(ir.stmt(x)));
                }
            } else if (u.kind == Kind.GATEWAY) {
                Stmt.If i = (Stmt.If) s;
                List<Stmt> then = project(i.then(), n, in, ir);
                List<Stmt> otherwise = project(i.otherwise(), n, in, ir);
                if (u.stage == n || u.stage < n && (!then.isEmpty() || !otherwise.isEmpty())) {
                    out.add(new Stmt.If(ir.condition(i.condition()), then, otherwise));
                }
            } else if (u.stage == n) {
                Stmt.Apply a = (Stmt.Apply) s;
                TreeMap<Integer, List<Stmt>> actions = new TreeMap<>();
                for (Map.Entry<Integer, List<Stmt>> e : a.actions().entrySet()) {
                    actions.put(e.getKey(), tableBranch(e.getValue(), n, in, ir));
                }
                out.add(new Stmt.Apply((MatchTable) ir.map(a.table()), actions, tableBranch(a.miss(), n, in, ir)));
            }
        }
        return out;
    }

    private List<Stmt> tableBranch(List<Stmt> block, int n, Map<Unit, Boolean> in, IrRemap ir) {
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

    private final Map<Stmt, Unit> byStmt = new IdentityHashMap<>();

    /** The unit a statement belongs to (a table's action code: none, it goes with the table). */
    private Unit unitOf(Stmt s) {
        if (byStmt.isEmpty()) {
            for (Unit u : units) {
                if (u.stmt != null) {
                    byStmt.put(u.stmt, u);
                }
                for (Stmt x : u.group) {
                    byStmt.put(x, u);
                }
            }
        }
        return byStmt.get(s);
    }
}
