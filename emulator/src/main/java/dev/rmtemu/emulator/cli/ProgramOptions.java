package dev.rmtemu.emulator.cli;

import picocli.CommandLine.IModelTransformer;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;

import java.util.ArrayList;
import java.util.List;

/**
 * {@code --program} and {@code --param}, declared once for every command that builds a stage
 * program (a picocli mixin). Each command words {@code --program}'s help for its job in its
 * resource bundle (key {@value #PROGRAM_KEY}); {@link Required} makes the option mandatory where
 * nothing else names the program.
 */
public final class ProgramOptions {
    /** Resource-bundle key of {@code --program}'s description in each command's bundle. */
    static final String PROGRAM_KEY = "program";

    @Option(names = {"-p", "--program"}, paramLabel = "NAME", descriptionKey = PROGRAM_KEY)
    String program;

    @Option(names = "--param", paramLabel = "KEY=VALUE", description = "Program parameter; repeat for several.")
    List<String> params = new ArrayList<>();

    /** Makes {@code --program} required in the command it transforms ({@code replay} can take it from a topology). */
    public static final class Required implements IModelTransformer {
        @Override
        public CommandSpec transform(CommandSpec spec) {
            OptionSpec program = spec.findOption("--program");
            spec.remove(program);
            spec.addOption(program.toBuilder().required(true).build());
            return spec;
        }
    }
}
