package dev.rmtemu.programs.wbmon.experiment;

import dev.rmtemu.programs.wbmon.control.NetBouncer;
import dev.rmtemu.programs.wbmon.control.WbmonAnalyser;
import dev.rmtemu.programs.wbmon.control.WbmonControlPlane;
import dev.rmtemu.programs.wbmon.control.WbmonDeployment;
import dev.rmtemu.programs.wbmon.program.WbmonConfig;
import dev.rmtemu.programs.wbmon.program.WbmonProgram;
import dev.rmtemu.programs.wbmon.reference.WindowMonitor;

import java.util.Arrays;
import java.util.TreeSet;
import dev.rmtemu.emulator.spi.ExperimentJson;
import dev.rmtemu.emulator.json.Json;
import dev.rmtemu.emulator.spi.Experiment;
import dev.rmtemu.emulator.spi.Experiment;
import dev.rmtemu.emulator.spi.OptionValues;
import dev.rmtemu.emulator.topology.Topology;
import dev.rmtemu.emulator.topology.TopologySpec;
import dev.rmtemu.model.UserError;
import dev.rmtemu.traces.PacketRecord;
import dev.rmtemu.traces.PacketSource;
import dev.rmtemu.traces.spec.TraceSpec;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@code rmtemu experiment wbmon}: (a) reorder tolerance, (b) drop-burst tolerance,
 * (c) the thesis' Table 1 scenarios, (d) detection time vs loss rate and throughput,
 * (e) link localisation on Abilene and a 4-ary fat tree with NetBouncer.
 */
public final class WbmonExperiment implements Experiment {
    static final String NAME = "wbmon";

