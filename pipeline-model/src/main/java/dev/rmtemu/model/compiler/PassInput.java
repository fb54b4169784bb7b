package dev.rmtemu.model.compiler;

import dev.rmtemu.model.program.StageProgram;
import dev.rmtemu.model.target.TargetProfile;

/** What every pass reads: the program and the target it is compiled for. */
public record PassInput(StageProgram program, TargetProfile target) {
}
