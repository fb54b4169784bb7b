package dev.rmtemu.model.runtime;

import dev.rmtemu.model.UserError;
import dev.rmtemu.model.extern.ActionProfile;
import dev.rmtemu.model.extern.ActionProfileState;
import dev.rmtemu.model.extern.Counter;
import dev.rmtemu.model.extern.CounterCells;
import dev.rmtemu.model.extern.LpfType;
import dev.rmtemu.model.extern.Meter;
import dev.rmtemu.model.phv.Gress;

import java.util.ArrayList;
import java.util.List;
import dev.rmtemu.model.program.StageProgram;
import dev.rmtemu.model.register.RegisterArray;
import dev.rmtemu.model.table.MatchKind;
import dev.rmtemu.model.table.MatchTable;
import dev.rmtemu.model.table.HitClock;
import dev.rmtemu.model.table.TableState;

/**
 * The state of one switch running a program: register arrays instantiated once
 * per pipe and per gress (so ingress and egress never share state), and table
 * entries (installed symmetrically in every pipe, as Tofino's default).
 * This is also the control plane's view: read, write and reset registers,
 * install table entries.
 */
public final class PipelineState {
    private final StageProgram program;
    private final int pipes;
    private final RegisterFile[][] files;
    private final ExternFile[][] externs;
    private final TableState[] tables;
    /** Members and groups of each action profile, by id (installed symmetrically, like table entries). */
    private final ActionProfileState[] profiles;
    /** The time of the pass running, which a hit stamps on an entry of a table with an idle timeout. */
    private final HitClock hitClock = new HitClock();
    /** What the control plane's counter reads returned, in the order they ran (see {@link #noteCounterRead}). */
    private final List<CounterRead> counterReads = new ArrayList<>();

    /** One {@code counter_read}: where it was asked (a script's FILE:LINE), at which cycle, and the cell's values. */
    public record CounterRead(String where, long cycle, String counter, int index, long packets, long bytes) {
    }

    public PipelineState(StageProgram program, int pipes) {
        if (pipes < 1) {
            throw new IllegalArgumentException("pipes must be >= 1");
        }
        this.program = program;
        this.pipes = pipes;
        this.files = new RegisterFile[pipes][Gress.values().length];
        this.externs = new ExternFile[pipes][Gress.values().length];
        for (int p = 0; p < pipes; p++) {
            for (Gress g : Gress.values()) {
                files[p][g.ordinal()] = new RegisterFile(program.registers(), g);
                externs[p][g.ordinal()] = new ExternFile(program.counters(), program.meters(), g);
            }
        }
        tables = new TableState[program.tables().size()];
        for (MatchTable t : program.tables()) {
            tables[t.id()] = new TableState(t, hitClock);
            int priority = 0;
            for (MatchTable.ConstEntry e : t.constEntries()) {
                // in a ternary or range table the earlier entry wins: its priority value is the lower
                installConst(tables[t.id()], e, priority++);
            }
        }
        profiles = new ActionProfileState[program.actionProfiles().size()];
        for (ActionProfile p : program.actionProfiles()) {
            profiles[p.id()] = new ActionProfileState(p);
            for (String t : p.tables()) { // a shared profile: one set of members and groups for all its tables
                table(t).attachProfile(profiles[p.id()]);
            }
        }
    }

    /** The members and groups of the action profile or selector named {@code name}. */
    public ActionProfileState actionProfile(String name) {
        return profiles[program.actionProfile(name).id()];
    }

    public StageProgram program() {
        return program;
    }

    /** The emulated time table hits are stamped with (idle timeout): the engine's pass executor sets it before each pass. */
    public HitClock hitClock() {
        return hitClock;
    }

    public int pipes() {
        return pipes;
    }

    /** Register storage of a pipe and gress (engine use). */
    public RegisterFile registers(int pipe, Gress gress) {
        return files[pipe][gress.ordinal()];
    }

    /** Counters and meters of a pipe and gress (engine use). */
    public ExternFile externs(int pipe, Gress gress) {
        return externs[pipe][gress.ordinal()];
    }

