package dev.rmtemu.programs.lds.program;

import dev.rmtemu.model.program.ProgramParams;
import dev.rmtemu.model.program.StageProgram;

/**
 * {@code lds}'s parameters, typed once from the validated {@link ProgramParams} when the
 * program is built and carried by it ({@link StageProgram#config()}): the sketch, the role,
 * the output ports and priority share, the measurement interval, and how many flows the
 * replay summary lists.
 */
public record LdsParams(LdsConfig config, LdsRole role, int port, int paths, double priorityShare, LdsIntervals intervals,
                        int top) {
    public static LdsParams from(ProgramParams p) {
        int rows = p.intValue("rows");
        LdsConfig cfg = new LdsConfig(rows, p.intValue("cells"), p.intValue("k"),
                LdsProgram.parseSampling(p.string("sampling"), rows), LdsConfig.DEFAULT_ALPHA,
                LdsProgram.parseWeights(p.string("weights")));
        return new LdsParams(cfg, LdsRole.byLabel(p.string("role")), p.intValue("port"), p.intValue("paths"),
                LdsProgram.parseShare(p.string("priority")), new LdsIntervals(p.intValue("interval_shift")), p.intValue("top"));
    }

    /** The parameters {@code p} (built by {@link LdsProgram}) was built with. */
    public static LdsParams of(StageProgram p) {
        if (p.config() instanceof LdsParams x) {
            return x;
        }
        throw new IllegalStateException("program " + p.name() + " was not built by the lds factory");
    }

    /** The pipeline these parameters build, with its field handles (same declaration order as the program a switch runs). */
    public LdsPipeline pipeline() {
        return new LdsPipeline(config, role, port, paths, priorityShare, intervals);
    }
}
