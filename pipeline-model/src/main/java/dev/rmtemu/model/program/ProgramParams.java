package dev.rmtemu.model.program;

import dev.rmtemu.model.UserError;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Parameter values for one program, validated against its {@link ParamSpec}s:
 * an unknown key or a bad value is a one-line {@link UserError} naming it and
 * what is accepted.
 */
public final class ProgramParams {
    private final String program;
    private final Map<String, ParamSpec> specs = new TreeMap<>();
    private final Map<String, String> values = new TreeMap<>();

    public ProgramParams(String program, List<ParamSpec> specs, Map<String, String> given) {
        this.program = program;
        for (ParamSpec s : specs) {
            this.specs.put(s.name(), s);
            values.put(s.name(), s.defaultValue());
        }
        for (Map.Entry<String, String> e : given.entrySet()) {
            ParamSpec s = this.specs.get(e.getKey());
            if (s == null) {
                throw new UserError("program " + program + " has no parameter '" + e.getKey() + "' (parameters: "
                        + (this.specs.isEmpty() ? "none" : String.join(", ", this.specs.keySet())) + ")");
            }
            validate(s, e.getValue());
            values.put(e.getKey(), e.getValue());
        }
    }

    /** Parses "key=value" strings as given on a command line. */
    public static Map<String, String> parseAssignments(List<String> assignments) {
        Map<String, String> out = new TreeMap<>();
        for (String a : assignments) {
            int eq = a.indexOf('=');
            if (eq <= 0) {
                throw new UserError("parameter '" + a + "' is not of the form key=value");
            }
            out.put(a.substring(0, eq).trim(), a.substring(eq + 1).trim());
        }
        return out;
    }

    private void validate(ParamSpec s, String v) {
        switch (s.type()) {
            case INT -> {
                long x = parseLong(s, v);
                if (x < s.min() || x > s.max()) {
                    throw new UserError("program " + program + ": parameter " + s.name() + "=" + v + " outside "
                            + s.min() + ".." + s.max());
                }
            }
            case CHOICE -> {
                if (!s.choices().contains(v)) {
                    throw new UserError("program " + program + ": parameter " + s.name() + "=" + v + " is not one of " + s.choices());
                }
            }
            case STRING -> {
            }
        }
    }

    private long parseLong(ParamSpec s, String v) {
        try {
            return Long.decode(v.replace("_", ""));
        } catch (NumberFormatException e) {
            throw new UserError("program " + program + ": parameter " + s.name() + "=" + v + " is not an integer");
        }
    }

    public int intValue(String name) {
        return Math.toIntExact(longValue(name));
    }

    public long longValue(String name) {
        return parseLong(spec(name), values.get(name));
    }

    public String string(String name) {
        spec(name);
        return values.get(name);
    }

    private ParamSpec spec(String name) {
        ParamSpec s = specs.get(name);
        if (s == null) {
            throw new IllegalArgumentException("program " + program + " reads undeclared parameter " + name);
        }
        return s;
    }

    /** All values, defaults included, sorted by name. */
    public Map<String, String> values() {
        return new TreeMap<>(values);
    }
}
