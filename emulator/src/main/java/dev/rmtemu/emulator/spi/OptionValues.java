package dev.rmtemu.emulator.spi;

import dev.rmtemu.model.UserError;

import java.util.Map;
import java.util.TreeMap;

/**
 * Reading an experiment's {@code --opt key=value} options, with the same one-line
 * errors everywhere ({@code experiment NAME: option KEY must be ..., got 'VALUE'}).
 * Lists are comma-separated.
 */
public final class OptionValues {
    private OptionValues() {
    }

    /** The defaults overridden by the given options (sorted); an unknown key is an error listing the known ones. */
    public static Map<String, String> withDefaults(String experiment, Map<String, String> defaults, Map<String, String> given) {
        Map<String, String> o = new TreeMap<>(defaults);
        for (Map.Entry<String, String> e : new TreeMap<>(given).entrySet()) {
            if (!defaults.containsKey(e.getKey())) {
                throw new UserError("experiment " + experiment + ": unknown option '" + e.getKey() + "' (known: "
                        + String.join(", ", new TreeMap<>(defaults).keySet()) + ")");
            }
            o.put(e.getKey(), e.getValue());
        }
        return o;
    }

    public static int integer(String experiment, Map<String, String> o, String key) {
        try {
            return Integer.parseInt(value(experiment, o, key).trim());
        } catch (NumberFormatException e) {
            throw bad(experiment, o, key, "must be an integer");
        }
    }

    public static long longValue(String experiment, Map<String, String> o, String key) {
        try {
            return Long.parseLong(value(experiment, o, key).trim());
        } catch (NumberFormatException e) {
            throw bad(experiment, o, key, "must be an integer");
        }
    }

    public static double number(String experiment, Map<String, String> o, String key) {
        try {
            return Double.parseDouble(value(experiment, o, key).trim());
        } catch (NumberFormatException e) {
            throw bad(experiment, o, key, "must be a number");
        }
    }

    /** A number above zero. */
    public static double positive(String experiment, Map<String, String> o, String key) {
        double v = number(experiment, o, key);
        if (!(v > 0)) {
            throw bad(experiment, o, key, "must be positive");
        }
        return v;
    }

    /** A list of integers; with {@code positive}, each above zero. */
    public static int[] ints(String experiment, Map<String, String> o, String key, boolean positive) {
        long[] l = longs(experiment, o, key, positive);
        int[] v = new int[l.length];
        for (int i = 0; i < l.length; i++) {
            if (l[i] != (int) l[i]) {
                throw bad(experiment, o, key, "values must fit an int");
            }
            v[i] = (int) l[i];
        }
        return v;
    }

    /** A list of integers; with {@code positive}, each above zero. */
    public static long[] longs(String experiment, Map<String, String> o, String key, boolean positive) {
        String[] parts = value(experiment, o, key).split(",");
        long[] v = new long[parts.length];
        for (int i = 0; i < parts.length; i++) {
            try {
                v[i] = Long.parseLong(parts[i].trim());
            } catch (NumberFormatException e) {
                throw bad(experiment, o, key, "must be a list of integers");
            }
            if (positive && v[i] <= 0) {
                throw bad(experiment, o, key, "values must be positive");
            }
        }
        return v;
    }

    /** A list of numbers; with {@code positive}, each above zero. */
    public static double[] numbers(String experiment, Map<String, String> o, String key, boolean positive) {
        String[] parts = value(experiment, o, key).split(",");
        double[] v = new double[parts.length];
        for (int i = 0; i < parts.length; i++) {
            try {
                v[i] = Double.parseDouble(parts[i].trim());
            } catch (NumberFormatException e) {
                throw bad(experiment, o, key, "must be a list of numbers");
            }
            if (positive && !(v[i] > 0)) {
                throw bad(experiment, o, key, "values must be positive");
            }
        }
        return v;
    }

    private static String value(String experiment, Map<String, String> o, String key) {
        String v = o.get(key);
        if (v == null) {
            throw new UserError("experiment " + experiment + ": option " + key + " has no value");
        }
        return v;
    }

    private static UserError bad(String experiment, Map<String, String> o, String key, String what) {
        return new UserError("experiment " + experiment + ": option " + key + " " + what + ", got '" + o.get(key) + "'");
    }
}
