package dev.rmtemu.model.check;

import dev.rmtemu.model.phv.Gress;
import dev.rmtemu.model.phv.Field;
import java.util.Set;
import java.util.TreeSet;

/**
 * Resources one gress uses in one stage, counted as the Tofino compiler lays a stage
 * out (see {@link TableUsage} for the per-table sizes). Stateful ALUs one per register
 * array; logical tables one per match table and one per register array (each register
 * is run by a table of its own, since a table has one stateful-address user).
 *
 * @param sramBlocks         all SRAMs: data, spare, action data and ternary indirection
 * @param mapRams            map RAMs: one per register, counter and meter RAM (data and spare)
 * @param tindRams           ternary indirection RAMs (left-side columns only)
 * @param ternaryTables      ternary and LPM tables
 * @param gateways           gateway conditions (from {@link StageLogic})
 * @param actionDataBusBytes action data bus bytes: tables' immediate and action-RAM data plus {@link StageLogic}'s
 * @param instructions       VLIW instructions (from {@link StageLogic})
 * @param exactXbarBytes     exact-match crossbar bytes: distinct exact-key and hash-input fields
 * @param ternaryXbarBytes   ternary crossbar bytes: distinct ternary/LPM key fields
 * @param statsAlus          statistics ALUs: one per counter
 */
public record StageUsage(
        int stage,
        Gress gress,
        long sramBlocks,
        long tcamBlocks,
        int statefulAlus,
        int hashBits,
        int hashUnits,
        int logicalTables,
        int latencyCycles,
        long mapRams,
        long tindRams,
        int ternaryTables,
        int gateways,
        int actionDataBusBytes,
        int instructions,
        int exactXbarBytes,
        int ternaryXbarBytes,
        int statsAlus) {

    /** An empty row. */
    static StageUsage empty(int stage, Gress gress, StageLogic logic) {
        int gatewayXbar = 0;
        Set<String> fields = new TreeSet<>();
        if (logic != null) {
            for (Field f : logic.gatewayFields()) {
                gatewayXbar += fields.add(f.name()) ? MemoryLayout.fieldBytes(f) : 0;
            }
        }
        return new StageUsage(stage, gress, 0, 0, 0, logic == null ? 0 : logic.gatewayHashBits(), 0, 0, 0, 0, 0, 0,
                logic == null ? 0 : logic.gateways(), logic == null ? 0 : logic.actionDataBusBytes(),
                logic == null ? 0 : logic.instructions(), gatewayXbar, 0, 0);
    }
}
