package dev.rmtemu.emulator.cli;

import picocli.CommandLine.Option;

/**
 * {@code --target}, declared once for every command that compiles for a target profile (a picocli
 * mixin); each command words its help in its resource bundle (key {@value #TARGET_KEY}).
 */
public final class TargetOption {
    /** Resource-bundle key of {@code --target}'s description in each command's bundle. */
    static final String TARGET_KEY = "target";

    @Option(names = {"-t", "--target"}, defaultValue = "tofino1", paramLabel = "PROFILE", descriptionKey = TARGET_KEY)
    String target;
}
