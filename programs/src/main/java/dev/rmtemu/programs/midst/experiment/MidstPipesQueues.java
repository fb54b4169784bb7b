package dev.rmtemu.programs.midst.experiment;

import dev.rmtemu.emulator.run.SwitchFeed;
import dev.rmtemu.programs.midst.control.MidstCollector;
import dev.rmtemu.programs.midst.control.MidstSwitch;
import dev.rmtemu.programs.midst.program.MidstConfig;
import dev.rmtemu.programs.midst.program.MidstPipeline;

import dev.rmtemu.model.phv.PortNumbers;
import java.util.Locale;
import dev.rmtemu.model.target.TargetProfile;
import dev.rmtemu.traces.PacketRecord;
import dev.rmtemu.traces.pcap.FrameSynthesizer;

/**
 * Experiment part (e): MIDST on several pipes and queues. Incast from input ports spread over
 * P ingress pipes, each flow sent to a monitored port in another pipe (egress pipe j = i + 1 mod
 * P) and to one of Q strict-priority queues (the heaviest flows share queue 0, the lowest
 * priority, which congests); reactive monitoring per queue, per-packet reports, heavy losers
 * scored against the full ground truth. The same flows and arrivals on one pipe and one queue
 * (all input ports in pipe 0, one port at P × the rate, one queue holding the P · Q queues'
 * cells, the P pipes' sketch memory in one pipe) are the baseline.
 */
public final class MidstPipesQueues {
    /** Input ports in all: port {@link #FIRST_INPUT} + k / P of pipe k mod P (P = 1: ports 3..14 of pipe 0). */
    static final int INPUTS = 12;
    /** Ports 0..2 of a pipe are spare, monitored and the collector's. */
    static final int FIRST_INPUT = 3;

    private MidstPipesQueues() {
    }

    /**
     * @param trafficPipes  P of the traffic (egress pipe and queue of every flow); the run's layout is
     *                      {@code cfg.pipes()} × {@code cfg.queues()}: P × Q, or 1 × 1 for the baseline
     */
    public record Setup(MidstConfig cfg, TargetProfile profile, int trafficPipes, int trafficQueues, double gbps, int queueCells,
                        MidstTraffic.Spec spec, long probeNs, double heavyFraction) {
    }

    /** One layout's run. */
    public record Result(int pipes, int queues, int memoryKbPerPipe, long packets, long drops, long[] dropsByQueue,
                         int trueHeavy, int reportedHeavy, int bothHeavy, int trueObservable, int bothObservable,
                         int monitorIntervals, String engine) {
        private HeavyLoserScore score() {
            return new HeavyLoserScore(trueHeavy, trueObservable, reportedHeavy, bothHeavy, bothObservable);
        }

        /** F1 against the observable truth: drops followed by a later departure of the flow (what egress can report). */
        public double f1Observable() {
            return score().f1Observable();
        }

        public double precision() {
            return score().precision();
        }

        public double recall() {
            return score().recall();
        }

        public double f1() {
            return score().f1();
        }

        public int memoryKbTotal() {
            return memoryKbPerPipe * pipes;
        }
    }

    /** The input ports of a layout with {@code pipes} pipes (flow f enters on port f mod {@link #INPUTS}). */
    static int[] inputPorts(int pipes, int portsPerPipe) {
        int[] ports = new int[INPUTS];
        for (int k = 0; k < INPUTS; k++) {
            ports[k] = (k % pipes) * portsPerPipe + FIRST_INPUT + k / pipes;
        }
        return ports;
    }

    /** Queue of flow f: the heaviest 12 flows (one per input port) in queue 0, the next 12 in queue 1, ... */
    static int queueOf(int flow, int queues) {
        return (flow / INPUTS) % queues;
    }

    public static Result run(Setup s) {
        MidstConfig cfg = s.cfg();
        int p = cfg.pipes();
        int flows = s.spec().flows();
        // the traffic manager gives each monitored queue queueCells; the one-queue baseline gets all of them
        int limit = p * cfg.queues() == 1 ? s.queueCells() * s.trafficPipes() * s.trafficQueues() : s.queueCells();
        double portGbps = p == 1 ? s.gbps() * s.trafficPipes() : s.gbps();
        MidstSwitch sw = new MidstSwitch(cfg, s.profile(), portGbps, limit);
        int[] departed = new int[flows];
        int[] lastSeq = new int[flows];
        boolean[] monitored = new boolean[PortNumbers.RECIRCULATION_BASE];
        for (int j = 0; j < p; j++) {
            monitored[cfg.dataPort(j)] = true;
        }
        sw.onDeparture((c, port, slot, pool) -> {
            if (port < monitored.length && monitored[port]) {
                int f = MidstTraffic.flowOf(pool.record(slot));
                departed[f]++;
                lastSeq[f] = pool.record(slot).tcpSeq();
            }
        });
        long durationCycles = sw.engine().clock().nsToCycles(s.spec().bursts() * s.spec().burstIntervalNs());
        // every queue is asked about once per probe_ns: each pipe's generator goes round the P · Q queues
        long period = Math.max(1, sw.engine().clock().nsToCycles(s.probeNs()) / cfg.partitions());
        sw.startProbes(0, period, durationCycles / period);
        MidstTraffic t = new MidstTraffic(s.spec());
        int[] pipeOfInput = new int[INPUTS];
        for (int k = 0; k < INPUTS; k++) {
            pipeOfInput[k] = k % s.trafficPipes();
        }
        SwitchFeed feed = new SwitchFeed(sw.engine());
        long packets = feed.feed(t::next, PacketRecord::ingressPort, (cycle, r) -> {
            if (p > 1) {
                int f = MidstTraffic.flowOf(r);
                int i = pipeOfInput[f % INPUTS];
                r.dstIpv4(MidstSwitch.destination(cfg, MidstTraffic.DST, (i + 1) % p, queueOf(f, cfg.queues())));
                FrameSynthesizer.rebuildFrame(r); // the frame carries the destination the switch parses
            }
        });
        feed.drainAndCheck();
        long drops = 0;
        long[] loss = new long[flows];
        long[] byQueue = new long[s.trafficQueues()];
        for (int f = 0; f < flows; f++) {
            loss[f] = t.arrivals(f) - departed[f];
            drops += loss[f];
            byQueue[queueOf(f, s.trafficQueues())] += loss[f];
        }
        long threshold = Math.max(1, (long) Math.ceil(s.heavyFraction() * drops));
        long[] observable = new long[flows];
        for (int f = 0; f < flows; f++) {
            observable[f] = lastSeq[f] - departed[f];
        }
        HeavyLoserScore score = HeavyLoserScore.of(loss, observable, HeavyLoserScore.estimates(sw.collector(), flows), threshold);
        int intervals = 0;
        for (MidstCollector.Event e : sw.collector().events()) {
            intervals += e.kind() == MidstPipeline.KIND_MONITOR_ON ? 1 : 0;
        }
        String engine = "switch " + s.profile().name() + " (" + sw.engine().config().backend().name().toLowerCase(Locale.ROOT)
                + " IR)";
        return new Result(p, cfg.queues(), cfg.sketchKb(), packets, drops, byQueue, score.truth(), score.reported(), score.both(),
                score.truthObservable(), score.bothObservable(), intervals, engine);
    }
}
