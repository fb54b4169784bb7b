package dev.rmtemu.programs.lossradar.program;

import dev.rmtemu.model.program.ProgramParams;
import dev.rmtemu.model.program.StageProgram;

/**
 * A LossRadar program's parameters ({@code lossradar}, {@code lossradar-um}, {@code lossradar-dm}),
 * typed once from the validated {@link ProgramParams} when the program is built and carried by
 * it ({@link StageProgram#config()}): the meters' configuration, the ACL size and whether the
 * upstream meter routes by table.
 */
public record LossRadarParams(LossRadarConfig config, int aclEntries, boolean route) {
    public static LossRadarParams from(ProgramParams p) {
        return new LossRadarParams(LossRadarConfig.from(p), p.intValue("acl"), p.intValue("route") != 0);
    }

    /** The parameters {@code p} (built by {@link LossRadarProgram}) was built with. */
    public static LossRadarParams of(StageProgram p) {
        if (p.config() instanceof LossRadarParams x) {
            return x;
        }
        throw new IllegalStateException("program " + p.name() + " was not built by a lossradar factory");
    }
}
