package dev.rmtemu.model.check;

import dev.rmtemu.model.phv.Gress;

/**
 * What one stage of one gress needs that a {@link dev.rmtemu.model.program.StageProgram}
 * cannot show: its gateway conditions, its VLIW instructions, and the action data bus
 * bytes its actions read besides the action data of its match tables (which the checker
 * counts from the tables). The compiler's IR passes supply these; the static checker's
 * plain {@code check} passes none.
 *
 * @param gress              the gress
 * @param stage              the stage number (from 0)
 * @param gateways           gateway conditions placed in the stage (shared by both gresses)
 * @param instructions       distinct VLIW instructions (action bodies) the stage runs, without the no-op
 * @param actionDataBusBytes action data bus bytes used besides the tables' own action data
 */
public record StageLogic(Gress gress, int stage, int gateways, int instructions, int actionDataBusBytes) {
    public StageLogic {
        if (gress == null) {
            throw new IllegalArgumentException("stage logic needs a gress");
        }
        if (stage < 0 || gateways < 0 || instructions < 0 || actionDataBusBytes < 0) {
            throw new IllegalArgumentException("stage logic of " + gress.label() + " stage " + stage
                    + ": stage, gateways, instructions and action data bus bytes must be >= 0");
        }
    }
}
