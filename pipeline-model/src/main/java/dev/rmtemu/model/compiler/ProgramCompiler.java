package dev.rmtemu.model.compiler;

import dev.rmtemu.model.program.StageProgram;
import dev.rmtemu.model.target.TargetProfile;

import java.util.List;

/**
 * The compiler front: runs the passes in a fixed order over a program before
 * any packet, collecting every broken rule (not only the first), in the style
 * of p4c's mid-end.
 */
public final class ProgramCompiler {
    private ProgramCompiler() {
    }

    /** The passes in the order they run (fresh instances: the resource pass keeps its report). */
    public static List<CompilerPass> passes() {
        return List.of(new WidthsAndTypesPass(), new StageDependencyPass(), new RegisterAccessPass(),
                new TargetOperatorsPass(), new VliwInstructionsPass(), new GatewayConditionsPass(), new StageResourcesPass());
    }

    /**
     * Compiles {@code program} for {@code target}; a program whose gresses are controls is
     * placed first ({@link TablePlacer}: refused with exit 3 when it cannot be), and the
     * compilation's program is the placed one.
     */
    public static Compilation compile(StageProgram unplaced, TargetProfile target) {
        StageProgram program = TablePlacer.placeIfNeeded(unplaced, target);
        List<CompilerPass> passes = passes();
        Refusals out = new Refusals(program.name());
        PassInput in = new PassInput(program, target);
        StageResourcesPass resources = null;
        for (CompilerPass p : passes) {
            out.enter(p.name());
            p.run(in, out);
            if (p instanceof StageResourcesPass r) {
                resources = r;
            }
        }
        return new Compilation(program, target, passes, out.list(), out.warnings(), resources.report(), TablePlacement.of(program),
                PhvLiveness.overlays(program));
    }
}
