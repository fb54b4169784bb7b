package dev.rmtemu.programs.hashpipe;

import dev.rmtemu.emulator.experiment.Experiment;
import dev.rmtemu.model.UserError;
import dev.rmtemu.traces.PacketRecord;
import dev.rmtemu.traces.PacketSource;
import dev.rmtemu.traces.TraceSpec;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * {@code rmtemu experiment hashpipe}: the accuracy curves of the HashPipe paper
 * (Figures 2, 5, 7, 8, 11 in shape) on the ISP-like generated trace split into
 * intervals: false negatives, false positives, mean relative error of the
 * reported counts and HashPipe's duplicate-key share, versus memory (counters),
 * for each k and d, HashPipe against HashParallel, space saving, count-min with
 * a heavy-flow cache and sample and hold. Every algorithm runs in plain Java
 * (the reference, proven equal to the stage program by the tests). Output is a
 * pure function of the options: the thread count only changes the speed.
 */
public final class HashPipeExperiment implements Experiment {
    /** Default scale: 1 M packets with the ISP preset's packets-per-flow ratio (10 M / 400 K). */
    public static final long DEFAULT_PACKETS = 1_000_000;
    public static final int DEFAULT_FLOWS = 40_000;
    public static final int DEFAULT_INTERVALS = 10;
    /** The paper's axes: memory 300..4800 counters, k in {60, 150, 300}, d in {2..8}. */
    public static final String DEFAULT_MEMORY = "300,600,1200,2400,4800";
    public static final String DEFAULT_K = "60,150,300";
    public static final String DEFAULT_D = "2,3,4,5,6,7,8";
    /** HashParallel looks at as many slots as HashPipe's headline depth. */
    public static final int DEFAULT_PARALLEL_D = HashPipeConfig.DEFAULT_STAGES;
    /**
     * Sample and hold's sampling probability is oversampling x memory / units per
     * interval: the expected number of samples is a small multiple of the table
     * (Estan and Varghese size p so the table rarely overflows; with a skewed
     * trace most samples fall on flows already held).
     */
    public static final double DEFAULT_OVERSAMPLING = 2.0;
    public static final long SAMPLE_AND_HOLD_SEED = 0x5A4D;

    private static final List<String> OPTIONS = List.of(
            "packets=" + DEFAULT_PACKETS + "  packets of the generated ISP trace (10000000 = the paper's scale)",
            "flows=" + DEFAULT_FLOWS + "  flows of the trace (400000 with 10 M packets)",
            "seed=1  trace generator seed",
            "trace=  another trace SPEC instead (file or gen:...); packets/flows/seed then unused",
            "intervals=" + DEFAULT_INTERVALS + "  measurement intervals the trace is split into (equal packet counts)",
            "memory=" + DEFAULT_MEMORY + "  memory sizes in counters ((key, count) slots)",
            "k=" + DEFAULT_K + "  top-k sizes",
            "d=" + DEFAULT_D + "  HashPipe depths",
            "parallel-d=" + DEFAULT_PARALLEL_D + "  HashParallel's lookups per packet",
            "key=fingerprint  flow key: fingerprint, srcip or 5tuple",
            "count=packets  count packets or bytes",
            "hash=crc32  index hash family: crc32 or seeded",
            "oversampling=" + DEFAULT_OVERSAMPLING + "  sample and hold: expected samples per interval / memory",
            "threads=2  worker threads (results do not depend on it)");
    private static final List<String> KEYS = List.of("packets", "flows", "seed", "trace", "intervals", "memory", "k", "d",
            "parallel-d", "key", "count", "hash", "oversampling", "threads");

    @Override
    public String name() {
        return "hashpipe";
    }

    @Override
    public String description() {
        return "HashPipe vs space saving, HashParallel, count-min+cache, sample and hold: top-k accuracy vs memory (SOSR 2017)";
    }

    @Override
    public List<String> options() {
        return OPTIONS;
    }

    /** The experiment's settings, parsed and checked. */
    public record Settings(String trace, int intervals, int[] memory, int[] ks, int[] ds, int parallelD, KeyKind key,
                           boolean bytes, String hash, double oversampling, int threads) {
    }

