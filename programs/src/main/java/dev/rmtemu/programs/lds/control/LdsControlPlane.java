package dev.rmtemu.programs.lds.control;

import dev.rmtemu.programs.lds.program.LdsIntervals;
import dev.rmtemu.programs.lds.program.LdsParams;
import dev.rmtemu.programs.lds.program.LdsPipeline;
import dev.rmtemu.programs.lds.program.LdsProgram;
import dev.rmtemu.programs.lds.program.LdsRole;

import dev.rmtemu.model.program.StageProgram;
import dev.rmtemu.model.runtime.PipelineState;
import dev.rmtemu.emulator.engine.SwitchEngine;
import dev.rmtemu.emulator.journal.ExportJournal;
import dev.rmtemu.emulator.journal.JournalKinds;
import dev.rmtemu.emulator.network.NetworkEngine;
import dev.rmtemu.emulator.output.NetworkReport;
import dev.rmtemu.emulator.spi.ProgramControlPlane;
import dev.rmtemu.emulator.spi.ReplayOptions;
import dev.rmtemu.model.phv.Field;
import dev.rmtemu.model.phv.Intrinsic;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

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
 *
 * <p>In a network replay ({@code --topology}) every switch running {@code lds} closes its own
 * intervals on its own control plane: a sender (role sender or both) exports its bank under
 * its switch ordinal, a receiver (role receiver or both) records its bank under its ordinal.
 * Sketches are read from every pipe of a switch and merged (the sketch is linear). The
 * network has no ground truth of the segment's delay (departures belong to the network
 * engine), so none is written; the flows the hosts received are ({@link LdsDeliveredFlows}).
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

    /** A network run's delivered flows (null without a run directory). */
    public static Path deliveredFile(Path runDir) {
        return runDir == null ? null : runDir.resolve(NetworkReport.GROUND_TRUTH_DIR).resolve(LdsDeliveredFlows.FILE);
    }

    @Override
    public Session start(SwitchEngine engine, ReplayOptions options, ExportJournal journal) {
        LdsPipeline pipeline = LdsParams.of(engine.state().program()).pipeline();
        if (pipeline.role != LdsRole.BOTH || journal == null) {
            return Session.NONE;
        }
        Closer closer = new Closer(engine, pipeline, journal, LdsSwitch.SWITCH_ID, true, true);
        Field egressTstamp = engine.config().program().intrinsic(Intrinsic.EGRESS_GLOBAL_TSTAMP);
        LdsDelayTruth truth = new LdsDelayTruth();
        engine.onDeparture((cycle, port, slot, pool) ->
                truth.departed(pool, slot, egressTstamp, pipeline.intervals, engine.clock().cyclesToNs(pool.arrivalCycle(slot))));
        closer.schedule(0);
        return new Session() {
            @Override
            public void inputDone(long lastArrivalCycle) {
                closer.inputDone(lastArrivalCycle);
            }

            @Override
            public void finish(long cycle) {
                closer.finish(cycle);
                truth.write(truthFile(options.out()));
            }
        };
    }

    /** The pipeline switch {@code s} of a network runs (its program's parameters). */
    static LdsPipeline pipeline(StageProgram p) {
        return LdsParams.of(p).pipeline();
    }

    /** Ordinals of the switches running {@code lds}, in ordinal order. */
    static List<Integer> ldsSwitches(NetworkEngine net) {
        List<Integer> out = new ArrayList<>();
        for (int s = 0; s < net.switchCount(); s++) {
            if (LdsProgram.NAME.equals(net.switchProgram(s))) {
                out.add(s);
            }
        }
        return out;
    }

    @Override
    public Session startNetwork(NetworkEngine net, ReplayOptions options, ExportJournal journal) {
        if (journal == null) {
            return Session.NONE;
        }
        List<Closer> closers = new ArrayList<>();
        for (int s : ldsSwitches(net)) {
            SwitchEngine sw = net.switchEngine(s);
            LdsPipeline p = pipeline(sw.state().program());
            Closer c = new Closer(sw, p, journal, s, p.role != LdsRole.RECEIVER, p.role != LdsRole.SENDER);
            c.schedule(0);
            closers.add(c);
        }
        LdsDeliveredFlows delivered = new LdsDeliveredFlows();
        if (!closers.isEmpty()) {
            net.onDelivery((host, cycle, r) -> delivered.add(r));
        }
        Session switches = Session.all(closers);
        return new Session() {
            @Override
            public void inputDone(long lastArrivalCycle) {
                switches.inputDone(lastArrivalCycle);
            }

            @Override
            public void finish(long cycle) {
                switches.finish(cycle);
                if (!closers.isEmpty()) {
                    delivered.write(deliveredFile(options.out()));
                }
            }
        };
    }

    /** Closes intervals in order on one switch's control plane. */
    private static final class Closer implements Session {
        final SwitchEngine engine;
        final LdsPipeline pipeline;
        final ExportJournal journal;
        final int switchId;
        final boolean sender;
        final boolean receiver;
        /** The next interval to close. */
        long next;
        /** The last arrival's interval, once the trace is over (until then: none). */
        long lastInterval = Long.MAX_VALUE;

        Closer(SwitchEngine engine, LdsPipeline pipeline, ExportJournal journal, int switchId, boolean sender, boolean receiver) {
            this.engine = engine;
            this.pipeline = pipeline;
            this.journal = journal;
            this.switchId = switchId;
            this.sender = sender;
            this.receiver = receiver;
        }

        /** The trace is over: intervals after the last arrival's are never closed. */
        @Override
        public void inputDone(long lastArrivalCycle) {
            lastInterval = pipeline.intervals.index(engine.clock().cyclesToNs(lastArrivalCycle));
        }

        /**
         * After the drain: closes every interval up to the last arrival's, and after it any
         * that still holds packets (in a network a packet reaches a later switch after its
         * last injection, possibly in the next interval).
         */
        @Override
        public void finish(long cycle) {
            while (next <= lastInterval || holdsPackets(engine.state(), LdsIntervals.bank(next))) {
                close(engine.state(), next, cycle);
            }
        }

        boolean holdsPackets(PipelineState state, int bank) {
            for (int pipe = 0; pipe < state.pipes(); pipe++) {
                for (int end = 0; end < 2; end++) {
                    boolean senderEnd = end == 0;
                    if (senderEnd ? !sender : !receiver) {
                        continue;
                    }
                    LdsSketch s = LdsCollector.read(state, pipe, pipeline.config, senderEnd, bank);
                    for (int r = 0; r < pipeline.config.rows(); r++) {
                        for (int c = 0; c < pipeline.config.cells(); c++) {
                            if (s.count(r, c) != 0) {
                                return true;
                            }
                        }
                    }
                }
            }
            return false;
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

        void close(PipelineState state, long interval, long cycle) {
            int bank = LdsIntervals.bank(interval);
            int id = Math.toIntExact(interval);
            if (sender) {
                LdsCollector.export(bank(state, true, bank), LdsCollector.KIND_SENDER_SKETCH, id, journal, cycle, switchId, 0);
            }
            if (receiver) {
                LdsCollector.export(bank(state, false, bank), LdsCollector.KIND_RECEIVER_SKETCH, id, journal, cycle, switchId, 0);
            }
            next = interval + 1;
        }

        /** One end's bank of every pipe, merged (the sketch is linear), then zeroed. */
        LdsSketch bank(PipelineState state, boolean senderEnd, int bank) {
            LdsSketch s = new LdsSketch(pipeline.config);
            for (int pipe = 0; pipe < state.pipes(); pipe++) {
                s.mergeFrom(LdsCollector.read(state, pipe, pipeline.config, senderEnd, bank));
                LdsCollector.clearBank(state, pipe, pipeline.config, senderEnd, bank);
            }
            return s;
        }
    }
}
