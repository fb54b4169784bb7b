package dev.rmtemu.programs.lds.experiment;

import dev.rmtemu.emulator.spi.OptionValues;
import dev.rmtemu.model.UserError;
import dev.rmtemu.programs.lds.program.LdsConfig;

import java.util.Map;
import java.util.TreeMap;

/**
 * {@code rmtemu experiment lds}'s options, typed: the named defaults in one place, parsed and
 * checked once from {@code --opt key=value} (an unknown key or a bad value is one line naming it).
 * {@code scale=full} replaces packets and flows by the paper's trace size.
 */
record LdsOptions(long packets, int flows, long seed, int rows, int k, int kMulti, double[] sizes, double[] losses,
                  int rliGap, String part, String engine) {
    static final String NAME = LdsExperiment.NAME;
    /** Every option's default, as {@code --opt} would give it. */
    static final Map<String, String> DEFAULTS = defaults();

    private static Map<String, String> defaults() {
        Map<String, String> d = new TreeMap<>();
        d.put("packets", String.valueOf(LdsExperiment.DEFAULT_PACKETS));
        d.put("flows", String.valueOf(LdsExperiment.DEFAULT_FLOWS));
        d.put("scale", "default");
        d.put("seed", "1");
        d.put("rows", String.valueOf(LdsConfig.DEFAULT_ROWS));
        d.put("k", String.valueOf(LdsExperiment.SINGLE_RATE_LDA_CELLS));
        d.put("k_multi", String.valueOf(LdsConfig.DEFAULT_LDA_CELLS));
        d.put("sizes", "0.1,1,10");
        d.put("losses", "0.001,0.005,0.01");
        d.put("rli_gap", "100");
        d.put("part", "abcd");
        d.put("engine", LdsExperiment.PIPELINE);
        return d;
    }

    static LdsOptions parse(Map<String, String> given) {
        Map<String, String> o = OptionValues.withDefaults(NAME, DEFAULTS, given);
        long packets = OptionValues.longValue(NAME, o, "packets");
        int flows = (int) OptionValues.longValue(NAME, o, "flows");
        if (o.get("scale").equals("full")) {
            packets = LdsExperiment.FULL_PACKETS;
            flows = LdsExperiment.FULL_FLOWS;
        } else if (!o.get("scale").equals("default")) {
            throw new UserError("experiment lds: scale must be default or full, got '" + o.get("scale") + "'");
        }
        long seed = OptionValues.longValue(NAME, o, "seed");
        int rows = (int) OptionValues.longValue(NAME, o, "rows");
        int k = (int) OptionValues.longValue(NAME, o, "k");
        int kMulti = (int) OptionValues.longValue(NAME, o, "k_multi");
        int gap = (int) OptionValues.longValue(NAME, o, "rli_gap");
        if (gap < 1) {
            throw new UserError("experiment lds: rli_gap must be at least 1");
        }
        String part = o.get("part");
        String engine = o.get("engine");
        if (!engine.equals(LdsExperiment.PIPELINE) && !engine.equals(LdsExperiment.REFERENCE)) {
            throw new UserError("experiment lds: engine must be " + LdsExperiment.PIPELINE + " or " + LdsExperiment.REFERENCE
                    + ", got '" + engine + "'");
        }
        return new LdsOptions(packets, flows, seed, rows, k, kMulti, nonNegative(o, "sizes"), nonNegative(o, "losses"), gap,
                part, engine);
    }

    /** Comma-separated numbers, each at least zero (a loss rate may be 0). */
    private static double[] nonNegative(Map<String, String> o, String key) {
        double[] v = OptionValues.numbers(NAME, o, key, false);
        for (double x : v) {
            if (!(x >= 0)) {
                throw new UserError("experiment lds: option " + key + " values must be non-negative, got '" + o.get(key) + "'");
            }
        }
        return v;
    }
}
