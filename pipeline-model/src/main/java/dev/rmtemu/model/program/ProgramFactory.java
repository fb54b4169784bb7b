package dev.rmtemu.model.program;

import java.util.List;

/**
 * Builds a named stage program from parameters. Implementations are found with
 * {@link java.util.ServiceLoader} (META-INF/services), so modules that add
 * programs (examples here, the algorithms in {@code programs}) register
 * themselves and the CLI lists whatever is on the class path.
 */
public interface ProgramFactory {
    String name();

    String description();

    List<ParamSpec> params();

    StageProgram build(ProgramParams params);
}
