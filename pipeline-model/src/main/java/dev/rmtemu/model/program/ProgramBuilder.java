package dev.rmtemu.model.program;

import java.util.HashSet;
import java.util.Set;
import dev.rmtemu.model.extern.ActionProfile;
import dev.rmtemu.model.extern.Counter;
import dev.rmtemu.model.extern.CounterType;
import dev.rmtemu.model.extern.Digest;
import dev.rmtemu.model.extern.Mirror;
import dev.rmtemu.model.extern.Meter;
import dev.rmtemu.model.extern.MeterType;
import dev.rmtemu.model.extern.Resubmit;
import dev.rmtemu.model.extern.SelectorMode;
import dev.rmtemu.model.hash.HashAlgorithm;
import dev.rmtemu.model.hash.HashUnit;
import dev.rmtemu.model.ir.Block;
import dev.rmtemu.model.ir.IrInterpreter;
import dev.rmtemu.model.ir.Stmt;
import dev.rmtemu.model.parse.FieldRef;
import dev.rmtemu.model.parse.FieldSlice;
import dev.rmtemu.model.parse.ParseGraph;
import dev.rmtemu.model.parse.ParserSpec;
import dev.rmtemu.model.phv.Field;
import dev.rmtemu.model.phv.FieldKind;
import dev.rmtemu.model.phv.Gress;
import dev.rmtemu.model.phv.Intrinsic;
import dev.rmtemu.model.register.RegisterAction;
import dev.rmtemu.model.register.RegisterArray;
import dev.rmtemu.model.table.MatchKind;
import dev.rmtemu.model.table.MatchTable;
import dev.rmtemu.model.table.TableActions;
import dev.rmtemu.model.table.TableOptions;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * Declares a stage program: fields first, then per stage its hash units,
 * register arrays, register actions, tables and action code. Structural
 * mistakes (a name used twice, an action on another stage's array) fail here;
 * fitting a target is the resource checker's job.
 */
public final class ProgramBuilder {
    private final String name;
    private final String description;
    private final Map<String, String> params = new TreeMap<>();
    private final List<Field> fields = new ArrayList<>();
    private final Map<String, Field> fieldsByName = new LinkedHashMap<>();
    private final Map<Intrinsic, Field> intrinsics = new EnumMap<>(Intrinsic.class);
    private final List<Digest> digests = new ArrayList<>();
    private final List<Mirror> mirrors = new ArrayList<>();
    private final List<Resubmit> resubmits = new ArrayList<>();
    private final Map<Gress, Map<Integer, StageBuilder>> stages = new EnumMap<>(Gress.class);
    private final Map<Gress, ControlBuilder> controls = new EnumMap<>(Gress.class);
    private final List<RegisterArray> registers = new ArrayList<>();
    private final List<MatchTable> tables = new ArrayList<>();
    private final List<HashUnit> hashes = new ArrayList<>();
    private final List<Counter> counters = new ArrayList<>();
    private final List<Meter> meters = new ArrayList<>();
    private final List<ActionProfile> actionProfiles = new ArrayList<>();
    private final List<Field> bridged = new ArrayList<>();
    private final Set<String> resourceNames = new HashSet<>();
    private ParserSpec parser;
    private boolean built;

    private ProgramBuilder(String name, String description) {
        this.name = name;
        this.description = description;
        for (Intrinsic i : Intrinsic.values()) {
            if (i.always()) {
                intrinsic(i);
            }
        }
    }

    public static ProgramBuilder create(String name, String description) {
        return new ProgramBuilder(name, description);
    }

    /** Records a parameter value for reports. */
    public ProgramBuilder param(String key, Object value) {
        params.put(key, String.valueOf(value));
        return this;
    }

    /**
     * The program's own parse graph and deparser (its header types, the states that extract
     * them, their place in the emit order); declared before any header field, else the
     * program gets {@link ParserSpec#defaults()}.
     */
    public ProgramBuilder parser(ParserSpec spec) {
        checkOpen();
        if (parser != null) {
            throw new IllegalArgumentException("program " + name + ": parser declared after header fields or twice");
        }
        parser = spec;
        return this;
    }

    private ParserSpec parserSpec() {
        if (parser == null) {
            parser = ParserSpec.defaults();
        }
        return parser;
    }

    /**
     * A header field of the program's parse graph by its name ({@code ethernet.dst_addr}),
     * its width the header type's; a field wider than 64 bits is declared as slices in P4's
     * notation ({@code ipv6.src_addr[127:64]}, {@code ipv6.src_addr[63:0]}). Both gresses see it;
     * the parser fills it from the packet's bytes and the deparser writes it back.
     */
    public Field header(String wireName) {
        FieldSlice slice = slice("header " + wireName, wireName);
        if (slice.bits() > Field.MAX_WIDTH) {
            String base = slice.field();
            throw new IllegalArgumentException("header " + wireName + " is " + slice.bits() + " bits: declare slices of at most "
                    + Field.MAX_WIDTH + " (" + base + "[" + (slice.bits() - 1) + ":" + Field.MAX_WIDTH + "], " + base + "["
                    + (Field.MAX_WIDTH - 1) + ":0])");
        }
        return wire(wireName, slice.bits(), List.of(wireName));
    }

    /** As {@link #header(String)}, the PHV keeping only the field's low {@code width} bits ({@code NAME[WIDTH-1:0]}). */
    public Field header(String wireName, int width) {
        FieldSlice slice = slice("header " + wireName, wireName);
        if (width > slice.bits()) {
            throw new IllegalArgumentException("header " + wireName + ": " + width + " bits wider than the field (" + slice.bits() + ")");
        }
        return wire(wireName, width, List.of(width == slice.bits() ? wireName : wireName + "[" + (width - 1) + ":0]"));
    }

    /**
     * The validity bit of a header of the program's parse graph, {@code HEADER.$valid} as p4c
     * names it: 1 when the parser extracted the header. A condition on it is {@code isValid()};
     * setting it to 1 or 0 is {@code setValid()} / {@code setInvalid()} (the deparser then emits
     * or drops the header, and the wire length follows). Takes one PHV bit, as in p4c.
     */
    public Field valid(String header) {
        parserSpec().graph().header(header); // refuses an unknown header
        String n = header + VALID_SUFFIX;
        Field f = fieldsByName.get(n);
        return f != null ? f : wire(n, 1, List.of(n));
    }

    /**
     * One PHV field for fields of mutually exclusive headers ({@code l4.src_port} over
     * {@code tcp.src_port}, {@code udp.src_port}, {@code icmp.type}): the parser fills it from
     * the header it extracted (0 when none), the deparser writes it back there. This is p4c's
     * overlay of mutually exclusive fields in one PHV container; headers a parse can extract
     * together are refused. Its width is the widest field's; a narrower one is zero-extended.
     */
    public Field overlay(String fieldName, String... wireFields) {
        if (wireFields.length < 2) {
            throw new IllegalArgumentException("overlay " + fieldName + ": needs two or more header fields");
        }
        ParseGraph g = parserSpec().graph();
        int width = 0;
        List<FieldRef> refs = new ArrayList<>();
        for (String w : wireFields) {
            FieldSlice slice = slice("overlay " + fieldName, w);
            FieldRef r = g.field(slice.field());
            if (slice.bits() > Field.MAX_WIDTH) {
                throw new IllegalArgumentException("overlay " + fieldName + ": " + w + " is wider than " + Field.MAX_WIDTH + " bits");
            }
            for (FieldRef other : refs) {
                if (!g.mutuallyExclusive(other.header(), r.header())) {
                    throw new IllegalArgumentException("overlay " + fieldName + ": " + other.name() + " and " + slice.field()
                            + " are in headers one parse can extract together");
                }
            }
            refs.add(r);
            width = Math.max(width, slice.bits());
        }
        return wire(fieldName, width, List.of(wireFields));
    }

    /** The name p4c gives a header's validity bit, after the header's name. */
    public static final String VALID_SUFFIX = ".$valid";

    private FieldSlice slice(String what, String name) {
        try {
            return FieldSlice.parse(parserSpec().graph(), name);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(what + ": " + e.getMessage());
        }
    }

    private Field wire(String fieldName, int width, List<String> wireFields) {
        checkOpen();
        if (fieldsByName.containsKey(fieldName)) {
            throw new IllegalArgumentException("field " + fieldName + " declared twice");
        }
        Field f = new Field(fieldName, width, FieldKind.HEADER, null, wireFields, fields.size());
        fields.add(f);
        fieldsByName.put(fieldName, f);
        return f;
    }

    /**
     * A field of the program's bridged header: ingress adds it to the packet for egress
     * (Tofino's bridged metadata), so it travels through the traffic manager and occupies
     * buffer space there, and egress removes it before the packet leaves (the wire length
     * does not change). Both gresses see it; a fresh packet's is 0.
     */
    public Field bridged(String fieldName, int width) {
        checkOpen();
        if (fieldsByName.containsKey(fieldName)) {
            throw new IllegalArgumentException("field " + fieldName + " declared twice");
        }
        Field f = Field.bridged(fieldName, width, fields.size());
        fields.add(f);
        fieldsByName.put(fieldName, f);
        bridged.add(f);
        return f;
    }

    /** A metadata field of one gress. */
    public Field metadata(Gress gress, String fieldName, int width) {
        return addField(fieldName, width, FieldKind.METADATA, gress);
    }

    /** The field carrying an intrinsic; adds it to the PHV on first use. */
    public Field intrinsic(Intrinsic i) {
        Field f = intrinsics.get(i);
        if (f == null) {
            f = addField(i.p4Name(), i.width(), FieldKind.INTRINSIC, i.gress());
            intrinsics.put(i, f);
        }
        return f;
    }

    private Field addField(String fieldName, int width, FieldKind kind, Gress gress) {
        checkOpen();
        if (fieldsByName.containsKey(fieldName)) {
            throw new IllegalArgumentException("field " + fieldName + " declared twice");
        }
        Field f = new Field(fieldName, width, kind, gress, fields.size());
        fields.add(f);
        fieldsByName.put(fieldName, f);
        return f;
    }

    /**
     * A learning digest of the ingress deparser (TNA {@code Digest<T>.pack({...})}), sent for
     * every packet whose {@code ig_dprsr_md.digest_type} is {@code type}: {@code fields} named
     * {@code names} (T's members). Declares the digest_type intrinsic.
     */
    public Digest digest(String digestName, int type, List<String> names, List<Field> values) {
        checkOpen();
        for (Digest d : digests) {
            if (d.type() == type) {
                throw new IllegalArgumentException("digest " + digestName + ": digest_type " + type + " already selects digest "
                        + d.name());
            }
        }
        for (Field f : values) {
            if (!f.visibleIn(Gress.INGRESS)) {
                throw new IllegalArgumentException("digest " + digestName + " packs " + f.name() + " of the egress gress");
            }
        }
        Digest d = new Digest(digests.size(), digestName, type, names, values);
        claim(digestName);
        intrinsic(Intrinsic.DIGEST_TYPE);
        digests.add(d);
        return d;
    }

    /**
     * A mirror of {@code gress}'s deparser (TNA {@code Mirror().emit<H>(session, {fields})}) for
     * packets whose deparser metadata's {@code mirror_type} is {@code type}: the copy goes to the
     * session {@code session} holds, behind a mirror header of {@code values} named {@code names}.
     * Declares the gress's mirror_type intrinsic.
     */
    public Mirror mirror(Gress gress, int type, Field session, List<String> names, List<Field> values) {
        return mirror(gress, type, session, names, values, List.of());
    }

    /**
     * As {@link #mirror(Gress, int, Field, List, List)}, the copy's egress parser extracting the
     * mirror header into {@code egressFields} (egress metadata of the header fields' widths):
     * on its egress pass the copy's egress reads them, the header no longer in front of the frame.
     */
    public Mirror mirror(Gress gress, int type, Field session, List<String> names, List<Field> values, List<Field> egressFields) {
        checkOpen();
        for (Mirror m : mirrors) {
            if (m.gress() == gress && m.type() == type) {
                throw new IllegalArgumentException(gress.label() + " mirror: mirror_type " + type + " is already used");
            }
        }
        for (Field f : concat(session, values)) {
            if (!f.visibleIn(gress)) {
                throw new IllegalArgumentException(gress.label() + " mirror type " + type + " reads " + f.name()
                        + " of the other gress");
            }
        }
        Mirror m = new Mirror(mirrors.size(), gress, type, session, names, values, egressFields);
        intrinsic(gress == Gress.INGRESS ? Intrinsic.MIRROR_TYPE : Intrinsic.EGRESS_MIRROR_TYPE);
        mirrors.add(m);
        return m;
    }

    /**
     * The ingress deparser's resubmit header (TNA {@code Resubmit().emit<H>({fields})}) for
     * packets whose {@code resubmit_type} is {@code type}: on the resubmitted pass the fields
     * {@code values}, named {@code names}, have the values they had when ingress resubmitted
     * the packet. Declares the resubmit_type and resubmit_flag intrinsics.
     */
    public Resubmit resubmit(int type, List<String> names, List<Field> values) {
        return resubmit(type, names, values, values);
    }

    /**
     * As {@link #resubmit(int, List, List)}, the next pass's ingress parser extracting the header
     * into {@code parsedInto} (ingress metadata of the same widths; empty: it skips the header).
     */
    public Resubmit resubmit(int type, List<String> names, List<Field> values, List<Field> parsedInto) {
        checkOpen();
        for (Resubmit r : resubmits) {
            if (r.type() == type) {
                throw new IllegalArgumentException("resubmit: resubmit_type " + type + " is already used");
            }
        }
        Resubmit r = new Resubmit(type, names, values, parsedInto);
        intrinsic(Intrinsic.RESUBMIT);
        intrinsic(Intrinsic.RESUBMIT_FLAG);
        resubmits.add(r);
        return r;
    }

    private static List<Field> concat(Field first, List<Field> rest) {
        List<Field> all = new ArrayList<>(rest.size() + 1);
        all.add(first);
        all.addAll(rest);
        return all;
    }

    /** The declaration of stage {@code number} of a gress (created on first use). */
    public StageBuilder stage(Gress gress, int number) {
        checkOpen();
        if (controls.containsKey(gress)) {
            throw new IllegalArgumentException(gress.label() + " is written as a control (placed by the compiler); it has no stages to declare");
        }
        if (number < 0) {
            throw new IllegalArgumentException("stage number must be >= 0: " + number);
        }
        return stages.computeIfAbsent(gress, g -> new TreeMap<>())
                .computeIfAbsent(number, n -> new StageBuilder(gress, n));
    }

    /**
     * The gress written as a P4 control: elements declared without a stage and an apply body
     * in program order; the compiler places them ({@code model.compiler.TablePlacer}).
     */
    public ControlBuilder control(Gress gress) {
        checkOpen();
        if (stages.containsKey(gress)) {
            throw new IllegalArgumentException(gress.label() + " already declares stages; a gress is either staged or a control");
        }
        return controls.computeIfAbsent(gress, ControlBuilder::new);
    }

    /** A counter of the program (id = its index), also listed in its stage's or control's {@code own} list. */
    private Counter newCounter(String counterName, CounterType type, int widthBits, int size, Gress gress, int stage,
                               MatchTable t, List<Counter> own) {
        checkOpen();
        claim(counterName);
        Counter c = new Counter(counters.size(), counterName, type, widthBits, size, gress, stage, t);
        counters.add(c);
        own.add(c);
        return c;
    }

    /** A meter of the program (id = its index), also listed in its stage's or control's {@code own} list. */
    private Meter newMeter(String meterName, MeterType type, Meter.Algorithm algorithm, int size, Gress gress, int stage,
                           MatchTable t, List<Meter> own) {
        checkOpen();
        claim(meterName);
        Meter m = new Meter(meters.size(), meterName, type, algorithm, size, gress, stage, t);
        meters.add(m);
        own.add(m);
        return m;
    }

    /**
     * An action profile (and selector) implementing table {@code t}, of {@code gress}: the table
     * must declare the actions its members run, have no const entries and no other
     * implementation (another table joins it through {@link #shareActionProfile}).
     */
    private ActionProfile newActionProfile(String profileName, int size, ActionProfile.Selector selector, MatchTable t,
                                           Gress gress) {
        checkOpen();
        String what = (selector == null ? "action profile " : "action selector ") + (selector == null ? profileName : selector.name());
        if (!t.actions().declared()) {
            throw new IllegalArgumentException(what + ": table " + t.name() + " declares no actions for its members");
        }
        if (!t.constEntries().isEmpty()) {
            throw new IllegalArgumentException(what + ": table " + t.name() + " has const entries");
        }
        for (ActionProfile p : actionProfiles) {
            if (p.implementsTable(t.name())) {
                throw new IllegalArgumentException(what + ": table " + t.name() + " is already implemented by " + p.name());
            }
        }
        if (selector != null) {
            for (Field f : selector.key()) {
                checkVisible(gress, f, what);
            }
        }
        claim(profileName);
        if (selector != null) {
            claim(selector.name());
        }
        ActionProfile p = new ActionProfile(actionProfiles.size(), profileName, size, t.name(), gress, selector);
        actionProfiles.add(p);
        return p;
    }

    /**
     * Action profile {@code p} (with its selector, if any) also implementing table {@code t} of
     * {@code gress}: one set of members and groups for every table that shares it. The table
     * must be of the profile's gress (TNA declares the instance in one control), declare the
     * same actions as the profile's first table (a member is an action id and its data, run by
     * whichever table hits it), have no const entries and no other implementation; with a
     * selector, its selector key must be the first table's (the selector's one Hash computes one
     * hash: p4c's bmv2 back end refuses differing inputs, backends/bmv2/common/
     * sharedActionSelectorCheck.cpp).
     */
    private ActionProfile shareActionProfile(ActionProfile profile, MatchTable t, Gress gress, List<Field> selectorKey) {
        checkOpen();
        ActionProfile p = profile.id() < actionProfiles.size() ? actionProfiles.get(profile.id()) : null;
        if (p == null || !p.name().equals(profile.name())) {
            throw new IllegalArgumentException("action profile " + profile.name() + " is not declared in program " + name);
        }
        String what = p.selector() == null ? "action profile " + p.name() : "action selector " + p.selector().name();
        if (p.gress() != gress) {
            throw new IllegalArgumentException(what + " of " + p.gress().label() + " cannot implement " + gress.label()
                    + " table " + t.name() + " (a profile is shared by tables of one gress)");
        }
        if (!t.constEntries().isEmpty()) {
            throw new IllegalArgumentException(what + ": table " + t.name() + " has const entries");
        }
        for (ActionProfile other : actionProfiles) {
            if (other.implementsTable(t.name())) {
                throw new IllegalArgumentException(what + ": table " + t.name() + " is already implemented by " + other.name());
            }
        }
        MatchTable first = tables.get(tableIndex(p.table()));
        if (!t.actions().actions().equals(first.actions().actions())) {
            throw new IllegalArgumentException("tables " + first.name() + " and " + t.name() + " share " + what
                    + " but declare different actions (a member's action runs in either table)");
        }
        List<Field> key = List.copyOf(selectorKey);
        List<Field> shared = p.selector() == null ? List.of() : p.selector().key();
        if (!key.equals(shared)) {
            throw new IllegalArgumentException(p.selector() == null
                    ? what + ": table " + t.name() + " has selector key fields, but an action profile hashes none"
                    : "tables " + first.name() + " and " + t.name() + " share " + what + " but hash different selector keys ("
                    + names(shared) + " vs " + names(key) + ")");
        }
        ActionProfile both = p.sharedWith(t.name());
        actionProfiles.set(p.id(), both);
        return both;
    }

    private int tableIndex(String tableName) {
        for (int i = 0; i < tables.size(); i++) {
            if (tables.get(i).name().equals(tableName)) {
                return i;
            }
        }
        throw new IllegalStateException("table " + tableName + " of an action profile is not in program " + name);
    }

    private static String names(List<Field> fields) {
        List<String> out = new ArrayList<>();
        for (Field f : fields) {
            out.add(f.name());
        }
        return String.join(", ", out);
    }

    /** An LPF or a WRED (a meter-ALU extern, as p4c makes them meters), also listed in its stage's or control's {@code own} list. */
    private Meter newFilter(String filterName, Meter.Algorithm algorithm, int size, int outputBits, int dropValue, int noDropValue,
                            Gress gress, int stage, MatchTable t, List<Meter> own) {
        checkOpen();
        claim(filterName);
        Meter m = new Meter(meters.size(), filterName, MeterType.PACKETS, algorithm, size, gress, stage, t,
                outputBits, dropValue, noDropValue);
        meters.add(m);
        own.add(m);
        return m;
    }

    private void claim(String resource) {
        if (!resourceNames.add(resource)) {
            throw new IllegalArgumentException("name '" + resource + "' used twice in program " + name);
        }
    }

    /** See {@link #tnaPortNumbers()}. */
    private boolean tnaPorts;

    private void checkOpen() {
        if (built) {
            throw new IllegalStateException("program " + name + " already built");
        }
    }

    public StageProgram build() {
        checkOpen();
        Map<Gress, List<StageDecl>> decls = new EnumMap<>(Gress.class);
        for (Map.Entry<Gress, Map<Integer, StageBuilder>> e : stages.entrySet()) {
            List<StageDecl> list = new ArrayList<>();
            for (StageBuilder sb : e.getValue().values()) {
                list.add(sb.toDecl());
            }
            decls.put(e.getKey(), list);
        }
        Map<Gress, ControlDecl> unplaced = new EnumMap<>(Gress.class);
        for (ControlBuilder c : controls.values()) {
            unplaced.put(c.gress, c.toDecl());
        }
        built = true;
        StageProgram p = new StageProgram(name, description, params, fields, decls, registers, tables, hashes, intrinsics, bridged,
                counters, meters, digests, mirrors, resubmits, unplaced, parserSpec()).withActionProfiles(actionProfiles);
        return tnaPorts ? p.withTnaPorts() : p;
    }

    /**
     * The program sees ports as TNA numbers them (PortId_t, pipe = port >> 7: a P4 program's view,
     * {@link dev.rmtemu.model.phv.ProgramPorts}); without it, rmtemu's own numbers.
     */
    public ProgramBuilder tnaPortNumbers() {
        checkOpen();
        tnaPorts = true;
        return this;
    }

    /**
     * One gress as a P4 control: its hash units, register arrays, register actions and tables
     * carry no stage ({@link StageProgram#UNPLACED}) until the compiler places them; {@link #pin}
     * is P4's {@code @stage(N)}; {@link #apply} is the control's apply body in program order.
     */
    public final class ControlBuilder {
        private final Gress gress;
        private final List<HashUnit> ctlHashes = new ArrayList<>();
        private final List<RegisterArray> ctlRegisters = new ArrayList<>();
        private final List<RegisterAction> ctlActions = new ArrayList<>();
        private final List<MatchTable> ctlTables = new ArrayList<>();
        private final List<Counter> ctlCounters = new ArrayList<>();
        private final List<Meter> ctlMeters = new ArrayList<>();
        private final Map<String, Integer> pins = new TreeMap<>();
        private List<Stmt> body;

        private ControlBuilder(Gress gress) {
            this.gress = gress;
        }

        public HashUnit hash(String unitName, HashAlgorithm algorithm, int outputBits, Field... inputs) {
            return symmetricHash(unitName, algorithm, outputBits, null, inputs);
        }

        /**
         * A hash whose input i is hashed as {@code inputs[i] ^ inputs[partners[i]]} where
         * {@code partners[i] >= 0}: symmetric pairs, see {@link HashUnit}.
         */
        public HashUnit symmetricHash(String unitName, HashAlgorithm algorithm, int outputBits, int[] partners, Field... inputs) {
            checkOpen();
            for (Field f : inputs) {
                checkVisible(gress, f, "hash " + unitName);
            }
            claim(unitName);
            HashUnit h = new HashUnit(hashes.size(), unitName, algorithm, Arrays.asList(inputs), outputBits, gress,
                    StageProgram.UNPLACED, partners);
            hashes.add(h);
            ctlHashes.add(h);
            return h;
        }

        public RegisterArray register(String arrayName, int wordBits, int size) {
            return register(arrayName, wordBits, false, size);
        }

        public RegisterArray register(String arrayName, int wordBits, boolean pair, int size) {
            return register(arrayName, wordBits, pair, size, 0, 0);
        }

        /** A register array whose cells start at {@code initialLo} / {@code initialHi} (TNA's initial_value). */
        public RegisterArray register(String arrayName, int wordBits, boolean pair, int size, long initialLo, long initialHi) {
            checkOpen();
            claim(arrayName);
            RegisterArray r = new RegisterArray(registers.size(), arrayName, wordBits, pair, size, gress, StageProgram.UNPLACED,
                    initialLo, initialHi);
            registers.add(r);
            ctlRegisters.add(r);
            return r;
        }

        /**
         * A direct register of a table of this control (TNA {@code DirectRegister<T>([initial_value])}, the
         * table's {@code registers = r}): one cell per entry and the miss entry's, run by a register action
         * inside the table's actions ({@link dev.rmtemu.model.ir.Block#executeDirect}).
         */
        public RegisterArray directRegister(String arrayName, int wordBits, boolean pair, long initialLo, long initialHi,
                                            MatchTable t) {
            checkOpen();
            requireOwnTable(t, "direct register " + arrayName);
            claim(arrayName);
            RegisterArray r = RegisterArray.direct(registers.size(), arrayName, wordBits, pair, t, gress, StageProgram.UNPLACED,
                    initialLo, initialHi);
            registers.add(r);
            ctlRegisters.add(r);
            return r;
        }

        /**
         * Gives array {@code r} of this control the register-file rows {@code rows} (TNA
         * RegisterParams its actions read) and returns the array that replaces it; actions are
         * made on the returned array.
         */
        public RegisterArray withParams(RegisterArray r, List<RegisterArray.Param> rows) {
            checkOpen();
            int at = ctlRegisters.indexOf(r);
            if (at < 0 || ctlActions.stream().anyMatch(a -> a.array() == r)) {
                throw new IllegalArgumentException("register " + r.name() + ": params are bound before its actions, in its control");
            }
            RegisterArray bound = r.withParams(rows);
            ctlRegisters.set(at, bound);
            registers.set(registers.indexOf(r), bound);
            return bound;
        }

        public RegisterAction action(RegisterAction.Builder b) {
            return action(b.build());
        }

        public RegisterAction action(RegisterAction a) {
            checkOpen();
            if (!ctlRegisters.contains(a.array())) {
                throw new IllegalArgumentException("register action " + a.name() + " of array " + a.array().name()
                        + ": the array is not declared in the " + gress.label() + " control");
            }
            ctlActions.add(a);
            return a;
        }

        public MatchTable table(String tableName, MatchKind kind, int size, int actionDataBits, Field... key) {
            return table(tableName, kind, size, actionDataBits, TableActions.NONE, key);
        }

        /** A table whose actions the control plane names ({@code table_add TABLE ACTION ...}). */
        public MatchTable table(String tableName, MatchKind kind, int size, int actionDataBits, TableActions actions,
                                Field... key) {
            return table(tableName, kind, size, actionDataBits, actions, List.of(), key);
        }

        /** As above, with the entries the program fixes (P4's {@code const entries}: the control plane cannot change them). */
        public MatchTable table(String tableName, MatchKind kind, int size, int actionDataBits, TableActions actions,
                                List<MatchTable.ConstEntry> constEntries, Field... key) {
            return table(tableName, kind, size, actionDataBits, actions, constEntries, TableOptions.NONE, key);
        }

        /** As above, with an idle timeout and/or an ALPM or ATCAM shape (P4's {@code idle_timeout}, {@code implementation = Alpm(...)}). */
        public MatchTable table(String tableName, MatchKind kind, int size, int actionDataBits, TableActions actions,
                                List<MatchTable.ConstEntry> constEntries, TableOptions options, Field... key) {
            checkOpen();
            for (Field f : key) {
                checkVisible(gress, f, "table " + tableName);
            }
            claim(tableName);
            MatchTable t = new MatchTable(tables.size(), tableName, kind, Arrays.asList(key), size, actionDataBits, gress,
                    StageProgram.UNPLACED, constEntries, actions, options);
            tables.add(t);
            ctlTables.add(t);
            return t;
        }

        /**
         * As above, with a match kind per key field (P4's {@code key = { f : exact; g : range; }}): the
         * table is of {@link MatchTable#kindOf} them.
         */
        public MatchTable table(String tableName, List<MatchKind> fieldKinds, int size, int actionDataBits, TableActions actions,
                                List<MatchTable.ConstEntry> constEntries, TableOptions options, Field... key) {
            checkOpen();
            for (Field f : key) {
                checkVisible(gress, f, "table " + tableName);
            }
            claim(tableName);
            MatchTable t = new MatchTable(tables.size(), tableName, MatchTable.kindOf(fieldKinds), Arrays.asList(key), size,
                    actionDataBits, gress, StageProgram.UNPLACED, constEntries, actions, options, fieldKinds);
            tables.add(t);
            ctlTables.add(t);
            return t;
        }

        /** An indirect counter of {@code size} cells (TNA {@code Counter<bit<W>, _>(size, type)}), placed with its users. */
        public Counter counter(String counterName, CounterType type, int widthBits, int size) {
            return addCounter(counterName, type, widthBits, size, null);
        }

        /** A direct counter of a table of this control (TNA {@code DirectCounter<bit<W>>(type)}): one cell per entry. */
        public Counter directCounter(String counterName, CounterType type, int widthBits, MatchTable t) {
            requireOwnTable(t, "direct counter " + counterName);
            return addCounter(counterName, type, widthBits, t.size(), t);
        }

        private Counter addCounter(String counterName, CounterType type, int widthBits, int size, MatchTable t) {
            return newCounter(counterName, type, widthBits, size, gress, StageProgram.UNPLACED, t, ctlCounters);
        }

        /** An indirect meter of {@code size} cells (TNA {@code Meter<_>(size, type)}), placed with its users. */
        public Meter meter(String meterName, MeterType type, Meter.Algorithm algorithm, int size) {
            return addMeter(meterName, type, algorithm, size, null);
        }

        /** A direct meter of a table of this control (TNA {@code DirectMeter(type)}): one cell per entry. */
        public Meter directMeter(String meterName, MeterType type, Meter.Algorithm algorithm, MatchTable t) {
            requireOwnTable(t, "direct meter " + meterName);
            return addMeter(meterName, type, algorithm, t.size(), t);
        }

        private Meter addMeter(String meterName, MeterType type, Meter.Algorithm algorithm, int size, MatchTable t) {
            return newMeter(meterName, type, algorithm, size, gress, StageProgram.UNPLACED, t, ctlMeters);
        }

        /** TNA's {@code ActionProfile(size)} as table {@code t}'s implementation: entries point at members. */
        public ActionProfile actionProfile(String profileName, int size, MatchTable t) {
            requireOwnTable(t, "action profile " + profileName);
            return newActionProfile(profileName, size, null, t, gress);
        }

        /**
         * TNA's {@code ActionSelector(ActionProfile(size), Hash<bit<hashBits>>(algorithm), mode, maxGroupSize,
         * numGroups)} as table {@code t}'s implementation: entries point at members or groups, the
         * hash over {@code selectorKey} (the table's {@code selector} key fields) picks a group's member.
         */
        public ActionProfile actionSelector(String profileName, int size, String selectorName, HashAlgorithm algorithm,
                                            int hashBits, SelectorMode mode, int maxGroupSize, int numGroups, MatchTable t,
                                            Field... selectorKey) {
            requireOwnTable(t, "action selector " + selectorName);
            return newActionProfile(profileName, size, new ActionProfile.Selector(selectorName, algorithm, hashBits, mode,
                    maxGroupSize, numGroups, Arrays.asList(selectorKey)), t, gress);
        }

        /**
         * Action profile {@code p} (the one this control's {@code actionProfile}/{@code actionSelector}
         * returned) also implementing table {@code t} of this control: the same instance named in
         * both tables' {@code implementation}; {@code selectorKey} is the table's selector key
         * (the first table's, for a selector). Returns the profile as it now is.
         */
        public ActionProfile shareActionProfile(ActionProfile p, MatchTable t, Field... selectorKey) {
            requireOwnTable(t, "action profile " + p.name());
            return ProgramBuilder.this.shareActionProfile(p, t, gress, Arrays.asList(selectorKey));
        }

        /** An indirect low-pass filter of {@code size} cells of {@code widthBits} (TNA {@code Lpf<bit<W>, _>(size)}), placed with its users. */
        public Meter lpf(String lpfName, int widthBits, int size) {
            return newFilter(lpfName, Meter.Algorithm.LPF, size, widthBits, 0, 0, gress, StageProgram.UNPLACED, null, ctlMeters);
        }

        /** A direct low-pass filter of a table of this control (TNA {@code DirectLpf<bit<W>>()}): one cell per entry. */
        public Meter directLpf(String lpfName, int widthBits, MatchTable t) {
            requireOwnTable(t, "direct lpf " + lpfName);
            return newFilter(lpfName, Meter.Algorithm.LPF, t.size(), widthBits, 0, 0, gress, StageProgram.UNPLACED, t, ctlMeters);
        }

        /** An indirect WRED of {@code size} cells (TNA {@code Wred<_, _>(size, drop_value, no_drop_value)}), placed with its users. */
        public Meter wred(String wredName, int size, int dropValue, int noDropValue) {
            return newFilter(wredName, Meter.Algorithm.WRED, size, 8, dropValue, noDropValue, gress, StageProgram.UNPLACED, null,
                    ctlMeters);
        }

        /** A direct WRED of a table of this control (TNA {@code DirectWred<_>(drop_value, no_drop_value)}). */
        public Meter directWred(String wredName, int dropValue, int noDropValue, MatchTable t) {
            requireOwnTable(t, "direct wred " + wredName);
            return newFilter(wredName, Meter.Algorithm.WRED, t.size(), 8, dropValue, noDropValue, gress, StageProgram.UNPLACED, t,
                    ctlMeters);
        }

        private void requireOwnTable(MatchTable t, String what) {
            if (!ctlTables.contains(t)) {
                throw new IllegalArgumentException(what + ": table " + t.name() + " is not declared in the "
                        + gress.label() + " control");
            }
        }

        /** P4's {@code @stage(N)} on a table, register array, hash unit or indirect counter or meter of this control. */
        public ControlBuilder pin(String element, int stage) {
            checkOpen();
            if (stage < 0) {
                throw new IllegalArgumentException("@stage(" + stage + ") on " + element + ": a stage number is >= 0");
            }
            boolean known = ctlTables.stream().anyMatch(t -> t.name().equals(element))
                    || ctlRegisters.stream().anyMatch(r -> r.name().equals(element))
                    || ctlHashes.stream().anyMatch(h -> h.name().equals(element))
                    || ctlCounters.stream().anyMatch(x -> x.name().equals(element))
                    || ctlMeters.stream().anyMatch(x -> x.name().equals(element));
            if (!known) {
                throw new IllegalArgumentException("@stage(" + stage + ") on " + element + ": no table, register array, "
                        + "hash unit, counter or meter of that name in the " + gress.label() + " control");
            }
            pins.put(element, stage);
            return this;
        }

        /** The control's apply body, in program order: {@code code} runs once, now. */
        public ControlBuilder apply(Consumer<Block> code) {
            checkOpen();
            if (body != null) {
                throw new IllegalArgumentException("the " + gress.label() + " control already has an apply body");
            }
            Block b = new Block();
            code.accept(b);
            DirectUse.check(b.statements(), gress.label() + " control");
            body = b.statements();
            return this;
        }

        private ControlDecl toDecl() {
            return new ControlDecl(gress, ctlHashes, ctlRegisters, ctlActions, ctlTables, ctlCounters, ctlMeters, pins,
                    body == null ? List.of() : body);
        }
    }

    private static void checkVisible(Gress gress, Field f, String user) {
        if (!f.visibleIn(gress)) {
            throw new IllegalArgumentException(user + " in " + gress.label() + " reads " + f.name() + " of the other gress");
        }
    }

    /** One stage of one gress. */
    public final class StageBuilder {
        private final Gress gress;
        private final int number;
        private StageDependency dependency = StageDependency.MATCH;
        private final List<HashUnit> stageHashes = new ArrayList<>();
        private final List<RegisterArray> stageRegisters = new ArrayList<>();
        private final List<RegisterAction> stageActions = new ArrayList<>();
        private final List<MatchTable> stageTables = new ArrayList<>();
        private final List<Counter> stageCounters = new ArrayList<>();
        private final List<Meter> stageMeters = new ArrayList<>();
        private List<Stmt> body;

        private StageBuilder(Gress gress, int number) {
            this.gress = gress;
            this.number = number;
        }

        public StageBuilder dependency(StageDependency d) {
            this.dependency = d;
            return this;
        }

        public HashUnit hash(String unitName, HashAlgorithm algorithm, int outputBits, Field... inputs) {
            checkOpen();
            for (Field f : inputs) {
                checkVisible(f, "hash " + unitName);
            }
            claim(unitName);
            HashUnit h = new HashUnit(hashes.size(), unitName, algorithm, Arrays.asList(inputs), outputBits, gress, number);
            hashes.add(h);
            stageHashes.add(h);
            return h;
        }

        /** A register array of single words. */
        public RegisterArray register(String arrayName, int wordBits, int size) {
            return register(arrayName, wordBits, false, size);
        }

        /** A register array; {@code pair} makes each cell a lo/hi pair of words. */
        public RegisterArray register(String arrayName, int wordBits, boolean pair, int size) {
            checkOpen();
            claim(arrayName);
            RegisterArray r = new RegisterArray(registers.size(), arrayName, wordBits, pair, size, gress, number);
            registers.add(r);
            stageRegisters.add(r);
            return r;
        }

        /** A direct register of a table of this stage (TNA {@code DirectRegister<T>()}): one cell per entry and the miss entry's. */
        public RegisterArray directRegister(String arrayName, int wordBits, boolean pair, MatchTable t) {
            checkOpen();
            requireOwnTable(t, "direct register " + arrayName);
            claim(arrayName);
            RegisterArray r = RegisterArray.direct(registers.size(), arrayName, wordBits, pair, t, gress, number, 0, 0);
            registers.add(r);
            stageRegisters.add(r);
            return r;
        }

        /** Declares a register action of an array of this stage. */
        public RegisterAction action(RegisterAction.Builder b) {
            return action(b.build());
        }

        public RegisterAction action(RegisterAction a) {
            checkOpen();
            if (!stageRegisters.contains(a.array())) {
                throw new IllegalArgumentException("register action " + a + " declared in " + gress.label() + " stage " + number
                        + " but its array is placed elsewhere");
            }
            stageActions.add(a);
            return a;
        }

        public MatchTable table(String tableName, MatchKind kind, int size, int actionDataBits, Field... key) {
            return table(tableName, kind, size, actionDataBits, TableActions.NONE, key);
        }

        /**
         * A table whose actions the control plane names ({@code table_add TABLE ACTION ...}); its
         * action data is as wide as its widest action's parameters.
         */
        public MatchTable table(String tableName, MatchKind kind, int size, TableActions actions, Field... key) {
            return table(tableName, kind, size, actions.dataBits(), actions, key);
        }

        /** As above, with action data of {@code actionDataBits} (at least the widest action's parameters). */
        public MatchTable table(String tableName, MatchKind kind, int size, int actionDataBits, TableActions actions,
                                 Field... key) {
            return table(tableName, kind, size, actionDataBits, actions, TableOptions.NONE, key);
        }

        /** As above, with an idle timeout and/or an ALPM or ATCAM shape ({@link TableOptions}). */
        public MatchTable table(String tableName, MatchKind kind, int size, int actionDataBits, TableActions actions,
                                TableOptions options, Field... key) {
            checkOpen();
            for (Field f : key) {
                checkVisible(f, "table " + tableName);
            }
            claim(tableName);
            MatchTable t = new MatchTable(tables.size(), tableName, kind, Arrays.asList(key), size, actionDataBits, gress, number,
                    List.of(), actions, options);
            tables.add(t);
            stageTables.add(t);
            return t;
        }

        /**
         * An exact table whose entries are constants of the program (P4's {@code const entries}),
         * e.g. a precomputed function of a few key bits that a stage's ALUs cannot compute.
         */
        public MatchTable constTable(String tableName, int actionDataBits, List<MatchTable.ConstEntry> entries, Field... key) {
            checkOpen();
            for (Field f : key) {
                checkVisible(f, "table " + tableName);
            }
            claim(tableName);
            MatchTable t = new MatchTable(tables.size(), tableName, MatchKind.EXACT, Arrays.asList(key), entries.size(),
                    actionDataBits, gress, number, entries);
            tables.add(t);
            stageTables.add(t);
            return t;
        }

        /** An indirect counter of {@code size} cells (TNA {@code Counter<bit<W>, _>(size, type)}). */
        public Counter counter(String counterName, CounterType type, int widthBits, int size) {
            return addCounter(counterName, type, widthBits, size, null);
        }

        /** A direct counter of a table of this stage (TNA {@code DirectCounter<bit<W>>(type)}): one cell per entry. */
        public Counter directCounter(String counterName, CounterType type, int widthBits, MatchTable t) {
            requireOwnTable(t, "direct counter " + counterName);
            return addCounter(counterName, type, widthBits, t.size(), t);
        }

        private Counter addCounter(String counterName, CounterType type, int widthBits, int size, MatchTable t) {
            return newCounter(counterName, type, widthBits, size, gress, number, t, stageCounters);
        }

        /** An indirect meter of {@code size} cells (TNA {@code Meter<_>(size, type)}; Tofino meters are RFC 2698 trTCMs). */
        public Meter meter(String meterName, MeterType type, Meter.Algorithm algorithm, int size) {
            return addMeter(meterName, type, algorithm, size, null);
        }

        /** A direct meter of a table of this stage (TNA {@code DirectMeter(type)}): one cell per entry. */
        public Meter directMeter(String meterName, MeterType type, Meter.Algorithm algorithm, MatchTable t) {
            requireOwnTable(t, "direct meter " + meterName);
            return addMeter(meterName, type, algorithm, t.size(), t);
        }

        private Meter addMeter(String meterName, MeterType type, Meter.Algorithm algorithm, int size, MatchTable t) {
            return newMeter(meterName, type, algorithm, size, gress, number, t, stageMeters);
        }

        /** TNA's {@code ActionProfile(size)} as the implementation of table {@code t} of this stage. */
        public ActionProfile actionProfile(String profileName, int size, MatchTable t) {
            requireOwnTable(t, "action profile " + profileName);
            return newActionProfile(profileName, size, null, t, gress);
        }

        /** TNA's {@code ActionSelector} as the implementation of table {@code t} of this stage (see the control's). */
        public ActionProfile actionSelector(String profileName, int size, String selectorName, HashAlgorithm algorithm,
                                            int hashBits, SelectorMode mode, int maxGroupSize, int numGroups, MatchTable t,
                                            Field... selectorKey) {
            requireOwnTable(t, "action selector " + selectorName);
            return newActionProfile(profileName, size, new ActionProfile.Selector(selectorName, algorithm, hashBits, mode,
                    maxGroupSize, numGroups, Arrays.asList(selectorKey)), t, gress);
        }

        /** Action profile {@code p} also implementing table {@code t} of this stage (see the control's). */
        public ActionProfile shareActionProfile(ActionProfile p, MatchTable t, Field... selectorKey) {
            requireOwnTable(t, "action profile " + p.name());
            return ProgramBuilder.this.shareActionProfile(p, t, gress, Arrays.asList(selectorKey));
        }

        /** An indirect low-pass filter of {@code size} cells of {@code widthBits} (TNA {@code Lpf<bit<W>, _>(size)}). */
        public Meter lpf(String lpfName, int widthBits, int size) {
            return newFilter(lpfName, Meter.Algorithm.LPF, size, widthBits, 0, 0, gress, number, null, stageMeters);
        }

        /** A direct low-pass filter of a table of this stage (TNA {@code DirectLpf<bit<W>>()}): one cell per entry. */
        public Meter directLpf(String lpfName, int widthBits, MatchTable t) {
            requireOwnTable(t, "direct lpf " + lpfName);
            return newFilter(lpfName, Meter.Algorithm.LPF, t.size(), widthBits, 0, 0, gress, number, t, stageMeters);
        }

        /** An indirect WRED of {@code size} cells (TNA {@code Wred<_, _>(size, drop_value, no_drop_value)}). */
        public Meter wred(String wredName, int size, int dropValue, int noDropValue) {
            return newFilter(wredName, Meter.Algorithm.WRED, size, 8, dropValue, noDropValue, gress, number, null, stageMeters);
        }

        /** A direct WRED of a table of this stage (TNA {@code DirectWred<_>(drop_value, no_drop_value)}). */
        public Meter directWred(String wredName, int dropValue, int noDropValue, MatchTable t) {
            requireOwnTable(t, "direct wred " + wredName);
            return newFilter(wredName, Meter.Algorithm.WRED, t.size(), 8, dropValue, noDropValue, gress, number, t, stageMeters);
        }

        private void requireOwnTable(MatchTable t, String what) {
            if (!stageTables.contains(t)) {
                throw new IllegalArgumentException(what + " declared in " + gress.label() + " stage " + number
                        + " but table " + t.name() + " is placed elsewhere");
            }
        }

        /**
         * The stage's code as IR: {@code code} runs once, now, and records the
         * stage's tables, gateways, register actions and VLIW instructions.
         */
        public StageBuilder body(Consumer<Block> code) {
            checkOpen();
            if (body != null) {
                throw new IllegalArgumentException(gress.label() + " stage " + number + " already has a body");
            }
            Block b = new Block();
            code.accept(b);
            this.body = b.statements();
            return this;
        }

        private void checkVisible(Field f, String user) {
            if (!f.visibleIn(gress)) {
                throw new IllegalArgumentException(user + " in " + gress.label() + " reads " + f.name() + " of the other gress");
            }
        }

        private StageDecl toDecl() {
            List<Stmt> code = body == null ? List.of() : body; // a stage that only declares state runs nothing
            DirectUse.check(code, gress.label() + " stage " + number);
            return new StageDecl(gress, number, dependency, stageHashes, stageRegisters, stageActions, stageTables,
                    new IrInterpreter(gress, number, stageActions, stageTables, stageMeters, code), code, stageCounters,
                    stageMeters);
        }
    }
}
