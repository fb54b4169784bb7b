package dev.rmtemu.programs.wbmon.experiment;

import dev.rmtemu.emulator.spi.OptionValues;
import dev.rmtemu.model.UserError;
import dev.rmtemu.programs.wbmon.program.WbmonConfig;

import java.util.Map;
import java.util.TreeMap;

/**
 * {@code rmtemu experiment wbmon}'s options, typed: the named defaults in one place, parsed and
 * checked once from {@code --opt key=value} (an unknown key or a bad value is one line naming it).
 * The text as given is kept too: the JSON echoes it and the tables quote it.
 */
record WbmonOptions(String part, int registers, int bits, int tolerance, int aStep, int bMax, int bStep, int cPackets,
                    int cRuns, double cSigma, int dPackets, double[] dLosses, double[] dGbps, int dBytes, int dNetPackets,
                    double[] dConvGbps, int dConvRuns, int dConvPackets, double[] dNetGbps, int eRuns, double[] eFractions,
                    int eFaults, double eLoss, int ePackets, double[] fFractions, int[] fFaults, int fPlacements, int fSubsets,
                    double fLoss, int fPackets, long seed, String control, String topology, String flows, int vconns,
                    Map<String, String> text) {
    static final String NAME = WbmonExperiment.NAME;
    /** Every option's default, as {@code --opt} would give it. */
    static final Map<String, String> DEFAULTS = defaults();

    private static Map<String, String> defaults() {
        Map<String, String> d = new TreeMap<>();
        d.put("part", "abcdef");
        d.put("registers", String.valueOf(WbmonConfig.DEFAULT_REGISTERS));
        d.put("bits", String.valueOf(WbmonConfig.DEFAULT_BITS));
        d.put("tolerance", String.valueOf(WbmonConfig.DEFAULT_TOLERANCE));
        d.put("a_step", "8");
        d.put("b_max", "383");
        d.put("b_step", "16");
        d.put("c_packets", "100000");
        d.put("c_runs", "10");
        d.put("c_sigma", "0.75");
        d.put("d_packets", "200000");
        d.put("d_losses", "0.001,0.01,0.1,0.5");
        d.put("d_gbps", "1,10,100");
        d.put("d_bytes", "1000");
        d.put("d_net_packets", "20000");
        d.put("d_conv_gbps", "0.1,1,10,100");
        d.put("d_conv_runs", "10");
        d.put("d_conv_packets", "1000000");
        d.put("d_net_gbps", "10,40");
        d.put("e_runs", "10");
        d.put("e_fractions", "0.4,0.5,0.6,0.7,0.8");
        d.put("e_faults", "1");
        d.put("e_loss", "0.01");
        d.put("e_packets", "20000");
        d.put("f_fractions", "0.4,0.5,0.6,0.7,0.8");
        d.put("f_faults", "1,2,3");
        d.put("f_placements", "10");
        d.put("f_subsets", "10");
        d.put("f_loss", "0.01");
        d.put("f_packets", "5000");
        d.put("seed", "1");
        d.put("control", "");
        d.put("topology", "");
        d.put("flows", "");
        d.put("vconns", String.valueOf(WbmonConfig.DEFAULT_VCONNS));
        return d;
    }

    static WbmonOptions parse(Map<String, String> given) {
        Map<String, String> o = OptionValues.withDefaults(NAME, DEFAULTS, given);
        long seed;
        try {
            seed = Long.parseLong(o.get("seed").trim());
        } catch (NumberFormatException e) {
            throw new UserError("experiment wbmon: option seed must be an integer, got '" + o.get("seed") + "'");
        }
        double[] faultCounts = numbers(o, "f_faults");
        int[] faults = new int[faultCounts.length];
        for (int i = 0; i < faults.length; i++) {
            faults[i] = (int) faultCounts[i];
            if (faults[i] < 1 || faults[i] != faultCounts[i]) {
                throw new UserError("experiment wbmon: option f_faults takes whole numbers of at least 1, got '" + o.get("f_faults") + "'");
            }
        }
        return new WbmonOptions(o.get("part"), integer(o, "registers"), integer(o, "bits"), integer(o, "tolerance"),
                positive(o, "a_step"), integer(o, "b_max"), positive(o, "b_step"), positive(o, "c_packets"),
                positive(o, "c_runs"), numbers(o, "c_sigma")[0], positive(o, "d_packets"), probabilities(o, "d_losses"),
                numbers(o, "d_gbps"), positive(o, "d_bytes"), positive(o, "d_net_packets"), numbers(o, "d_conv_gbps"),
                positive(o, "d_conv_runs"), positive(o, "d_conv_packets"), numbers(o, "d_net_gbps"), positive(o, "e_runs"),
                probabilities(o, "e_fractions"), positive(o, "e_faults"), probabilities(o, "e_loss")[0], positive(o, "e_packets"),
                probabilities(o, "f_fractions"), faults, positive(o, "f_placements"), positive(o, "f_subsets"),
                probabilities(o, "f_loss")[0], positive(o, "f_packets"), seed, o.get("control"), o.get("topology"),
                o.get("flows"), integer(o, "vconns"), o);
    }

    /** An option's text as given (default filled in). */
    String text(String key) {
        return text.get(key);
    }

    private static int integer(Map<String, String> o, String k) {
        return OptionValues.integer(NAME, o, k);
    }

    private static int positive(Map<String, String> o, String k) {
        int v = integer(o, k);
        if (v < 1) {
            throw new UserError("experiment wbmon: option " + k + " must be at least 1, got " + v);
        }
        return v;
    }

    private static double[] probabilities(Map<String, String> o, String k) {
        double[] v = numbers(o, k);
        for (double x : v) {
            if (x > 1) {
                throw new UserError("experiment wbmon: option " + k + " values must be at most 1, got '" + o.get(k) + "'");
            }
        }
        return v;
    }

    private static double[] numbers(Map<String, String> o, String k) {
        return OptionValues.numbers(NAME, o, k, true);
    }
}
