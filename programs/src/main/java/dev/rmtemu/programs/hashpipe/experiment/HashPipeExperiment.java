package dev.rmtemu.programs.hashpipe.experiment;

import dev.rmtemu.programs.hashpipe.program.CountedBytes;
import dev.rmtemu.emulator.spi.PlotSpec;
import dev.rmtemu.programs.hashpipe.control.FlowCount;
import dev.rmtemu.programs.hashpipe.control.KeyCountMap;
import dev.rmtemu.programs.hashpipe.program.FlowKeys;
import dev.rmtemu.programs.hashpipe.program.HashPipeConfig;
import dev.rmtemu.programs.hashpipe.program.KeyKind;
import dev.rmtemu.programs.hashpipe.reference.CountMinCache;
import dev.rmtemu.programs.hashpipe.reference.HashParallel;
import dev.rmtemu.programs.hashpipe.reference.HeavyHitters;
import dev.rmtemu.programs.hashpipe.reference.SampleAndHold;
import dev.rmtemu.programs.hashpipe.reference.SpaceSaving;

import java.util.Arrays;
import com.fasterxml.jackson.annotation.JsonInclude;
import dev.rmtemu.emulator.spi.Experiment;
import dev.rmtemu.emulator.spi.ExperimentJson;
import dev.rmtemu.emulator.json.Json;
import dev.rmtemu.model.UserError;
import dev.rmtemu.model.target.TargetProfile;
import dev.rmtemu.model.target.TargetProfiles;
import dev.rmtemu.traces.PacketRecord;
import dev.rmtemu.traces.PacketSource;
import dev.rmtemu.traces.spec.TraceSpec;
import dev.rmtemu.traces.PackedRecords;

import java.io.PrintWriter;
import java.math.BigDecimal;
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
 * a heavy-flow cache and sample and hold. Every HashPipe row runs the stage
 * program on the emulated switch ({@link HashPipeOnSwitch}, engine "pipeline");
 * the baselines have no stage program and run in plain Java (engine
 * "reference"). {@code scale=paper} runs the paper's scale (one 10 M-packet
 * chunk of the ISP trace, about 400,000 flows) and prints the paper's numbers
 * beside ours. Output is a pure function of the options: the thread count only
 * changes the speed.
 */
