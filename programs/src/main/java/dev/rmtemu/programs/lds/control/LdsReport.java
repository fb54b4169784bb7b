package dev.rmtemu.programs.lds.control;

import dev.rmtemu.programs.lds.program.LdsConfig;
import dev.rmtemu.programs.lds.program.LdsParams;
import dev.rmtemu.programs.lds.program.LdsPipeline;
import dev.rmtemu.programs.lds.program.LdsProgram;
import dev.rmtemu.programs.lds.program.LdsRole;

import dev.rmtemu.model.UserError;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.TreeMap;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import dev.rmtemu.emulator.spi.PlotSpec;
import dev.rmtemu.emulator.spi.ProgramReport;
import dev.rmtemu.emulator.spi.NoteResults;
import dev.rmtemu.emulator.spi.ProgramResults;
import dev.rmtemu.emulator.spi.ReplayResult;
import dev.rmtemu.emulator.spi.ProgramReport;
import dev.rmtemu.emulator.spi.NoteResults;
import dev.rmtemu.emulator.spi.ProgramResults;
import dev.rmtemu.emulator.spi.ReplayResult;
import dev.rmtemu.model.program.ProgramParams;
import dev.rmtemu.model.runtime.PipelineState;
import dev.rmtemu.traces.PacketRecord;
import dev.rmtemu.traces.PacketSource;
import dev.rmtemu.traces.spec.TraceSpec;
import org.agrona.collections.Long2LongHashMap;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * LDS's results of {@code rmtemu replay} (role both). With a run directory, per interval
 * {@link LdsControlPlane} closed: the sender's sketch from the journal against the
 * receiver's, the flows estimated and the largest flows' estimated and true mean delay.
 * Without one (no interval closed), the sender sketches of every pipe's ingress merged (the
 * sketch is linear, both banks) against the receivers', and, for the largest flows of the
 * trace (a second pass over the packets the replay read), their estimated mean delay, size
 * and loss next to their true size.
 */
public final class LdsReport implements ProgramReport {
    @Override
    public String program() {
        return LdsProgram.NAME;
    }

    /** One listed flow: 5-tuple, packets in the trace, and the estimate. */
    public record Row(int src, int dst, int proto, int srcPort, int dstPort, long packets, double meanDelayNs,
                      double packetsSent, double packetsLost, int keptCells) {
    }

    /** Sender and receiver sketches of all pipes merged. */
    public static LdsEstimator estimator(PipelineState state, LdsConfig cfg) {
        LdsSketch tx = new LdsSketch(cfg);
        LdsSketch rx = new LdsSketch(cfg);
        for (int p = 0; p < state.pipes(); p++) {
            tx.mergeFrom(LdsCollector.read(state, p, cfg, true));
            rx.mergeFrom(LdsCollector.read(state, p, cfg, false));
        }
        return new LdsEstimator(tx, rx);
    }

    /** The {@code top} largest flows among the first {@code packets} records (ties: smaller 5-tuple first). */
    public static List<Row> top(LdsEstimator est, String trace, long packets, int top) {
        return estimate(est, largestFlows(trace, packets, top));
    }

    /** The estimate of each of {@code flows} ({@link #largestFlows}). */
    static List<Row> estimate(LdsEstimator est, List<long[]> flows) {
        List<Row> out = new ArrayList<>();
        FlowEstimate e = new FlowEstimate();
        for (long[] f : flows) {
            est.estimate((int) f[1], (int) f[2], (int) f[3], (int) f[4], (int) f[5], e);
            out.add(new Row((int) f[1], (int) f[2], (int) f[3], (int) f[4], (int) f[5], f[0], e.meanDelayNs, e.packetsSent,
                    e.packetsLost, e.keptCells));
        }
        return out;
    }

