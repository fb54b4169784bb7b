package dev.rmtemu.model.compiler;

import dev.rmtemu.model.UserError;
import dev.rmtemu.model.check.ResourceChecker;
import dev.rmtemu.model.check.ResourceReport;
import dev.rmtemu.model.extern.Counter;
import dev.rmtemu.model.extern.Meter;
import dev.rmtemu.model.hash.HashUnit;
import dev.rmtemu.model.ir.Stmt;
import dev.rmtemu.model.phv.Field;
import dev.rmtemu.model.phv.Gress;
import dev.rmtemu.model.program.ControlDecl;
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
import java.util.List;
import java.util.Map;
import java.util.Set;

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
 * An action run that does not fit even an empty stage (more stateful ALUs, hash bits or
 * instructions than a stage has) is cut: its longest head that fits the stage stays, the rest
 * is placed after it, as p4c places the action table it synthesizes for each extern call.
 *
 * <p>rmtemu's IR has no next-table chain across stages, so a gateway whose branch holds
 * elements of later stages is evaluated again in each of those stages; that is refused when a
 * field its condition reads is written in between. Elements applied under a table's result run
 * in the table's stage.
 */
public final class TablePlacer {
    private final StageProgram program;
    private final TargetProfile target;
    private final List<PlacementUnit> units = new ArrayList<>();
    private final Map<Gress, ControlDecl> controls = new EnumMap<>(Gress.class);
    private PlacedStages stages;

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
        p.stages = new PlacedStages(program, p.controls, p.units);
        for (int i = 0; i < p.units.size(); i++) {
            p.place(p.units.get(i)); // a split run adds its rest right after it
        }
        p.checkLength();
        p.checkReplicatedGateways();
        return p.stages.build(p.units, true);
    }

    /** Splits a control's body into units, in program order, and binds their pins. */
    private void decompose(ControlDecl c) {
        ControlUnits.split(c, units, program);
        for (PlacementUnit u : units) {
            if (u.gress == c.gress()) {
                resolvePin(c, u);
            }
        }
    }

    private String where(PlacementUnit u) {
        return "program " + program.name() + ": " + u.gress.label() + " " + u.kind.label + " " + u.name;
    }

    /** Every declared element is used, and stage-local values are read only where they exist. */
    private void checkUses(ControlDecl c) {
        Set<Object> used = Collections.newSetFromMap(new IdentityHashMap<>());
        Map<MatchTable, PlacementUnit> applied = new IdentityHashMap<>();
        for (PlacementUnit u : units) {
            if (u.gress != c.gress()) {
                continue;
            }
            used.addAll(u.hashes);
            used.addAll(u.arrays);
            used.addAll(u.runs);
            used.addAll(u.counters);
            used.addAll(u.meters);
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
            for (Meter m : u.coloursRead) {
                if (!u.meters.contains(m)) {
                    throw new UserError(where(u) + ": reads the colour of meter " + m.name()
                            + " outside the action that runs it; assign the colour to a field and read the field");
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
        c.counters().stream().filter(x -> !used.contains(x)).forEach(x -> unused.add("counter " + x.name()));
        c.meters().stream().filter(x -> !used.contains(x)).forEach(x -> unused.add("meter " + x.name()));
        if (!unused.isEmpty()) {
            throw new UserError("program " + program.name() + ": the " + c.gress().label() + " control declares "
                    + String.join(", ", unused) + " but its apply body never uses it");
        }
    }

    /** The {@code @stage(N)} that binds a unit: its table's, or that of an array or hash unit it uses. */
    private final Map<PlacementUnit, Integer> pins = new IdentityHashMap<>();
    private final Map<PlacementUnit, String> pinned = new IdentityHashMap<>();

    private void resolvePin(ControlDecl c, PlacementUnit u) {
        List<String> names = new ArrayList<>();
        if (u.table() != null) {
            names.add(u.table().name());
        }
        u.arrays.forEach(r -> names.add(r.name()));
        u.hashes.forEach(h -> names.add(h.name()));
        u.counters.forEach(x -> names.add(x.name()));
        u.meters.forEach(x -> names.add(x.name()));
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

    // ---------------------------------------------------------------- placement

    private void place(PlacementUnit u) {
        PlacementUnit.Why why = new PlacementUnit.Why("start", null, "", 0);
        for (PlacementUnit a : units) {
            if (a == u) {
                break;
            }
            if (a.gress != u.gress) {
                continue;
            }
            PlacementUnit.Why d = PlacementUnit.dependency(a, u);
            if (d != null && d.minStage() > why.minStage() || d != null && why.on() == null && d.minStage() == why.minStage()) {
                why = d;
            }
        }
        int earliest = why.minStage();
        PlacementUnit sharer = sharer(u);
        Integer pin = pins.get(u);
        PlacementUnit table = u.tableAbove();
        int stage;
        if (pin != null) {
            if (pin < earliest) {
                throw new UserError("program " + program.name() + ": @stage(" + pin + ") on " + pinned.get(u) + " breaks "
                        + describe(why) + ", which needs stage " + earliest + " or later", Compilation.EXIT_REFUSED, null);
            }
            PlacementUnit anchor = sharer != null ? sharer : table;
            if (anchor != null && anchor.stage != pin) {
                throw new UserError("program " + program.name() + ": @stage(" + pin + ") on " + pinned.get(u) + " but "
                        + (sharer != null ? shared(u, sharer) + " is used by " + sharer.name : "it is applied under table "
                        + table.name + ", which is") + " in stage " + anchor.stage, Compilation.EXIT_REFUSED, null);
            }
            stage = pin;
            why = new PlacementUnit.Why("pin", null, "", pin);
        } else if (sharer != null || table != null) {
            PlacementUnit anchor = sharer != null ? sharer : table;
            String what = sharer != null ? shared(u, sharer) : "the result of table " + table.name;
            if (earliest > anchor.stage) {
                throw new UserError(where(u) + ": needs stage " + earliest + " or later (" + describe(why) + ") but "
                        + what + " is in stage " + anchor.stage + (sharer != null ? ", used by " + sharer.name
                        : "; rmtemu carries a table's result only within its stage"), Compilation.EXIT_REFUSED, null);
            }
            stage = anchor.stage;
            if (sharer != null && stage > earliest) {
                why = new PlacementUnit.Why("shared", sharer, shared(u, sharer), stage);
            } else if (sharer == null && stage > earliest) {
                why = new PlacementUnit.Why(PlacementUnit.CONTROL, table, "", stage);
            }
        } else {
            stage = earliest;
            List<String> pushes = new ArrayList<>();
            // the gateways it is applied under are all placed (program order), so this holds for every stage
            boolean oversized = u.kind == PlacementUnit.Kind.ACTION && oversized(u, stage) != null;
            while (true) {
                String full = full(u, stage);
                // an action run that no stage can hold (it does not fit even alone) leaves in this
                // stage the longest head that fits; the rest is a unit of its own, placed next. A
                // run that fits alone is pushed down whole, as before.
                if (oversized && split(u, stage)) {
                    place(units.get(u.order)); // the head, from its own earliest stage
                    return;
                }
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
        u.why = new PlacementUnit.Why(why.cause(), why.on(), why.field(), earliest);
    }

    /**
     * An earlier unit of the same gress using a register array, hash unit, counter or meter this
     * one uses (it fixes the stage: each lives in one stage's RAMs and ALU).
     */
    private PlacementUnit sharer(PlacementUnit u) {
        for (PlacementUnit a : units) {
            if (a == u) {
                return null;
            }
            if (a.gress == u.gress && (!disjoint(a.arrays, u.arrays) || !disjoint(a.hashes, u.hashes)
                    || !disjoint(a.counters, u.counters) || !disjoint(a.meters, u.meters))) {
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

    private static String shared(PlacementUnit u, PlacementUnit sharer) {
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
        for (Counter c : u.counters) {
            if (sharer.counters.contains(c)) {
                return "counter " + c.name();
            }
        }
        for (Meter m : u.meters) {
            if (sharer.meters.contains(m)) {
                return "meter " + m.name();
            }
        }
        return "";
    }

    private static String describe(PlacementUnit.Why why) {
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
    private String full(PlacementUnit u, int stage) {
        return over(u, stage, false);
    }

    /**
     * The first resource of stage {@code stage} over budget with {@code u} there, or null; with
     * {@code strict}, also when the stage holds nothing else. Stages past the target's last are
     * not checked (the length check refuses them).
     */
    private String over(PlacementUnit u, int stage, boolean strict) {
        if (target.stagesPerGress() != TargetProfile.UNLIMITED && stage >= target.stagesPerGress()) {
            return null;
        }
        boolean alone = true;
        // what stage `stage` holds: its units, and the gateways of earlier stages, which it repeats
        // around what it holds under them (PlacedStages.project); no other stage adds to its rows
        List<PlacementUnit> trial = new ArrayList<>();
        for (PlacementUnit a : units) {
            if (a.stage >= 0 && a != u) {
                if (a.stage == stage || a.stage < stage && a.kind == PlacementUnit.Kind.GATEWAY) {
                    trial.add(a);
                }
                alone &= a.stage != stage;
            }
        }
        if (alone && !strict) {
            return null;
        }
        return failure(u, stage, trial);
    }

    /** The first resource of stage {@code stage} over budget with {@code u} there beside {@code others}, or null. */
    private String failure(PlacementUnit u, int stage, List<PlacementUnit> others) {
        List<PlacementUnit> trial = new ArrayList<>(others);
        int saved = u.stage;
        u.stage = stage;
        trial.add(u);
        trial.sort(Comparator.comparingInt(x -> x.order));
        StageProgram p = stages.build(trial, false);
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

    /**
     * The first resource of stage {@code stage} over budget with {@code u} alone there (with only
     * the gateways it is applied under), or null: a unit over budget alone fits no stage, so the
     * old rule (place it alone and let the resource pass refuse it) would refuse the program.
     */
    private String oversized(PlacementUnit u, int stage) {
        if (target.stagesPerGress() != TargetProfile.UNLIMITED && stage >= target.stagesPerGress()) {
            return null;
        }
        List<PlacementUnit> trial = new ArrayList<>();
        for (PlacementUnit a : units) {
            if (a.stage >= 0 && a.kind == PlacementUnit.Kind.GATEWAY && u.under(a)) {
                trial.add(a);
            }
        }
        return failure(u, stage, trial);
    }

    /**
     * Splits the action run {@code u} when a head of it fits stage {@code stage} and the whole
     * does not: p4c's front end gives each extern call of an apply block an action table of its
     * own (p4c midend/actionSynthesis.cpp, SynthesizeActions, with bf-p4c
     * midend/action_synthesis_policy.h, {@code ActionSynthesisPolicy::can_combine}: no two
     * extern uses in one synthesized action), and mau/table_placement.cpp places each in turn
     * ({@code TablePlacement::try_place_table}: the current stage if its resources fit, else a
     * later one), so a run of more stateful ALUs, hash units or instructions than a stage has
     * spreads over stages. rmtemu keeps a run whole while it fits (its show and resources stay
     * those of one action) and cuts it only where it does not. Only a unit free to move splits (no pin, no shared array or
     * hash unit, not under a table). The head replaces {@code u} in the unit list, the rest
     * follows it; true when split.
     */
    private boolean split(PlacementUnit u, int stage) {
        if (u.kind != PlacementUnit.Kind.ACTION || pins.containsKey(u)) {
            return false;
        }
        List<List<Stmt>> pieces = ControlUnits.pieces(u.group);
        // the longest head that fits: a longer head needs no less of any resource, so stop at the first that does not
        int fits = 0;
        for (int k = 1; k < pieces.size(); k++) {
            PlacementUnit h = ControlUnits.action(u.order, u.gress, join(pieces.subList(0, k)), u.parent, u.path);
            stages.bind(h);
            boolean ok = over(h, stage, true) == null;
            stages.bind(u);
            if (!ok) {
                break;
            }
            fits = k;
        }
        if (fits == 0) {
            return false;
        }
        PlacementUnit h = ControlUnits.action(u.order, u.gress, join(pieces.subList(0, fits)), u.parent, u.path);
        PlacementUnit r = ControlUnits.action(u.order + 1, u.gress, join(pieces.subList(fits, pieces.size())), u.parent, u.path);
        units.set(h.order, h);
        units.add(r.order, r);
        for (int i = r.order + 1; i < units.size(); i++) {
            units.get(i).order = i;
        }
        stages.bind(h);
        stages.bind(r);
        return true;
    }

    private static List<Stmt> join(List<List<Stmt>> pieces) {
        List<Stmt> out = new ArrayList<>();
        pieces.forEach(out::addAll);
        return out;
    }

    // ---------------------------------------------------------------- refusals after placement

    /** A gress longer than the target: refused naming the dependency chain that makes it long. */
    private void checkLength() {
        if (target.stagesPerGress() == TargetProfile.UNLIMITED) {
            return;
        }
        for (Gress g : controls.keySet()) {
            PlacementUnit last = null;
            for (PlacementUnit u : units) {
                if (u.gress == g && (last == null || u.stage > last.stage)) {
                    last = u;
                }
            }
            if (last == null || last.stage < target.stagesPerGress()) {
                continue;
            }
            List<PlacementUnit> chain = new ArrayList<>();
            for (PlacementUnit u = last; u != null; u = u.why.on()) {
                chain.add(0, u);
            }
            StringBuilder b = new StringBuilder();
            for (int i = 0; i < chain.size(); i++) {
                PlacementUnit u = chain.get(i);
                if (i > 0) {
                    PlacementUnit.Why w = u.why;
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
        for (PlacementUnit gw : units) {
            if (gw.kind != PlacementUnit.Kind.GATEWAY) {
                continue;
            }
            int last = gw.stage;
            for (PlacementUnit u : units) {
                if (u.under(gw)) {
                    last = Math.max(last, u.stage);
                }
            }
            for (PlacementUnit w : units) {
                if (w.gress != gw.gress || w.stage < gw.stage || w.stage >= last || w.exclusiveWith(gw)) {
                    continue;
                }
                Field f = PlacementUnit.first(w.writes, gw.matchReads);
                if (f != null) {
                    throw new UserError(where(gw) + " (stage " + gw.stage + ") controls elements up to stage " + last
                            + ", and rmtemu evaluates it again in each of those stages, but " + f.name() + ", which it reads, is "
                            + "written in stage " + w.stage + " by " + w.name + "; copy the condition's result into a field "
                            + "first", Compilation.EXIT_REFUSED, null);
                }
            }
        }
    }
}
