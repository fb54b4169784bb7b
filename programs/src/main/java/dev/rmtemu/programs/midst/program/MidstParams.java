package dev.rmtemu.programs.midst.program;

import dev.rmtemu.model.program.ProgramParams;
import dev.rmtemu.model.program.StageProgram;

/**
 * {@code midst}'s parameters, typed once from the validated {@link ProgramParams} when the
 * program is built and carried by it ({@link StageProgram#config()}): the sketches'
 * configuration, the replay's queue-depth probe period (0: none) and how many flows its
 * report lists.
 */
public record MidstParams(MidstConfig config, long probeNs, int top) {
    public static MidstParams from(ProgramParams p) {
        return new MidstParams(MidstProgram.config(p), p.longValue("probe_ns"), p.intValue("top"));
    }

    /** The parameters {@code p} (built by {@link MidstProgram}) was built with. */
    public static MidstParams of(StageProgram p) {
        if (p.config() instanceof MidstParams x) {
            return x;
        }
        throw new IllegalStateException("program " + p.name() + " was not built by the midst factory");
    }
}