public final class HashPipeExperiment implements Experiment {
    /** Default (CI) scale: 400 K packets of the ISP preset (its packets-per-flow ratio, 10 M / 400 K). */
    public static final long DEFAULT_PACKETS = 400_000;
    /** Flows: 0 = the ISP generator's own (one flow arrival per 25 packets). */
    public static final int DEFAULT_FLOWS = 0;
    public static final int DEFAULT_INTERVALS = 4;
    /**
     * The paper's scale (§5, "Experiment setup"): a 10 M-packet chunk of the CAIDA trace (~20 s,
     * ~400,000 5-tuple flows) is one trial; memory up to 100 KB (about 5,600 counters).
     */
    public static final long PAPER_PACKETS = 10_000_000;
    public static final int PAPER_INTERVALS = 1;
    public static final String PAPER_MEMORY = "600,1200,2400,4500,5600";
    public static final String SCALE_CI = "ci";
    public static final String SCALE_PAPER = "paper";
    /**
     * Target the HashPipe rows run on: the paper's memory sizes split into d stages are not
     * powers of two (4500 / 6 = 750), which tofino1's stages cannot index without a divider,
     * and d = 7, 8 need more than its 12 stages; {@code target=tofino1} runs the rows that fit.
     */
    public static final String DEFAULT_TARGET = "unconstrained";
    /** Port speed of the emulated switch (the trace's 10 Gb/s link never queues on it). */
    public static final double PORT_GBPS = 100.0;
    /** Engine labels of a result row. */
    public static final String ENGINE_PIPELINE = "pipeline";
    public static final String ENGINE_REFERENCE = "reference";
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
            "scale=" + SCALE_CI + "  ci (seconds) or paper: " + PAPER_PACKETS + " packets in " + PAPER_INTERVALS
                    + " interval, memory " + PAPER_MEMORY + ", with the paper's numbers beside ours",
            "packets=" + DEFAULT_PACKETS + "  packets of the generated ISP trace (scale=paper: " + PAPER_PACKETS + ")",
            "flows=" + DEFAULT_FLOWS + "  flow arrivals of the trace (0: the generator's, one per 25 packets)",
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
            "target=" + DEFAULT_TARGET + "  target profile the HashPipe rows' switch emulates",
            "threads=2  worker threads (results do not depend on it)");
    private static final List<String> KEYS = List.of("scale", "packets", "flows", "seed", "trace", "intervals", "memory", "k",
            "d", "parallel-d", "key", "count", "hash", "oversampling", "target", "threads");

    /**
     * The paper's Figures 5, 7 and 9 (SOSR 2017): false negatives, false positives and mean relative error against
     * memory, one line per algorithm and d (HashPipe's depths; the baselines have none), one panel per k.
     */
    @Override
    public List<PlotSpec> plots() {
        return List.of(
                PlotSpec.of("results", "Fig. 5: false negatives against memory", "memory", "memory (counters)",
                        "false negatives (% of the top k)", "false_negative_pct").logX().series("algorithm", "d").panel("k"),
                PlotSpec.of("results", "Fig. 7: false positives against memory", "memory", "memory (counters)",
                        "false positives (% of flows reported)", "false_positive_pct").logX().series("algorithm", "d").panel("k"),
                PlotSpec.of("results", "Fig. 9: mean relative error of the counts against memory", "memory", "memory (counters)",
                        "mean relative error (%)", "mean_relative_error_pct").logX().series("algorithm", "d").panel("k"));
    }

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
    public record Settings(String scale, String trace, int intervals, int[] memory, int[] ks, int[] ds, int parallelD,
                           KeyKind key, boolean bytes, String hash, double oversampling, String target, int threads) {
        boolean paperScale() {
            return scale.equals(SCALE_PAPER);
        }
    }

    /**
     * One row of results: an algorithm at one memory and k, averaged over the intervals, and
     * which ran it: {@link #ENGINE_PIPELINE} (the stage program on the emulated switch) or
     * {@link #ENGINE_REFERENCE} (plain Java).
     */
    public record Result(String algorithm, String engine, int d, int memory, int k, double falseNegativePct,
                         double falsePositivePct, double meanRelativeErrorPct, double duplicateSharePct) {
    }

    /** Everything the experiment measured. */
    public record Outcome(Settings settings, long packets, int intervals, double meanFlowsPerInterval, int pipes,
                          List<Result> results) {
    }

    public static Settings parse(Map<String, String> o) {
        for (String key : o.keySet()) {
            if (!KEYS.contains(key)) {
                throw new UserError("experiment hashpipe: unknown option '" + key + "' (options: " + String.join(", ", KEYS) + ")");
            }
        }
        String scale = o.getOrDefault("scale", SCALE_CI);
        if (!scale.equals(SCALE_CI) && !scale.equals(SCALE_PAPER)) {
            throw new UserError("experiment hashpipe: scale=" + scale + " is not " + SCALE_CI + " or " + SCALE_PAPER);
        }
        boolean paper = scale.equals(SCALE_PAPER);
        long packets = longOpt(o, "packets", paper ? PAPER_PACKETS : DEFAULT_PACKETS, 1);
        long flows = longOpt(o, "flows", DEFAULT_FLOWS, 0);
        long seed = longOpt(o, "seed", 1, Long.MIN_VALUE);
        String trace = o.getOrDefault("trace", "");
        if (trace.isEmpty()) {
            trace = "gen:isp?packets=" + packets + (flows == 0 ? "" : "&flows=" + flows) + "&seed=" + seed;
        }
        String target = o.getOrDefault("target", DEFAULT_TARGET);
        TargetProfiles.builtIn(target);
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
        KeyKind key = KeyKind.byLabel(o.getOrDefault("key", "fingerprint"));
        // refuses key=5tuple with count=bytes (a saturating count) before any packet
        HashPipeConfig.of(HashPipeConfig.DEFAULT_STAGES, HashPipeConfig.DEFAULT_COUNTERS, key, hash, count.equals("bytes"));
        return new Settings(scale, trace, (int) longOpt(o, "intervals", paper ? PAPER_INTERVALS : DEFAULT_INTERVALS, 1),
                list(o, "memory", paper ? PAPER_MEMORY : DEFAULT_MEMORY, HashPipeConfig.MAX_STAGES, 1 << 24),
                list(o, "k", DEFAULT_K, 1, 1 << 20), ds, (int) longOpt(o, "parallel-d", DEFAULT_PARALLEL_D, 1), key,
                count.equals("bytes"), hash, over, target, (int) longOpt(o, "threads", 2, 1));
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

    /**
     * The trace held in memory (one pass over the source): every packet's key and increment
     * for the plain-Java algorithms, and its record (metadata and frame) for the emulated switch.
     */
    static final class KeyedTrace {
        long[] lo = new long[1 << 16];
        long[] hi;
        int[] inc = new int[1 << 16];
        PackedRecords records = new PackedRecords(1 << 16);
        long firstNs;
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
                        t.grow();
                    }
                    if (r.ipVersion() == 6 && kind != KeyKind.FINGERPRINT) {
                        // a 32-bit source or a 104-bit IPv4 5-tuple cannot hold an IPv6 flow
                        throw new UserError("experiment hashpipe: key=" + kind.label() + " holds IPv4 flows only, and packet "
                                + t.n + " of " + spec + " is IPv6; use key=fingerprint (a CRC-32 of the whole 5-tuple)");
                    }
                    if (t.n == 0) {
                        t.firstNs = r.timestampNs();
                    }
                    keys.load(r);
                    t.lo[t.n] = keys.lo();
                    if (t.hi != null) {
                        t.hi[t.n] = keys.hi();
                    }
                    t.inc[t.n] = bytes ? CountedBytes.of(r) : 1;
                    t.records.add(r);
                    t.n++;
                }
            }
            return t;
        }

        private void grow() {
            if ((long) n * 2 > Integer.MAX_VALUE - 8) {
                throw new UserError("experiment hashpipe: the trace has more than " + n + " packets, more than it holds in memory");
            }
            lo = Arrays.copyOf(lo, n * 2);
            inc = Arrays.copyOf(inc, n * 2);
            if (hi != null) {
                hi = Arrays.copyOf(hi, n * 2);
            }
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

    /**
     * One algorithm instance with its accumulated metrics per k: a plain-Java algorithm
     * ({@code algo}) or HashPipe on the emulated switch ({@code onSwitch}).
     */
    private static final class Arm {
        final HeavyHitters algo;
        final HashPipeOnSwitch onSwitch;
        final int d;
        final int memory;
        /** The one k this arm is scored for (count-min's threshold depends on k), or −1 for every k. */
        final int onlyK;
        final double[] fn;
        final double[] fp;
        final double[] err;
        double dup;

        Arm(HeavyHitters algo, int d, int memory, int ks) {
            this(algo, null, d, memory, ks, -1);
        }

        Arm(HeavyHitters algo, int d, int memory, int ks, int onlyK) {
            this(algo, null, d, memory, ks, onlyK);
        }

        Arm(HashPipeOnSwitch onSwitch, int d, int memory, int ks) {
            this(null, onSwitch, d, memory, ks, -1);
        }

        private Arm(HeavyHitters algo, HashPipeOnSwitch onSwitch, int d, int memory, int ks, int onlyK) {
            this.algo = algo;
            this.onSwitch = onSwitch;
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

        String name() {
            return onSwitch != null ? onSwitch.name() : algo.name();
        }

        String engine() {
            return onSwitch != null ? ENGINE_PIPELINE : ENGINE_REFERENCE;
        }

        void run(KeyedTrace t, int from, int to) {
            if (onSwitch != null) {
                onSwitch.reset();
                onSwitch.feed(t.records, from, to, t.firstNs);
            } else {
                algo.reset();
                t.feed(algo, from, to);
            }
        }

        List<FlowCount> report() {
            return onSwitch != null ? onSwitch.report() : algo.report();
        }

        double duplicateShare() {
            return onSwitch != null ? onSwitch.duplicateShare() : algo.duplicateShare();
        }
    }

    public static Outcome measure(Settings s) {
        KeyedTrace t = KeyedTrace.load(s.trace(), s.key(), s.bytes());
        if (t.n < s.intervals()) {
            throw new UserError("experiment hashpipe: trace has " + t.n + " packets, fewer than " + s.intervals() + " intervals");
        }
        TargetProfile profile = TargetProfiles.builtIn(s.target());
        int per = t.n / s.intervals();
        long unitsPerInterval = 0;
        for (int i = 0; i < per; i++) {
            unitsPerInterval += t.inc[i];
        }
        List<Arm> arms = new ArrayList<>();
        for (int m : s.memory()) {
            for (int d : s.ds()) {
                // the stage program on the emulated switch; the compiler refuses it (exit 3) if it does not fit the target
                arms.add(new Arm(new HashPipeOnSwitch(HashPipeConfig.of(d, m, s.key(), s.hash(), s.bytes()), profile, PORT_GBPS),
                        d, m, s.ks().length));
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
                        if (a.algo instanceof CountMinCache cm) {
                            // the paper's liberal threshold: the exact count of the interval's k-th heaviest flow
                            int k = Math.min(s.ks()[a.onlyK], sortedTruth.size());
                            cm.heavyThreshold(Math.max(1, sortedTruth.get(k - 1).count()));
                        }
                        a.run(t, from, to);
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
                results.add(new Result(a.name(), a.engine(), a.d, a.memory, s.ks()[ki], a.fn[ki] / n, a.fp[ki] / n,
                        a.err[ki] / n, a.dup / n));
            }
        }
        return new Outcome(s, (long) per * n, n, (double) flowsSum / n, profile.pipes(), results);
    }

    /**
     * Scores one interval. False negatives: true top-k flows not reported, over k.
     * False positives: reported flows not in the true top k, over the flows
     * outside it (the paper's normalisation). Relative error: |estimate - true| /
     * true averaged over the reported top k.
     */
    private static void score(Arm a, int[] ks, KeyCountMap truth, List<FlowCount> sortedTruth) {
        List<FlowCount> report = a.report();
        a.dup += 100.0 * a.duplicateShare();
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

    /**
     * Register SRAM bytes one pipe spends on HashPipe with {@code memory} counters: each slot is a
     * (key, count) pair cell (2 x 32 b, or 2 x 64 b for the 5-tuple), and the stage program keeps
     * every table twice (the mirror array's stateful ALU returns the evicted count).
     */
    public static long bytesPerPipe(int memory, int d, KeyKind key) {
        long cellBytes = key.wide() ? 16 : 8;
        return 2L * cellBytes * (memory / d) * d;
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
        b.append("  engine: hashpipe rows = the stage program on the emulated ").append(s.target())
                .append(" switch (pipeline); the baselines = plain Java (reference)\n");
        b.append(String.format(Locale.ROOT, "  HashPipe memory per pipe and in total (%s has %d pipe%s; register arrays exist in every pipe,"
                + " so the tables cost %dx in total):%n", s.target(), o.pipes(), o.pipes() == 1 ? "" : "s", o.pipes()));
        for (int m : s.memory()) {
            int d = s.ds()[s.ds().length - 1];
            for (int dd : s.ds()) {
                if (dd == HashPipeConfig.DEFAULT_STAGES) {
                    d = dd;
                }
            }
            long perPipe = bytesPerPipe(m, d, s.key());
            b.append(String.format(Locale.ROOT, "    %6d counters, d=%d: %,d B per pipe (table + mirror), %,d B in total%n", m, d,
                    perPipe, perPipe * o.pipes()));
        }
        Map<String, Map<String, Result>> rows = rows(o.results());
        String[] names = {"false negatives %", "false positives % (of flows outside the top k)",
            "mean relative error % of the reported top k"};
        Metric[] metrics = {Result::falseNegativePct, Result::falsePositivePct, Result::meanRelativeErrorPct};
        for (int mi = 0; mi < metrics.length; mi++) {
            for (int k : s.ks()) {
                b.append('\n').append(names[mi]).append(", k = ").append(k).append('\n');
                header(b, s.memory());
                for (Map.Entry<String, Map<String, Result>> e : rows.entrySet()) {
                    b.append(String.format(Locale.ROOT, "%-18s %-9s", e.getKey(),
                            e.getValue().values().iterator().next().engine()));
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
            b.append(String.format(Locale.ROOT, "%-18s %-9s", e.getKey(), ENGINE_PIPELINE));
            for (int m : s.memory()) {
                Result r = e.getValue().get(m + "/" + s.ks()[0]);
                b.append(String.format(Locale.ROOT, " %9s", r == null ? "-" : fmt(r.duplicateSharePct())));
            }
            b.append('\n');
        }
        b.append("\nthe paper's numbers (ISP trace, 10 M-packet chunks, ~400,000 flows) beside ours");
        b.append(s.paperScale() ? " (scale=paper)\n" : " (this run is scale=ci, smaller than the paper's: run scale=paper to compare)\n");
        for (PaperComparison.Row r : PaperComparison.rows(o)) {
            b.append(String.format(Locale.ROOT, "  %-16s %s%n  %16s paper: %s%n  %16s ours:  %s%n", r.figure(), r.setting(), "",
                    r.paper(), "", r.ours()));
        }
        return b.toString();
    }

    private static void header(StringBuilder b, int[] memory) {
        b.append(String.format(Locale.ROOT, "%-18s %-9s", "algorithm", "engine"));
        for (int m : memory) {
            b.append(String.format(Locale.ROOT, " %9d", m));
        }
        b.append('\n');
    }

    /** The experiment's JSON document (docs/schema/experiment.schema.json, {@code hashpipe}). */
    record JsonDoc(String experiment, String trace, long packets, int intervals, BigDecimal meanFlowsPerInterval,
                   String key, String count, String hash, String scale, String target, int pipes,
                   List<JsonResult> results, List<PaperComparison.Row> paper) {
    }

    /** One result row; the memory in bytes only for HashPipe on the switch (the baselines have no pipe). */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record JsonResult(String algorithm, String engine, Integer d, int memory, int k, BigDecimal falseNegativePct,
                      BigDecimal falsePositivePct, BigDecimal meanRelativeErrorPct, BigDecimal duplicateSharePct,
                      Long memoryBytesPerPipe, Long memoryBytesTotal) {
    }

    public static String json(Outcome o) {
        Settings s = o.settings();
        List<JsonResult> results = new ArrayList<>();
        for (Result r : o.results()) {
            Long perPipe = r.engine().equals(ENGINE_PIPELINE) ? bytesPerPipe(r.memory(), r.d(), s.key()) : null;
            // d is HashPipe's and HashParallel's: the baselines have none (null, not 0)
            results.add(new JsonResult(r.algorithm(), r.engine(), r.d() == 0 ? null : r.d(), r.memory(), r.k(), dec(r.falseNegativePct()),
                    dec(r.falsePositivePct()), dec(r.meanRelativeErrorPct()), dec(r.duplicateSharePct()), perPipe,
                    perPipe == null ? null : perPipe * o.pipes()));
        }
        return Json.write(new JsonDoc("hashpipe", s.trace(), o.packets(), o.intervals(), dec(o.meanFlowsPerInterval()),
                s.key().label(), s.bytes() ? "bytes" : "packets", s.hash(), s.scale(), s.target(), o.pipes(),
                results, PaperComparison.rows(o)));
    }

    private static BigDecimal dec(double v) {
        return ExperimentJson.decimal(v, 3);
    }
}
