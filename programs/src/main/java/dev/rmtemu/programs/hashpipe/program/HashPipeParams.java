package dev.rmtemu.programs.hashpipe.program;

import dev.rmtemu.model.program.ProgramParams;
import dev.rmtemu.model.program.StageProgram;

/**
 * {@code hashpipe}'s parameters, typed once from the validated {@link ProgramParams} when the
 * program is built and carried by it ({@link StageProgram#config()}): the data plane's
 * configuration, the egress port, and how many flows the replay summary lists.
 */
public record HashPipeParams(HashPipeConfig config, long port, int top) {
    public static HashPipeParams from(ProgramParams p) {
        return new HashPipeParams(HashPipeConfig.from(p), p.longValue("port"), p.intValue("top"));
    }

    /** The parameters {@code p} (built by {@link HashPipeProgram}) was built with. */
    public static HashPipeParams of(StageProgram p) {
        if (p.config() instanceof HashPipeParams x) {
            return x;
        }
        throw new IllegalStateException("program " + p.name() + " was not built by the hashpipe factory");
    }
}