    /** Table state indexed by table id (generated stage code). */
    TableState[] tableStates() {
        return tables;
    }

    public TableState table(MatchTable t) {
        return tables[t.id()];
    }

    public TableState table(String name) {
        return tables[program.table(name).id()];
    }

    // ---- control plane ----

    public long readRegister(int pipe, String array, int index) {
        RegisterArray a = program.register(array);
        checkCell(pipe, a, index);
        return registers(pipe, a.gress()).readLo(a, index);
    }

    public long readRegisterHi(int pipe, String array, int index) {
        RegisterArray a = program.register(array);
        checkCell(pipe, a, index);
        return registers(pipe, a.gress()).readHi(a, index);
    }

    public void writeRegister(int pipe, String array, int index, long lo, long hi) {
        RegisterArray a = program.register(array);
        checkCell(pipe, a, index);
        registers(pipe, a.gress()).write(a, index, lo, hi);
    }

    /**
     * A new entry of {@code t} took {@code handle}: the cells of the table's direct registers for
     * that handle start at the register's initial value in every pipe (a table add sets an
     * entry's direct register data, 0 or initial_value unless given, as BF Runtime's add does),
     * so a reused handle does not inherit a deleted entry's state.
     */
    public void entryInstalled(MatchTable t, int handle) {
        for (RegisterArray a : program.registers()) {
            if (a.direct() && a.table().name().equals(t.name())) {
                for (int p = 0; p < pipes; p++) {
                    registers(p, a.gress()).write(a, handle, a.initialLo(), a.initialHi());
                }
            }
        }
    }

    /** Sets RegisterParam {@code param} of array {@code array} (its register-file row) in one pipe. */
    public void setRegisterParam(int pipe, String array, String param, long value) {
        RegisterArray a = program.register(array);
        checkPipe(pipe);
        registers(pipe, a.gress()).setParam(a, paramRow(a, param), value);
    }

    /** The current value of RegisterParam {@code param} of array {@code array} in one pipe. */
    public long registerParam(int pipe, String array, String param) {
        RegisterArray a = program.register(array);
        checkPipe(pipe);
        return registers(pipe, a.gress()).param(a, paramRow(a, param));
    }

    private static int paramRow(RegisterArray a, String param) {
        for (int row = 0; row < a.params().size(); row++) {
            if (a.params().get(row).name().equals(param)) {
                return row;
            }
        }
        throw new UserError("register " + a.name() + " reads no RegisterParam " + param);
    }

    /** Zeroes an array in every pipe. */
    public void resetRegister(String array) {
        RegisterArray a = program.register(array);
        for (int p = 0; p < pipes; p++) {
            registers(p, a.gress()).reset(a);
        }
    }

    /** A copy of the lo words of an array in one pipe. */
    public long[] snapshot(int pipe, String array) {
        RegisterArray a = program.register(array);
        checkPipe(pipe);
        return registers(pipe, a.gress()).snapshotLo(a);
    }

    /** A copy of the hi words of a pair array in one pipe. */
    public long[] snapshotHi(int pipe, String array) {
        RegisterArray a = program.register(array);
        checkPipe(pipe);
        return registers(pipe, a.gress()).snapshotHi(a);
    }

    /**
     * A counter cell summed over every pipe (the control plane's view of a symmetric program):
     * {packets, bytes}. For a direct counter the index is the entry's handle, or the table's
     * size for the miss entry's cell ({@link Counter#cells()}).
     */
    public long[] readCounter(String name, int index) {
        Counter c = program.counter(name);
        checkCell("counter", name, index, c.cells());
        long packets = 0;
        long bytes = 0;
        for (int p = 0; p < pipes; p++) {
            CounterCells cells = externs(p, c.gress()).counter(c);
            packets += cells.packets(index);
            bytes += cells.bytes(index);
        }
        return new long[] {packets, bytes};
    }

