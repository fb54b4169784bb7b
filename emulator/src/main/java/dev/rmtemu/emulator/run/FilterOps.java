package dev.rmtemu.emulator.run;

import dev.rmtemu.model.UserError;
import dev.rmtemu.model.extern.LpfCells;
import dev.rmtemu.model.extern.LpfType;
import dev.rmtemu.model.extern.Meter;
import dev.rmtemu.model.extern.WredCells;

import java.math.BigDecimal;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The control script's LPF and WRED specs, one cell a line, each field named as bf-runtime names
 * the table's data fields (lower case here; {@code LPF_SPEC_TYPE} and {@code $LPF_SPEC_TYPE} are
 * taken too), in any order, every field once:
 * <pre>
 * lpf_set_params NAME INDEX lpf_spec_type=SAMPLE|RATE lpf_spec_gain_time_constant_ns=NS
 *     lpf_spec_decay_time_constant_ns=NS lpf_spec_out_scale_down_factor=N
 * wred_set_params NAME INDEX wred_spec_time_constant_ns=NS wred_spec_min_thresh_cells=N
 *     wred_spec_max_thresh_cells=N wred_spec_max_probability=P
 * </pre>
 * Time constants and the probability may be decimal. A direct LPF or WRED's INDEX is its table
 * entry's handle, or the table's size for the miss entry's cell, as for a direct meter.
 */
final class FilterOps {
    static final List<String> LPF_FIELDS = List.of("lpf_spec_type", "lpf_spec_gain_time_constant_ns",
            "lpf_spec_decay_time_constant_ns", "lpf_spec_out_scale_down_factor");
    static final List<String> WRED_FIELDS = List.of("wred_spec_time_constant_ns", "wred_spec_min_thresh_cells",
            "wred_spec_max_thresh_cells", "wred_spec_max_probability");

    private FilterOps() {
    }

    /** {@code lpf_set_params LPF INDEX FIELD=VALUE x 4}. */
    static ControlCommand.Effect lpfSetParams(SwitchControl sw, List<String> args) {
        String usage = "lpf_set_params LPF INDEX " + String.join("=... ", LPF_FIELDS) + "=...";
        Meter m = filter(sw, args, usage, Meter.Algorithm.LPF);
        int index = index(args.get(1), m);
        Map<String, String> f = fields(args, LPF_FIELDS);
        LpfType type;
        try {
            type = LpfType.valueOf(f.get("lpf_spec_type").toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new UserError("lpf_spec_type is SAMPLE or RATE, got '" + f.get("lpf_spec_type") + "'");
        }
        double gain = decimal(f, "lpf_spec_gain_time_constant_ns");
        double decay = decimal(f, "lpf_spec_decay_time_constant_ns");
        int scale = ControlScript.intNumber(f.get("lpf_spec_out_scale_down_factor"), "lpf_spec_out_scale_down_factor");
        LpfCells.checkParams(m, index, gain, decay, scale);
        return s -> s.setLpfParams(m.name(), index, type, gain, decay, scale);
    }

    /** {@code wred_set_params WRED INDEX FIELD=VALUE x 4}. */
    static ControlCommand.Effect wredSetParams(SwitchControl sw, List<String> args) {
        String usage = "wred_set_params WRED INDEX " + String.join("=... ", WRED_FIELDS) + "=...";
        Meter m = filter(sw, args, usage, Meter.Algorithm.WRED);
        int index = index(args.get(1), m);
        Map<String, String> f = fields(args, WRED_FIELDS);
        double tau = decimal(f, "wred_spec_time_constant_ns");
        long min = ControlScript.number(f.get("wred_spec_min_thresh_cells"));
        long max = ControlScript.number(f.get("wred_spec_max_thresh_cells"));
        double p = decimal(f, "wred_spec_max_probability");
        WredCells.checkParams(m, index, tau, min, max, p);
        return s -> s.setWredParams(m.name(), index, tau, min, max, p);
    }

    private static Meter filter(SwitchControl sw, List<String> args, String usage, Meter.Algorithm algorithm) {
        if (args.size() != 6) {
            throw new UserError((args.size() < 6 ? "missing arguments" : "too many arguments") + ": " + usage);
        }
        Meter m = sw.program().meter(args.get(0));
        if (m.algorithm() != algorithm) {
            throw new UserError(m.kind() + " " + m.name() + " is no " + (algorithm == Meter.Algorithm.LPF ? "lpf" : "wred"));
        }
        return m;
    }

    private static int index(String w, Meter m) {
        int i = ControlScript.intNumber(w, "an index");
        if (i >= m.cells()) {
            throw new UserError(m.kind() + " " + m.name() + ": index " + i + " outside 0.." + (m.cells() - 1));
        }
        return i;
    }

    /** The FIELD=VALUE words after the name and index, each of {@code known} exactly once. */
    private static Map<String, String> fields(List<String> args, List<String> known) {
        Map<String, String> out = new TreeMap<>();
        for (String w : args.subList(2, args.size())) {
            int eq = w.indexOf('=');
            if (eq < 0) {
                throw new UserError("'" + w + "' is not FIELD=VALUE");
            }
            String name = w.substring(0, eq).toLowerCase(Locale.ROOT);
            name = name.startsWith("$") ? name.substring(1) : name;
            if (!known.contains(name)) {
                throw new UserError("unknown field '" + w.substring(0, eq) + "'" + ProgramNames.closest(name, known));
            }
            if (out.put(name, w.substring(eq + 1)) != null) {
                throw new UserError("field " + name + " given twice");
            }
        }
        for (String k : known) {
            if (!out.containsKey(k)) {
                throw new UserError("field " + k + " missing");
            }
        }
        return out;
    }

    private static double decimal(Map<String, String> f, String field) {
        try {
            return new BigDecimal(f.get(field)).doubleValue();
        } catch (NumberFormatException e) {
            throw new UserError(field + " '" + f.get(field) + "' is not a number");
        }
    }
}
