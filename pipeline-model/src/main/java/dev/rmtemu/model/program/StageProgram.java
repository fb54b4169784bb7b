package dev.rmtemu.model.program;

import dev.rmtemu.model.UserError;
import dev.rmtemu.model.extern.ActionProfile;
import dev.rmtemu.model.extern.Counter;
import dev.rmtemu.model.extern.Digest;
import dev.rmtemu.model.extern.Mirror;
import dev.rmtemu.model.extern.Meter;
import dev.rmtemu.model.extern.Resubmit;
import dev.rmtemu.model.hash.HashUnit;
import dev.rmtemu.model.parse.ParserSpec;
import dev.rmtemu.model.phv.Field;
import dev.rmtemu.model.phv.Gress;
import dev.rmtemu.model.phv.Intrinsic;
import dev.rmtemu.model.register.RegisterArray;
import dev.rmtemu.model.table.MatchTable;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * A complete, immutable stage program: fields, and per gress the stages in
 * order with their registers, hashes, tables and action code. Built with
 * {@link ProgramBuilder}; checked against a target by the resource checker.
 */
public final class StageProgram {
    /** The stage of an element of a control the compiler has not placed yet. */
    public static final int UNPLACED = -1;

    private final String name;
    private final int bridgedBytes;
    private final String description;
    private final SortedMap<String, String> params;
    private final List<Field> fields;
    private final Map<Gress, List<StageDecl>> stages;
    private final List<RegisterArray> registers;
    private final List<MatchTable> tables;
    private final List<HashUnit> hashes;
    private final List<Counter> counters;
    private final List<Meter> meters;
    private final List<Digest> digests;
    private final List<Mirror> mirrors;
    private final List<Resubmit> resubmits;
    private final Map<Intrinsic, Field> intrinsics;
    private final ParserSpec parser;
    /** The typed parameters the program was built from (see {@link #config()}); null if its factory keeps none. */
    private final Object config;
    /** Gresses written as controls, not yet placed (empty for a placed program). */
    private final Map<Gress, ControlDecl> controls;
    /** Where the compiler placed each element of a control, and why (empty for a hand-placed program). */
    private final List<ElementPlacement> placement;
    /** Action profiles and selectors, indexed by id; each names the table it implements. */
    private final List<ActionProfile> actionProfiles;
    /** True for a P4 (TNA) program: it sees ports as TNA numbers them ({@link dev.rmtemu.model.phv.ProgramPorts}). */
    private final boolean tnaPorts;

    StageProgram(String name, String description, Map<String, String> params, List<Field> fields,
                 Map<Gress, List<StageDecl>> stages, List<RegisterArray> registers, List<MatchTable> tables,
                 List<HashUnit> hashes, Map<Intrinsic, Field> intrinsics, List<Field> bridged, List<Counter> counters,
                 List<Meter> meters, List<Digest> digests, List<Mirror> mirrors, List<Resubmit> resubmits, Map<Gress, ControlDecl> controls,
                 ParserSpec parser) {
        int bits = 0;
        for (Field f : bridged) {
            bits += f.width();
        }
        this.bridgedBytes = (bits + Byte.SIZE - 1) / Byte.SIZE;
        this.name = name;
        this.description = description;
        this.params = new TreeMap<>(params);
        this.fields = List.copyOf(fields);
        EnumMap<Gress, List<StageDecl>> s = new EnumMap<>(Gress.class);
        for (Gress g : Gress.values()) {
            s.put(g, List.copyOf(stages.getOrDefault(g, List.of())));
        }
        this.stages = s;
        this.registers = List.copyOf(registers);
        this.tables = List.copyOf(tables);
        this.hashes = List.copyOf(hashes);
        this.counters = List.copyOf(counters);
        this.meters = List.copyOf(meters);
        this.digests = List.copyOf(digests);
        this.mirrors = List.copyOf(mirrors);
        this.resubmits = List.copyOf(resubmits);
        this.intrinsics = new EnumMap<>(intrinsics);
        this.parser = parser;
        this.config = null;
        this.controls = controls.isEmpty() ? Map.of() : new EnumMap<>(controls);
        this.placement = List.of();
        this.actionProfiles = List.of();
        this.tnaPorts = false;
    }

