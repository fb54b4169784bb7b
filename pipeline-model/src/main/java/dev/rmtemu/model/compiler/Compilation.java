package dev.rmtemu.model.compiler;

import dev.rmtemu.model.UserError;
import dev.rmtemu.model.check.ResourceReport;
import dev.rmtemu.model.program.StageProgram;
import dev.rmtemu.model.target.TargetProfile;

import java.util.List;

/**
 * The outcome of compiling a program for a target: the passes that ran, in
 * order, every rule the program breaks, what it does that its author probably
 * did not mean (warnings; they do not refuse it), the resource placement, where
 * each table went and which metadata fields share PHV containers.
 */
public record Compilation(StageProgram program, TargetProfile target, List<CompilerPass> passes,
                          List<Refusal> refusals, List<Refusal> warnings, ResourceReport resources,
                          List<TablePlacement> placements, List<PhvLiveness.Overlay> overlays) {

    /** Exit code of a program the target refuses. */
    public static final int EXIT_REFUSED = 3;

    public Compilation {
        passes = List.copyOf(passes);
        refusals = List.copyOf(refusals);
        warnings = List.copyOf(warnings);
        placements = List.copyOf(placements);
        overlays = List.copyOf(overlays);
    }

    public boolean accepted() {
        return refusals.isEmpty();
    }

    /** One line per broken rule. */
    public List<String> lines() {
        return refusals.stream().map(Refusal::line).toList();
    }

    /** One line per warning, in pass order (the same shape as a refusal line). */
    public List<String> warningLines() {
        return warnings.stream().map(Refusal::line).toList();
    }

    /** Throws the refusal (exit 3, one line per broken rule) unless the program was accepted. */
    public Compilation requireAccepted() {
        if (!accepted()) {
            throw new UserError("program " + program.name() + " refused by " + target.name() + ":\n  "
                    + String.join("\n  ", lines()), EXIT_REFUSED, null);
        }
        return this;
    }
}