    /** The {@code top} largest flows among the first {@code packets} records: {packets, src, dst, proto, srcPort, dstPort}. */
    static List<long[]> largestFlows(String trace, long packets, int top) {
        Long2LongHashMap index = new Long2LongHashMap(-1);
        List<long[]> order = new ArrayList<>();
        PacketRecord r = PacketRecord.allocate();
        long n = 0;
        try (PacketSource src = TraceSpec.open(trace)) {
            while (n < packets && src.next(r)) {
                n++;
                if (r.ipVersion() == 0) {
                    continue; // ARP and other frames that are not IP belong to no flow
                }
                long key = LdsPacketKeys.tupleKey(r);
                int i = (int) index.get(key);
                if (i < 0) {
                    i = order.size();
                    index.put(key, i);
                    order.add(new long[] {0, r.srcIpv4() & 0xFFFFFFFFL, r.dstIpv4() & 0xFFFFFFFFL, r.protocol(), r.srcPort(), r.dstPort()});
                }
                order.get(i)[0]++;
            }
        }
        order.sort((a, b) -> {
            if (a[0] != b[0]) {
                return Long.compare(b[0], a[0]);
            }
            for (int i = 1; i < a.length; i++) {
                if (a[i] != b[i]) {
                    return Long.compare(a[i], b[i]);
                }
            }
            return 0;
        });
        return new ArrayList<>(order.subList(0, Math.min(top, order.size())));
    }

    /** One flow's estimate without a closed interval: 5-tuple, packets in the trace, mean delay (null: none), size and loss. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record FlowResult(String fiveTuple, long packets, Double meanDelayNs, double estPackets, double estLost, int cells) {
    }

    /** LDS's results without a run directory: sketches of every pipe, both banks merged, the trace's largest flows. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record MergedResults(int rows, int cells, int ldaCells, int pipes, List<FlowResult> flows) implements ProgramResults {
        /** The largest flows' estimated size against their packets in the trace, and its relative error. */
        @Override
        public List<PlotSpec> plots() {
            return List.of(PlotSpec.estimateVsTruth("flows", "largest flows: estimated size against packets in the trace",
                    "packets", "flow size (packets)", PlotSpec.ErrorMeasure.RELATIVE, "est_packets").labelled("five_tuple"));
        }