    /** The thesis' Table 1: reorder rate, drop rate (fractions). */
    static final double[][] TABLE1 = {{0.0165, 0.01}, {0.0165, 0.90}, {0.0165, 0.95}, {0.70, 0.05}, {0.75, 0.15},
            {0.70, 0.80}, {0.60, 0.90}, {0.70, 0.90}};
    /** The thesis' Table 1 as printed, per scenario of {@link #TABLE1}: FPR (the text reads 0.05 and 0.18 as %, 2.42 as per mille). */
    static final double[] TABLE1_THESIS_FPR = {0.00, 0.05, 2.42, 0.00, 0.00, 0.00, 0.18, 0.19};
    /** The thesis' Table 1: Detected Drop Rate, %. */
    static final double[] TABLE1_THESIS_DETECTED = {1.00, 90.00, 95.24, 5.02, 15.02, 80.01, 90.03, 89.96};
    /** The thesis' Figure 3 (N = 4, W = 32, tws = 2): no false positive for displacements in [−37, 59]. */
    static final int THESIS_REORDER_FREE_FROM = -37;
    static final int THESIS_REORDER_FREE_TO = 59;
    /** The thesis' Figure 4: false positives possible for bursts above W·tws + 1 = 65, never a false negative. */
    static final int THESIS_BURST_EXACT_UP_TO = 65;
    /** The thesis' Figure 5: ε of the convergence time, and its bounds (ms): ISP networks, ISP above 1 Gb/s, data centres. */
    static final double THESIS_EPSILON = 0.0005;
    static final double THESIS_CONVERGENCE_ISP_MS = 13;
    static final double THESIS_CONVERGENCE_FAST_MS = 2;
    /** Which engine produced each table (JSON array name → engine). */
    static final String ENGINE_REFERENCE = "reference window (WindowMonitor, equal to the stage program in the tests)";
    static final String ENGINE_NETWORK = "emulated network, the wbmon stage program (IR) on tofino1 m-switches";
    static final String ENGINE_ANALYSER = "reference window per vconn, then WbmonAnalyser (NetBouncer)";
    static final Map<String, String> ENGINES = new TreeMap<>(Map.of("reorder", ENGINE_REFERENCE, "burst", ENGINE_REFERENCE,
            "table1", ENGINE_REFERENCE, "detection", ENGINE_REFERENCE, "convergence", ENGINE_REFERENCE,
            "network_detection", ENGINE_NETWORK, "localisation", ENGINE_ANALYSER, "figure7", ENGINE_ANALYSER));
    /** The thesis' abstract: every packet drop detected in less than 2 ms. */
    static final double THESIS_DETECTION_MS = 2.0;
    /** Bytes on the wire per packet beyond the frame (preamble, SFD, inter-frame gap). */
    static final int WIRE_OVERHEAD_BYTES = 20;

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "WBMon: reorder and drop-burst tolerance, Table 1 scenarios, detection time, NetBouncer link localisation";
    }

    @Override
    public List<String> options() {
        return List.of(
                "part=abcdef                which parts to run",
                "registers=4 bits=32 tolerance=2  N, W, tws",
                "a_step=8                   (a) displacement step over -128..128",
                "b_max=383 b_step=16        (b) largest burst and table step (every size is run)",
                "c_packets=100000 c_runs=10 c_sigma=0.75  (c) sequence numbers per run, runs, displacement sigma",
                "d_packets=200000 d_losses=0.001,0.01,0.1,0.5 d_gbps=1,10,100 d_bytes=1000  (d)",
                "d_net_packets=20000 d_net_gbps=10,40  (d) on the emulated chain with the stage program",
                "d_conv_gbps=0.1,1,10,100 d_conv_runs=10 d_conv_packets=1000000  (d) Figure 5 convergence time (eps 0.05%)",
                "e_runs=10 e_fractions=0.4,...,0.8 e_faults=1 e_loss=0.01 e_packets=20000  (e) placements, lossy links, packets per vconn",
                "f_fractions=0.4,...,0.8 f_faults=1,2,3 f_placements=10 f_subsets=10 f_loss=0.01 f_packets=5000",
                "                           (f) Figure 7 on Abilene: R(X) random placements, P1-P3, faulty links per run",
                "seed=1",
                "control=FILE topology=SPEC [vconns=256]  instead of the parts: write the control-plane script for",
                "                           'rmtemu replay --topology SPEC --program wbmon --control FILE' (same registers/bits/tolerance/vconns)",
                "flows=TRACE                with control=: the trace to replay, whose flows get flow-table entries where",
                "                           regular switches split a port's traffic over several vconns (ECMP)");
    }

    public record ReorderRow(int displacement, long actual, long falsePositives) {
    }

    /** falsePositives/Negatives per sequence number; thesisFalsePositives/Negatives the thesis' net counts. */
    public record BurstRow(int burst, long falsePositives, long falseNegatives, long thesisFalsePositives,
                           long thesisFalseNegatives) {
    }

    /**
     * One Table 1 scenario, the thesis' metrics averaged over the runs (FPR = #FP / #packets,
     * detected drop rate = #drops / (#drops + #packets)) beside its printed values, and the
     * true drop rate and per-sequence-number false-negative rate over all runs.
     */
    public record Table1Row(double reorderRate, double dropRate, double trueDropRate, double detectedDropRate,
                            double falsePositiveRate, double falseNegativeRate, double thesisFpr, double thesisDetectedDropRate) {
    }

    /** Figure 5: median packets (and ms at the throughput) until |ŷ − y| &lt; ε, by the thesis' estimate and by the window's. */
    public record ConvergenceRow(double lossRate, double gbps, double packetsSent, double msSent, double packetsWindow,
                                 double msWindow) {
    }

    public record DetectionRow(double lossRate, double gbps, double meanPackets, double meanUs, double p99Us, double maxUs) {
    }

    public record NetworkDetectionRow(double lossRate, double gbps, long drops, double meanUs, double p99Us, double maxUs) {
    }

    public record LocalisationRow(String scenario, int runs, double vconns, int faulty, int found, int blamedSets, int trueSets,
                                  double linksPerBlamedSet, int blamedLinks) {
        /** The thesis' precision (Section 5.2.1): #TP / #B, B every link of the blamed sets. */
        public double thesisPrecision() {
            return blamedLinks == 0 ? 1 : (double) found / blamedLinks;
        }

        public double recall() {
            return faulty == 0 ? 1 : (double) found / faulty;
        }

        public double precision() {
            return blamedSets == 0 ? 1 : (double) trueSets / blamedSets;
        }
    }

    /**
     * Figure 7: one placement kind and faulty-link count; recall and precision with the thesis'
     * definitions (B includes every link indistinguishable from a blamed one), the mean of the
     * runs (precision over the runs that blamed something).
     */
    public record Figure7Row(String placement, int switches, int faults, int runs, double recall, double precision,
                             int blamedNothing, String thesis) {
    }

    /** Everything one run computed. */
    public record Results(List<ReorderRow> reorder, int reorderFreeFrom, int reorderFreeTo, List<BurstRow> burst, int burstTolerance,
                          List<Table1Row> table1, List<DetectionRow> detection, List<ConvergenceRow> convergence,
                          List<NetworkDetectionRow> networkDetection, List<LocalisationRow> localisation,
                          List<Figure7Row> figure7) {
    }

    @Override
    public Output produce(Map<String, String> given, PrintWriter err) {
        WbmonOptions o = WbmonOptions.parse(given);
        if (!o.control().isEmpty()) {
            return writeControl(o);
        }
        Results r = compute(o);
        StringWriter json = new StringWriter();
        StringWriter tables = new StringWriter();
        printJson(new PrintWriter(json), o, r);
        printTables(new PrintWriter(tables), o, r);
        return new Output(json.toString(), tables.toString());
    }

    /** The control-plane mode: writes the script for the topology and prints its vconns and the replay command. */
    private static Output writeControl(WbmonOptions o) {
        String spec = o.topology();
        if (spec.isEmpty()) {
            throw new UserError("experiment wbmon: option control needs topology=SPEC (the network to replay)");
        }
        WbmonConfig c = new WbmonConfig(o.vconns(), o.registers(), o.bits(), o.tolerance());
        Topology t = TopologySpec.parse(spec);
        WbmonControlPlane cp = WbmonControlPlane.of(t, c);
        if (cp.hasEcmpPorts()) {
            if (o.flows().isEmpty()) {
                throw new UserError("experiment wbmon: " + spec + ": regular switches split some ports' traffic over several vconns"
                        + " (ECMP); give flows=TRACE, the trace you will replay, so that each flow's vconn is listed");
            }
            cp = cp.withFlows(distinctFlows(o.flows()));
        }
        Path file = Path.of(o.control());
        try {
            Files.writeString(file, cp.script(t, c));
        } catch (IOException e) {
            throw new UserError("experiment wbmon: cannot write " + file + ": " + e.getMessage(), e);
        }
        StringBuilder params = new StringBuilder();
        for (Map.Entry<String, String> e : WbmonDeployment.programParams(c).entrySet()) {
            params.append(" --param ").append(e.getKey()).append('=').append(e.getValue());
        }
        String replay = "rmtemu replay --topology '" + spec + "' --program " + WbmonProgram.NAME + params + " --control " + file
                + " --trace TRACE";
        List<JsonVconn> vconns = new ArrayList<>();
        for (int id = 0; id < cp.vconns().size(); id++) {
            vconns.add(new JsonVconn(id, WbmonControlPlane.describe(t, cp.vconns().get(id))));
        }
        String json = Json.write(new JsonControl(file.toString(), cp.entries().size(), vconns, replay));
        StringWriter tables = new StringWriter();
        PrintWriter out = new PrintWriter(tables);
        out.printf(Locale.ROOT, "wrote %s: %d table entries for %d vconns (vconns=%d registers=%d bits=%d tolerance=%d)%n",
                file, cp.entries().size(), cp.vconns().size(), c.vconns(), c.registers(), c.bitsPerRegister(), c.tolerance());
        for (int id = 0; id < cp.vconns().size(); id++) {
            out.printf(Locale.ROOT, "  vconn %d: %s%n", id, WbmonControlPlane.describe(t, cp.vconns().get(id)));
        }
        out.println("replay with: " + replay);
        out.flush();
        return new Output(json, tables.toString());
    }

    /** One record per distinct 5-tuple of a trace (the control plane's flow list). */
    private static List<PacketRecord> distinctFlows(String spec) {
        List<PacketRecord> out = new ArrayList<>();
        TreeSet<String> seen = new TreeSet<>();
        PacketRecord r = PacketRecord.allocate();
        try (PacketSource src = TraceSpec.open(spec)) {
            while (src.next(r)) {
                String key = r.srcIpv4() + "," + r.dstIpv4() + "," + r.protocol() + "," + r.srcPort() + "," + r.dstPort();
                if (seen.add(key)) {
                    out.add(PacketRecord.allocate(0).copyFrom(r)); // a flow's decoded fields; its bytes are not needed
                }
            }
        } catch (Exception e) {
            if (e instanceof UserError u) {
                throw u;
            }
            throw new UserError("experiment wbmon: option flows: cannot read " + spec + ": " + e.getMessage(), e);
        }
        return out;
    }

    public static Results compute(WbmonOptions o) {
        WbmonConfig c = new WbmonConfig(1, o.registers(), o.bits(), o.tolerance());
        String part = o.part();
        long seed = o.seed();
        List<ReorderRow> reorder = new ArrayList<>();
        int freeFrom = 0;
        int freeTo = 0;
        List<BurstRow> burst = new ArrayList<>();
        List<ConvergenceRow> convergence = new ArrayList<>();
        int tolerance = -1;
        List<Table1Row> table1 = new ArrayList<>();
        List<DetectionRow> detection = new ArrayList<>();
        List<NetworkDetectionRow> netDetection = new ArrayList<>();
        List<LocalisationRow> loc = new ArrayList<>();
        if (part.contains("a")) {
            int step = o.aStep();
            int nw = c.registers() * c.bitsPerRegister();
            for (int d = -nw; d <= nw; d += step) {
                WbmonScenarios.Displaced x = WbmonScenarios.reorder(c, d);
                reorder.add(new ReorderRow(d, x.actual(), x.score().thesisFalsePositives()));
            }
            // Figure 3's range without false positives, around displacement 0, every displacement tried
            freeFrom = 0;
            while (freeFrom > -nw && WbmonScenarios.reorder(c, freeFrom - 1).score().thesisFalsePositives() == 0) {
                freeFrom--;
            }
            freeTo = 0;
            while (freeTo < nw && WbmonScenarios.reorder(c, freeTo + 1).score().thesisFalsePositives() == 0) {
                freeTo++;
            }
        }
        if (part.contains("b")) {
            int max = o.bMax();
            int step = o.bStep();
            boolean clean = true;
            for (int b = 0; b <= max; b++) {
                WindowScore s = WbmonScenarios.burst(c, b, max);
                if (clean && (s.thesisFalsePositives() > 0 || s.thesisFalseNegatives() > 0)) {
                    clean = false;
                    tolerance = b - 1;
                }
                if (b % step == 0 || b == max) {
                    burst.add(new BurstRow(b, s.falsePositives(), s.falseNegatives(), s.thesisFalsePositives(), s.thesisFalseNegatives()));
                }
            }
            if (clean) {
                tolerance = max;
            }
        }
        if (part.contains("c")) {
            int packets = o.cPackets();
            int runs = o.cRuns();
            double sigma = o.cSigma();
            for (int row = 0; row < TABLE1.length; row++) {
                double[] sc = TABLE1[row];
                long judged = 0;
                long lost = 0;
                long fn = 0;
                double fpr = 0;
                double detected = 0;
                for (int run = 0; run < runs; run++) {
                    WindowScore s = WbmonScenarios.realistic(c, packets, sc[0], sc[1], sigma, seed * 1_000 + run);
                    judged += s.judged();
                    lost += s.lost();
                    fn += s.falseNegatives();
                    fpr += s.thesisFalsePositiveRate();
                    detected += s.detectedDropRate();
                }
                table1.add(new Table1Row(sc[0], sc[1], (double) lost / judged, detected / runs, fpr / runs, (double) fn / judged,
                        TABLE1_THESIS_FPR[row], TABLE1_THESIS_DETECTED[row] / 100));
            }
        }
        if (part.contains("d")) {
            int packets = o.dPackets();
            int bytes = o.dBytes();
            for (double loss : o.dLosses()) {
                for (double gbps : o.dGbps()) {
                    double pps = gbps * 1e9 / ((bytes + WIRE_OVERHEAD_BYTES) * 8.0);
                    WbmonScenarios.Detection d = WbmonScenarios.detection(c, packets, loss, pps, seed);
                    detection.add(new DetectionRow(loss, gbps, d.meanPackets(), d.meanNs() / 1e3, d.p99Ns() / 1e3, d.maxNs() / 1e3));
                }
            }
            int convRuns = o.dConvRuns();
            int convMax = o.dConvPackets();
            for (double loss : o.dLosses()) {
                // first-passage times are heavy-tailed (a random walk's return): the median of the runs, a run
                // that never comes within eps in d_conv_packets counting as longer than all
                long[] sentRuns = new long[convRuns];
                long[] windowRuns = new long[convRuns];
                for (int run = 0; run < convRuns; run++) {
                    WbmonScenarios.Convergence x = WbmonScenarios.convergence(c, loss, THESIS_EPSILON, convMax, seed * 1_000 + run);
                    sentRuns[run] = x.packetsSent() < 0 ? Long.MAX_VALUE : x.packetsSent();
                    windowRuns[run] = x.packetsWindow() < 0 ? Long.MAX_VALUE : x.packetsWindow();
                }
                double sent = median(sentRuns);
                double window = median(windowRuns);
                if (Double.isInfinite(sent) || Double.isInfinite(window)) {
                    throw new UserError("experiment wbmon: the estimate of loss rate " + loss + " did not come within "
                            + THESIS_EPSILON + " in d_conv_packets=" + convMax + " packets in most runs (raise it)");
                }
                for (double gbps : o.dConvGbps()) {
                    double msPerPacket = bytes * 8.0 / (gbps * 1e9) * 1e3; // the thesis: packets / throughput, 1 KB packets
                    convergence.add(new ConvergenceRow(loss, gbps, sent, sent * msPerPacket, window, window * msPerPacket));
                }
            }
            int netPackets = o.dNetPackets();
            for (double loss : o.dLosses()) {
                for (double gbps : o.dNetGbps()) {
                    NetworkDetection.Result d = NetworkDetection.run(c, netPackets, loss, gbps, bytes, seed);
                    netDetection.add(new NetworkDetectionRow(loss, gbps, d.drops(), d.meanUs(), d.p99Us(), d.maxUs()));
                }
            }
        }
        if (part.contains("e")) {
            int runs = o.eRuns();
            int faults = o.eFaults();
            double lossRate = o.eLoss();
            int packets = o.ePackets();
            WbmonConfig ce = c.withVconns(1);
            for (double f : o.eFractions()) {
                List<WbmonLocalisation.Outcome> outs = new ArrayList<>();
                for (int run = 0; run < runs; run++) {
                    long s = seed * 7_919 + run;
                    String spec = WbmonLocalisation.abilenePlacement(f, s);
                    outs.add(WbmonLocalisation.run(new WbmonLocalisation.Setup(spec, faults, lossRate, packets), ce,
                            WbmonAnalyser.Params.DEFAULTS, s));
                }
                loc.add(summarise(String.format(Locale.ROOT, "abilene %d%%", Math.round(f * 100)), outs));
            }
            for (String[] ft : new String[][] {{"fattree k=4 Edge", "edge"}, {"fattree k=4 Edge+Core", "edge,core"}}) {
                List<WbmonLocalisation.Outcome> outs = new ArrayList<>();
                for (int run = 0; run < runs; run++) {
                    long s = seed * 7_919 + run;
                    outs.add(WbmonLocalisation.run(new WbmonLocalisation.Setup("builtin:fattree?k=4&programmable=" + ft[1], faults,
                            lossRate, packets), ce, WbmonAnalyser.Params.DEFAULTS, s));
                }
                loc.add(summarise(ft[0], outs));
            }
        }
        List<Figure7Row> figure7 = part.contains("f") ? figure7(o, c, seed) : List.of();
        return new Results(reorder, freeFrom, freeTo, burst, tolerance, table1, detection, convergence, netDetection, loc, figure7);
    }

    /** What the thesis says of a Figure 7 row (its Section 5.2.2; the plotted values are not in the text). */
    static String thesisFigure7(String placement) {
        return switch (placement) {
            case "R(40)" -> "recall about 70 %; random precision 53-83 %";
            case "R(60)" -> "recall about 80 %; random precision 53-83 %";
            case "P1" -> "precision above R(70) with 1-2 faulty links, above R(50) with 3";
            case "P2", "P3" -> "recall and precision above R(80)";
            default -> placement.startsWith("R(") ? "random precision 53-83 %" : "";
        };
    }

    private static List<Figure7Row> figure7(WbmonOptions o, WbmonConfig c, long seed) {
        int placements = o.fPlacements();
        int subsets = o.fSubsets();
        double lossRate = o.fLoss();
        int packets = o.fPackets();
        int[] faultCounts = o.fFaults();
        WbmonConfig ce = c.withVconns(1);
        List<String> labels = new ArrayList<>();
        List<List<String>> specs = new ArrayList<>();
        for (double f : o.fFractions()) {
            labels.add(String.format(Locale.ROOT, "R(%d)", Math.round(f * 100)));
            List<String> random = new ArrayList<>();
            for (int k = 0; k < placements; k++) {
                random.add(WbmonLocalisation.abilenePlacement(f, seed * 104_729 + k));
            }
            specs.add(random);
        }
        for (int i = 0; i < WbmonPlacement.HAND_MADE_SIZES.length; i++) {
            labels.add("P" + (i + 1));
            List<String> one = new ArrayList<>();
            String best = WbmonPlacement.best(WbmonPlacement.HAND_MADE_SIZES[i]);
            for (int k = 0; k < placements; k++) {
                one.add(best);
            }
            specs.add(one);
        }
        List<Figure7Row> out = new ArrayList<>();
        for (int row = 0; row < labels.size(); row++) {
            for (int faults : faultCounts) {
                double recall = 0;
                double precision = 0;
                int scored = 0;
                int runs = 0;
                int switches = 0;
                for (int k = 0; k < placements; k++) {
                    String spec = specs.get(row).get(k);
                    switches = spec.substring(spec.indexOf("programmable=") + "programmable=".length()).split(",").length;
                    for (int j = 0; j < subsets; j++) {
                        long s = seed * 7_919 + (long) k * subsets + j;
                        WbmonPlacement.Score x = WbmonPlacement.Score.of(WbmonLocalisation.run(
                                new WbmonLocalisation.Setup(spec, faults, lossRate, packets), ce, WbmonAnalyser.Params.DEFAULTS, s));
                        recall += x.recall();
                        if (!Double.isNaN(x.precision())) {
                            precision += x.precision();
                            scored++;
                        }
                        runs++;
                    }
                }
                String label = labels.get(row);
                out.add(new Figure7Row(label, switches, faults, runs,
                        recall / runs, scored == 0 ? Double.NaN : precision / scored, runs - scored, thesisFigure7(label)));
            }
        }
        return out;
    }

    /** The median (the mean of the two middle values for an even count); a Long.MAX_VALUE entry is infinite. */
    static double median(long[] v) {
        long[] x = v.clone();
        Arrays.sort(x);
        long lo = x[(x.length - 1) / 2];
        long hi = x[x.length / 2];
        if (hi == Long.MAX_VALUE) {
            return Double.POSITIVE_INFINITY;
        }
        return (lo + hi) / 2.0;
    }

    private static LocalisationRow summarise(String name, List<WbmonLocalisation.Outcome> outs) {
        double vconns = 0;
        int faulty = 0;
        int found = 0;
        int blamed = 0;
        int trueSets = 0;
        int links = 0;
        for (WbmonLocalisation.Outcome x : outs) {
            vconns += x.vconns();
            faulty += x.faulty();
            found += x.found();
            blamed += x.blamedSets();
            trueSets += x.trueSets();
            links += x.blamedLinks();
        }
        return new LocalisationRow(name, outs.size(), vconns / outs.size(), faulty, found, blamed, trueSets,
                blamed == 0 ? 0 : (double) links / blamed, links);
    }

    private static void printTables(PrintWriter out, WbmonOptions o, Results r) {
        out.printf(Locale.ROOT, "WBMon: N=%s registers of W=%s bits, tws=%s (cws=%d)%n", o.text("registers"), o.text("bits"),
                o.text("tolerance"), o.registers() - o.tolerance());
        if (!r.reorder().isEmpty()) {
            out.println();
            out.println("WBMon (a) reorder tolerance: 266 packets from 0, packet 165 displaced (no drops)");
            out.println(" engine: " + ENGINES.get("reorder"));
            out.println(" displacement  actual  false positives");
            for (ReorderRow x : r.reorder()) {
                out.printf(Locale.ROOT, " %12d  %6d  %15d%n", x.displacement(), x.actual(), x.falsePositives());
            }
            out.printf(Locale.ROOT, " no false positive for displacements [%d, %d]; thesis Figure 3: [%d, %d], one FP above, growing"
                    + " linearly below%n", r.reorderFreeFrom(), r.reorderFreeTo(), THESIS_REORDER_FREE_FROM, THESIS_REORDER_FREE_TO);
        }
        if (!r.burst().isEmpty()) {
            out.println();
            out.printf(Locale.ROOT, "WBMon (b) drop-burst tolerance: trace from 32, burst from packet 112; #FP = max(0, detected - drops),"
                    + " #FN = max(0, drops - detected) (the thesis' counts) are 0 up to %d drops%n", r.burstTolerance());
            out.println(" engine: " + ENGINES.get("burst"));
            out.println(" burst  #FP  #FN  FP per number  FN per number");
            for (BurstRow x : r.burst()) {
                out.printf(Locale.ROOT, " %5d  %3d  %3d  %13d  %13d%n", x.burst(), x.thesisFalsePositives(), x.thesisFalseNegatives(),
                        x.falsePositives(), x.falseNegatives());
            }
            out.printf(Locale.ROOT, " thesis Figure 4: #FN 0 at every burst size; #FP from bursts above W*tws+1 = %d, under 3%% of the drops%n",
                    THESIS_BURST_EXACT_UP_TO);
        }
        if (!r.table1().isEmpty()) {
            out.println();
            out.printf(Locale.ROOT, "WBMon (c) Table 1 scenarios: %s sequence numbers x %s runs, displacement ~ N(0, %s^2)%n",
                    o.text("c_packets"), o.text("c_runs"), o.text("c_sigma"));
            out.println(" engine: " + ENGINES.get("table1"));
            out.println(" thesis metrics, mean of the runs: FPR = #FP / #packets, detected drop rate = #drops / (#drops + #packets)");
            out.println(" reorder %  drop %  true drop rate  detected drop rate  thesis  FPR (%)  thesis (as printed)  FN per number");
            for (Table1Row x : r.table1()) {
                out.printf(Locale.ROOT, " %9.2f  %6.0f  %13.4f%%  %17.4f%%  %5.2f%%  %7.4f  %19.2f  %12.4f%%%n", x.reorderRate() * 100,
                        x.dropRate() * 100, x.trueDropRate() * 100, x.detectedDropRate() * 100, x.thesisDetectedDropRate() * 100,
                        x.falsePositiveRate() * 100, x.thesisFpr(), x.falseNegativeRate() * 100);
            }
        }
        if (!r.detection().isEmpty()) {
            out.println();
            out.printf(Locale.ROOT, "WBMon (d) detection time, in-order traffic of %s-byte packets (thesis: every drop < %.0f ms)%n",
                    o.text("d_bytes"), THESIS_DETECTION_MS);
            out.println(" engine: " + ENGINES.get("detection"));
            out.println(" loss rate  Gb/s  mean (packets)   mean (us)    p99 (us)    max (us)");
            for (DetectionRow x : r.detection()) {
                out.printf(Locale.ROOT, " %9.3f  %4.0f  %14.1f  %10.3f  %10.3f  %10.3f%n", x.lossRate(), x.gbps(), x.meanPackets(),
                        x.meanUs(), x.p99Us(), x.maxUs());
            }
        }
        if (!r.convergence().isEmpty()) {
            out.println();
            out.printf(Locale.ROOT, "WBMon (d) Figure 5 convergence: packets until |y^ - y| < %.2f%% first holds (median of %s runs), time ="
                    + " packets x %s bytes / throughput%n", THESIS_EPSILON * 100, o.text("d_conv_runs"), o.text("d_bytes"));
            out.println(" engine: " + ENGINES.get("convergence"));
            out.println(" y^ = dropped / sent (the thesis' estimate); window: y^ = detected drops / judged numbers");
            out.println(" loss rate  Gb/s  packets (thesis y^)     ms  packets (window)     ms");
            for (ConvergenceRow x : r.convergence()) {
                out.printf(Locale.ROOT, " %9.3f  %5.1f  %18.1f  %8.3f  %15.1f  %8.3f%n", x.lossRate(), x.gbps(), x.packetsSent(),
                        x.msSent(), x.packetsWindow(), x.msWindow());
            }
            out.printf(Locale.ROOT, " thesis Figure 5: under %.0f ms for ISP networks, under %.0f ms above 1 Gb/s and in data centres%n",
                    THESIS_CONVERGENCE_ISP_MS, THESIS_CONVERGENCE_FAST_MS);
        }
        if (!r.networkDetection().isEmpty()) {
            out.println();
            out.printf(Locale.ROOT, "WBMon (d) on the emulated network: h1-m1-r1-r2-m2-h2, stage program on tofino1, %.0f Gb/s links"
                    + " of %d ns, loss on r1->r2, %s packets%n", NetworkDetection.LINK_GBPS, NetworkDetection.LINK_NS, o.text("d_net_packets"));
            out.println(" engine: " + ENGINES.get("network_detection"));
            out.println(" loss rate  Gb/s  drops   mean (us)    p99 (us)    max (us)");
            for (NetworkDetectionRow x : r.networkDetection()) {
                out.printf(Locale.ROOT, " %9.3f  %4.0f  %5d  %10.3f  %10.3f  %10.3f%n", x.lossRate(), x.gbps(), x.drops(), x.meanUs(),
                        x.p99Us(), x.maxUs());
            }
        }
        if (!r.localisation().isEmpty()) {
            out.println();
            out.printf(Locale.ROOT, "WBMon (e) link localisation: %s lossy directed link(s) at %s loss, %s packets per vconn, blame below %.1f%%%n",
                    o.text("e_faults"), o.text("e_loss"), o.text("e_packets"), WbmonAnalyser.Params.DEFAULT_BLAME_BELOW * 100);
            out.println(" engine: " + ENGINES.get("localisation"));
            out.println(" recall = #TP/#F; precision (thesis) = #TP/#B over links, B every link of the blamed sets; sets = blamed sets"
                    + " holding a faulty link");
            out.println(" scenario                 runs  vconns  recall  precision  links per blamed set  precision (thesis)");
            for (LocalisationRow x : r.localisation()) {
                out.printf(Locale.ROOT, " %-23s  %4d  %6.1f  %5.1f%%  %8.1f%%  %20.2f  %17.1f%%%n", x.scenario(), x.runs(), x.vconns(),
                        x.recall() * 100, x.precision() * 100, x.linksPerBlamedSet(), x.thesisPrecision() * 100);
            }
            out.println(" thesis: fat tree Edge+Core 100% recall, no false blame");
        }
        if (!r.figure7().isEmpty()) {
            out.println();
            out.printf(Locale.ROOT, "WBMon (f) Figure 7, Abilene: %s placements x %s faulty-link subsets per row, %s loss per faulty"
                    + " directed link, %s packets per vconn; recall = #TP/#F, precision = #TP/#B, B = blamed links and every link"
                    + " indistinguishable from one%n", o.text("f_placements"), o.text("f_subsets"), o.text("f_loss"), o.text("f_packets"));
            out.println(" engine: " + ENGINES.get("figure7"));
            out.println(" placement  m-switches  faulty  runs  recall  precision  nothing blamed  thesis (Section 5.2.2)");
            for (Figure7Row x : r.figure7()) {
                out.printf(Locale.ROOT, " %-9s  %10d  %6d  %4d  %5.1f%%  %8.1f%%  %14d  %s%n", x.placement(), x.switches(), x.faults(),
                        x.runs(), x.recall() * 100, x.precision() * 100, x.blamedNothing(), x.thesis());
            }
            out.println(" P1-P3: the thesis' Figure 6 placements are not in its text; rebuilt as the 6, 7 and 8 m-switch placements"
                    + " leaving the fewest links unidentifiable (P2, P3: 64 % and 73 % of the switches, as in the thesis)");
        }
    }

    /** {@code control=FILE}'s JSON: the file written, its entry count, each vconn's path and the replay command. */
    record JsonControl(String control, int entries, List<JsonVconn> vconns, String replay) {
    }

    record JsonVconn(int vconn, String path) {
    }

    /** The experiment's JSON document (docs/schema/experiment.schema.json, {@code wbmon}). */
    record JsonDoc(String experiment, Map<String, String> options, Map<String, String> engines, List<ReorderRow> reorder,
                   int reorderFreeFrom, int reorderFreeTo, int burstTolerance, List<BurstRow> burst, List<JsonTable1> table1,
                   List<JsonConvergence> convergence, List<JsonDetection> detection,
                   List<JsonNetworkDetection> networkDetection, List<JsonLocalisation> localisation,
                   List<JsonFigure7> figure7, JsonThesis thesis) {
    }

    record JsonTable1(BigDecimal reorderRate, BigDecimal dropRate, BigDecimal trueDropRate, BigDecimal detectedDropRate,
                      BigDecimal falsePositiveRate, BigDecimal falseNegativeRate, BigDecimal thesisFprAsPrinted,
                      BigDecimal thesisDetectedDropRate) {
    }

    record JsonConvergence(BigDecimal lossRate, BigDecimal gbps, BigDecimal packetsThesisEstimate, BigDecimal msThesisEstimate,
                           BigDecimal packetsWindow, BigDecimal msWindow) {
    }

    record JsonDetection(BigDecimal lossRate, BigDecimal gbps, BigDecimal meanPackets, BigDecimal meanUs, BigDecimal p99Us,
                         BigDecimal maxUs) {
    }

    record JsonNetworkDetection(BigDecimal lossRate, BigDecimal gbps, long drops, BigDecimal meanUs, BigDecimal p99Us,
                                BigDecimal maxUs) {
    }

    record JsonLocalisation(String scenario, int runs, BigDecimal vconns, int faulty, int found, int blamedSets, int trueSets,
                            BigDecimal recall, BigDecimal precision, BigDecimal linksPerBlamedSet, int blamedLinks,
                            BigDecimal thesisPrecision) {
    }

    record JsonFigure7(String placement, int switches, int faults, int runs, BigDecimal recall, BigDecimal precision,
                       int blamedNothing, String thesis) {
    }

    record JsonThesis(BigDecimal detectionMsBelow, int reorderFreeFrom, int reorderFreeTo, int burstExactUpTo,
                      BigDecimal convergenceIspMsBelow, BigDecimal convergenceFastMsBelow, String fattreeEdgeCore) {
    }

    private static BigDecimal d(double v, int places) {
        return ExperimentJson.decimal(v, places);
    }

    /** A double as Java prints it (loss rates and speeds are options, kept as given). */
    private static BigDecimal plain(double v) {
        return Double.isFinite(v) ? new BigDecimal(Double.toString(v)) : null;
    }

    private static void printJson(PrintWriter out, WbmonOptions o, Results r) {
        List<JsonTable1> table1 = new ArrayList<>();
        for (Table1Row x : r.table1()) {
            table1.add(new JsonTable1(d(x.reorderRate(), 4), d(x.dropRate(), 4), d(x.trueDropRate(), 6),
                    d(x.detectedDropRate(), 6), d(x.falsePositiveRate(), 6), d(x.falseNegativeRate(), 6), d(x.thesisFpr(), 2),
                    d(x.thesisDetectedDropRate(), 4)));
        }
        List<JsonConvergence> convergence = new ArrayList<>();
        for (ConvergenceRow x : r.convergence()) {
            convergence.add(new JsonConvergence(plain(x.lossRate()), plain(x.gbps()), d(x.packetsSent(), 1), d(x.msSent(), 4),
                    d(x.packetsWindow(), 1), d(x.msWindow(), 4)));
        }
        List<JsonDetection> detection = new ArrayList<>();
        for (DetectionRow x : r.detection()) {
            detection.add(new JsonDetection(plain(x.lossRate()), plain(x.gbps()), d(x.meanPackets(), 2), d(x.meanUs(), 4),
                    d(x.p99Us(), 4), d(x.maxUs(), 4)));
        }
        List<JsonNetworkDetection> network = new ArrayList<>();
        for (NetworkDetectionRow x : r.networkDetection()) {
            network.add(new JsonNetworkDetection(plain(x.lossRate()), plain(x.gbps()), x.drops(), d(x.meanUs(), 4),
                    d(x.p99Us(), 4), d(x.maxUs(), 4)));
        }
        List<JsonLocalisation> localisation = new ArrayList<>();
        for (LocalisationRow x : r.localisation()) {
            localisation.add(new JsonLocalisation(x.scenario(), x.runs(), d(x.vconns(), 2), x.faulty(), x.found(), x.blamedSets(),
                    x.trueSets(), d(x.recall(), 4), d(x.precision(), 4), d(x.linksPerBlamedSet(), 3), x.blamedLinks(),
                    d(x.thesisPrecision(), 4)));
        }
        List<JsonFigure7> figure7 = new ArrayList<>();
        for (Figure7Row x : r.figure7()) {
            figure7.add(new JsonFigure7(x.placement(), x.switches(), x.faults(), x.runs(), d(x.recall(), 4), d(x.precision(), 4),
                    x.blamedNothing(), x.thesis()));
        }
        JsonThesis thesis = new JsonThesis(plain(THESIS_DETECTION_MS), THESIS_REORDER_FREE_FROM, THESIS_REORDER_FREE_TO,
                THESIS_BURST_EXACT_UP_TO, plain(THESIS_CONVERGENCE_ISP_MS), plain(THESIS_CONVERGENCE_FAST_MS),
                "100% recall, no false blame");
        out.print(Json.write(new JsonDoc("wbmon", o.text(), ENGINES, r.reorder(), r.reorderFreeFrom(), r.reorderFreeTo(),
                r.burstTolerance(), r.burst(), table1, convergence, detection, network, localisation, figure7, thesis)));
    }
}
