package dev.rmtemu.model.runtime;

import dev.rmtemu.model.extern.Counter;
import dev.rmtemu.model.extern.Meter;
import dev.rmtemu.model.extern.MeterType;
import dev.rmtemu.model.hash.HashUnit;
import dev.rmtemu.model.ir.StageAccess;
import dev.rmtemu.model.phv.Field;
import dev.rmtemu.model.phv.Gress;
import dev.rmtemu.model.program.StageDecl;
import dev.rmtemu.model.register.RegisterAction;
import dev.rmtemu.model.register.RegisterArray;
import dev.rmtemu.model.table.MatchTable;
import dev.rmtemu.model.table.TableState;

/**
 * What a stage's action code sees: the PHV as it entered the stage, the stage's
 * hash units, register arrays (through register actions) and tables. Every
 * hardware rule is checked here when enforcement is on; a breach throws a
 * {@link PipelineViolation} naming packet, gress, stage and resource.
 * One instance per {@link PassExecutor}, reused for every packet.
 */
public final class StageContext implements StageAccess {
    private final PipelineState state;
    private final boolean enforce;
    private final long[] registerPass;
    private final long[] tablePass;
    /** Per-stage scratch of IR stage code: register outputs and action data (see IrInterpreter). */
    private final long[] scratch;
    private Phv phv;
    private RegisterFile file;
    private ExternFile externs;
    private Gress gress;
    private int stage;
    private int pipe;
    private long packetNumber;
    private long pass;
    /** The member the last lookup of an indirect table chose (read by actionId/actionData right after it). */
    private int member;

    StageContext(PipelineState state, boolean enforce) {
        this.state = state;
        this.enforce = enforce;
        this.registerPass = new long[state.program().registers().size()];
        this.tablePass = new long[state.program().tables().size()];
        int slots = 0;
        for (Gress g : Gress.values()) {
            for (StageDecl d : state.program().stages(g)) {
                slots = Math.max(slots, d.interpreter().slots());
            }
        }
        this.scratch = new long[slots];
    }

    /** Scratch words for IR stage code, valid within one stage of one pass. */
    public long[] scratch() {
        return scratch;
    }

    void beginPass(Phv p, int pipeIndex, Gress g, long packet, long passId) {
        this.phv = p;
        this.pipe = pipeIndex;
        this.gress = g;
        this.packetNumber = packet;
        this.pass = passId;
        this.file = state.registers(pipeIndex, g);
        this.externs = state.externs(pipeIndex, g);
    }

    void enterStage(int number) {
        this.stage = number;
    }

    /** A field as it entered this stage. */
    public long get(Field f) {
        if (enforce && !f.visibleIn(gress)) {
            throw violation(PipelineViolation.Kind.FIELD_OF_ANOTHER_GRESS, f.name(), null);
        }
        return phv.get(f);
    }

    /** Writes a field; later stages see it, this one does not. */
    public void set(Field f, long value) {
        if (enforce && !f.visibleIn(gress)) {
            throw violation(PipelineViolation.Kind.FIELD_OF_ANOTHER_GRESS, f.name(), null);
        }
        phv.set(f, value);
    }

    /** The output of one of this stage's hash units over the PHV as it entered the stage. */
    public long hash(HashUnit h) {
        if (enforce && (h.stage() != stage || h.gress() != gress)) {
            throw violation(PipelineViolation.Kind.HASH_OF_ANOTHER_STAGE, h.name(),
                    "placed in " + h.gress().label() + " stage " + h.stage());
        }
        return h.compute(phv.values());
    }

    /** Runs a register action with both ALU inputs zero. */
    public long execute(RegisterAction a, long index) {
        return execute(a, index, 0, 0);
    }

    public long execute(RegisterAction a, long index, long inLo) {
        return execute(a, index, inLo, 0);
    }

