package dev.rmtemu.model.compiler;

import java.util.Collections;
import dev.rmtemu.model.check.ResourceChecker;
import dev.rmtemu.model.hash.HashUnit;
import dev.rmtemu.model.ir.Expr;
import dev.rmtemu.model.ir.Stmt;
import dev.rmtemu.model.phv.Field;
import dev.rmtemu.model.phv.FieldKind;
import dev.rmtemu.model.phv.Gress;
import dev.rmtemu.model.check.PhvAllocation;
import dev.rmtemu.model.program.StageDecl;
import dev.rmtemu.model.program.StageProgram;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.EnumMap;
import java.util.TreeSet;

/**
 * PHV allocation with liveness: a metadata field lives from the stage that first
 * writes it to the last stage that reads it, and two metadata fields of a gress
 * whose lives do not overlap can share a container (p4c's metadata overlay). A
 * field read at stage s and another first written at s may share: the stage reads
 * the old value as it entered, and the write lands when the stage ends. Only gresses
 * written wholly in IR are analysed; headers and intrinsics are never overlaid (the
 * parser, deparser and traffic manager read them).
 */
public final class PhvLiveness {
    private PhvLiveness() {
    }

    /** A metadata field's life: first written at {@code def} (-1: read before any write), last read at {@code lastUse}. */
    record Life(Field field, int def, int lastUse) {
    }

    /** Fields placed in one container set: their names joined, the widest width. */
    public record Overlay(Gress gress, List<String> fields, int width) {
    }

    /** The overlays of a program (groups of two or more fields), in gress and first-definition order. */
    public static List<Overlay> overlays(StageProgram p) {
        List<Overlay> out = new ArrayList<>();
        for (Gress g : Gress.values()) {
            if (!p.uses(g)) {
                continue;
            }
            for (Overlay o : groups(p, g)) {
                if (o.fields().size() > 1) {
                    out.add(o);
                }
            }
        }
        return out;
    }

    /**
     * PHV demands with overlaid metadata merged into one demand each, and the header
     * and metadata fields no stage of a gress reads or writes marked free to ride
     * in tagalong containers (intrinsics never: the traffic manager reads them).
     */
    public static List<PhvAllocation.Demand> demands(StageProgram p) {
        List<PhvAllocation.Demand> out = new ArrayList<>();
        Map<Gress, Map<Field, Set<Field>>> conflicts = new EnumMap<>(Gress.class);
        for (Gress g : Gress.values()) {
            conflicts.put(g, p.uses(g) ? packConflicts(p, g) : Map.of());
        }
        for (PhvAllocation.Demand d : ResourceChecker.phvDemands(p)) {
            Field f = p.field(d.field());
            if (f.kind() == FieldKind.METADATA) {
                continue;
            }
            boolean untouched = f.kind() == FieldKind.HEADER && !referenced(p, d.gress()).contains(f);
            out.add(new PhvAllocation.Demand(d.field(), d.width(), d.gress(), !untouched,
                    noPack(List.of(f), conflicts.get(d.gress()))));
        }
        for (Gress g : Gress.values()) {
            if (p.uses(g)) {
                Set<Field> used = referenced(p, g);
                for (Overlay o : groups(p, g)) {
                    boolean mau = o.fields().stream().anyMatch(name -> used.contains(p.field(name)));
                    List<Field> members = o.fields().stream().map(p::field).toList();
                    out.add(new PhvAllocation.Demand(String.join("|", o.fields()), o.width(), g, mau,
                            noPack(members, conflicts.get(g))));
                }
            }
        }
        return out;
    }

    /** The names of the fields that may not share a container with any of {@code members}. */
    private static Set<String> noPack(List<Field> members, Map<Field, Set<Field>> conflicts) {
        Set<String> names = new TreeSet<>();
        for (Field m : members) {
            for (Field other : conflicts.getOrDefault(m, Set.of())) {
                names.add(other.name());
            }
        }
        return names;
    }

