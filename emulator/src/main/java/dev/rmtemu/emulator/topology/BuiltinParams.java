package dev.rmtemu.emulator.topology;

import dev.rmtemu.model.UserError;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/** The {@code k=v&...} part of a built-in spec: typed access, and errors for unknown or malformed keys. */
final class BuiltinParams {
    private final String spec;
    private final TreeMap<String, String> values = new TreeMap<>();

    BuiltinParams(String spec, String query) {
        this.spec = spec;
        if (query == null || query.isEmpty()) {
            return;
        }
        for (String part : query.split("&", -1)) {
            int eq = part.indexOf('=');
            if (eq <= 0) {
                throw error("bad parameter '" + part + "' (expected key=value)");
            }
            String k = part.substring(0, eq);
            if (values.put(k, part.substring(eq + 1)) != null) {
                throw error("parameter '" + k + "' given twice");
            }
        }
    }

    UserError error(String message) {
        return new UserError(spec + ": " + message);
    }

    /** Rejects keys outside {@code allowed}. */
    void allowOnly(Set<String> allowed) {
        for (String k : values.keySet()) {
            if (!allowed.contains(k)) {
                throw error("unknown parameter '" + k + "' (allowed: " + String.join(", ", new TreeSet<>(allowed)) + ")");
            }
        }
    }

    String string(String key, String dflt) {
        String v = values.get(key);
        return v == null ? dflt : v;
    }

    int integer(String key, int dflt, int min, int max) {
        String v = values.get(key);
        if (v == null) {
            return dflt;
        }
        int x;
        try {
            x = Integer.parseInt(v);
        } catch (NumberFormatException e) {
            throw error("bad number '" + v + "' for '" + key + "'");
        }
        if (x < min || x > max) {
            throw error(key + "=" + x + " not in " + min + ".." + max);
        }
        return x;
    }

    long longValue(String key, long dflt) {
        String v = values.get(key);
        if (v == null) {
            return dflt;
        }
        try {
            long x = Long.parseLong(v);
            if (x < 0) {
                throw error(key + "=" + x + " is negative");
            }
            return x;
        } catch (NumberFormatException e) {
            throw error("bad number '" + v + "' for '" + key + "'");
        }
    }

    double positive(String key, double dflt) {
        String v = values.get(key);
        if (v == null) {
            return dflt;
        }
        double x;
        try {
            x = Double.parseDouble(v);
        } catch (NumberFormatException e) {
            throw error("bad number '" + v + "' for '" + key + "'");
        }
        if (!(x > 0) || Double.isInfinite(x)) {
            throw error(key + "=" + v + " must be a positive number");
        }
        return x;
    }

    /** A comma-separated list, each item checked against {@code allowed}; null if absent. */
    List<String> list(String key, Set<String> allowed) {
        String v = values.get(key);
        if (v == null) {
            return null;
        }
        List<String> out = new ArrayList<>();
        for (String item : v.split(",", -1)) {
            if (!allowed.contains(item)) {
                throw error("bad value '" + item + "' in " + key + " (allowed: "
                        + String.join(", ", new TreeSet<>(allowed)) + ")");
            }
            if (!out.contains(item)) {
                out.add(item);
            }
        }
        return out;
    }
}