    /** One row of results: an algorithm at one memory and k, averaged over the intervals. */
    public record Result(String algorithm, int d, int memory, int k, double falseNegativePct, double falsePositivePct,
                         double meanRelativeErrorPct, double duplicateSharePct) {
    }

    /** Everything the experiment measured. */
    public record Outcome(Settings settings, long packets, int intervals, double meanFlowsPerInterval, List<Result> results) {
    }

    public static Settings parse(Map<String, String> o) {
        for (String key : o.keySet()) {
            if (!KEYS.contains(key)) {
                throw new UserError("experiment hashpipe: unknown option '" + key + "' (options: " + String.join(", ", KEYS) + ")");
            }
        }
        long packets = longOpt(o, "packets", DEFAULT_PACKETS, 1);
        long flows = longOpt(o, "flows", DEFAULT_FLOWS, 1);
        long seed = longOpt(o, "seed", 1, Long.MIN_VALUE);
        String trace = o.getOrDefault("trace", "");
        if (trace.isEmpty()) {
            trace = "gen:isp?packets=" + packets + "&flows=" + flows + "&seed=" + seed;
        }
        String count = o.getOrDefault("count", "packets");
        if (!count.equals("packets") && !count.equals("bytes")) {
            throw new UserError("experiment hashpipe: count=" + count + " is not packets or bytes");
        }
        String hash = o.getOrDefault("hash", HashPipeConfig.FAMILY_CRC32);
        if (!HashPipeConfig.HASH_FAMILIES.contains(hash)) {
            throw new UserError("experiment hashpipe: hash=" + hash + " is not one of " + HashPipeConfig.HASH_FAMILIES);
        }
        double over;
        try {
            over = Double.parseDouble(o.getOrDefault("oversampling", Double.toString(DEFAULT_OVERSAMPLING)));
        } catch (NumberFormatException e) {
            throw new UserError("experiment hashpipe: oversampling is not a number");
        }
        if (!(over > 0)) {
            throw new UserError("experiment hashpipe: oversampling must be positive");
        }
        int[] ds = list(o, "d", DEFAULT_D, 1, HashPipeConfig.MAX_STAGES);
        return new Settings(trace, (int) longOpt(o, "intervals", DEFAULT_INTERVALS, 1),
                list(o, "memory", DEFAULT_MEMORY, HashPipeConfig.MAX_STAGES, 1 << 24), list(o, "k", DEFAULT_K, 1, 1 << 20), ds,
                (int) longOpt(o, "parallel-d", DEFAULT_PARALLEL_D, 1), KeyKind.byLabel(o.getOrDefault("key", "fingerprint")),
                count.equals("bytes"), hash, over, (int) longOpt(o, "threads", 2, 1));
    }

    private static long longOpt(Map<String, String> o, String key, long dflt, long min) {
        String v = o.get(key);
        if (v == null) {
            return dflt;
        }
        try {
            long x = Long.decode(v.replace("_", ""));
            if (x < min) {
                throw new UserError("experiment hashpipe: " + key + "=" + v + " below " + min);
            }
            return x;
        } catch (NumberFormatException e) {
            throw new UserError("experiment hashpipe: " + key + "=" + v + " is not an integer");
        }
    }

    private static int[] list(Map<String, String> o, String key, String dflt, int min, int max) {
        String[] parts = o.getOrDefault(key, dflt).split(",");
        int[] out = new int[parts.length];
        for (int i = 0; i < parts.length; i++) {
            try {
                out[i] = Integer.parseInt(parts[i].trim());
            } catch (NumberFormatException e) {
                throw new UserError("experiment hashpipe: " + key + " '" + parts[i] + "' is not an integer");
            }
            if (out[i] < min || out[i] > max) {
                throw new UserError("experiment hashpipe: " + key + " value " + out[i] + " outside " + min + ".." + max);
            }
        }
        return out;
    }

    @Override
    public Output produce(Map<String, String> options, PrintWriter err) {
        Outcome r = measure(parse(options));
        return new Output(json(r), tables(r));
    }

