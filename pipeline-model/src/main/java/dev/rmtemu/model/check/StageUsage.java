package dev.rmtemu.model.check;

import dev.rmtemu.model.phv.Gress;

/**
 * Resources one gress uses in one stage. Blocks are counted per the target's
 * geometry; stateful ALUs one per register array; logical tables one per match
 * table and one per register array (a stateful ALU is driven by a table).
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
        int latencyCycles) {
}
