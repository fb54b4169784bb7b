package dev.rmtemu.model.p4.preprocess;

import dev.rmtemu.model.UserError;

import java.nio.file.Path;
import java.util.List;

/**
 * What the command line gives the preprocessor: {@code -I} directories (searched in order
 * after the including file's own directory for {@code "…"}, before rmtemu's built-in
 * library), {@code -D NAME[=VALUE]} definitions, and the Tofino generation that
 * {@code __TARGET_TOFINO__} names.
 */
public record PreprocessorOptions(List<Path> includeDirs, List<String> defines, int targetTofino) {
    /** {@code __TARGET_TOFINO__} on a Tofino 2 profile; 1 on every other target. */
    public static final int TOFINO2 = 2;
    public static final int TOFINO1 = 1;
    /** The built-in profile that is a Tofino 2. */
    public static final String TOFINO2_PROFILE = "tofino2";

    public PreprocessorOptions {
        includeDirs = List.copyOf(includeDirs);
        defines = List.copyOf(defines);
        for (String d : defines) {
            String name = d.contains("=") ? d.substring(0, d.indexOf('=')) : d;
            if (!name.matches("[A-Za-z_][A-Za-z0-9_]*")) {
                throw new UserError("-D " + d + ": '" + name + "' is not a macro name (want NAME or NAME=VALUE)");
            }
        }
    }

    /** No -I, no -D, Tofino 1. */
    public static PreprocessorOptions defaults() {
        return new PreprocessorOptions(List.of(), List.of(), TOFINO1);
    }

    /** The generation a target profile's name stands for. */
    public static int tofinoGeneration(String profileName) {
        return TOFINO2_PROFILE.equals(profileName) ? TOFINO2 : TOFINO1;
    }
}
