package dev.rmtemu.model.check;

import dev.rmtemu.model.phv.Gress;

/**
 * How the checker sized one match table or register array, and which rule set the size.
 *
 * @param stage          stage number
 * @param gress          gress
 * @param name           table or register array name
 * @param kind           "register", "exact", "ternary", "lpm" or "range"
 * @param dataRams       SRAMs holding entries or register cells
 * @param spareRams      extra SRAMs the layout needs (a register's spare RAM)
 * @param actionRams     SRAMs of action data too wide to sit in the entry
 * @param tindRams       ternary indirection SRAMs (left side only)
 * @param tcams          TCAM blocks (width x depth)
 * @param ways           hash ways of an exact-match table (0 otherwise)
 * @param entryBits      bits of one stored entry (exact: key - ghost + version + overhead + immediate;
 *                       register: cell bits; ternary: TCAM nibbles x 4)
 * @param entriesPerWord entries per 128-bit RAM word (0 for TCAM-only entries)
 * @param sizedBy        the rule that set the size, with its numbers
 */
public record TableUsage(
        int stage,
        Gress gress,
        String name,
        String kind,
        long dataRams,
        long spareRams,
        long actionRams,
        long tindRams,
        long tcams,
        int ways,
        int entryBits,
        int entriesPerWord,
        String sizedBy) {

    /** All SRAMs this table or register takes. */
    public long srams() {
        return dataRams + spareRams + actionRams + tindRams;
    }
}