    /** The placed twin of an unplaced program: same fields and parameters, the compiler's stages and elements. */
    private StageProgram(StageProgram p, Map<Gress, List<StageDecl>> stages, List<RegisterArray> registers,
                         List<MatchTable> tables, List<HashUnit> hashes, List<Counter> counters, List<Meter> meters,
                         List<ElementPlacement> placement) {
        this.name = p.name;
        this.bridgedBytes = p.bridgedBytes;
        this.description = p.description;
        this.params = p.params;
        this.fields = p.fields;
        EnumMap<Gress, List<StageDecl>> s = new EnumMap<>(Gress.class);
        for (Gress g : Gress.values()) {
            s.put(g, List.copyOf(stages.getOrDefault(g, List.of())));
        }
        this.stages = s;
        this.registers = List.copyOf(registers);
        this.tables = List.copyOf(tables);
        this.hashes = List.copyOf(hashes);
        this.counters = List.copyOf(counters);
        this.meters = List.copyOf(meters);
        this.digests = p.digests;
        this.mirrors = p.mirrors;
        this.resubmits = p.resubmits;
        this.intrinsics = p.intrinsics;
        this.parser = p.parser;
        this.config = p.config;
        this.controls = Map.of();
        this.placement = List.copyOf(placement);
        this.actionProfiles = p.actionProfiles;
        this.tnaPorts = p.tnaPorts;
    }

    /** A copy of {@code p} with another config, other action profiles and ports seen as TNA ({@code tnaPorts}) or rmtemu numbers them. */
    private StageProgram(StageProgram p, Object config, List<ActionProfile> actionProfiles, boolean tnaPorts) {
        this.name = p.name;
        this.bridgedBytes = p.bridgedBytes;
        this.description = p.description;
        this.params = p.params;
        this.fields = p.fields;
        this.stages = p.stages;
        this.registers = p.registers;
        this.tables = p.tables;
        this.hashes = p.hashes;
        this.counters = p.counters;
        this.meters = p.meters;
        this.digests = p.digests;
        this.mirrors = p.mirrors;
        this.resubmits = p.resubmits;
        this.intrinsics = p.intrinsics;
        this.parser = p.parser;
        this.config = config;
        this.controls = p.controls;
        this.placement = p.placement;
        this.actionProfiles = List.copyOf(actionProfiles);
        this.tnaPorts = tnaPorts;
    }

    /** This program seeing ports as TNA numbers them (a P4 program; the builder's last step). */
    StageProgram withTnaPorts() {
        return new StageProgram(this, config, actionProfiles, true);
    }

    /**
     * True for a P4 (TNA) program: its port values (ingress_port, ucast_egress_port,
     * egress_port, control-script ports) are TNA's PortId_t, mapped to rmtemu's ports by
     * {@link dev.rmtemu.model.phv.ProgramPorts} where the target's ports fit TNA's numbering.
     */
    public boolean tnaPorts() {
        return tnaPorts;
    }

    /** This program with its action profiles and selectors (the builder's last step). */
    StageProgram withActionProfiles(List<ActionProfile> profiles) {
        return profiles.isEmpty() ? this : new StageProgram(this, config, profiles, tnaPorts);
    }

    /** All action profiles (with their selectors), indexed by id. */
    public List<ActionProfile> actionProfiles() {
        return actionProfiles;
    }

    /** The action profile named {@code name}, by its own name or its selector's. */
    public ActionProfile actionProfile(String name) {
        for (ActionProfile p : actionProfiles) {
            if (p.named(name)) {
                return p;
            }
        }
        List<String> names = new ArrayList<>();
        for (ActionProfile p : actionProfiles) {
            names.add(p.name());
            if (p.selector() != null) {
                names.add(p.selector().name());
            }
        }
        throw new UserError(names.isEmpty() ? "program " + this.name + " has no action profile or selector '" + name + "'"
                : "program " + this.name + " has no action profile or selector '" + name + "' (it has " + String.join(", ", names) + ")");
    }

    /** The fields table {@code tableName}'s action selector hashes (its {@code selector} key fields); empty without one. */
    public List<Field> selectorKey(String tableName) {
        ActionProfile p = implementationOf(tableName);
        return p == null || p.selector() == null ? List.of() : p.selector().key();
    }

    /** The action profile that implements table {@code tableName}, or null for a table with actions of its own. */
    public ActionProfile implementationOf(String tableName) {
        for (ActionProfile p : actionProfiles) {
            if (p.implementsTable(tableName)) {
                return p;
            }
        }
        return null;
    }