    /**
     * Pairs of fields of a gress that one stage writes by different instructions on one
     * control path; they may not share a container, whose ALU takes one instruction per stage.
     * p4c keeps such fields apart when it allocates PHV: fields written by two tables
     * (actions) that can run in the same stage get a no-pack constraint
     * (phv/analysis/pack_conflicts.cpp, PackConflicts::generateNoPackConstraints, unless the
     * tables or actions are mutually exclusive), and within one action fields share a
     * container only when their writes form one instruction (phv/action_phv_constraints.cpp,
     * ActionPhvConstraints::can_pack): here, plain moves (a field, constant, hash or action
     * data, or a register output, set as it is) in one block; any other operation stands alone.
     */
    static Map<Field, Set<Field>> packConflicts(StageProgram p, Gress g) {
        Map<Field, Set<Field>> out = new IdentityHashMap<>();
        for (StageDecl d : p.stages(g)) {
            List<ControlPaths.Placed> writes = new ArrayList<>();
            for (ControlPaths.Placed s : ControlPaths.of(d.body())) {
                if (IrWalk.assignment(s.stmt()) != null) {
                    writes.add(s);
                }
            }
            for (int i = 0; i < writes.size(); i++) {
                for (int j = i + 1; j < writes.size(); j++) {
                    ControlPaths.Placed a = writes.get(i);
                    ControlPaths.Placed b = writes.get(j);
                    Field fa = IrWalk.assignment(a.stmt()).dest();
                    Field fb = IrWalk.assignment(b.stmt()).dest();
                    if (fa == fb || a.exclusiveWith(b)) {
                        continue;
                    }
                    boolean oneInstruction = a.block() == b.block() && move(a) && move(b);
                    if (!oneInstruction) {
                        out.computeIfAbsent(fa, k -> Collections.newSetFromMap(new IdentityHashMap<>())).add(fb);
                        out.computeIfAbsent(fb, k -> Collections.newSetFromMap(new IdentityHashMap<>())).add(fa);
                    }
                }
            }
        }
        return out;
    }

    /** A write that copies a value as it is (no ALU operation). */
    private static boolean move(ControlPaths.Placed w) {
        return VliwInstructionsPass.operations(IrWalk.assignment(w.stmt()).value()) == 0;
    }

    /** The fields the stages of a gress read or write: operands, destinations, hash inputs, table keys. */
    static Set<Field> referenced(StageProgram p, Gress g) {
        Set<Field> used = Collections.newSetFromMap(new IdentityHashMap<>());
        for (StageDecl d : p.stages(g)) {
            for (HashUnit h : d.hashes()) {
                used.addAll(h.inputs());
            }
            for (var t : d.tables()) {
                used.addAll(t.key());
                used.addAll(p.selectorKey(t.name()));
            }
            IrWalk.forEachStmt(d.body(), s -> {
                for (Expr e : IrWalk.reads(s)) {
                    IrWalk.forEachExpr(e, x -> {
                        Field r = IrWalk.fieldRead(x);
                        if (r != null) {
                            used.add(r);
                        }
                    });
                }
                Stmt.Assign a = IrWalk.assignment(s);
                if (a != null) {
                    used.add(a.dest());
                }
            });
        }
        return used;
    }

    /** Greedy interval packing: each field, by first definition, joins the group whose last life ended earliest. */
    private static List<Overlay> groups(StageProgram p, Gress g) {
        Map<Field, Set<Field>> conflicts = packConflicts(p, g);
        List<Life> lives = lives(p, g);
        lives.sort(Comparator.comparingInt(Life::def).thenComparing(l -> l.field().name()));
        List<List<Life>> groups = new ArrayList<>();
        for (Life l : lives) {
            List<Life> best = null;
            for (List<Life> grp : groups) {
                Life last = grp.get(grp.size() - 1);
                boolean free = l.def() >= 0 && last.lastUse() <= l.def() && packs(l, grp, conflicts);
                if (free && (best == null || width(grp) < width(best))) {
                    best = grp;
                }
            }
            if (best == null) {
                best = new ArrayList<>();
                groups.add(best);
            }
            best.add(l);
        }
        List<Overlay> out = new ArrayList<>();
        for (List<Life> grp : groups) {
            out.add(new Overlay(g, grp.stream().map(l -> l.field().name()).toList(), width(grp)));
        }
        return out;
    }

