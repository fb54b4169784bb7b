package dev.rmtemu.model.check;

import dev.rmtemu.model.phv.Field;
import dev.rmtemu.model.phv.Gress;

import java.util.List;

/**
 * What one stage of one gress needs that a {@link dev.rmtemu.model.program.StageProgram}
 * cannot show: its gateway conditions, its VLIW instructions, the action data bus
 * bytes its actions read besides the action data of its match tables (which the checker
 * counts from the tables), and what each stateful ALU reads. The compiler's IR passes
 * supply these; the static checker's plain {@code check} passes none.
 *
 * @param gress              the gress
 * @param stage              the stage number (from 0)
 * @param gateways           gateway conditions placed in the stage (shared by both gresses)
 * @param instructions       distinct VLIW instructions (action bodies) the stage runs, without the no-op
 * @param actionDataBusBytes action data bus bytes used besides the tables' own action data
 * @param aluInputs          per register array of this stage, what its stateful ALU reads (may be empty)
 * @param gatewayFields      fields the stage's gateways match, which sit on the exact-match input crossbar
 *                           (bf-p4c mau/tofino/input_xbar.cpp IXBar::allocGateway); a field already there is shared
 * @param gatewayHashBits    hash bits the stage's gateways take for range compares (and equality bytes past the
 *                           gateway's PHV bytes), bf-p4c mau/gateway.cpp CollectGatewayFields::compute_offsets
 */
public record StageLogic(Gress gress, int stage, int gateways, int instructions, int actionDataBusBytes,
                         List<AluInputs> aluInputs, List<Field> gatewayFields, int gatewayHashBits) {

    /**
     * The inputs of one register array's stateful ALU: PHV words (the input crossbar's
     * lo/hi words) and hash bits (from a hash group).
     */
    public record AluInputs(String register, int phvSources, int hashBits) {
        public AluInputs {
            if (register == null || phvSources < 0 || hashBits < 0) {
                throw new IllegalArgumentException("stateful ALU inputs need a register name and counts >= 0");
            }
        }
    }

    public StageLogic {
        if (gress == null) {
            throw new IllegalArgumentException("stage logic needs a gress");
        }
        if (stage < 0 || gateways < 0 || instructions < 0 || actionDataBusBytes < 0 || gatewayHashBits < 0) {
            throw new IllegalArgumentException("stage logic of " + gress.label() + " stage " + stage
                    + ": stage, gateways, instructions and action data bus bytes must be >= 0");
        }
        aluInputs = List.copyOf(aluInputs);
        gatewayFields = List.copyOf(gatewayFields);
    }

    /** Stage logic whose gateways' inputs are not known (counted as gateways only). */
    public StageLogic(Gress gress, int stage, int gateways, int instructions, int actionDataBusBytes,
                      List<AluInputs> aluInputs) {
        this(gress, stage, gateways, instructions, actionDataBusBytes, aluInputs, List.of(), 0);
    }

    /** Stage logic without stateful-ALU inputs. */
    public StageLogic(Gress gress, int stage, int gateways, int instructions, int actionDataBusBytes) {
        this(gress, stage, gateways, instructions, actionDataBusBytes, List.of(), List.of(), 0);
    }
}