    /**
     * This program with its controls placed: {@code stages} per gress (ascending), every
     * register array, table, hash unit, counter and meter as placed (indexed by id), and why each
     * element is where it is. Only the compiler's table placement calls it.
     */
    public StageProgram placed(Map<Gress, List<StageDecl>> placedStages, List<RegisterArray> placedRegisters,
                               List<MatchTable> placedTables, List<HashUnit> placedHashes, List<Counter> placedCounters,
                               List<Meter> placedMeters, List<ElementPlacement> why) {
        if (controls.isEmpty()) {
            throw new IllegalStateException("program " + name + " has no control to place");
        }
        return new StageProgram(this, placedStages, placedRegisters, placedTables, placedHashes, placedCounters,
                placedMeters, why);
    }

    /** True unless a gress is a control the compiler has not placed yet ({@link #control}). */
    public boolean isPlaced() {
        return controls.isEmpty();
    }

    /** The unplaced control of a gress, or null (a staged gress, or a placed program). */
    public ControlDecl control(Gress g) {
        return controls.get(g);
    }

    /** Where the compiler placed each element of the program's controls and why; empty for a hand-placed program. */
    public List<ElementPlacement> placement() {
        return placement;
    }

    /**
     * This program carrying {@code config}: the factory's typed parameters (its config record,
     * built once from the validated {@link ProgramParams}), so the program's control plane and
     * report read them from the program a switch runs instead of parsing the parameters again.
     */
    public StageProgram withConfig(Object config) {
        return new StageProgram(this, config, actionProfiles, tnaPorts);
    }

    /** The program's parse graph and deparser (the default ones unless the program declared its own). */
    public ParserSpec parser() {
        return parser;
    }

    /** The typed parameters the factory built this program from ({@link #withConfig}); null if none. */
    public Object config() {
        return config;
    }

    public String name() {
        return name;
    }

    public String description() {
        return description;
    }

    /** The parameters the program was built with (sorted, for reports). */
    public SortedMap<String, String> params() {
        return params;
    }

    /** All fields, indexed by slot. */
    /**
     * Bytes of the bridged header ({@link ProgramBuilder#bridged}) every packet carries from
     * ingress to egress: the traffic manager buffers them with the packet (0: none).
     */
    public int bridgedBytes() {
        return bridgedBytes;
    }

    public List<Field> fields() {
        return fields;
    }

    /** Stages of a gress, ascending by stage number. */
    public List<StageDecl> stages(Gress g) {
        return stages.get(g);
    }

    public boolean uses(Gress g) {
        return !stages.get(g).isEmpty();
    }

    /** All register arrays, indexed by id. */
    public List<RegisterArray> registers() {
        return registers;
    }

    /** All tables, indexed by id. */
    public List<MatchTable> tables() {
        return tables;
    }

    public List<HashUnit> hashes() {
        return hashes;
    }

    /** All counters, indexed by id. */
    public List<Counter> counters() {
        return counters;
    }

    /** The learning digests of the ingress deparser, indexed by id. */
    public List<Digest> digests() {
        return digests;
    }

    /** The ingress deparser's resubmit headers, one per resubmit_type at most. */
    public List<Resubmit> resubmits() {
        return resubmits;
    }

    /** The mirrors of the ingress and egress deparsers, indexed by id. */
    public List<Mirror> mirrors() {
        return mirrors;
    }

    /** All meters, indexed by id. */
    public List<Meter> meters() {
        return meters;
    }

    /** The element of {@code elements} called {@code name}; a user error naming the program and the {@code kind} otherwise. */
    private <T> T named(List<T> elements, Function<T, String> nameOf, String kind, String name) {
        for (T e : elements) {
            if (nameOf.apply(e).equals(name)) {
                return e;
            }
        }
        throw new UserError("program " + this.name + " has no " + kind + " '" + name + "'");
    }

    public Counter counter(String name) {
        return named(counters, Counter::name, "counter", name);
    }

    public Meter meter(String name) {
        return named(meters, Meter::name, "meter", name);
    }

    /** The field carrying an intrinsic, or null when the program does not carry it. */
    public Field intrinsic(Intrinsic i) {
        return intrinsics.get(i);
    }

    public RegisterArray register(String name) {
        return named(registers, RegisterArray::name, "register array", name);
    }

    public MatchTable table(String name) {
        return named(tables, MatchTable::name, "table", name);
    }

    public Field field(String name) {
        for (Field f : fields) {
            if (f.name().equals(name)) {
                return f;
            }
        }
        throw new UserError("program " + this.name + " has no field '" + name + "'");
    }
}