    /** The trace's keys and increments, held in memory (one pass over the source). */
    static final class KeyedTrace {
        long[] lo = new long[1 << 16];
        long[] hi;
        int[] inc = new int[1 << 16];
        int n;

        static KeyedTrace load(String spec, KeyKind kind, boolean bytes) {
            KeyedTrace t = new KeyedTrace();
            if (kind.wide()) {
                t.hi = new long[t.lo.length];
            }
            FlowKeys keys = new FlowKeys(kind);
            PacketRecord r = PacketRecord.allocate();
            try (PacketSource src = TraceSpec.open(spec)) {
                while (src.next(r)) {
                    if (t.n == t.lo.length) {
                        t.lo = java.util.Arrays.copyOf(t.lo, t.n * 2);
                        t.inc = java.util.Arrays.copyOf(t.inc, t.n * 2);
                        if (t.hi != null) {
                            t.hi = java.util.Arrays.copyOf(t.hi, t.n * 2);
                        }
                    }
                    keys.load(r);
                    t.lo[t.n] = keys.lo();
                    if (t.hi != null) {
                        t.hi[t.n] = keys.hi();
                    }
                    t.inc[t.n] = bytes ? r.wireLength() : 1;
                    t.n++;
                }
            }
            return t;
        }

        void feed(HeavyHitters a, int from, int to) {
            long[] l = lo;
            long[] h = hi;
            int[] c = inc;
            for (int i = from; i < to; i++) {
                a.update(l[i], h == null ? 0 : h[i], c[i]);
            }
        }
    }

    /** One algorithm instance with its accumulated metrics per k. */
    private static final class Arm {
        final HeavyHitters algo;
        final int d;
        final int memory;
        /** The one k this arm is scored for (count-min's threshold depends on k), or −1 for every k. */
        final int onlyK;
        final double[] fn;
        final double[] fp;
        final double[] err;
        double dup;

        Arm(HeavyHitters algo, int d, int memory, int ks) {
            this(algo, d, memory, ks, -1);
        }

        Arm(HeavyHitters algo, int d, int memory, int ks, int onlyK) {
            this.algo = algo;
            this.d = d;
            this.memory = memory;
            this.onlyK = onlyK;
            fn = new double[ks];
            fp = new double[ks];
            err = new double[ks];
        }

        boolean scores(int ki) {
            return onlyK < 0 || onlyK == ki;
        }
    }

