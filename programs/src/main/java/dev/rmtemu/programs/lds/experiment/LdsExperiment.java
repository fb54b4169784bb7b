package dev.rmtemu.programs.lds.experiment;

import dev.rmtemu.emulator.spi.PlotSpec;
import dev.rmtemu.programs.lds.control.FlowEstimate;
import dev.rmtemu.programs.lds.control.LdsEstimator;
import dev.rmtemu.programs.lds.control.LdsPacketKeys;
import dev.rmtemu.programs.lds.control.LdsSketch;
import dev.rmtemu.programs.lds.program.LdsConfig;
import dev.rmtemu.programs.lds.program.LdsWeights;
import dev.rmtemu.programs.lds.reference.SimpleDelaySketch;

import dev.rmtemu.traces.PacketRecord;
import java.util.function.IntUnaryOperator;
import com.fasterxml.jackson.annotation.JsonAnyGetter;
import com.fasterxml.jackson.annotation.JsonIgnore;
import dev.rmtemu.emulator.json.Json;
import dev.rmtemu.emulator.spi.Experiment;
import dev.rmtemu.emulator.spi.Experiment;
import dev.rmtemu.emulator.spi.OptionValues;
import dev.rmtemu.model.UserError;
import dev.rmtemu.traces.gen.SplitMix64;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code rmtemu experiment lds}: per-flow mean-delay accuracy of LDS on a generated trace
 * whose delays follow no temporal-correlation model ({@link DelayModel}), binned by flow
 * size as in the paper: (a) sketch size 1/10, 1 and 10 × (flows / 2) counters with R = 4
 * against "every flow = global mean", RLI-style interpolation from reference packets and
 * the Simple Delay Sketch; (b) the paper's Figure 11: uniform loss, R = 4, k = 5 and rows k
 * times longer, single-rate rows (p = 0.05, p = 1) against the multi-bank rows (p = 0.01,
 * 0.1, 0.5, 1); (c) bronze/silver/gold flow weighting; (d) flow size, loss and variance mining.
 * Every LDS row runs the emulated switch by default ({@link LdsEmulatedPair}: the compiled
 * stage program's sender ingress and receiver egress passes); {@code engine=reference} runs
 * the plain-Java sketches instead (equal register for register, see the tests). The
 * baselines, and the paper's weights a switch cannot multiply by, are plain Java. Every row
 * says which engine ran it. The trace is held in memory once and replayed per configuration.
 */
public final class LdsExperiment implements Experiment {
    static final String NAME = "lds";

    /** Paper (Sanjuàs-Cuxart et al., IMC 2011): median relative error with 70,000 counters, bins 500–999, 1000–9999, ≥10000. */
    static final double[] PAPER_MEDIAN_70K = {Double.NaN, Double.NaN, 1.2, 0.4, 0.06};
    /** Paper's inbound trace: ~7.8 M packets, ~146 K flows. */
    public static final long FULL_PACKETS = 7_800_000;
    public static final int FULL_FLOWS = 146_000;
    /** Default: a quarter of the paper's trace (runs in well under a minute on 2 cores). */
    public static final long DEFAULT_PACKETS = FULL_PACKETS / 4;
    public static final int DEFAULT_FLOWS = FULL_FLOWS / 4;
    /** Flow-size bins (packets): lower bounds. */
    static final int[] BIN_LOW = {0, 100, 500, 1000, 10_000};
    static final String[] BIN_NAMES = {"<100", "100-499", "500-999", "1000-9999", ">=10000"};
    /** Single-rate sampling probabilities compared under loss. */
    static final double[] SINGLE_RATES = {0.05, 1.0};
    /**
     * vLDA length of the single-rate rows: without loss one cell per row keeps all of a flow's
     * packets together (k &gt; 1 only spreads a flow so that a lost packet spoils one of k cells,
     * which is what the multi-bank rows use k = 5 for).
     */
    static final int SINGLE_RATE_LDA_CELLS = 1;
    /** Figure 11: R = 4 rows (the multi-bank rates, one per row). */
    static final int FIG11_ROWS = LdsConfig.MULTI_BANK_RATES.length;
    /** Figure 11's groups: flows with more than 100 packets (dashed) and with at least 1,000 (solid). */
    static final String[] FIG11_GROUPS = {">100", ">=1000"};
    /** Points of the relative-error CDF reported per group (%). */
    static final double[] CDF_AT_PCT = {1, 5, 10};
    /** Paper, Fig. 11 (curves only; the text gives no numbers): what it says of each configuration. */
    static final String[] PAPER_FIG11 = {
        "p=0.05: 'maintains its accuracy under higher loss, but is too conservative and underperforms on low loss'",
        "p=1: 'too optimistic ... its cells become too quickly invalidated under increasing loss'",
        "multi-bank: 'performs consistently well under all loss rates'; still above RLI and MPE without loss"};
    /** The engines a row can come from. */
    static final String PIPELINE = "pipeline";
    static final String REFERENCE = "reference";

    /**
     * The paper's per-flow-size figures: the median and 95th-percentile relative error of the mean delay estimate
     * per flow-size bin, one line per method (and loss rate), one panel per part.
     */
    @Override
    public List<PlotSpec> plots() {
        return List.of(
                PlotSpec.of("rows", "median relative error of the mean delay by flow size", "group", "flow size (packets)",
                        "median relative error (%)", "median_pct").series("method", "loss").panel("part"),
                PlotSpec.of("rows", "95th-percentile relative error of the mean delay by flow size", "group",
                        "flow size (packets)", "95th-percentile relative error (%)", "p95_pct").series("method", "loss").panel("part"));
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "LDS per-flow delay: relative error by flow size vs sketch size, loss (single-rate vs multi-bank) and weighting";
    }

    @Override
    public List<String> options() {
        return List.of(
                "packets=" + DEFAULT_PACKETS + " flows=" + DEFAULT_FLOWS + "  trace size (a quarter of the paper's)",
                "scale=default              full: the paper's ~7.8 M packets / ~146 K flows (overrides packets, flows)",
                "seed=1                     trace, delay and loss seed",
                "rows=4 k=1 k_multi=5       R rows and vLDA length k of parts a, c, d; k of Figure 11 (part b, R = 4)",
                "sizes=0.1,1,10             sketch sizes as multiples of flows/2 counters (R x C)",
                "losses=0.001,0.005,0.01    uniform loss rates for part (b)",
                "engine=pipeline            LDS rows: pipeline (the emulated switch's compiled stage program) or reference"
                        + " (plain Java)",
                "rli_gap=100                RLI baseline: one reference packet per this many packets",
                "part=abcd                  (a) size vs baselines, (b) Figure 11: loss, single-rate vs multi-bank, (c) weighting,"
                        + " (d) flow size, loss and variance mining");
    }

    /**
     * Accuracy of one method on one group of flows: flows, flows with an estimate, median and
     * 95th-percentile relative error (%) of those, and the CDF at {@link #CDF_AT_PCT}: the share
     * of all the group's flows (%) whose estimate is within that error (no estimate: not within).
     */
    public record BinStats(int flows, int estimated, double medianPct, double p95Pct, double[] withinPct) {
        double coverage() {
            return flows == 0 ? Double.NaN : 100.0 * estimated / flows;
        }
    }

    /**
     * One method's row: a label, which engine ran it ({@value #PIPELINE} or {@value #REFERENCE}),
     * the target the pipeline was compiled for (null for the reference), and its statistics per
     * bin (or per class, or per Figure 11 group).
     */
    public record Row(String part, String label, String engine, String target, double loss, BinStats[] bins) {
        static Row reference(String part, String label, double loss, BinStats[] bins) {
            return new Row(part, label, REFERENCE, null, loss, bins);
        }

        static Row of(String part, String label, Sketches s, double loss, BinStats[] bins) {
            return new Row(part, label, s.engine(), s.target(), loss, bins);
        }
    }

    /** The two ends' sketches of one configuration and which engine made them. */
    record Sketches(LdsSketch sender, LdsSketch receiver, String engine, String target) {
    }

    @Override
    public Output produce(Map<String, String> given, PrintWriter err) {
        LdsOptions o = LdsOptions.parse(given);
        long seed = o.seed();
        int rows = o.rows();
        int k = o.k();
        int kMulti = o.kMulti();
        int gap = o.rliGap();
        String part = o.part();
        String engine = o.engine();
        LdsTrace t = LdsTrace.generate(o.packets(), o.flows(), seed, DelayModel.DEFAULT);
        int half = Math.max(1, t.flows / 2);
        List<Row> result = new ArrayList<>();
        double[] noLossTruth = truth(t, 0, seed);
        if (part.contains("a")) {
            result.add(Row.reference("a", "global mean", 0, bins(t, noLossTruth, globalMean(t, noLossTruth, 0, seed))));
            result.add(Row.reference("a", "RLI 1/" + gap, 0, bins(t, noLossTruth, rli(t, gap, 0, seed))));
            for (double m : o.sizes()) {
                int cells = cellsPerRow(m, half, rows);
                result.add(Row.reference("a", "SDS " + fmt(m) + "x (" + (long) cells * rows + ")", 0,
                        bins(t, noLossTruth, simpleDelaySketch(t, rows, cells))));
                LdsConfig cfg = LdsConfig.singleRate(rows, cells, Math.min(k, cells), 1.0);
                Sketches sk = sketches(t, cfg, 0, seed, engine);
                result.add(Row.of("a", "LDS " + fmt(m) + "x (" + cfg.totalCells() + ")", sk, 0,
                        bins(t, noLossTruth, estimates(t, sk, LdsEstimator.Filter.PAPER)[0])));
            }
        }
        if (part.contains("b")) {
            // Figure 11: R = 4 rows of k x (flows/2)/R cells (the paper makes each row k times longer), k = 5, alpha = 0.1
            int cells = fig11Cells(kMulti, t);
            result.add(Row.reference("b", "RLI 1/" + gap + ", no loss", 0, fig11(t, noLossTruth, rli(t, gap, 0, seed))));
            for (double q : o.losses()) {
                double[] truth = truth(t, q, seed);
                for (double p : SINGLE_RATES) {
                    LdsConfig cfg = LdsConfig.singleRate(FIG11_ROWS, cells, Math.min(kMulti, cells), p);
                    Sketches sk = sketches(t, cfg, q, seed, engine);
                    result.add(Row.of("b", "p=" + fmt(p), sk, q, fig11(t, truth, estimates(t, sk, LdsEstimator.Filter.PAPER)[0])));
                }
                LdsConfig mb = LdsConfig.multiBank(cells, Math.min(kMulti, cells));
                Sketches sk = sketches(t, mb, q, seed, engine);
                result.add(Row.of("b", "multi-bank", sk, q, fig11(t, truth, estimates(t, sk, LdsEstimator.Filter.PAPER)[0])));
                result.add(Row.of("b", "multi-bank per-row", sk, q, fig11(t, truth, estimates(t, sk, LdsEstimator.Filter.PER_ROW)[0])));
            }
        }
        if (part.contains("c")) {
            int cells = cellsPerRow(1, half, rows);
            LdsConfig base = LdsConfig.singleRate(rows, cells, Math.min(k, cells), 1.0);
            LdsWeights classes = LdsWeights.bronzeSilverGold(1, 1, 1);
            Sketches plain = sketches(t, base, 0, seed, engine);
            result.add(Row.of("c", "unweighted", plain, 0,
                    byClass(t, noLossTruth, estimates(t, plain, LdsEstimator.Filter.PAPER)[0], classes)));
            // the paper's weightings (a switch cannot multiply by them: plain Java) and power-of-two ones (shifts)
            for (long[][] set : new long[][][] {LdsWeights.PAPER_WEIGHTINGS, LdsWeights.SHIFT_WEIGHTINGS}) {
                for (long[] w : set) {
                    LdsWeights lw = LdsWeights.bronzeSilverGold(w[0], w[1], w[2]);
                    String where = lw.shiftable() ? " (switch)" : " (reference only)";
                    Sketches sk = sketches(t, base.withWeights(lw), 0, seed, lw.shiftable() ? engine : REFERENCE);
                    result.add(Row.of("c", w[0] + "/" + w[1] + "/" + w[2] + where, sk, 0,
                            byClass(t, noLossTruth, estimates(t, sk, LdsEstimator.Filter.PAPER)[0], classes)));
                }
            }
        }
        if (part.contains("d")) {
            // flow size and loss: count-min over rows, 1x counters, p = 1, k = 1, at the largest loss rate
            double[] losses = o.losses();
            double q = losses.length == 0 ? 0 : losses[losses.length - 1];
            int cells = cellsPerRow(1, half, rows);
            Sketches mined = sketches(t, LdsConfig.singleRate(rows, cells, Math.min(k, cells), 1.0), q, seed, engine);
            double[][] d = estimates(t, mined, LdsEstimator.Filter.PAPER);
            double[][] truth = lossAndVariance(t, q, seed);
            double[] trueSize = new double[t.flows];
            for (int f = 0; f < t.flows; f++) {
                trueSize[f] = t.size[f];
            }
            result.add(Row.of("d", "flow size (count-min)", mined, q, bins(t, trueSize, d[1])));
            result.add(Row.of("d", "lost packets (count-min)", mined, q, bins(t, nonZero(truth[0]), d[2])));
            // delay variance: spread of the kept cells of a row, 10x counters, k = 8, no loss
            int wide = cellsPerRow(10, half, rows);
            Sketches spread = sketches(t, LdsConfig.singleRate(rows, wide, Math.min(VARIANCE_LDA_CELLS, wide), 1.0), 0, seed,
                    engine);
            double[][] v = estimates(t, spread, LdsEstimator.Filter.PAPER);
            result.add(Row.of("d", "delay variance (k=" + VARIANCE_LDA_CELLS + ", 10x)", spread, 0,
                    bins(t, lossAndVariance(t, 0, seed)[1], v[3])));
        }
        StringWriter json = new StringWriter();
        StringWriter tables = new StringWriter();
        printJson(new PrintWriter(json), t, result);
        printTables(new PrintWriter(tables), t, o, result);
        return new Output(json.toString(), tables.toString());
    }

    /** vLDA length for the variance estimate: it needs several cells of a flow per row. */
    static final int VARIANCE_LDA_CELLS = 8;

    /** Zero becomes NaN (no relative error for a flow that lost nothing). */
    private static double[] nonZero(double[] v) {
        double[] out = v.clone();
        for (int i = 0; i < out.length; i++) {
            out[i] = out[i] == 0 ? Double.NaN : out[i];
        }
        return out;
    }

    /** Figure 11's row length: k times the 1x row (flows/2 counters over R = 4 rows). */
    static int fig11Cells(int k, LdsTrace t) {
        return k * cellsPerRow(1, Math.max(1, t.flows / 2), FIG11_ROWS);
    }

    static int cellsPerRow(double multiple, int half, int rows) {
        return Math.max(1, (int) Math.round(multiple * half / rows));
    }

    // ------------------------------------------------------------------ methods

    private static boolean lost(long seed, int i, double q) {
        return q > 0 && SplitMix64.doubleAt(SplitMix64.derive(seed, 99), i) < q;
    }

    /** True mean delay per flow over its received packets (NaN: none received). */
    static double[] truth(LdsTrace t, double q, long seed) {
        double[] sum = new double[t.flows];
        long[] n = new long[t.flows];
        for (int i = 0; i < t.packets; i++) {
            if (!lost(seed, i, q)) {
                sum[t.flow[i]] += t.delayNs[i];
                n[t.flow[i]]++;
            }
        }
        for (int f = 0; f < t.flows; f++) {
            sum[f] = n[f] == 0 ? Double.NaN : sum[f] / n[f];
        }
        return sum;
    }

    /** Sender and receiver sketches over the trace (plain Java), then the estimator for every flow. */
    public static double[] lds(LdsTrace t, LdsConfig cfg, double q, long seed) {
        return lds(t, cfg, q, seed, LdsEstimator.Filter.PAPER);
    }

    public static double[] lds(LdsTrace t, LdsConfig cfg, double q, long seed, LdsEstimator.Filter filter) {
        return estimates(t, sketches(t, cfg, q, seed, REFERENCE), filter)[0];
    }

    /**
     * Both ends' sketches over the trace, packet i lost between them with probability q:
     * the emulated switch's stage program ({@value #PIPELINE}) or the plain-Java sketches
     * ({@value #REFERENCE}).
     */
    static Sketches sketches(LdsTrace t, LdsConfig cfg, double q, long seed, String engine) {
        if (engine.equals(PIPELINE)) {
            LdsEmulatedPair pair = new LdsEmulatedPair(cfg);
            PacketRecord r = PacketRecord.allocate();
            for (int i = 0; i < t.packets; i++) {
                long ts = t.sendNs[i];
                pair.packet(t.packet(i, r), ts, lost(seed, i, q), ts + t.delayNs[i]);
            }
            return new Sketches(pair.senderSketch(), pair.receiverSketch(), PIPELINE, pair.target());
        }
        LdsSketch tx = new LdsSketch(cfg);
        LdsSketch rx = new LdsSketch(cfg);
        LdsPacketKeys keys = new LdsPacketKeys(cfg);
        long[] scratch = new long[LdsConfig.MAX_ROWS];
        for (int i = 0; i < t.packets; i++) {
            t.keys(i, keys, scratch, cfg.rows());
            long ts = t.sendNs[i];
            tx.record(keys, ts);
            if (!lost(seed, i, q)) {
                rx.record(keys, ts + t.delayNs[i]);
            }
        }
        return new Sketches(tx, rx, REFERENCE, null);
    }

    /** Per flow: [0] mean delay, [1] packets sent, [2] packets lost, [3] delay variance (estimates; NaN: none). */
    static double[][] estimates(LdsTrace t, Sketches s, LdsEstimator.Filter filter) {
        LdsEstimator est = new LdsEstimator(s.sender(), s.receiver(), filter);
        FlowEstimate e = new FlowEstimate();
        long[] scratch = new long[LdsConfig.MAX_ROWS];
        double[][] out = new double[4][t.flows];
        for (int f = 0; f < t.flows; f++) {
            t.flowHashes(f, scratch);
            est.estimate(scratch, t.classHash(f), e);
            out[0][f] = e.meanDelayNs;
            out[1][f] = e.packetsSent;
            out[2][f] = e.packetsLost;
            out[3][f] = e.delayVariance;
        }
        return out;
    }

    /** Per flow: [0] packets lost, [1] delay variance over the received packets (population). */
    static double[][] lossAndVariance(LdsTrace t, double q, long seed) {
        double[] sum = new double[t.flows];
        double[] sq = new double[t.flows];
        double[] n = new double[t.flows];
        double[] lost = new double[t.flows];
        for (int i = 0; i < t.packets; i++) {
            int f = t.flow[i];
            if (lost(seed, i, q)) {
                lost[f]++;
            } else {
                double d = t.delayNs[i];
                sum[f] += d;
                sq[f] += d * d;
                n[f]++;
            }
        }
        double[] var = new double[t.flows];
        for (int f = 0; f < t.flows; f++) {
            var[f] = n[f] < 2 ? Double.NaN : sq[f] / n[f] - (sum[f] / n[f]) * (sum[f] / n[f]);
        }
        return new double[][] {lost, var};
    }

    static double[] simpleDelaySketch(LdsTrace t, int rows, int cells) {
        SimpleDelaySketch s = new SimpleDelaySketch(rows, cells);
        long[] scratch = new long[LdsConfig.MAX_ROWS];
        for (int i = 0; i < t.packets; i++) {
            t.flowHashes(t.flow[i], scratch);
            s.record(scratch, t.delayNs[i]);
        }
        double[] out = new double[t.flows];
        for (int f = 0; f < t.flows; f++) {
            t.flowHashes(f, scratch);
            out[f] = s.estimate(scratch);
        }
        return out;
    }

    static double[] globalMean(LdsTrace t, double[] truth, double q, long seed) {
        double sum = 0;
        long n = 0;
        for (int i = 0; i < t.packets; i++) {
            if (!lost(seed, i, q)) {
                sum += t.delayNs[i];
                n++;
            }
        }
        double[] out = new double[t.flows];
        Arrays.fill(out, sum / n);
        return out;
    }

    /**
     * RLI (Lee et al.): a reference packet after every {@code gap} packets reports the delay
     * of that moment (here, generously, the delay the packet beside it really had); every
     * packet's delay is interpolated linearly in time between the two reference packets
     * around it, and a flow's estimate is the mean over its packets.
     */
    static double[] rli(LdsTrace t, int gap, double q, long seed) {
        double[] sum = new double[t.flows];
        long[] n = new long[t.flows];
        int last = t.packets - 1;
        for (int i = 0; i < t.packets; i++) {
            if (lost(seed, i, q)) {
                continue;
            }
            int a = i / gap * gap;
            int b = Math.min(last, a + gap);
            double est;
            if (b == a) {
                est = t.delayNs[a];
            } else {
                long ta = t.sendNs[a];
                long tb = t.sendNs[b];
                double x = tb == ta ? 0 : (double) (t.sendNs[i] - ta) / (tb - ta);
                est = t.delayNs[a] + x * (t.delayNs[b] - t.delayNs[a]);
            }
            sum[t.flow[i]] += est;
            n[t.flow[i]]++;
        }
        for (int f = 0; f < t.flows; f++) {
            sum[f] = n[f] == 0 ? Double.NaN : sum[f] / n[f];
        }
        return sum;
    }

    // ------------------------------------------------------------------ statistics

    static int binOf(int size) {
        int b = 0;
        while (b + 1 < BIN_LOW.length && size >= BIN_LOW[b + 1]) {
            b++;
        }
        return b;
    }

    static BinStats[] bins(LdsTrace t, double[] truth, double[] est) {
        return grouped(t, truth, est, BIN_LOW.length, f -> binOf(t.size[f]));
    }

    static BinStats[] byClass(LdsTrace t, double[] truth, double[] est, LdsWeights classes) {
        return grouped(t, truth, est, classes.classes(), f -> classes.classOf(t.classHash(f)));
    }

    /** Figure 11's two groups: flows with more than 100 packets, and with at least 1,000 (a subset of the first). */
    static BinStats[] fig11(LdsTrace t, double[] truth, double[] est) {
        return new BinStats[] {
            grouped(t, truth, est, 1, f -> t.size[f] > 100 ? 0 : -1)[0],
            grouped(t, truth, est, 1, f -> t.size[f] >= 1000 ? 0 : -1)[0]};
    }

    /** Statistics per group; a flow whose group is negative is left out. */
    private static BinStats[] grouped(LdsTrace t, double[] truth, double[] est, int groups, IntUnaryOperator group) {
        double[][] err = new double[groups][t.flows];
        int[] count = new int[groups];
        int[] flows = new int[groups];
        for (int f = 0; f < t.flows; f++) {
            if (Double.isNaN(truth[f]) || truth[f] <= 0) {
                continue;
            }
            int g = group.applyAsInt(f);
            if (g < 0) {
                continue;
            }
            flows[g]++;
            if (!Double.isNaN(est[f])) {
                err[g][count[g]++] = 100.0 * Math.abs(est[f] - truth[f]) / truth[f];
            }
        }
        BinStats[] out = new BinStats[groups];
        for (int g = 0; g < groups; g++) {
            double[] e = Arrays.copyOf(err[g], count[g]);
            Arrays.sort(e);
            double[] within = new double[CDF_AT_PCT.length];
            for (int x = 0; x < within.length; x++) {
                int n = 0;
                while (n < e.length && e[n] <= CDF_AT_PCT[x]) {
                    n++;
                }
                within[x] = flows[g] == 0 ? Double.NaN : 100.0 * n / flows[g];
            }
            out[g] = new BinStats(flows[g], count[g], percentile(e, 0.5), percentile(e, 0.95), within);
        }
        return out;
    }

    /** Nearest-rank percentile of sorted values (NaN when empty). */
    static double percentile(double[] sorted, double q) {
        if (sorted.length == 0) {
            return Double.NaN;
        }
        int rank = (int) Math.ceil(q * sorted.length);
        return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
    }

    // ------------------------------------------------------------------ output

    private static void printTables(PrintWriter out, LdsTrace t, LdsOptions o, List<Row> rows) {
        out.printf(Locale.ROOT, "LDS experiment: %,d packets, %,d flows (ISP generator, Zipf 1.1), seed %d; R=%d, k=%d (multi-bank k=%d)%n",
                t.packets, t.flows, o.seed(), o.rows(), o.k(), o.kMulti());
        out.println("delays: " + DelayModel.DEFAULT.describe());
        int[] perBin = new int[BIN_LOW.length];
        for (int f = 0; f < t.flows; f++) {
            perBin[binOf(t.size[f])]++;
        }
        out.print("flows per bin:");
        for (int b = 0; b < perBin.length; b++) {
            out.print("  " + BIN_NAMES[b] + " " + perBin[b]);
        }
        out.println();
        out.println("cells: median / 95th-percentile relative error of the per-flow mean delay (%), [share of flows with an estimate]");
        printPart(out, rows, "a", "(a) no loss: sketch size (counters = R x C) against the baselines", BIN_NAMES);
        if (rows.stream().anyMatch(r -> r.part().equals("a"))) {
            out.print(String.format(Locale.ROOT, "%-34s", "paper, 70,000 counters"));
            for (double p : PAPER_MEDIAN_70K) {
                out.print(String.format(Locale.ROOT, "  %-24s", Double.isNaN(p) ? "-" : fmt(p) + " (median)"));
            }
            out.println();
        }
        printPart(out, rows, "b", "(b) Figure 11, uniform loss: R = 4, k = " + o.kMulti() + ", rows k times longer than 1x ("
                + String.format(Locale.ROOT, "%,d", fig11Cells(o.kMulti(), t)) + " cells each), alpha = 0.1; single-rate p = 0.05 and p = 1 vs multi-bank (0.01,0.1,0.5,1);"
                + " then the CDF: % of the group's flows within 1 / 5 / 10 % (no estimate: not within)", FIG11_GROUPS);
        if (rows.stream().anyMatch(r -> r.part().equals("b"))) {
            printCdf(out, rows);
            for (String claim : PAPER_FIG11) {
                out.println("paper, Fig. 11 (curves only, no numbers in the text): " + claim);
            }
        }
        printPart(out, rows, "c", "(c) weighting bronze/silver/gold (90/9/1 % of flows), 1x counters, by class;"
                + " (switch): powers of two, which the stage program applies as shifts", LdsWeights.CLASS_NAMES);
        printPart(out, rows, "d", "(d) flow size and loss (1x counters, p=1, k=1, at the largest loss rate; flows that lost"
                + " packets), delay variance", BIN_NAMES);
    }

    private static void printPart(PrintWriter out, List<Row> rows, String part, String title, String[] columns) {
        List<Row> mine = rows.stream().filter(r -> r.part().equals(part)).toList();
        if (mine.isEmpty()) {
            return;
        }
        out.println();
        out.println(title);
        out.print(String.format(Locale.ROOT, "%-34s  %-24s", part.equals("b") ? "loss  method" : "method", "engine"));
        for (String c : columns) {
            out.print(String.format(Locale.ROOT, "  %-24s", c));
        }
        out.println();
        for (Row r : mine) {
            out.print(String.format(Locale.ROOT, "%-34s  %-24s", label(r), engine(r)));
            for (BinStats s : r.bins()) {
                out.print(String.format(Locale.ROOT, "  %-24s", cell(s)));
            }
            out.println();
        }
    }

    private static String label(Row r) {
        boolean lossy = r.part().equals("b") || r.part().equals("d") && r.loss() > 0;
        return lossy ? String.format(Locale.ROOT, "%-5s %s", fmt(100 * r.loss()) + "%", r.label()) : r.label();
    }

    private static String engine(Row r) {
        return r.target() == null ? r.engine() : r.engine() + " (" + r.target() + ")";
    }

    /** Part (b)'s CDF points per group: the share of flows within each error of {@link #CDF_AT_PCT}. */
    private static void printCdf(PrintWriter out, List<Row> rows) {
        out.print(String.format(Locale.ROOT, "%-34s  %-24s", "loss  method (CDF)", "within " + fmtList(CDF_AT_PCT) + " %"));
        for (String c : FIG11_GROUPS) {
            out.print(String.format(Locale.ROOT, "  %-24s", c));
        }
        out.println();
        for (Row r : rows) {
            if (!r.part().equals("b")) {
                continue;
            }
            out.print(String.format(Locale.ROOT, "%-34s  %-24s", label(r), ""));
            for (BinStats s : r.bins()) {
                StringBuilder sb = new StringBuilder();
                for (int x = 0; x < s.withinPct().length; x++) {
                    sb.append(x == 0 ? "" : " / ").append(fmt(s.withinPct()[x]));
                }
                out.print(String.format(Locale.ROOT, "  %-24s", sb));
            }
            out.println();
        }
    }

    private static String fmtList(double[] v) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < v.length; i++) {
            sb.append(i == 0 ? "" : "/").append(fmt(v[i]));
        }
        return sb.toString();
    }

    private static String cell(BinStats s) {
        if (s.flows() == 0) {
            return "-";
        }
        if (s.estimated() == 0) {
            return "none [0%]";
        }
        return fmt(s.medianPct()) + " / " + fmt(s.p95Pct()) + " [" + fmt(s.coverage()) + "%]";
    }

    /** The experiment's JSON document (docs/schema/experiment.schema.json, {@code lds}). */
    record JsonDoc(int packets, int flows, List<JsonRow> rows) {
    }

    /** One method's row; {@code target} is null for the rows that do not run on a switch. */
    record JsonRow(String part, String method, String engine, String target, BigDecimal loss, List<JsonGroup> groups) {
    }

    /** One flow group's statistics; the CDF points follow as {@code within_<X>pct}, one per {@link #CDF_AT_PCT}. */
    record JsonGroup(String group, int flows, int estimated, BigDecimal medianPct, BigDecimal p95Pct,
                     @JsonIgnore Map<String, BigDecimal> within) {
        @JsonAnyGetter
        Map<String, BigDecimal> withinPoints() {
            return within;
        }
    }

    private static void printJson(PrintWriter out, LdsTrace t, List<Row> rows) {
        List<JsonRow> json = new ArrayList<>();
        for (Row r : rows) {
            String[] names = r.part().equals("c") ? LdsWeights.CLASS_NAMES : r.part().equals("b") ? FIG11_GROUPS : BIN_NAMES;
            List<JsonGroup> groups = new ArrayList<>();
            for (int b = 0; b < r.bins().length; b++) {
                BinStats s = r.bins()[b];
                Map<String, BigDecimal> within = new LinkedHashMap<>();
                for (int x = 0; x < CDF_AT_PCT.length; x++) {
                    within.put("within_" + fmt(CDF_AT_PCT[x]) + "pct", num(s.withinPct()[x]));
                }
                groups.add(new JsonGroup(names[b], s.flows(), s.estimated(), num(s.medianPct()), num(s.p95Pct()), within));
            }
            json.add(new JsonRow(r.part(), r.label(), r.engine(), r.target(), num(r.loss()), groups));
        }
        out.print(Json.write(new JsonDoc(t.packets, t.flows, json)));
    }

    /** Six significant digits, as the tables were always written; null for a statistic of no flows (NaN). */
    private static BigDecimal num(double v) {
        return Double.isNaN(v) ? null : new BigDecimal(String.format(Locale.ROOT, "%.6g", v));
    }

    static String fmt(double v) {
        if (Double.isNaN(v)) {
            return "-";
        }
        if (v == Math.rint(v) && Math.abs(v) < 1e6) {
            return String.valueOf((long) v);
        }
        return v >= 10 ? String.format(Locale.ROOT, "%.1f", v)
                : v >= 0.1 ? String.format(Locale.ROOT, "%.2f", v) : String.format(Locale.ROOT, "%.3f", v);
    }
}
