package dev.rmtemu.programs.midst.experiment;

import dev.rmtemu.emulator.spi.OptionValues;
import dev.rmtemu.model.UserError;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code rmtemu experiment midst}'s options, typed: the named defaults in one place, parsed and
 * checked once from {@code --opt key=value} (an unknown key or a bad value is one line naming it).
 * The text as given is kept too: the JSON echoes it and the tables quote it. Checks that need the
 * target (how many pipes part (e) may use) and the sketch's own limits (rows, water marks) stay
 * where the target and the {@code MidstConfig} are known.
 */
record MidstOptions(int[] memories,
                    double[] overloads,
                    int rows,
                    int flows,
                    double zipf,
                    int bursts,
                    int burstPackets,
                    int[] burstSizes,
                    long intervalUs,
                    int bytes,
                    double gbps,
                    int queueCells,
                    long high,
                    long low,
                    long probeNs,
                    double hlFraction,
                    int[] cleanSizes,
                    int cleanBytes,
                    long seed,
                    String target,
                    String part,
                    int[] shrewMemories,
                    int shrewFlows,
                    long shrewRttMinUs,
                    long shrewRttMaxUs,
                    boolean shrewTogether,
                    long shrewMinRtoUs,
                    double shrewLoad,
                    long[] shrewPeriodsMs,
                    long shrewBurstUs,
                    double shrewAttackGbps,
                    long shrewStartMs,
                    long shrewMs,
                    long shrewBurstThreshold,
                    long shrewQueryMs,
                    double[] dropOverloads,
                    int dropMemory,
                    double mirrorGbps,
                    int mirrorCells,
                    int mirrorBytes,
                    int pqPipes,
                    int pqQueues,
                    int pqMemory,
                    double pqOverload,
                    int[] pqBurstPackets,
                    Map<String, String> text) {
    static final String NAME = MidstExperiment.NAME;
    /** Shrew flows: each has its own TCP source port above {@link MidstTraffic#SRC_PORT_BASE}. */
    static final int MAX_SHREW_FLOWS = 10_000;
    /** Every option's default, as {@code --opt} would give it. */
    static final Map<String, String> DEFAULTS = defaults();

    private static Map<String, String> defaults() {
        Map<String, String> d = new LinkedHashMap<>();
        d.put("memories", "8,16,32,64,128,256,512,1024");
        d.put("overloads", "1.2,2.0");
        d.put("rows", "2");
        d.put("flows", "100000");
        d.put("zipf", "1.0");
        d.put("bursts", "6");
        d.put("burst_packets", "20000");
        d.put("burst_sizes", "20000,2000");
        d.put("interval_us", "30000");
        d.put("bytes", "1000");
        d.put("gbps", "10");
        d.put("queue_cells", "1000");
        d.put("high", "250");
        d.put("low", "25");
        d.put("probe_ns", "2000");
        d.put("hl_fraction", "0.001");
        d.put("clean_sizes", "128,256,512,1024");
        d.put("clean_bytes", "512");
        d.put("seed", "1");
        d.put("target", "tofino1");
        d.put("part", "abcde");
        d.put("shrew_memories", "1,256");
        d.put("shrew_flows", "100");
        d.put("shrew_rtt_us", "1000,100000");
        d.put("shrew_together", "0");
        d.put("shrew_min_rto_us", "10000");
        d.put("shrew_load", "0.8");
        d.put("shrew_periods_ms", "30,50,70");
        d.put("shrew_burst_us", "1000");
        d.put("shrew_attack_gbps", "10");
        d.put("shrew_start_ms", "20");
        d.put("shrew_ms", "300");
        d.put("shrew_burst_threshold", "300");
        d.put("shrew_query_ms", "10");
        d.put("drop_overloads", "1.5,2,4,8");
        d.put("drop_memory", "256");
        d.put("mirror_gbps", "1");
        d.put("mirror_cells", "250");
        d.put("mirror_bytes", "64");
        d.put("pq_pipes", "2");
        d.put("pq_queues", "2");
        d.put("pq_memory", "256");
        d.put("pq_overload", "1.5");
        d.put("pq_burst_packets", "20000,2000");
        return d;
    }

    /** The defaults with {@code given} over them. */
    static MidstOptions parse(Map<String, String> given) {
        Map<String, String> o = OptionValues.withDefaults(NAME, DEFAULTS, given);
        int[] burstSizes = OptionValues.ints(NAME, o, "burst_sizes", false);
        for (int b : burstSizes) {
            if (b < 1) {
                throw new UserError("experiment midst: burst sizes must be positive, got " + b);
            }
        }
        long[] rtt = OptionValues.longs(NAME, o, "shrew_rtt_us", true);
        if (rtt.length != 2 || rtt[0] > rtt[1]) {
            throw new UserError("experiment midst: shrew_rtt_us must be MIN,MAX in microseconds, got '" + o.get("shrew_rtt_us") + "'");
        }
        String together = o.get("shrew_together");
        if (!together.equals("0") && !together.equals("1")) {
            throw new UserError("experiment midst: shrew_together must be 0 or 1, got '" + together + "'");
        }
        int shrewFlows = OptionValues.integer(NAME, o, "shrew_flows");
        if (shrewFlows < 1 || shrewFlows > MAX_SHREW_FLOWS) {
            throw new UserError("experiment midst: shrew_flows must be 1.." + MAX_SHREW_FLOWS + ", got " + shrewFlows);
        }
        double shrewLoad = OptionValues.number(NAME, o, "shrew_load");
        if (!(shrewLoad > 0 && shrewLoad <= 1)) {
            throw new UserError("experiment midst: shrew_load must be in (0, 1], got " + o.get("shrew_load"));
        }
        int[] pqBursts = OptionValues.ints(NAME, o, "pq_burst_packets", false);
        for (int b : pqBursts) {
            if (b < 1) {
                throw new UserError("experiment midst: pq_burst_packets must be positive, got " + b);
            }
        }
        return new MidstOptions(OptionValues.ints(NAME, o, "memories", false),
                OptionValues.numbers(NAME, o, "overloads", true),
                OptionValues.integer(NAME, o, "rows"),
                OptionValues.integer(NAME, o, "flows"),
                OptionValues.number(NAME, o, "zipf"),
                OptionValues.integer(NAME, o, "bursts"),
                OptionValues.integer(NAME, o, "burst_packets"),
                burstSizes,
                OptionValues.longValue(NAME, o, "interval_us"),
                OptionValues.integer(NAME, o, "bytes"),
                OptionValues.number(NAME, o, "gbps"),
                OptionValues.integer(NAME, o, "queue_cells"),
                OptionValues.longValue(NAME, o, "high"),
                OptionValues.longValue(NAME, o, "low"),
                OptionValues.longValue(NAME, o, "probe_ns"),
                OptionValues.number(NAME, o, "hl_fraction"),
                OptionValues.ints(NAME, o, "clean_sizes", false),
                OptionValues.integer(NAME, o, "clean_bytes"),
                OptionValues.longValue(NAME, o, "seed"),
                o.get("target"),
                o.get("part"),
                OptionValues.ints(NAME, o, "shrew_memories", false),
                shrewFlows,
                rtt[0],
                rtt[1],
                together.equals("1"),
                positiveLong(o, "shrew_min_rto_us"),
                shrewLoad,
                OptionValues.longs(NAME, o, "shrew_periods_ms", true),
                positiveLong(o, "shrew_burst_us"),
                OptionValues.positive(NAME, o, "shrew_attack_gbps"),
                OptionValues.longValue(NAME, o, "shrew_start_ms"),
                positiveLong(o, "shrew_ms"),
                positiveLong(o, "shrew_burst_threshold"),
                positiveLong(o, "shrew_query_ms"),
                OptionValues.numbers(NAME, o, "drop_overloads", true),
                positiveInt(o, "drop_memory"),
                OptionValues.positive(NAME, o, "mirror_gbps"),
                positiveThenInt(o, "mirror_cells"),
                positiveThenInt(o, "mirror_bytes"),
                OptionValues.integer(NAME, o, "pq_pipes"),
                OptionValues.integer(NAME, o, "pq_queues"),
                positiveInt(o, "pq_memory"),
                OptionValues.positive(NAME, o, "pq_overload"),
                pqBursts,
                o);
    }

    /** The option's text as given (or its default): what the tables quote. */
    String given(String key) {
        return text.get(key);
    }

    /** An integer above zero ({@code 0} and {@code -1} are "must be positive", {@code x} "must be an integer"). */
    private static int positiveInt(Map<String, String> o, String key) {
        int v = OptionValues.integer(NAME, o, key);
        OptionValues.positive(NAME, o, key);
        return v;
    }

    /** The same, checked as a number first ({@code x} is "must be a number", as these two have always said). */
    private static int positiveThenInt(Map<String, String> o, String key) {
        OptionValues.positive(NAME, o, key);
        return OptionValues.integer(NAME, o, key);
    }

    /** A whole number above zero, checked as a number first. */
    private static long positiveLong(Map<String, String> o, String key) {
        OptionValues.positive(NAME, o, key);
        return OptionValues.longValue(NAME, o, key);
    }
}
