package dev.rmtemu.emulator.cli;

import dev.rmtemu.emulator.spi.ProgramPlugins;
import dev.rmtemu.model.p4.preprocess.PreprocessorOptions;
import dev.rmtemu.model.program.ProgramRegistry;
import dev.rmtemu.model.target.TargetProfiles;

import picocli.CommandLine.IModelTransformer;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;

import java.nio.file.Path;
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

    @Option(names = "-I", paramLabel = "DIR", description = "For a --program FILE.p4: directory to search for #include files; "
            + "repeat for several.")
    List<Path> includeDirs = new ArrayList<>();

    @Option(names = "-D", paramLabel = "NAME[=VALUE]", description = "For a --program FILE.p4: define a macro (value 1 when none "
            + "is given); repeat for several.")
    List<String> defines = new ArrayList<>();

    /** The programs, a {@code FILE.p4} preprocessed with {@code -I}, {@code -D} and the target's {@code __TARGET_TOFINO__}. */
    ProgramRegistry registry(String target) {
        String profile = TargetProfiles.load(target).name();
        return ProgramPlugins.registry(new PreprocessorOptions(includeDirs, defines, PreprocessorOptions.tofinoGeneration(profile)));
    }

    /** {@code -I} and {@code -D} for a {@code FILE.p4} program ({@code __TARGET_TOFINO__} follows the replay's target). */
    PreprocessorOptions p4Options() {
        return new PreprocessorOptions(includeDirs, defines, PreprocessorOptions.TOFINO1);
    }

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
