package dev.rmtemu.programs.lds.program;

import dev.rmtemu.programs.lds.control.LdsReport;

import dev.rmtemu.model.UserError;
import dev.rmtemu.model.program.ParamSpec;
import dev.rmtemu.model.program.ProgramFactory;
import dev.rmtemu.model.program.ProgramParams;
import dev.rmtemu.model.program.StageProgram;

import java.util.List;
import java.util.Locale;

/** {@code lds}: the lossy difference sketch's sender and/or receiver ({@link LdsPipeline}) as a named program. */
public final class LdsProgram implements ProgramFactory {
    public static final String NAME = "lds";
    public static final String DESCRIPTION = "LDS (IMC 2011): lossy difference sketch of per-flow one-way delay between two"
            + " measurement points (sender in ingress, receiver in egress)";
    public static final int DEFAULT_PORT = 1;
    public static final int DEFAULT_PATHS = 1;
    public static final double DEFAULT_PRIORITY_SHARE = 0.0;
    /** Largest flows the replay summary lists (see {@link LdsReport}). */
    public static final int DEFAULT_REPORT_TOP = 10;
    /** Parameter values for the weights: none, or w_bronze/w_silver/w_gold over 90/9/1 % of flows. */
    public static final String NO_WEIGHTS = "none";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return DESCRIPTION;
    }

    @Override
    public List<ParamSpec> params() {
        return List.of(
                ParamSpec.choice("role", LdsRole.BOTH.label, LdsRole.labels(),
                        "sender (ingress sketch), receiver (egress sketch) or both (ingress -> egress of this switch)"),
                ParamSpec.integer("rows", LdsConfig.DEFAULT_ROWS, 1, LdsConfig.MAX_ROWS, "R: rows (one stateful ALU per array)"),
                ParamSpec.integer("cells", LdsConfig.DEFAULT_CELLS, 1, 1 << 20, "C: cells per row (s_lo, s_hi, n/d pair); a power of two on tofino1 (the cell is a mask of hash bits)"),
                ParamSpec.integer("k", LdsConfig.DEFAULT_LDA_CELLS, 1, LdsConfig.MAX_LDA_CELLS, "virtual LDA length"),
                ParamSpec.string("sampling", "1", "per-row sampling rates, one value for all rows or R comma-separated"
                        + " (multi-bank: 0.01,0.1,0.5,1)"),
                ParamSpec.string("weights", NO_WEIGHTS, "flow weights: none, or bronze/silver/gold powers of two like 1/16/128"
                        + " (applied as shifts: a stage has no multiplier)"),
                ParamSpec.integer("interval_shift", LdsIntervals.DEFAULT_SHIFT, LdsIntervals.MIN_SHIFT, LdsIntervals.MAX_SHIFT,
                        "measurement interval 2^N ns (bank = interval id bit, id carried in a shim header)"),
                ParamSpec.integer("port", DEFAULT_PORT, 0, 447, "first egress port (0: the network's routing forwards)"),
                ParamSpec.integer("paths", DEFAULT_PATHS, 1, 64, "ECMP-like spread over ports port..port+paths-1 by flow hash (a power of two on tofino1)"),
                ParamSpec.string("priority", String.valueOf(DEFAULT_PRIORITY_SHARE),
                        "share of flows (by flow hash) in the strict-priority queue 1"),
                ParamSpec.integer("top", DEFAULT_REPORT_TOP, 1, 100_000, "flows the replay summary lists (control plane only)"));
    }

    @Override
    public StageProgram build(ProgramParams p) {
        LdsParams x = LdsParams.from(p);
        return x.pipeline().program.withConfig(x);
    }

    public static LdsPipeline pipeline(ProgramParams p) {
        return LdsParams.from(p).pipeline();
    }

    static double parseShare(String s) {
        try {
            double v = Double.parseDouble(s.trim());
            if (v >= 0 && v <= 1) {
                return v;
            }
        } catch (NumberFormatException e) {
            // fall through
        }
        throw new UserError("lds: priority share must be a number in [0, 1], got '" + s + "'");
    }

    public static double[] parseSampling(String spec, int rows) {
        String[] parts = spec.split(",");
        if (parts.length != 1 && parts.length != rows) {
            throw new UserError("lds: sampling needs 1 or " + rows + " rates, got '" + spec + "'");
        }
        double[] out = new double[rows];
        for (int r = 0; r < rows; r++) {
            String v = parts[parts.length == 1 ? 0 : r].trim();
            try {
                out[r] = Double.parseDouble(v);
            } catch (NumberFormatException e) {
                throw new UserError("lds: sampling rate '" + v + "' is not a number");
            }
        }
        return out;
    }

    public static LdsWeights parseWeights(String spec) {
        if (spec.equals(NO_WEIGHTS)) {
            return LdsWeights.NONE;
        }
        String[] parts = spec.split("/");
        if (parts.length != LdsWeights.CLASS_NAMES.length) {
            throw new UserError("lds: weights must be none or three values bronze/silver/gold, got '" + spec + "'");
        }
        long[] w = new long[parts.length];
        for (int i = 0; i < parts.length; i++) {
            try {
                w[i] = Long.parseLong(parts[i].trim());
            } catch (NumberFormatException e) {
                throw new UserError("lds: weight '" + parts[i] + "' is not an integer");
            }
        }
        return LdsWeights.bronzeSilverGold(w[0], w[1], w[2]);
    }

    static String samplingSpec(LdsConfig cfg) {
        StringBuilder sb = new StringBuilder();
        for (int r = 0; r < cfg.rows(); r++) {
            sb.append(r == 0 ? "" : ",").append(String.format(Locale.ROOT, "%s", cfg.samplingRate(r)));
        }
        return sb.toString();
    }
}