    /**
     * Runs a register action on cell {@code index} with ALU inputs {@code inLo},
     * {@code inHi} (values the stage read from the PHV or its hash units) and
     * returns the action's output. One call per array per pass.
     */
    public long execute(RegisterAction a, long index, long inLo, long inHi) {
        RegisterArray r = a.array();
        int id = r.id();
        if (enforce) {
            if (r.stage() != stage || r.gress() != gress) {
                throw violation(PipelineViolation.Kind.REGISTER_OF_ANOTHER_STAGE, r.name(),
                        "placed in " + r.gress().label() + " stage " + r.stage());
            }
            if (registerPass[id] == pass) {
                throw violation(PipelineViolation.Kind.SECOND_REGISTER_ACCESS, r.name(), null);
            }
            registerPass[id] = pass;
        }
        if (index < 0 || index >= r.size()) {
            throw violation(PipelineViolation.Kind.REGISTER_INDEX_OUT_OF_RANGE, r.name(), "index " + index + ", size " + r.size());
        }
        return a.execute(file.lo[id], file.hi[id], (int) index, inLo, inHi);
    }

    /** Counts the packet in a counter of this stage (cell {@code index}: for a direct counter, an entry handle). */
    public void count(Counter c, long index, long adjust) {
        if (enforce && (c.stage() != stage || c.gress() != gress)) {
            throw violation(PipelineViolation.Kind.EXTERN_OF_ANOTHER_STAGE, c.name(),
                    "placed in " + c.gress().label() + " stage " + c.stage());
        }
        if (index < 0 || index >= c.cells()) {
            throw violation(PipelineViolation.Kind.REGISTER_INDEX_OUT_OF_RANGE, c.name(), "index " + index + ", size " + c.cells());
        }
        externs.counter(c).count((int) index, phv.countedBytes() - adjust);
    }

    /** Runs a meter of this stage on cell {@code index} with pre-colour {@code color}; returns the colour. */
    public long meter(Meter m, long index, long color, long adjust) {
        if (enforce && (m.stage() != stage || m.gress() != gress)) {
            throw violation(PipelineViolation.Kind.EXTERN_OF_ANOTHER_STAGE, m.name(),
                    "placed in " + m.gress().label() + " stage " + m.stage());
        }
        if (index < 0 || index >= m.cells()) {
            throw violation(PipelineViolation.Kind.REGISTER_INDEX_OUT_OF_RANGE, m.name(), "index " + index + ", size " + m.cells());
        }
        long units = m.type() == MeterType.PACKETS ? 1 : phv.countedBytes() - adjust;
        return externs.meter(m).execute((int) index, color, units, phv.nowNs());
    }

    public int entryHandle(MatchTable t, int entry) {
        return state.table(t).handle(entry);
    }

    /** Looks the table up with its key from the PHV: the entry index, or -1 on a miss. */
    public int lookup(MatchTable t) {
        if (enforce) {
            if (t.stage() != stage || t.gress() != gress) {
                throw violation(PipelineViolation.Kind.TABLE_OF_ANOTHER_STAGE, t.name(),
                        "placed in " + t.gress().label() + " stage " + t.stage());
            }
            if (tablePass[t.id()] == pass) {
                throw violation(PipelineViolation.Kind.SECOND_TABLE_APPLY, t.name(), null);
            }
            tablePass[t.id()] = pass;
        }
        long[] v = phv.values();
        TableState ts = state.table(t);
        int entry = ts.lookup(t.keyHi(v), t.keyLo(v));
        if (entry >= 0 && ts.profile() != null) {
            // an indirect table: the entry's member, or its group's member by the selector's hash; an empty group misses
            member = ts.member(entry, v);
            return member < 0 ? -1 : entry;
        }
        return entry;
    }

    public int actionId(MatchTable t, int entry) {
        TableState ts = state.table(t);
        return ts.profile() != null ? ts.memberActionId(member) : ts.actionId(entry);
    }

    public long actionData(MatchTable t, int entry) {
        TableState ts = state.table(t);
        return ts.profile() != null ? ts.memberActionData(member) : ts.actionData(entry);
    }

    public long packetNumber() {
        return packetNumber;
    }

    public int pipe() {
        return pipe;
    }

    public Gress gress() {
        return gress;
    }

    public int stage() {
        return stage;
    }

    private PipelineViolation violation(PipelineViolation.Kind kind, String resource, String detail) {
        return new PipelineViolation(kind, packetNumber, gress, stage, resource, detail);
    }
}