    /** Reads a counter cell ({@link #readCounter}) and keeps the answer for the run's record. */
    public CounterRead noteCounterRead(String where, long cycle, String name, int index) {
        long[] v = readCounter(name, index);
        CounterRead r = new CounterRead(where, cycle, name, index, v[0], v[1]);
        counterReads.add(r);
        return r;
    }

    /** The counter reads so far, in order. */
    public List<CounterRead> counterReads() {
        return List.copyOf(counterReads);
    }

    /** Zeroes a counter in every pipe. */
    public void resetCounter(String name) {
        Counter c = program.counter(name);
        for (int p = 0; p < pipes; p++) {
            externs(p, c.gress()).counter(c).reset();
        }
    }

    /**
     * Sets a meter cell's rates (units per second) and bursts (units) in every pipe, both
     * buckets full: trTCM CIR, CBS, PIR, PBS; srTCM CIR, CBS, CIR, EBS.
     */
    public void setMeterRates(String name, int index, long cir, long cbs, long pir, long pbs) {
        Meter m = program.meter(name);
        checkCell("meter", name, index, m.cells());
        for (int p = 0; p < pipes; p++) {
            externs(p, m.gress()).meter(m).setRates(index, cir, cbs, pir, pbs);
        }
    }

    /** Sets an LPF cell's spec in every pipe (bf-runtime's LPF spec fields; {@link dev.rmtemu.model.extern.LpfCells}). */
    public void setLpfParams(String name, int index, LpfType type, double gainNs, double decayNs, int outScaleDown) {
        Meter m = filter(name, Meter.Algorithm.LPF, index);
        for (int p = 0; p < pipes; p++) {
            externs(p, m.gress()).meter(m).lpf().setParams(index, type, gainNs, decayNs, outScaleDown);
        }
    }

    /** Sets a WRED cell's spec in every pipe (bf-runtime's WRED spec fields; {@link dev.rmtemu.model.extern.WredCells}). */
    public void setWredParams(String name, int index, double timeConstantNs, long minCells, long maxCells, double maxProbability) {
        Meter m = filter(name, Meter.Algorithm.WRED, index);
        for (int p = 0; p < pipes; p++) {
            externs(p, m.gress()).meter(m).wred().setParams(index, timeConstantNs, minCells, maxCells, maxProbability);
        }
    }

    private Meter filter(String name, Meter.Algorithm algorithm, int index) {
        Meter m = program.meter(name);
        String kind = algorithm == Meter.Algorithm.LPF ? "lpf" : "wred";
        if (m.algorithm() != algorithm) {
            throw new UserError(m.kind() + " " + name + " is no " + kind);
        }
        checkCell(kind, name, index, m.cells());
        return m;
    }

    private static void checkCell(String what, String name, int index, int size) {
        if (index < 0 || index >= size) {
            throw new UserError(what + " " + name + ": index " + index + " outside 0.." + (size - 1));
        }
    }

    /**
     * Installs a constant entry as its table's kind takes it: an LPM entry by the prefix its lpm
     * field's mask gives (the longest prefix wins, whatever the order); a range entry with its
     * other fields' values under their masks and their bounds spanning them.
     */
    private static void installConst(TableState s, MatchTable.ConstEntry e, int priority) {
        MatchTable t = s.table();
        long[] packed = pack(t, e.key());
        switch (t.kind()) {
            case EXACT -> s.addExact(packed[0], packed[1], e.action(), e.data());
            case TERNARY -> {
                long[] mask = pack(t, e.mask());
                s.addTernary(packed[0], packed[1], mask[0], mask[1], priority, e.action(), e.data());
            }
            case LPM -> {
                int prefix = Long.bitCount(e.mask()[t.fieldKinds().indexOf(MatchKind.LPM)]);
                s.addLpm(packed[0], packed[1], prefix, e.action(), e.data());
            }
            case RANGE -> {
                int n = t.key().size();
                long[] lo = new long[n];
                long[] hi = new long[n];
                long[] masks = e.mask();
                long[] high = e.high();
                long[] key = e.key();
                for (int i = 0; i < n; i++) {
                    boolean range = t.fieldKind(i) == MatchKind.RANGE;
                    lo[i] = range ? key[i] : 0;
                    hi[i] = range ? high[i] : t.key().get(i).mask();
                    if (range) {
                        masks[i] = 0;
                    }
                }
                long[] mask = pack(t, masks);
                s.addRange(lo, hi, packed[0], packed[1], mask[0], mask[1], priority, e.action(), e.data());
            }
        }
    }