        @Override
        public String render() {
            StringBuilder b = new StringBuilder();
            b.append(String.format(Locale.ROOT, "LDS ingress -> egress, largest %d flows (R=%d, C=%d, k=%d; sketches of %d pipe(s),"
                    + " both banks merged: no run directory, no interval closed)%n", flows.size(), rows, cells, ldaCells, pipes));
            b.append(String.format(Locale.ROOT, "  %-44s %9s %14s %12s %10s %5s%n", "5-tuple", "packets", "mean delay ns",
                    "est. packets", "est. lost", "cells"));
            for (FlowResult r : flows) {
                b.append(String.format(Locale.ROOT, "  %-44s %9d %14s %12.0f %10.0f %5d%n", r.fiveTuple(), r.packets(),
                        r.meanDelayNs() == null ? "none" : String.format(Locale.ROOT, "%.1f", r.meanDelayNs()),
                        r.estPackets(), r.estLost(), r.cells()));
            }
            return b.toString();
        }
    }

    /** One closed interval: the flows delivered in it (ground truth), their packets, and how many the sketches estimated. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record IntervalResult(int interval, int flows, long packets, int estimated) {
    }

    /**
     * One of the largest flows of an interval: estimated mean delay (null: none) beside the true
     * mean of its delivered packets, and the relative error (est - true) / true.
     */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record FlowDelay(int interval, String fiveTuple, long packets, Double estMeanNs, double trueMeanNs, Double error) {
    }

    /** LDS's results with a run directory: per interval the control plane closed, the sender's sketch against the receiver's. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Results(int rows, int cells, int ldaCells, int intervalShift, List<IntervalResult> intervals,
                          List<FlowDelay> flows) implements ProgramResults {
        /** Each listed flow's estimated mean delay against its true mean (every interval), and the relative error. */
        @Override
        public List<PlotSpec> plots() {
            return List.of(PlotSpec.estimateVsTruth("flows", "largest flows per interval: estimated mean delay against true mean",
                    "true_mean_ns", "mean delay (ns)", PlotSpec.ErrorMeasure.RELATIVE, "est_mean_ns").labelled("five_tuple"));
        }

        @Override
        public String render() {
            StringBuilder b = new StringBuilder();
            b.append(String.format(Locale.ROOT, "LDS ingress -> egress per interval (R=%d, C=%d, k=%d, interval 2^%d ns; %d interval(s) closed)%n",
                    rows, cells, ldaCells, intervalShift, intervals.size()));
            b.append("  true mean = egress global_tstamp - ingress mac_tstamp of the delivered packets (the quantity the sketches subtract)\n");
            for (IntervalResult i : intervals) {
                b.append(String.format(Locale.ROOT, "  interval %d: %d flows delivered %d packets, %d flows estimated%n",
                        i.interval(), i.flows(), i.packets(), i.estimated()));
                if (i.flows() > 0) {
                    b.append(String.format(Locale.ROOT, "    %-44s %9s %14s %14s %9s%n", "5-tuple", "packets", "est. mean ns",
                            "true mean ns", "error %"));
                }
                for (FlowDelay f : flows) {
                    if (f.interval() != i.interval()) {
                        continue;
                    }
                    b.append(String.format(Locale.ROOT, "    %-44s %9d %14s %14.1f %9s%n", f.fiveTuple(), f.packets(),
                            f.estMeanNs() == null ? "none" : String.format(Locale.ROOT, "%.1f", f.estMeanNs()), f.trueMeanNs(),
                            f.error() == null ? "-" : String.format(Locale.ROOT, "%.2f", 100.0 * Math.abs(f.error()))));
                }
            }
            return b.toString();
        }
    }

    @Override
    public ProgramResults results(ReplayResult result) {
        LdsParams p = LdsParams.of(result.engine().state().program());
        LdsPipeline pipeline = p.pipeline();
        if (pipeline.role != LdsRole.BOTH) {
            return new NoteResults("LDS: role " + pipeline.role.label + " holds one end only; the estimate needs the other switch's sketch");
        }
        Path run = result.options().out();
        if (run == null) {
            return merged(result, p, pipeline.config);
        }
        return perInterval(run, pipeline, p.top());
    }

    /**
     * Every interval {@link LdsControlPlane} closed: the sender's sketch from the journal against
     * the receiver's, the flows of the interval (ground truth) with an estimate, and the
     * {@code top} largest with their estimated and true mean delay.
     */
    static Results perInterval(Path run, LdsPipeline pipeline, int top) {
        LdsConfig cfg = pipeline.config;
        TreeMap<Integer, LdsSketch> tx = LdsCollector.importAll(run, cfg, LdsCollector.KIND_SENDER_SKETCH, LdsSwitch.SWITCH_ID);
        TreeMap<Integer, LdsSketch> rx = LdsCollector.importAll(run, cfg, LdsCollector.KIND_RECEIVER_SKETCH, LdsSwitch.SWITCH_ID);
        List<LdsDelayTruth.Flow> truth = LdsDelayTruth.read(LdsControlPlane.truthFile(run));
        List<IntervalResult> intervals = new ArrayList<>();
        List<FlowDelay> flows = new ArrayList<>();
        FlowEstimate e = new FlowEstimate();
        int at = 0;
        for (var entry : tx.entrySet()) {
            int interval = entry.getKey();
            LdsSketch receiver = rx.get(interval);
            if (receiver == null) {
                throw new UserError("lds: the journal holds the sender sketch of interval " + interval
                        + " but not the receiver's");
            }
            LdsEstimator est = new LdsEstimator(entry.getValue(), receiver);
            while (at < truth.size() && truth.get(at).interval() < interval) {
                at++;
            }
            int from = at;
            while (at < truth.size() && truth.get(at).interval() == interval) {
                at++;
            }
            int estimated = 0;
            long packets = 0;
            for (int i = from; i < at; i++) {
                LdsDelayTruth.Flow f = truth.get(i);
                packets += f.packets();
                est.estimate(f.src(), f.dst(), f.proto(), f.srcPort(), f.dstPort(), e);
                estimated += Double.isNaN(e.meanDelayNs) ? 0 : 1;
            }
            intervals.add(new IntervalResult(interval, at - from, packets, estimated));
            for (int i = from; i < Math.min(at, from + top); i++) {
                LdsDelayTruth.Flow f = truth.get(i);
                est.estimate(f.src(), f.dst(), f.proto(), f.srcPort(), f.dstPort(), e);
                boolean has = !Double.isNaN(e.meanDelayNs);
                flows.add(new FlowDelay(interval, tuple(f.src(), f.srcPort(), f.dst(), f.dstPort(), f.proto()), f.packets(),
                        has ? e.meanDelayNs : null, f.meanDelayNs(),
                        has ? (e.meanDelayNs - f.meanDelayNs()) / f.meanDelayNs() : null));
            }
        }
        return new Results(cfg.rows(), cfg.cells(), cfg.ldaCells(), pipeline.intervals.shift(), intervals, flows);
    }

    /** Without a run directory no interval is closed: both banks merged, everything since the start. */
    static MergedResults merged(ReplayResult result, LdsParams p, LdsConfig cfg) {
        List<Row> rows = top(estimator(result.engine().state(), cfg), result.options().trace(), result.packetsRead(),
                p.top());
        List<FlowResult> flows = new ArrayList<>();
        for (Row r : rows) {
            flows.add(new FlowResult(tuple(r.src(), r.srcPort(), r.dst(), r.dstPort(), r.proto()), r.packets(),
                    Double.isNaN(r.meanDelayNs()) ? null : r.meanDelayNs(), r.packetsSent(), r.packetsLost(), r.keptCells()));
        }
        return new MergedResults(cfg.rows(), cfg.cells(), cfg.ldaCells(), result.engine().state().pipes(), flows);
    }

    /** One sender -> receiver pair of a network replay: its sketch shape and the intervals each end closed. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record PairResult(String sender, String receiver, boolean sameShape, int rows, int cells, int ldaCells,
                             int intervalShift, int senderIntervals, int receiverIntervals) {
    }

    /** One flow's estimate for a pair and interval both ends closed (mean delay null: none). */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record PairFlowEstimate(String sender, String receiver, int interval, String fiveTuple, Double estMeanNs,
                                   double estPackets, double estLost) {
    }

    /** LDS's results of a network replay: the largest flows the hosts received, estimated per pair and interval. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record NetworkResults(List<PairResult> pairs, List<PairFlowEstimate> estimates,
                                List<String> notes) implements ProgramResults {
        @Override
        public String render() {
            StringBuilder b = new StringBuilder("LDS per sender -> receiver and interval (the largest flows the hosts received; a"
                    + " network replay has no ground truth of the segment's delay)\n");
            for (PairResult pr : pairs) {
                String name = pr.sender() + " -> " + pr.receiver();
                if (!pr.sameShape()) {
                    b.append("  ").append(name).append(": sketches of different shapes or intervals, no estimate\n");
                    continue;
                }
                b.append(String.format(Locale.ROOT, "  %s (R=%d, C=%d, k=%d, interval 2^%d ns): %d interval(s) closed at the"
                        + " sender, %d at the receiver%n", name, pr.rows(), pr.cells(), pr.ldaCells(), pr.intervalShift(),
                        pr.senderIntervals(), pr.receiverIntervals()));
                int last = Integer.MIN_VALUE;
                for (PairFlowEstimate f : estimates) {
                    if (!f.sender().equals(pr.sender()) || !f.receiver().equals(pr.receiver())) {
                        continue;
                    }
                    if (f.interval() != last) {
                        b.append(String.format(Locale.ROOT, "    interval %d%n", f.interval()));
                        last = f.interval();
                    }
                    b.append(String.format(Locale.ROOT, "      %-44s est. mean %10s ns, est. packets %.0f, est. lost %.0f%n",
                            f.fiveTuple(), f.estMeanNs() == null ? "none" : String.format(Locale.ROOT, "%.1f", f.estMeanNs()),
                            f.estPackets(), f.estLost()));
                }
            }
            for (String n : notes) {
                b.append("  ").append(n).append('\n');
            }
            return b.toString();
        }
    }

    /**
     * A network replay: for every sender (role sender or both) and receiver (role receiver or
     * both, another switch, or the same one for role both) with the same sketch shape, per
     * interval both closed, the trace's largest flows' estimates. The network has no ground
     * truth of the segment's delay, so no true mean is given.
     */
    @Override
    public NetworkResults networkResults(ReplayResult result) {
        var net = result.network();
        List<PairResult> pairs = new ArrayList<>();
        List<PairFlowEstimate> estimates = new ArrayList<>();
        Path run = result.options().out();
        if (run == null || !Files.isDirectory(run.resolve("journal"))) {
            return new NetworkResults(pairs, estimates, List.of("no export journal (run with --out DIR): no interval closed"));
        }
        List<Integer> switches = LdsControlPlane.ldsSwitches(net);
        List<long[]> flows = null;
        for (int s : switches) {
            LdsPipeline tx = LdsControlPlane.pipeline(net.switchEngine(s).state().program());
            if (tx.role == LdsRole.RECEIVER) {
                continue;
            }
            for (int r : switches) {
                LdsPipeline rx = LdsControlPlane.pipeline(net.switchEngine(r).state().program());
                if (rx.role == LdsRole.SENDER || (r == s) != (tx.role == LdsRole.BOTH)) {
                    continue;
                }
                String sender = net.switchNode(s).name();
                String receiver = net.switchNode(r).name();
                if (!tx.config.equals(rx.config) || tx.intervals.shift() != rx.intervals.shift()) {
                    pairs.add(new PairResult(sender, receiver, false, tx.config.rows(), tx.config.cells(), tx.config.ldaCells(),
                            tx.intervals.shift(), 0, 0));
                    continue;
                }
                if (flows == null) {
                    // --param top=N of a --topology replay (no --program): the report's, not a switch's
                    flows = LdsDeliveredFlows.read(LdsControlPlane.deliveredFile(run), Integer.parseInt(result.options().params()
                            .getOrDefault("top", String.valueOf(LdsProgram.DEFAULT_REPORT_TOP))));
                }
                var sent = LdsCollector.importAll(run, tx.config, LdsCollector.KIND_SENDER_SKETCH, s);
                var received = LdsCollector.importAll(run, rx.config, LdsCollector.KIND_RECEIVER_SKETCH, r);
                pairs.add(new PairResult(sender, receiver, true, tx.config.rows(), tx.config.cells(), tx.config.ldaCells(),
                        tx.intervals.shift(), sent.size(), received.size()));
                for (var e : sent.entrySet()) {
                    LdsSketch rxSketch = received.get(e.getKey());
                    if (rxSketch == null) {
                        continue;
                    }
                    for (Row row : estimate(new LdsEstimator(e.getValue(), rxSketch), flows)) {
                        if (Double.isNaN(row.meanDelayNs()) && row.packetsSent() == 0) {
                            continue;
                        }
                        estimates.add(new PairFlowEstimate(sender, receiver, e.getKey(),
                                tuple(row.src(), row.srcPort(), row.dst(), row.dstPort(), row.proto()),
                                Double.isNaN(row.meanDelayNs()) ? null : row.meanDelayNs(), row.packetsSent(), row.packetsLost()));
                    }
                }
            }
        }
        List<String> notes = new ArrayList<>();
        if (pairs.stream().noneMatch(PairResult::sameShape)) {
            notes.add("no sender and receiver pair among the switches running lds");
        }
        return new NetworkResults(pairs, estimates, notes);
    }

    static String tuple(int src, int srcPort, int dst, int dstPort, int proto) {
        return ip(src) + ":" + srcPort + " > " + ip(dst) + ":" + dstPort + " p" + proto;
    }

    static String ip(int a) {
        return (a >>> 24) + "." + ((a >>> 16) & 0xFF) + "." + ((a >>> 8) & 0xFF) + "." + (a & 0xFF);
    }
}