    /** True when no field of the group is written in a stage together with {@code l}'s field. */
    private static boolean packs(Life l, List<Life> grp, Map<Field, Set<Field>> conflicts) {
        Set<Field> no = conflicts.getOrDefault(l.field(), Set.of());
        for (Life other : grp) {
            if (no.contains(other.field())) {
                return false;
            }
        }
        return true;
    }

    private static int width(List<Life> grp) {
        int w = 0;
        for (Life l : grp) {
            w = Math.max(w, l.field().width());
        }
        return w;
    }

    static List<Life> lives(StageProgram p, Gress g) {
        Map<Field, int[]> range = new IdentityHashMap<>(); // {def, lastUse}
        for (Field f : p.fields()) {
            if (f.kind() == FieldKind.METADATA && f.gress() == g) {
                range.put(f, new int[] {Integer.MAX_VALUE, -1});
            }
        }
        for (StageDecl d : p.stages(g)) {
            int n = d.number();
            for (HashUnit h : d.hashes()) {
                for (Field f : h.inputs()) {
                    use(range, f, n);
                }
            }
            for (var t : d.tables()) {
                for (Field f : t.key()) {
                    use(range, f, n);
                }
                for (Field f : p.selectorKey(t.name())) {
                    use(range, f, n);
                }
            }
            IrWalk.forEachStmt(d.body(), s -> {
                for (Expr e : IrWalk.reads(s)) {
                    IrWalk.forEachExpr(e, x -> {
                        Field r = IrWalk.fieldRead(x);
                        if (r != null) {
                            use(range, r, n);
                        }
                    });
                }
                Stmt.Assign a = IrWalk.assignment(s);
                if (a != null && range.containsKey(a.dest())) {
                    int[] r = range.get(a.dest());
                    r[0] = Math.min(r[0], n);
                    r[1] = Math.max(r[1], n);
                }
            });
        }
        List<Life> out = new ArrayList<>();
        for (Field f : p.fields()) {
            int[] r = range.get(f);
            if (r != null) {
                // read before its first write (or never written): live from the parser on
                boolean readFirst = r[0] == Integer.MAX_VALUE || firstReadBefore(p, g, f, r[0]);
                out.add(new Life(f, readFirst ? -1 : r[0], Math.max(r[1], r[0] == Integer.MAX_VALUE ? -1 : r[0])));
            }
        }
        return out;
    }

    private static void use(Map<Field, int[]> range, Field f, int stage) {
        int[] r = range.get(f);
        if (r != null) {
            r[1] = Math.max(r[1], stage);
        }
    }

    /** True when some stage up to the first write reads the field (so its parser value, zero, is live). */
    private static boolean firstReadBefore(StageProgram p, Gress g, Field f, int def) {
        boolean[] read = {false};
        for (StageDecl d : p.stages(g)) {
            if (d.number() > def) {
                break;
            }
            for (HashUnit h : d.hashes()) {
                read[0] |= h.inputs().contains(f);
            }
            for (var t : d.tables()) {
                read[0] |= t.key().contains(f) || p.selectorKey(t.name()).contains(f);
            }
            IrWalk.forEachStmt(d.body(), s -> {
                for (Expr e : IrWalk.reads(s)) {
                    IrWalk.forEachExpr(e, x -> read[0] |= IrWalk.fieldRead(x) == f);
                }
            });
        }
        return read[0];
    }
}
