package dev.rmtemu.programs.lds;

import dev.rmtemu.emulator.engine.SwitchEngine;
import dev.rmtemu.emulator.journal.ExportJournal;
import dev.rmtemu.emulator.journal.JournalKinds;
import dev.rmtemu.emulator.replay.NetworkReport;
import dev.rmtemu.emulator.replay.ProgramControlPlane;
import dev.rmtemu.emulator.replay.ReplayOptions;
import dev.rmtemu.model.phv.Field;
import dev.rmtemu.model.phv.Intrinsic;
import dev.rmtemu.model.program.ProgramParams;

import java.nio.file.Path;

/**
 * LDS's control plane in {@code rmtemu replay --program lds} (one switch, role both: sender
 * in ingress, receiver in egress). It closes interval i at (i + 1)·T + T/2, the cycles
 * {@link LdsSwitch} uses: the sender's bank of i goes to the run's journal
 * ({@link LdsCollector#KIND_SENDER_SKETCH}), the receiver's bank is recorded beside it
 * ({@link LdsCollector#KIND_RECEIVER_SKETCH}) and both banks are zeroed for interval i + 2.
 * Each close schedules the next until the trace is over; closes past the last arrival's
 * interval do nothing, and after the drain any interval still open is closed. It also
 * keeps the ground truth ({@link LdsDelayTruth}) from the departures and writes it to the
 * run's ground-truth directory; {@link LdsReport} reads both after the run.
 */
public final class LdsControlPlane implements ProgramControlPlane {
    @Override
    public String program() {
        return LdsProgram.NAME;
    }

    @Override
    public void registerKinds(JournalKinds kinds) {
        LdsCollector.registerReplayKinds(kinds);
    }

    /** The run's truth file (null without a run directory). */
    public static Path truthFile(Path runDir) {
        return runDir == null ? null : runDir.resolve(NetworkReport.GROUND_TRUTH_DIR).resolve(LdsDelayTruth.FILE);
    }

    @Override
    public Session start(SwitchEngine engine, ReplayOptions options, ExportJournal journal) {
        LdsPipeline pipeline = LdsProgram.pipeline(new ProgramParams(LdsProgram.NAME, new LdsProgram().params(), options.params()));
        if (pipeline.role != LdsRole.BOTH || journal == null) {
            return Session.NONE;
        }
        Closer closer = new Closer(engine, pipeline, journal);
        Field egressTstamp = engine.config().program().intrinsic(Intrinsic.EGRESS_GLOBAL_TSTAMP);
        LdsDelayTruth truth = new LdsDelayTruth();
        engine.onDeparture((cycle, port, slot, pool) ->
                truth.departed(pool, slot, egressTstamp, pipeline.intervals, engine.clock().cyclesToNs(pool.arrivalCycle(slot))));
        closer.schedule(0);
        return new Session() {
            @Override
            public void inputDone(long lastArrivalCycle) {
                closer.lastInterval = pipeline.intervals.index(engine.clock().cyclesToNs(lastArrivalCycle));
            }

            @Override
            public void finish(long cycle) {
                while (closer.next <= closer.lastInterval) {
                    closer.close(engine.state(), closer.next, cycle);
                }
                truth.write(truthFile(options.out()));
            }
        };
    }

    /** Closes intervals in order on one switch's control plane. */
    private static final class Closer {
        final SwitchEngine engine;
        final LdsPipeline pipeline;
        final ExportJournal journal;
        /** The next interval to close. */
        long next;
        /** The last arrival's interval, once the trace is over (until then: none). */
        long lastInterval = Long.MAX_VALUE;

        Closer(SwitchEngine engine, LdsPipeline pipeline, ExportJournal journal) {
            this.engine = engine;
            this.pipeline = pipeline;
            this.journal = journal;
        }

        void schedule(long interval) {
            LdsIntervals iv = pipeline.intervals;
            long at = engine.clock().nsToCycles((interval + 1) * iv.lengthNs() + iv.readDelayNs());
            engine.scheduleControl(at, (state, cycle) -> {
                if (interval != next || interval > lastInterval) {
                    return;
                }
                close(state, interval, cycle);
                if (interval < lastInterval) {
                    schedule(interval + 1);
                }
            });
        }

        void close(dev.rmtemu.model.runtime.PipelineState state, long interval, long cycle) {
            int bank = LdsIntervals.bank(interval);
            LdsConfig cfg = pipeline.config;
            int id = Math.toIntExact(interval);
            LdsCollector.export(LdsCollector.read(state, LdsSwitch.PIPE, cfg, true, bank), LdsCollector.KIND_SENDER_SKETCH, id,
                    journal, cycle, LdsSwitch.SWITCH_ID, LdsSwitch.PIPE);
            LdsCollector.export(LdsCollector.read(state, LdsSwitch.PIPE, cfg, false, bank), LdsCollector.KIND_RECEIVER_SKETCH, id,
                    journal, cycle, LdsSwitch.SWITCH_ID, LdsSwitch.PIPE);
            LdsCollector.clearBank(state, LdsSwitch.PIPE, cfg, true, bank);
            LdsCollector.clearBank(state, LdsSwitch.PIPE, cfg, false, bank);
            next = interval + 1;
        }
    }
}