    public static Outcome measure(Settings s) {
        KeyedTrace t = KeyedTrace.load(s.trace(), s.key(), s.bytes());
        if (t.n < s.intervals()) {
            throw new UserError("experiment hashpipe: trace has " + t.n + " packets, fewer than " + s.intervals() + " intervals");
        }
        int per = t.n / s.intervals();
        long unitsPerInterval = 0;
        for (int i = 0; i < per; i++) {
            unitsPerInterval += t.inc[i];
        }
        List<Arm> arms = new ArrayList<>();
        for (int m : s.memory()) {
            for (int d : s.ds()) {
                arms.add(new Arm(new HashPipeReference(HashPipeConfig.of(d, m, s.key(), s.hash(), s.bytes())), d, m, s.ks().length));
            }
            HashPipeConfig par = HashPipeConfig.of(s.parallelD(), m, s.key(), s.hash(), s.bytes());
            arms.add(new Arm(new HashParallel(m, par), s.parallelD(), m, s.ks().length));
            arms.add(new Arm(new SpaceSaving(m), 0, m, s.ks().length));
            for (int ki = 0; ki < s.ks().length; ki++) {
                // the threshold is set per interval from that interval's k-th heaviest flow
                arms.add(new Arm(new CountMinCache(m, s.key(), 1), 0, m, s.ks().length, ki));
            }
            double p = s.oversampling() * m / Math.max(1, unitsPerInterval);
            arms.add(new Arm(new SampleAndHold(m, p, SAMPLE_AND_HOLD_SEED), 0, m, s.ks().length));
        }
        ExecutorService pool = Executors.newFixedThreadPool(s.threads());
        long flowsSum = 0;
        try {
            for (int iv = 0; iv < s.intervals(); iv++) {
                int from = iv * per;
                int to = from + per;
                KeyCountMap truth = new KeyCountMap(per / 8);
                for (int i = from; i < to; i++) {
                    truth.add(t.lo[i], t.hi == null ? 0 : t.hi[i], t.inc[i]);
                }
                flowsSum += truth.size();
                List<FlowCount> sortedTruth = FlowCount.sorted(truth);
                List<Future<?>> jobs = new ArrayList<>();
                for (Arm a : arms) {
                    jobs.add(pool.submit(() -> {
                        a.algo.reset();
                        if (a.algo instanceof CountMinCache cm) {
                            // the paper's liberal threshold: the exact count of the interval's k-th heaviest flow
                            int k = Math.min(s.ks()[a.onlyK], sortedTruth.size());
                            cm.heavyThreshold(Math.max(1, sortedTruth.get(k - 1).count()));
                        }
                        t.feed(a.algo, from, to);
                        score(a, s.ks(), truth, sortedTruth);
                    }));
                }
                for (Future<?> f : jobs) {
                    f.get();
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("experiment interrupted", e);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException re ? re : new IllegalStateException(e.getCause());
        } finally {
            pool.shutdownNow();
        }
        List<Result> results = new ArrayList<>();
        int n = s.intervals();
        for (Arm a : arms) {
            for (int ki = 0; ki < s.ks().length; ki++) {
                if (!a.scores(ki)) {
                    continue;
                }
                results.add(new Result(a.algo.name(), a.d, a.memory, s.ks()[ki], a.fn[ki] / n, a.fp[ki] / n, a.err[ki] / n, a.dup / n));
            }
        }
        return new Outcome(s, (long) per * n, n, (double) flowsSum / n, results);
    }

    /**
     * Scores one interval. False negatives: true top-k flows not reported, over k.
     * False positives: reported flows not in the true top k, over the flows
     * outside it (the paper's normalisation). Relative error: |estimate - true| /
     * true averaged over the reported top k.
     */
    private static void score(Arm a, int[] ks, KeyCountMap truth, List<FlowCount> sortedTruth) {
        List<FlowCount> report = a.algo.report();
        a.dup += 100.0 * a.algo.duplicateShare();
        for (int ki = 0; ki < ks.length; ki++) {
            if (!a.scores(ki)) {
                continue;
            }
            int k = Math.min(ks[ki], sortedTruth.size());
            KeyCountMap heavy = new KeyCountMap(k);
            for (int i = 0; i < k; i++) {
                FlowCount f = sortedTruth.get(i);
                heavy.add(f.keyLo(), f.keyHi(), 1);
            }
            int reported = Math.min(k, report.size());
            int hits = 0;
            double err = 0;
            for (int i = 0; i < reported; i++) {
                FlowCount f = report.get(i);
                if (heavy.contains(f.keyLo(), f.keyHi())) {
                    hits++;
                }
                long real = truth.get(f.keyLo(), f.keyHi());
                err += real == 0 ? 1.0 : Math.abs(f.count() - real) / (double) real;
            }
            a.fn[ki] += k == 0 ? 0 : 100.0 * (k - hits) / k;
            int light = sortedTruth.size() - k;
            a.fp[ki] += light == 0 ? 0 : 100.0 * (reported - hits) / light;
            a.err[ki] += reported == 0 ? 0 : 100.0 * err / reported;
        }
    }

    // ---- output ----

    private static String fmt(double v) {
        return String.format(Locale.ROOT, "%.3f", v);
    }

    /** Row labels in table order, each with its results by (memory, k). */
    private static Map<String, Map<String, Result>> rows(List<Result> results) {
        Map<String, Map<String, Result>> rows = new LinkedHashMap<>();
        for (Result r : results) {
            rows.computeIfAbsent(r.algorithm(), x -> new TreeMap<>()).put(r.memory() + "/" + r.k(), r);
        }
        return rows;
    }

    interface Metric {
        double of(Result r);
    }

    public static String tables(Outcome o) {
        StringBuilder b = new StringBuilder();
        Settings s = o.settings();
        b.append("HashPipe experiment: trace ").append(s.trace()).append('\n');
        b.append(String.format(Locale.ROOT, "  %d packets in %d intervals of %d, %.0f flows per interval on average; key %s, counting %s, hash %s%n",
                o.packets(), o.intervals(), o.packets() / o.intervals(), o.meanFlowsPerInterval(), s.key().label(),
                s.bytes() ? "bytes" : "packets", s.hash()));
        b.append("  memory in counters ((key, count) slots; count-min+cache: half sketch counters, half cache slots)\n");
        Map<String, Map<String, Result>> rows = rows(o.results());
        String[] names = {"false negatives %", "false positives % (of flows outside the top k)",
            "mean relative error % of the reported top k"};
        Metric[] metrics = {Result::falseNegativePct, Result::falsePositivePct, Result::meanRelativeErrorPct};
        for (int mi = 0; mi < metrics.length; mi++) {
            for (int k : s.ks()) {
                b.append('\n').append(names[mi]).append(", k = ").append(k).append('\n');
                header(b, s.memory());
                for (Map.Entry<String, Map<String, Result>> e : rows.entrySet()) {
                    b.append(String.format(Locale.ROOT, "%-18s", e.getKey()));
                    for (int m : s.memory()) {
                        Result r = e.getValue().get(m + "/" + k);
                        b.append(String.format(Locale.ROOT, " %9s", r == null ? "-" : fmt(metrics[mi].of(r))));
                    }
                    b.append('\n');
                }
            }
        }
        b.append("\nduplicate-key share % of occupied slots (HashPipe)\n");
        header(b, s.memory());
        for (Map.Entry<String, Map<String, Result>> e : rows.entrySet()) {
            if (!e.getKey().startsWith("hashpipe")) {
                continue;
            }
            b.append(String.format(Locale.ROOT, "%-18s", e.getKey()));
            for (int m : s.memory()) {
                Result r = e.getValue().get(m + "/" + s.ks()[0]);
                b.append(String.format(Locale.ROOT, " %9s", r == null ? "-" : fmt(r.duplicateSharePct())));
            }
            b.append('\n');
        }
        return b.toString();
    }

    private static void header(StringBuilder b, int[] memory) {
        b.append(String.format(Locale.ROOT, "%-18s", "algorithm"));
        for (int m : memory) {
            b.append(String.format(Locale.ROOT, " %9d", m));
        }
        b.append('\n');
    }

    public static String json(Outcome o) {
        Settings s = o.settings();
        StringBuilder b = new StringBuilder();
        b.append("{\n  \"experiment\": \"hashpipe\",\n");
        b.append("  \"trace\": \"").append(s.trace().replace("\\", "\\\\").replace("\"", "\\\"")).append("\",\n");
        b.append("  \"packets\": ").append(o.packets()).append(",\n");
        b.append("  \"intervals\": ").append(o.intervals()).append(",\n");
        b.append("  \"meanFlowsPerInterval\": ").append(fmt(o.meanFlowsPerInterval())).append(",\n");
        b.append("  \"key\": \"").append(s.key().label()).append("\",\n");
        b.append("  \"count\": \"").append(s.bytes() ? "bytes" : "packets").append("\",\n");
        b.append("  \"hash\": \"").append(s.hash()).append("\",\n");
        b.append("  \"results\": [\n");
        for (int i = 0; i < o.results().size(); i++) {
            Result r = o.results().get(i);
            b.append("    {\"algorithm\": \"").append(r.algorithm()).append("\", \"d\": ").append(r.d())
                    .append(", \"memory\": ").append(r.memory()).append(", \"k\": ").append(r.k())
                    .append(", \"falseNegativePct\": ").append(fmt(r.falseNegativePct()))
                    .append(", \"falsePositivePct\": ").append(fmt(r.falsePositivePct()))
                    .append(", \"meanRelativeErrorPct\": ").append(fmt(r.meanRelativeErrorPct()))
                    .append(", \"duplicateSharePct\": ").append(fmt(r.duplicateSharePct())).append('}')
                    .append(i + 1 < o.results().size() ? ",\n" : "\n");
        }
        b.append("  ]\n}\n");
        return b.toString();
    }
}
