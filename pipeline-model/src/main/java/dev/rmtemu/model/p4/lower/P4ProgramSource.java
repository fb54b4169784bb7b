package dev.rmtemu.model.p4.lower;

import dev.rmtemu.model.p4.preprocess.PreprocessorOptions;
import dev.rmtemu.model.program.ParamSpec;
import dev.rmtemu.model.program.ProgramFactory;
import dev.rmtemu.model.program.ProgramParams;
import dev.rmtemu.model.program.ProgramSource;
import dev.rmtemu.model.program.StageProgram;

import java.nio.file.Path;
import java.util.List;

/**
 * {@code FILE.p4} wherever a program is named: the file lowered with the preprocessor
 * options given ({@code -I}, {@code -D}, the target's {@code __TARGET_TOFINO__}). The program
 * is named as its file without {@code .p4}, takes no {@code --param}, and names no stages
 * (the compiler places it). TNA's {@code Random} externs are seeded from {@code randomSeed},
 * the run's seed.
 */
public record P4ProgramSource(PreprocessorOptions options, long randomSeed) implements ProgramSource {
    /** Random externs seeded from {@link P4Programs#DEFAULT_RANDOM_SEED}. */
    public P4ProgramSource(PreprocessorOptions options) {
        this(options, P4Programs.DEFAULT_RANDOM_SEED);
    }

    @Override
    public boolean accepts(String spec) {
        return spec.endsWith(".p4");
    }

    @Override
    public ProgramFactory load(String spec) {
        Path file = Path.of(spec);
        String name = P4Programs.nameOf(file.getFileName().toString());
        return new ProgramFactory() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public String description() {
                return "P4_16 TNA program " + spec;
            }

            @Override
            public List<ParamSpec> params() {
                return List.of();
            }

            @Override
            public StageProgram build(ProgramParams p) {
                return P4Programs.file(file, options, randomSeed).require();
            }
        };
    }
}
