package dev.rmtemu.programs.lds.control;

import dev.rmtemu.emulator.run.SwitchFeed;
import dev.rmtemu.programs.lds.program.LdsConfig;
import dev.rmtemu.programs.lds.program.LdsIntervals;
import dev.rmtemu.programs.lds.program.LdsPipeline;
import dev.rmtemu.programs.lds.program.LdsRole;

import dev.rmtemu.emulator.engine.DepartureListener;
import dev.rmtemu.emulator.engine.SwitchConfig;
import dev.rmtemu.emulator.engine.SwitchEngine;
import dev.rmtemu.emulator.journal.ExportJournal;
import dev.rmtemu.emulator.tm.PortConfig;
import dev.rmtemu.model.UserError;
import dev.rmtemu.model.target.TargetProfile;
import dev.rmtemu.traces.PacketRecord;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * LDS between ingress and egress of one switch: the sender sketch counts a packet when it
 * enters ingress (its MAC timestamp), the receiver sketch when egress takes it from the
 * traffic manager (global timestamp), so the measured delay is the pipeline plus queueing.
 * Flows are spread over {@code paths} output ports (ECMP-like) and a share of them rides
 * the strict-priority queue, so different flows see different, temporally uncorrelated
 * delays; tail drops in the traffic manager are the loss between the two points. The
 * output ports and the input ports share pipe 0, whose ingress and egress hold the sketches.
 *
 * <p>Intervals ({@link #scheduleIntervals}): the control plane closes interval i at
 * (i + 1)·T + {@link LdsIntervals#readDelayNs()}: it exports the sender's bank of i
 * through the journal, keeps the receiver's bank of i for the estimate and zeroes both.
 */
public final class LdsSwitch {
    /** Switch id the sender sketch is exported under. */
    public static final int SWITCH_ID = 0;
    public static final int PIPE = 0;

    private final LdsPipeline pipeline;
    private final SwitchEngine engine;
    private final SwitchFeed feed;
    private final int firstInput;
    private final int inputs;
    private DepartureListener extra;
    /** Receiver sketches of closed intervals, by interval index. */
    private final List<LdsSketch> closedReceiver = new ArrayList<>();

    /**
     * @param outGbps         rate of each output port (below the offered load makes queues)
     * @param queueLimitCells tail-drop limit per queue (80 B cells)
     * @param inputs          input ports (after the output ports) packets arrive on, by their record's ingress port
     */
    public LdsSwitch(LdsConfig cfg, TargetProfile profile, int paths, double priorityShare, double outGbps,
                     int queueLimitCells, int inputs) {
        this(cfg, profile, paths, priorityShare, outGbps, queueLimitCells, inputs, LdsIntervals.DEFAULT);
    }

    public LdsSwitch(LdsConfig cfg, TargetProfile profile, int paths, double priorityShare, double outGbps,
                     int queueLimitCells, int inputs, LdsIntervals intervals) {
        this.pipeline = new LdsPipeline(cfg, LdsRole.BOTH, 1, paths, priorityShare, intervals);
        PortConfig port = PortConfig.strictPriority(outGbps).withLimits(queueLimitCells, 2 * queueLimitCells);
        this.engine = new SwitchEngine(new SwitchConfig(profile, pipeline.program, SwitchConfig.defaultPorts(profile), port, true));
        this.feed = new SwitchFeed(engine);
        this.firstInput = 1 + paths;
        this.inputs = inputs;
        if (engine.config().pipeOf(firstInput + inputs - 1) != PIPE) {
            throw new UserError("lds: " + paths + " output and " + inputs + " input ports do not fit in pipe 0 of "
                    + profile.name());
        }
        engine.onDeparture((c, p, s, pool) -> {
            if (extra != null) {
                extra.departed(c, p, s, pool);
            }
        });
    }

    public SwitchEngine engine() {
        return engine;
    }

    public LdsPipeline pipeline() {
        return pipeline;
    }

    public void onDeparture(DepartureListener l) {
        this.extra = l;
    }

    /** The packet arrives at its timestamp on input port firstInput + (its ingress port mod inputs). */
    public void arrive(PacketRecord r, long startNs) {
        // never before the engine's present cycle (a drain between calls moves it past the last arrival)
        long cycle = Math.max(feed.cycleAt(r.timestampNs() - startNs), engine.now());
        feed.arriveAtCycle(cycle, firstInput + Math.floorMod(r.ingressPort(), inputs), r);
    }

    public void drain() {
        engine.drain();
    }

    public LdsSketch senderSketch() {
        return LdsCollector.read(engine.state(), PIPE, pipeline.config, true);
    }

    public LdsSketch receiverSketch() {
        return LdsCollector.read(engine.state(), PIPE, pipeline.config, false);
    }

    /** End of interval: the control plane reads the sender sketch and exports it. */
    public int exportSender(ExportJournal journal, int interval) {
        return LdsCollector.export(senderSketch(), interval, journal, engine.now(), SWITCH_ID, PIPE);
    }

    /**
     * Schedules the end of intervals 0..count-1 on the control plane (the emulator's time 0
     * is the start of interval 0): each exports the sender's bank of the interval under its
     * index, keeps the receiver's bank and clears both for interval i + 2.
     */
    public void scheduleIntervals(int count, ExportJournal journal) {
        LdsIntervals iv = pipeline.intervals;
        for (int i = 0; i < count; i++) {
            final int interval = i;
            long at = engine.clock().nsToCycles((i + 1) * iv.lengthNs() + iv.readDelayNs());
            engine.scheduleControl(at, (state, cycle) -> {
                int bank = LdsIntervals.bank(interval);
                LdsConfig cfg = pipeline.config;
                LdsCollector.export(LdsCollector.read(state, PIPE, cfg, true, bank), interval, journal, cycle, SWITCH_ID, PIPE);
                while (closedReceiver.size() <= interval) {
                    closedReceiver.add(null);
                }
                closedReceiver.set(interval, LdsCollector.read(state, PIPE, cfg, false, bank));
                LdsCollector.clearBank(state, PIPE, cfg, true, bank);
                LdsCollector.clearBank(state, PIPE, cfg, false, bank);
            });
        }
    }

    /** The receiver's sketch of a closed interval. */
    public LdsSketch closedReceiverSketch(int interval) {
        if (interval >= closedReceiver.size() || closedReceiver.get(interval) == null) {
            throw new UserError("lds: interval " + interval + " has not been closed");
        }
        return closedReceiver.get(interval);
    }

    /**
     * The receiver's side: the sender sketch of {@code interval} from the journal against its
     * own sketch of that interval (if the interval was closed by {@link #scheduleIntervals},
     * else its registers as they are).
     */
    public LdsEstimator estimatorFromJournal(Path journalDir, int interval) {
        boolean closed = interval < closedReceiver.size() && closedReceiver.get(interval) != null;
        return new LdsEstimator(LdsCollector.importSender(journalDir, pipeline.config, interval, SWITCH_ID),
                closed ? closedReceiver.get(interval) : receiverSketch());
    }
}
