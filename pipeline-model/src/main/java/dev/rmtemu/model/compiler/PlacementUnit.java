package dev.rmtemu.model.compiler;

import dev.rmtemu.model.extern.Counter;
import dev.rmtemu.model.extern.Meter;
import dev.rmtemu.model.hash.HashUnit;
import dev.rmtemu.model.ir.Stmt;
import dev.rmtemu.model.phv.Field;
import dev.rmtemu.model.phv.Gress;
import dev.rmtemu.model.register.RegisterAction;
import dev.rmtemu.model.register.RegisterArray;
import dev.rmtemu.model.table.MatchTable;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * What table placement places ({@link TablePlacer}): a table with its actions, a gateway, or a
 * run of instructions and register actions (p4c's synthesized action table), with the fields it
 * reads at the match input crossbar and at the PHV ALUs, those it writes, the stateful ALUs and
 * hash units it uses, where it sits in the control flow, and once placed its stage and why.
 */
final class PlacementUnit {
    /** Dependency kinds (bf-p4c mau/table_dependency_graph.h, DependencyGraph::dependencies_t), in the order a reason prefers them. */
    static final String MATCH = "match";
    static final String ACTION = "action";
    static final String OUTPUT = "output";
    static final String CONTROL = "control";
    static final String REVERSE = "reverse";

    /** The kinds of unit, as messages name them. */
    enum Kind {
        TABLE("table"), GATEWAY("gateway"), ACTION("action");

        final String label;

        Kind(String label) {
            this.label = label;
        }
    }

    /** One branch choice on the way to an element: the gateway or table and the branch taken. */
    record Choice(Stmt at, int branch) {
    }

    /** What sets an element's earliest stage: a dependency on an earlier element, a pin, or nothing. */
    record Why(String cause, PlacementUnit on, String field, int minStage) {
    }

    /** Program order among the units (renumbered when a run is split). */
    int order;
    final Gress gress;
    final Kind kind;
    final Stmt stmt;
    final List<Stmt> group;
    final PlacementUnit parent;
    final List<Choice> path;
    final Set<Field> matchReads = new LinkedHashSet<>();
    final Set<Field> actionReads = new LinkedHashSet<>();
    final Set<Field> writes = new LinkedHashSet<>();
    final Set<RegisterArray> arrays = new LinkedHashSet<>();
    final Set<HashUnit> hashes = new LinkedHashSet<>();
    final Set<RegisterAction> runs = new LinkedHashSet<>();
    final Set<RegisterAction> outputsRead = new LinkedHashSet<>();
    final Set<MatchTable> actionDataRead = new LinkedHashSet<>();
    /** Counters it counts and meters it runs (a stats ALU, a meter ALU: with the table or run that uses them). */
    final Set<Counter> counters = new LinkedHashSet<>();
    final Set<Meter> meters = new LinkedHashSet<>();
    /** Meters whose colour it reads (only where the meter runs, as a register action's output). */
    final Set<Meter> coloursRead = new LinkedHashSet<>();
    String name;
    int stage = -1;
    Why why;
    String pushedBy = "";

    PlacementUnit(int order, Gress gress, Kind kind, Stmt stmt, List<Stmt> group, PlacementUnit parent, List<Choice> path) {
        this.order = order;
        this.gress = gress;
        this.kind = kind;
        this.stmt = stmt;
        this.group = group;
        this.parent = parent;
        this.path = path;
    }

    MatchTable table() {
        Stmt.Apply a = stmt == null ? null : IrWalk.application(stmt);
        return a == null ? null : a.table();
    }

    /** True when no packet runs both: they part at one gateway or table into different branches. */
    boolean exclusiveWith(PlacementUnit o) {
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

    boolean under(PlacementUnit ancestor) {
        for (PlacementUnit p = parent; p != null; p = p.parent) {
            if (p == ancestor) {
                return true;
            }
        }
        return false;
    }

    /** The nearest table this element is applied under, or null. */
    PlacementUnit tableAbove() {
        for (PlacementUnit p = parent; p != null; p = p.parent) {
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


    /** The strongest dependency of {@code b} on the earlier {@code a}, or null when they are concurrent. */
    static Why dependency(PlacementUnit a, PlacementUnit b) {
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
    static Field first(Set<Field> a, Set<Field> b) {
        Field best = null;
        for (Field f : a) {
            if (b.contains(f) && (best == null || f.slot() < best.slot())) {
                best = f;
            }
        }
        return best;
    }
}
