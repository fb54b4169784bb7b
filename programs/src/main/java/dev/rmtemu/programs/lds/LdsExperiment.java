package dev.rmtemu.programs.lds;

import dev.rmtemu.emulator.experiment.Experiment;
import dev.rmtemu.emulator.experiment.OptionValues;
import dev.rmtemu.model.UserError;
import dev.rmtemu.traces.gen.SplitMix64;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@code rmtemu experiment lds}: per-flow mean-delay accuracy of LDS on a generated trace
 * whose delays follow no temporal-correlation model ({@link DelayModel}), binned by flow
 * size as in the paper: (a) sketch size 1/10, 1 and 10 × (flows / 2) counters with R = 4
 * against "every flow = global mean", RLI-style interpolation from reference packets and
 * the Simple Delay Sketch; (b) uniform loss with single-rate rows (p = 0.05, p = 1) and
 * the multi-bank rows (p = 0.01, 0.1, 0.5, 1); (c) bronze/silver/gold flow weighting.
 * The sketches are the plain-Java reference (the stage program equals it register for
 * register, see the tests); the trace is held in memory once and replayed per configuration.
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

    private static final Map<String, String> DEFAULTS = new TreeMap<>();

    static {
        DEFAULTS.put("packets", String.valueOf(DEFAULT_PACKETS));
        DEFAULTS.put("flows", String.valueOf(DEFAULT_FLOWS));
        DEFAULTS.put("scale", "default");
        DEFAULTS.put("seed", "1");
        DEFAULTS.put("rows", String.valueOf(LdsConfig.DEFAULT_ROWS));
        DEFAULTS.put("k", String.valueOf(SINGLE_RATE_LDA_CELLS));
        DEFAULTS.put("k_multi", String.valueOf(LdsConfig.DEFAULT_LDA_CELLS));
        DEFAULTS.put("sizes", "0.1,1,10");
        DEFAULTS.put("losses", "0.001,0.005,0.01");
        DEFAULTS.put("rli_gap", "100");
        DEFAULTS.put("part", "abcd");
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
                "rows=4 k=1 k_multi=5       R rows; vLDA length k of single-rate rows and of the multi-bank rows",
                "sizes=0.1,1,10             sketch sizes as multiples of flows/2 counters (R x C)",
                "losses=0.001,0.005,0.01    uniform loss rates for part (b)",
                "rli_gap=100                RLI baseline: one reference packet per this many packets",
                "part=abcd                  (a) size vs baselines, (b) loss: single-rate vs multi-bank, (c) weighting,"
                        + " (d) flow size, loss and variance mining");
    }

    /** Accuracy of one method on one size bin: flows, flows with an estimate, median and 95th-percentile relative error (%). */
    public record BinStats(int flows, int estimated, double medianPct, double p95Pct) {
        double coverage() {
            return flows == 0 ? Double.NaN : 100.0 * estimated / flows;
        }
    }

    /** One method's row: a label and its statistics per bin (or per class). */
    public record Row(String part, String label, double loss, BinStats[] bins) {
    }

    @Override
    public Output produce(Map<String, String> given, PrintWriter err) {
        Map<String, String> o = OptionValues.withDefaults(NAME, DEFAULTS, given);
        long packets = longOpt(o, "packets");
        int flows = (int) longOpt(o, "flows");
        if (o.get("scale").equals("full")) {
            packets = FULL_PACKETS;
            flows = FULL_FLOWS;
        } else if (!o.get("scale").equals("default")) {
            throw new UserError("experiment lds: scale must be default or full, got '" + o.get("scale") + "'");
        }
        long seed = longOpt(o, "seed");
        int rows = (int) longOpt(o, "rows");
        int k = (int) longOpt(o, "k");
        int kMulti = (int) longOpt(o, "k_multi");
        int gap = (int) longOpt(o, "rli_gap");
        if (gap < 1) {
            throw new UserError("experiment lds: rli_gap must be at least 1");
        }
        String part = o.get("part");
        LdsTrace t = LdsTrace.generate(packets, flows, seed, DelayModel.DEFAULT);
        int half = Math.max(1, t.flows / 2);
        List<Row> result = new ArrayList<>();
        double[] noLossTruth = truth(t, 0, seed);
        if (part.contains("a")) {
            result.add(new Row("a", "global mean", 0, bins(t, noLossTruth, globalMean(t, noLossTruth, 0, seed))));
            result.add(new Row("a", "RLI 1/" + gap, 0, bins(t, noLossTruth, rli(t, gap, 0, seed))));
            for (double m : doubles(o, "sizes")) {
                int cells = cellsPerRow(m, half, rows);
                result.add(new Row("a", "SDS " + fmt(m) + "x (" + (long) cells * rows + ")", 0,
                        bins(t, noLossTruth, simpleDelaySketch(t, rows, cells))));
                LdsConfig cfg = LdsConfig.singleRate(rows, cells, Math.min(k, cells), 1.0);
                result.add(new Row("a", "LDS " + fmt(m) + "x (" + cfg.totalCells() + ")", 0,
                        bins(t, noLossTruth, lds(t, cfg, 0, seed))));
            }
        }
        if (part.contains("b")) {
            int cells = cellsPerRow(1, half, rows);
            for (double q : doubles(o, "losses")) {
                double[] truth = truth(t, q, seed);
                for (double p : SINGLE_RATES) {
                    LdsConfig cfg = LdsConfig.singleRate(rows, cells, Math.min(k, cells), p);
                    result.add(new Row("b", "p=" + fmt(p), q, bins(t, truth, lds(t, cfg, q, seed))));
                }
                int mbCells = cellsPerRow(1, half, LdsConfig.MULTI_BANK_RATES.length);
                LdsConfig mb = LdsConfig.multiBank(mbCells, Math.min(kMulti, mbCells));
                result.add(new Row("b", "multi-bank", q, bins(t, truth, lds(t, mb, q, seed))));
                result.add(new Row("b", "multi-bank per-row", q, bins(t, truth, lds(t, mb, q, seed, LdsEstimator.Filter.PER_ROW))));
            }
        }
        if (part.contains("c")) {
            int cells = cellsPerRow(1, half, rows);
            LdsConfig base = LdsConfig.singleRate(rows, cells, Math.min(k, cells), 1.0);
            LdsWeights classes = LdsWeights.bronzeSilverGold(1, 1, 1);
            result.add(new Row("c", "unweighted", 0, byClass(t, noLossTruth, lds(t, base, 0, seed), classes)));
            // the paper's weightings (a switch cannot multiply by them) and power-of-two ones (shifts)
            for (long[][] set : new long[][][] {LdsWeights.PAPER_WEIGHTINGS, LdsWeights.SHIFT_WEIGHTINGS}) {
                for (long[] w : set) {
                    LdsWeights lw = LdsWeights.bronzeSilverGold(w[0], w[1], w[2]);
                    String where = lw.shiftable() ? " (switch)" : " (reference only)";
                    result.add(new Row("c", w[0] + "/" + w[1] + "/" + w[2] + where, 0,
                            byClass(t, noLossTruth, lds(t, base.withWeights(lw), 0, seed), classes)));
                }
            }
        }
        if (part.contains("d")) {
            // flow size and loss: count-min over rows, 1x counters, p = 1, k = 1, at the largest loss rate
            double[] losses = doubles(o, "losses");
            double q = losses.length == 0 ? 0 : losses[losses.length - 1];
            int cells = cellsPerRow(1, half, rows);
            double[][] d = ldsDetails(t, LdsConfig.singleRate(rows, cells, Math.min(k, cells), 1.0), q, seed,
                    LdsEstimator.Filter.PAPER);
            double[][] truth = lossAndVariance(t, q, seed);
            double[] trueSize = new double[t.flows];
            for (int f = 0; f < t.flows; f++) {
                trueSize[f] = t.size[f];
            }
            result.add(new Row("d", "flow size (count-min)", q, bins(t, trueSize, d[1])));
            result.add(new Row("d", "lost packets (count-min)", q, bins(t, nonZero(truth[0]), d[2])));
            // delay variance: spread of the kept cells of a row, 10x counters, k = 8, no loss
            int wide = cellsPerRow(10, half, rows);
            double[][] v = ldsDetails(t, LdsConfig.singleRate(rows, wide, Math.min(VARIANCE_LDA_CELLS, wide), 1.0), 0, seed,
                    LdsEstimator.Filter.PAPER);
            result.add(new Row("d", "delay variance (k=" + VARIANCE_LDA_CELLS + ", 10x)", 0,
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

    /** Sender and receiver sketches over the trace, then the estimator for every flow. */
    public static double[] lds(LdsTrace t, LdsConfig cfg, double q, long seed) {
        return lds(t, cfg, q, seed, LdsEstimator.Filter.PAPER);
    }

    public static double[] lds(LdsTrace t, LdsConfig cfg, double q, long seed, LdsEstimator.Filter filter) {
        return ldsDetails(t, cfg, q, seed, filter)[0];
    }

    /** Per flow: [0] mean delay, [1] packets sent, [2] packets lost, [3] delay variance (estimates; NaN: none). */
    static double[][] ldsDetails(LdsTrace t, LdsConfig cfg, double q, long seed, LdsEstimator.Filter filter) {
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
        LdsEstimator est = new LdsEstimator(tx, rx, filter);
        FlowEstimate e = new FlowEstimate();
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

    private static BinStats[] grouped(LdsTrace t, double[] truth, double[] est, int groups, java.util.function.IntUnaryOperator group) {
        double[][] err = new double[groups][t.flows];
        int[] count = new int[groups];
        int[] flows = new int[groups];
        for (int f = 0; f < t.flows; f++) {
            if (Double.isNaN(truth[f]) || truth[f] <= 0) {
                continue;
            }
            int g = group.applyAsInt(f);
            flows[g]++;
            if (!Double.isNaN(est[f])) {
                err[g][count[g]++] = 100.0 * Math.abs(est[f] - truth[f]) / truth[f];
            }
        }
        BinStats[] out = new BinStats[groups];
        for (int g = 0; g < groups; g++) {
            double[] e = Arrays.copyOf(err[g], count[g]);
            Arrays.sort(e);
            out[g] = new BinStats(flows[g], count[g], percentile(e, 0.5), percentile(e, 0.95));
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

    private static void printTables(PrintWriter out, LdsTrace t, Map<String, String> o, List<Row> rows) {
        out.printf(Locale.ROOT, "LDS experiment: %,d packets, %,d flows (ISP generator, Zipf 1.1), seed %s; R=%s, k=%s (multi-bank k=%s)%n",
                t.packets, t.flows, o.get("seed"), o.get("rows"), o.get("k"), o.get("k_multi"));
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
        printPart(out, rows, "b", "(b) uniform loss, 1x counters: single-rate rows vs multi-bank (0.01,0.1,0.5,1)", BIN_NAMES);
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
        out.print(String.format(Locale.ROOT, "%-34s", part.equals("b") ? "loss  method" : "method"));
        for (String c : columns) {
            out.print(String.format(Locale.ROOT, "  %-24s", c));
        }
        out.println();
        for (Row r : mine) {
            String label = part.equals("b") || part.equals("d") && r.loss() > 0 ? String.format(Locale.ROOT, "%-5s %s", fmt(100 * r.loss()) + "%", r.label()) : r.label();
            out.print(String.format(Locale.ROOT, "%-34s", label));
            for (BinStats s : r.bins()) {
                out.print(String.format(Locale.ROOT, "  %-24s", cell(s)));
            }
            out.println();
        }
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

    private static void printJson(PrintWriter out, LdsTrace t, List<Row> rows) {
        StringBuilder sb = new StringBuilder();
        sb.append("{\"packets\":").append(t.packets).append(",\"flows\":").append(t.flows).append(",\"rows\":[");
        for (int i = 0; i < rows.size(); i++) {
            Row r = rows.get(i);
            sb.append(i == 0 ? "" : ",").append("{\"part\":\"").append(r.part()).append("\",\"method\":\"").append(r.label())
                    .append("\",\"loss\":").append(num(r.loss())).append(",\"groups\":[");
            String[] names = r.part().equals("c") ? LdsWeights.CLASS_NAMES : BIN_NAMES;
            for (int b = 0; b < r.bins().length; b++) {
                BinStats s = r.bins()[b];
                sb.append(b == 0 ? "" : ",").append("{\"group\":\"").append(names[b]).append("\",\"flows\":").append(s.flows())
                        .append(",\"estimated\":").append(s.estimated()).append(",\"median_pct\":").append(num(s.medianPct()))
                        .append(",\"p95_pct\":").append(num(s.p95Pct())).append('}');
            }
            sb.append("]}");
        }
        sb.append("]}");
        out.println(sb);
    }

    private static String num(double v) {
        return Double.isNaN(v) ? "null" : String.format(Locale.ROOT, "%.6g", v);
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

    private static long longOpt(Map<String, String> o, String key) {
        return OptionValues.longValue(NAME, o, key);
    }

    /** Comma-separated numbers, each at least zero (a loss rate may be 0). */
    private static double[] doubles(Map<String, String> o, String key) {
        double[] v = OptionValues.numbers(NAME, o, key, false);
        for (double x : v) {
            if (!(x >= 0)) {
                throw new UserError("experiment lds: option " + key + " values must be non-negative, got '" + o.get(key) + "'");
            }
        }
        return v;
    }
}
