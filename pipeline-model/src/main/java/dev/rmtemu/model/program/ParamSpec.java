package dev.rmtemu.model.program;

import java.util.List;

/**
 * One parameter a program accepts: name, default, meaning, and either a numeric
 * range or a list of choices. Defaults are where a paper's or target's default
 * values live as named data.
 */
public record ParamSpec(String name, String defaultValue, String description, Type type,
                        long min, long max, List<String> choices) {
    public enum Type { INT, STRING, CHOICE }

    public ParamSpec {
        choices = List.copyOf(choices);
    }

    public static ParamSpec integer(String name, long defaultValue, long min, long max, String description) {
        return new ParamSpec(name, Long.toString(defaultValue), description, Type.INT, min, max, List.of());
    }

    public static ParamSpec choice(String name, String defaultValue, List<String> choices, String description) {
        return new ParamSpec(name, defaultValue, description, Type.CHOICE, 0, 0, choices);
    }

    public static ParamSpec string(String name, String defaultValue, String description) {
        return new ParamSpec(name, defaultValue, description, Type.STRING, 0, 0, List.of());
    }

    /** One line for --help listings. */
    public String describe() {
        String range = switch (type) {
            case INT -> " [" + min + ".." + max + "]";
            case CHOICE -> " " + choices;
            case STRING -> "";
        };
        return name + "=" + defaultValue + range + "  " + description;
    }
}
