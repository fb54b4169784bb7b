package dev.rmtemu.emulator.run;

import dev.rmtemu.emulator.engine.SwitchEngine;
import dev.rmtemu.emulator.journal.ExportJournal;
import dev.rmtemu.emulator.journal.JournalKinds;
import dev.rmtemu.model.program.StageProgram;
import dev.rmtemu.model.runtime.PipelineState;
import dev.rmtemu.model.table.EntryAging;
import dev.rmtemu.model.table.MatchTable;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The idle-time sweep of a switch whose program has tables with an idle timeout: every
 * {@code mau.idleSweepIntervalNs} of the target profile (cycles k x interval, k = 1, 2, ...), as
 * the hardware sweeps its idle bits and the driver's notify mode reports the entries that went
 * idle, each entry with a TTL ({@code table_set_timeout}) not hit for at least its TTL is
 * reported once to the export journal ({@link AgedOutPayload}), tables in program order, entries
 * by handle. The entry stays installed (the control plane decides). Sweeps run within the run
 * only: one that would come after the run's last event is dropped without stretching the run.
 * Tables are installed symmetrically in every pipe and hit times kept per entry across pipes,
 * so the messages name pipe 0.
 */
public final class IdleSweep {
    private final SwitchEngine engine;
    private final ExportJournal journal;
    /** The switch the messages name (its ordinal in a network; 0 alone). */
    private final int switchId;
    private final int kind;
    private final long periodCycles;
    private final List<MatchTable> tables;
    private final List<byte[]> names = new ArrayList<>();
    private final UnsafeBuffer buffer;

    /** One scheduled sweep (a control operation of the engine's; not a user's line, so never warned about). */
    public final class Tick implements SwitchEngine.ControlOp {
        @Override
        public void apply(PipelineState state, long cycle) {
            sweep(state, cycle);
            engine.scheduleControlWithinRun(cycle + periodCycles, new Tick());
        }

        @Override
        public String toString() {
            return "idle-time sweep";
        }
    }

    private IdleSweep(SwitchEngine engine, ExportJournal journal, int switchId, List<MatchTable> tables) {
        this.engine = engine;
        this.journal = journal;
        this.switchId = switchId;
        this.kind = journal.kinds().id(AgedOutPayload.KIND);
        this.tables = tables;
        int longest = 0;
        for (MatchTable t : tables) {
            byte[] n = t.name().getBytes(StandardCharsets.UTF_8);
            names.add(n);
            longest = Math.max(longest, AgedOutPayload.length(n));
        }
        this.buffer = new UnsafeBuffer(new byte[longest]);
        long ns = engine.config().profile().mau().idleSweepIntervalNs();
        this.periodCycles = Math.max(1, engine.clock().nsToCycles(ns));
    }

    /** The program's tables with an idle timeout, in program order. */
    static List<MatchTable> idleTables(StageProgram program) {
        List<MatchTable> out = new ArrayList<>();
        for (MatchTable t : program.tables()) {
            if (t.options().idleTimeout() != null) {
                out.add(t);
            }
        }
        return out;
    }

    /** Registers the aged-out kind when the program has a table with an idle timeout (before the journal is created). */
    static void register(JournalKinds kinds, StageProgram program) {
        if (!idleTables(program).isEmpty()) {
            kinds.register(AgedOutPayload.KIND);
        }
    }

    /** Schedules the first sweep on {@code engine} when its program has an idle-timeout table and the run has a journal. */
    static void start(SwitchEngine engine, ExportJournal journal) {
        start(engine, journal, 0);
    }

    /** As {@link #start(SwitchEngine, ExportJournal)}, the messages naming switch {@code switchId} (a network's ordinal). */
    static void start(SwitchEngine engine, ExportJournal journal, int switchId) {
        List<MatchTable> idle = idleTables(engine.state().program());
        if (journal == null || idle.isEmpty()) {
            return;
        }
        IdleSweep s = new IdleSweep(engine, journal, switchId, idle);
        engine.scheduleControlWithinRun(s.periodCycles, s.new Tick());
    }

    private void sweep(PipelineState state, long cycle) {
        long nowNs = engine.clock().cyclesToNs(cycle);
        for (int i = 0; i < tables.size(); i++) {
            EntryAging aging = state.table(tables.get(i)).aging();
            byte[] name = names.get(i);
            aging.sweep(nowNs, (handle, lastActiveNs, ttlNs) -> {
                int length = AgedOutPayload.put(buffer, name, handle, lastActiveNs, ttlNs);
                journal.append(kind, cycle, switchId, 0, buffer, 0, length);
            });
        }
    }
}
