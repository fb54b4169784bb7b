package dev.rmtemu.programs.lossradar.experiment;

import dev.rmtemu.emulator.spi.OptionValues;
import dev.rmtemu.model.UserError;
import dev.rmtemu.programs.lossradar.program.LossRadarConfig;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code rmtemu experiment lossradar}'s options, typed: the named defaults in one place, parsed
 * and checked once from {@code --opt key=value} (an unknown key or a bad value is one line naming
 * it). The text as given is kept too: the JSON echoes it.
 */
record LossRadarOptions(String part,
                         long seed,
                         int hashes,
                         int[] aLosses,
                         double[] aRatios,
                         int aTrials,
                         String aTrace,
                         int rRules,
                         int rTrials,
                         double mGbps,
                         int mPacketBytes,
                         double[] mLoss,
                         double[] mBatchMs,
                         int mTrials,
                         double mDecode,
                         long bMs,
                         double bGbps,
                         double bLoss,
                         int bBursts,
                         int bBurstPackets,
                         int bQueueCells,
                         int[] bCells,
                         long fMs,
                         double fGbps,
                         double fLoss,
                         int fBursts,
                         int fBurstPackets,
                         int[] fCells,
                         long cMs,
                         double cBackgroundGbps,
                         int cSenders,
                         int cBursts,
                         int cBurstPackets,
                         double cRandom,
                         int cQueueCells,
                         int cCells,
                         int[] dCells,
                         int[] dPorts,
                         int dUpstream,
                         int lPackets,
                         double lLoss,
                         String target,
                         Map<String, String> text) {
    static final String NAME = LossRadarExperiment.NAME;
    /** Every option's default, as {@code --opt} would give it. */
    static final Map<String, String> DEFAULTS = defaults();

    private static Map<String, String> defaults() {
        Map<String, String> d = new LinkedHashMap<>();
        d.put("part", "abcdflmr");
        d.put("seed", "1");
        d.put("hashes", "3");
        d.put("a_losses", "100,1000,10000");
        d.put("a_ratios", "1.1,1.2,1.25,1.3,1.4,1.5,2.0");
        d.put("a_trials", "100");
        d.put("a_trace", "gen:isp?packets=100000&seed=1");
        d.put("r_rules", "2000");
        d.put("r_trials", "100");
        d.put("m_gbps", "10");
        d.put("m_packet_bytes", "175");
        d.put("m_loss", "0.0001,0.001,0.01");
        d.put("m_batch_ms", "1,10,20");
        d.put("m_trials", "100");
        d.put("m_decode", "0.99");
        d.put("b_ms", "200");
        d.put("b_gbps", "5");
        d.put("b_loss", "0.0005");
        d.put("b_bursts", "4");
        d.put("b_burst_packets", "250");
        d.put("b_queue_cells", "2400");
        d.put("b_cells", "24,48,96,192,384,768");
        d.put("f_ms", "20");
        d.put("f_gbps", "20");
        d.put("f_loss", "0.0003");
        d.put("f_bursts", "2");
        d.put("f_burst_packets", "1800");
        d.put("f_cells", "12,24,96,384");
        d.put("c_ms", "300");
        d.put("c_background_gbps", "0.5");
        d.put("c_senders", "32");
        d.put("c_bursts", "6");
        d.put("c_burst_packets", "1200");
        d.put("c_random", "0.01");
        d.put("c_queue_cells", "200");
        d.put("c_cells", "3072");
        d.put("d_cells", "96,768,3072");
        d.put("d_ports", "4,32");
        d.put("d_upstream", "16");
        d.put("l_packets", "20000");
        d.put("l_loss", "0.005");
        d.put("target", "tofino1");
        return d;
    }

    /** The defaults with {@code given} over them. */
    static LossRadarOptions parse(Map<String, String> given) {
        Map<String, String> o = OptionValues.withDefaults(NAME, DEFAULTS, given);
        String part = o.get("part");
        for (char ch : part.toCharArray()) {
            if ("abcdflmr".indexOf(ch) < 0) {
                throw new UserError("experiment lossradar: part '" + part + "' may hold only a, b, c, d, f, l, m and r");
            }
        }
        long seed = OptionValues.longValue(NAME, o, "seed");
        int hashes = OptionValues.integer(NAME, o, "hashes");
        if (hashes < 1 || hashes > LossRadarConfig.MAX_HASHES) {
            throw new UserError("experiment lossradar: hashes must be 1.." + LossRadarConfig.MAX_HASHES);
        }
        return new LossRadarOptions(part,
                seed,
                hashes,
                OptionValues.ints(NAME, o, "a_losses", true),
                OptionValues.numbers(NAME, o, "a_ratios", true),
                OptionValues.integer(NAME, o, "a_trials"),
                o.get("a_trace"),
                OptionValues.integer(NAME, o, "r_rules"),
                OptionValues.integer(NAME, o, "r_trials"),
                OptionValues.number(NAME, o, "m_gbps"),
                OptionValues.integer(NAME, o, "m_packet_bytes"),
                OptionValues.numbers(NAME, o, "m_loss", true),
                OptionValues.numbers(NAME, o, "m_batch_ms", true),
                OptionValues.integer(NAME, o, "m_trials"),
                OptionValues.number(NAME, o, "m_decode"),
                OptionValues.longValue(NAME, o, "b_ms"),
                OptionValues.number(NAME, o, "b_gbps"),
                OptionValues.number(NAME, o, "b_loss"),
                OptionValues.integer(NAME, o, "b_bursts"),
                OptionValues.integer(NAME, o, "b_burst_packets"),
                OptionValues.integer(NAME, o, "b_queue_cells"),
                OptionValues.ints(NAME, o, "b_cells", true),
                OptionValues.longValue(NAME, o, "f_ms"),
                OptionValues.number(NAME, o, "f_gbps"),
                OptionValues.number(NAME, o, "f_loss"),
                OptionValues.integer(NAME, o, "f_bursts"),
                OptionValues.integer(NAME, o, "f_burst_packets"),
                OptionValues.ints(NAME, o, "f_cells", true),
                OptionValues.longValue(NAME, o, "c_ms"),
                OptionValues.number(NAME, o, "c_background_gbps"),
                OptionValues.integer(NAME, o, "c_senders"),
                OptionValues.integer(NAME, o, "c_bursts"),
                OptionValues.integer(NAME, o, "c_burst_packets"),
                OptionValues.number(NAME, o, "c_random"),
                OptionValues.integer(NAME, o, "c_queue_cells"),
                OptionValues.integer(NAME, o, "c_cells"),
                OptionValues.ints(NAME, o, "d_cells", true),
                OptionValues.ints(NAME, o, "d_ports", true),
                OptionValues.integer(NAME, o, "d_upstream"),
                OptionValues.integer(NAME, o, "l_packets"),
                OptionValues.number(NAME, o, "l_loss"),
                o.get("target"),
                o);
    }
}