    /** Installs an exact entry; {@code keyFields} in the table's key order. */
    public int addExact(String tableName, long[] keyFields, int action, long data) {
        MatchTable t = program.table(tableName);
        requireMutable(t);
        long[] packed = pack(t, keyFields);
        boolean fresh = table(t).handleOfExact(packed[0], packed[1]) < 0;
        int e = table(t).addExact(packed[0], packed[1], action, data);
        if (fresh) {
            entryInstalled(t, e); // an exact entry's handle is its index
        }
        return e;
    }

    /** Installs an LPM entry on a one-field table. */
    public int addLpm(String tableName, long value, int prefixLen, int action, long data) {
        MatchTable t = program.table(tableName);
        requireMutable(t);
        long[] packed = pack(t, new long[] {value});
        return table(t).addLpm(packed[0], packed[1], prefixLen, action, data);
    }

    /** Installs a ternary entry; values and masks in the table's key order. */
    public int addTernary(String tableName, long[] values, long[] masks, int priority, int action, long data) {
        MatchTable t = program.table(tableName);
        requireMutable(t);
        long[] v = pack(t, values);
        long[] m = pack(t, masks);
        return table(t).addTernary(v[0], v[1], m[0], m[1], priority, action, data);
    }

    /** Installs a range entry: per key field (in key order) its inclusive bounds; the lower priority value wins. */
    public int addRange(String tableName, long[] lo, long[] hi, int priority, int action, long data) {
        MatchTable t = program.table(tableName);
        requireMutable(t);
        if (t.keyless()) {
            pack(t, lo); // refuses: no entries
        }
        return table(t).addRange(lo, hi, priority, action, data);
    }

    /** Refuses, as installing would, an entry for a table the control plane cannot change (a control script's check before the run). */
    public void checkInstallable(String tableName) {
        requireMutable(program.table(tableName));
    }

    /** Refuses, as installing would, a change to a table declared with const entries. */
    public static void checkInstallable(MatchTable t) {
        requireMutable(t);
    }

    /**
     * A table with {@code const entries} is fixed when the program is compiled (P4_16: the
     * control plane can neither add nor remove its entries).
     */
    private static void requireMutable(MatchTable t) {
        if (!t.constEntries().isEmpty()) {
            throw new UserError("table " + t.name() + " has const entries: the control plane cannot change it");
        }
    }

    /** The packed key (high word, low word) of one value per key field, in the table's key order. */
    public static long[] packKey(MatchTable t, long[] keyFields) {
        return pack(t, keyFields);
    }

    private static long[] pack(MatchTable t, long[] keyFields) {
        if (t.keyless()) {
            throw new UserError("table " + t.name() + " has no key: it holds no entries, only its default action (table_set_default)");
        }
        if (keyFields.length != t.key().size()) {
            throw new UserError("table " + t.name() + " has " + t.key().size() + " key fields, got " + keyFields.length);
        }
        long[] scratch = new long[t.key().stream().mapToInt(f -> f.slot()).max().orElse(0) + 1];
        for (int i = 0; i < keyFields.length; i++) {
            scratch[t.key().get(i).slot()] = keyFields[i];
        }
        return new long[] {t.keyHi(scratch), t.keyLo(scratch)};
    }

    private void checkPipe(int pipe) {
        if (pipe < 0 || pipe >= pipes) {
            throw new UserError("pipe " + pipe + " outside 0.." + (pipes - 1));
        }
    }

    private void checkCell(int pipe, RegisterArray a, int index) {
        checkPipe(pipe);
        if (index < 0 || index >= a.size()) {
            throw new UserError("register " + a.name() + ": index " + index + " outside 0.." + (a.size() - 1));
        }
    }
}
