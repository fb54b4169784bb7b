package dev.rmtemu.model.target;

import com.fasterxml.jackson.databind.JsonNode;
import dev.rmtemu.model.UserError;

/**
 * The per-stage budgets the Tofino back end of p4c ({@code backends/tofino/bf-p4c/})
 * applies when it lays out a stage, as data. Every count may be
 * {@link TargetProfile#UNLIMITED}; a profile without a {@code "mau"} object gets
 * {@link #UNCONSTRAINED}. Where each number comes from is in the README's
 * accounting section.
 *
 * @param sramRows                  rows of the SRAM array (mau/tofino/memories.h: 8)
 * @param sramLeftColumns           left-side columns: exact match, action data and ternary indirection (4)
 * @param sramRightColumns          right-side columns, the only ones a stateful ALU reaches (6)
 * @param mapRams                   map RAMs per stage, one per right-side RAM; every register RAM takes one (48)
 * @param registerSpareRams         RAMs a register takes besides its data RAMs (the synth-2-port spare, 1)
 * @param registerMaxRows           physical rows one register may span from its ALU's home row (6)
 * @param registerSplitAcrossStages whether one register array may be split over stages (false on Tofino 1)
 * @param registerActionsPerRegister register actions one register array may have (4)
 * @param saluPhvSources            PHV words one stateful ALU may read (2)
 * @param saluHashBits              hash bits one stateful ALU may read instead (52)
 * @param exactVersionBits          version/valid bits in every exact-match entry (4)
 * @param exactGhostBits            key bits an exact-match entry need not store, implied by the hash row select (10)
 * @param immediateMaxBits          action data an entry may hold inline; wider goes to action RAMs (32)
 * @param exactMinWays              hash ways an exact-match table has at least (4)
 * @param exactMaxEntriesPerWord    entries packed into one 128-bit RAM word at most (5)
 * @param exactMaxPackEntries       entries one exact-match row may hold across its RAMs wide (Device::sramMaxPackEntries: 9)
 * @param exactOverheadBitsPerRam   overhead (immediate data, pointers) one RAM of a row may carry (TableFormat::OVERHEAD_BITS: 64)
 * @param tcamMaxWide               TCAMs one ternary entry may span (12)
 * @param ternaryVersionBits        version bits of a ternary entry, a nibble (4)
 * @param ternaryTablesPerStage     ternary tables (and their indirection tables) per stage (8)
 * @param tindMinEntryBits          narrowest ternary-indirection entry (8)
 * @param exactXbarBytes            exact-match input crossbar bytes: exact keys and hash inputs (128)
 * @param ternaryXbarBytes          ternary input crossbar bytes (66)
 * @param gatewaysPerStage          gateway conditions per stage (16)
 * @param gatewayPhvBytes           PHV bytes one gateway matches from the exact-match crossbar (specs/device.cpp GatewaySpec PhvBytes: 4)
 * @param gatewayHashBits           hash bits one gateway matches, for range compares and spilled bytes (GatewaySpec HashBits: 12)
 * @param actionDataBusBytes        action data bus bytes per stage (128)
 * @param instructionRows           VLIW instruction memory rows per gress (32)
 * @param instructionColours        colours per instruction row (2)
 * @param instructionReserved       instruction slots reserved (row 0 colour 0 is the no-op: 1)
 * @param statsAlus                 statistics ALUs per stage, one per counter (mau/tofino/memories.h STATS_ALUS: 4);
 *                                  meters share the stateful ALUs ({@link TargetProfile#statefulAlusPerStage()},
 *                                  METER_ALUS: 4) with register arrays
 * @param rangeMaxNibbles           PHV nibbles one range key may span (mau/resource_estimate.cpp RangeEntries::preorder
 *                                  refuses more than Tofino::IXBar::TERNARY_BYTES_PER_GROUP: 5); optional, unlimited
 * @param rangeMaxLinesPerEntry     TCAM lines one range entry takes at most, 2 x nibbles - 1 capped by the multirange
 *                                  distributor (RangeEntries::MULTIRANGE_DISTRIBUTION_LIMIT: 8); optional, 1 (no expansion)
 * @param rangeEntryPercent         share of a range table's entries sized as needing the most lines, the rest one line
 *                                  each (RangeEntries::RANGE_ENTRY_PERCENTAGE: 25); optional, 0
 * @param atcamPartitionRamsPerRow  RAMs of partition depth one ATCAM logical table holds; a deeper ATCAM takes more
 *                                  logical tables (mau/memories.h Memories::MAX_PARTITION_RAMS_PER_ROW: 5, used by
 *                                  resource_estimate.cpp StageUseEstimate::calculate_partition_sizes); optional, unlimited
 * @param idleSweepIntervalNs       how often the idle-time sweep looks at the entries' idle bits: p4c's finest
 *                                  {@code idletime_interval} (pragmas.cpp PragmaIdletimeInterval, value 0: 6.5 ms; the
 *                                  driver programs it from the notify mode's query interval); optional, 6,500,000
 * @param saluRegisterFileRows      rows of one stateful ALU's register file, each a RegisterParam of the register's
 *                                  actions (bf-p4c extract_maupipe.cpp InitializeRegisterParams gives every param a
 *                                  row of salu->regfile; Tofino 1 and 2: 4 rows of 32 b); optional, unlimited
 */
public record MauResources(
        int sramRows,
        int sramLeftColumns,
        int sramRightColumns,
        int mapRams,
        int registerSpareRams,
        int registerMaxRows,
        boolean registerSplitAcrossStages,
        int registerActionsPerRegister,
        int saluPhvSources,
        int saluHashBits,
        int exactVersionBits,
        int exactGhostBits,
        int immediateMaxBits,
        int exactMinWays,
        int exactMaxEntriesPerWord,
        int exactMaxPackEntries,
        int exactOverheadBitsPerRam,
        int tcamMaxWide,
        int ternaryVersionBits,
        int ternaryTablesPerStage,
        int tindMinEntryBits,
        int exactXbarBytes,
        int ternaryXbarBytes,
        int gatewaysPerStage,
        int gatewayPhvBytes,
        int gatewayHashBits,
        int actionDataBusBytes,
        int instructionRows,
        int instructionColours,
        int instructionReserved,
        int statsAlus,
        int rangeMaxNibbles,
        int rangeMaxLinesPerEntry,
        int rangeEntryPercent,
        int atcamPartitionRamsPerRow,
        int idleSweepIntervalNs,
        int saluRegisterFileRows) {

    private static final int U = TargetProfile.UNLIMITED;

    /** No Tofino layout rules at all (also what a profile without a "mau" object gets). */
    public static final MauResources UNCONSTRAINED = new MauResources(U, U, U, U, 0, U, true, U, U, U, 0, 0, U, 1, U, U, U, U,
            0, U, 1, U, U, U, U, U, U, U, U, 0, U, U, 1, 0, U, MauResources.DEFAULT_IDLE_SWEEP_NS, U);

    /** The idle-time sweep interval a profile that names none gets: p4c's idletime_interval 0, 6.5 ms. */
    public static final int DEFAULT_IDLE_SWEEP_NS = 6_500_000;

    /** RAMs on the left side of the array (ternary indirection lives only here), or UNLIMITED. */
    public int leftSideRams() {
        return product(sramRows, sramLeftColumns);
    }

    /** RAMs on the right side (the only ones register arrays may use), or UNLIMITED. */
    public int rightSideRams() {
        return product(sramRows, sramRightColumns);
    }

    /** RAMs one register may span: its rows below the ALU's home row times the right-side columns, or UNLIMITED. */
    public int registerMaxRams() {
        return product(registerMaxRows, sramRightColumns);
    }

    /** Instruction slots a gress has in one stage, less the reserved no-op, or UNLIMITED. */
    public int instructionSlots() {
        int all = product(instructionRows, instructionColours);
        return all == U ? U : all - instructionReserved;
    }

    private static int product(int a, int b) {
        return a == U || b == U ? U : a * b;
    }

    /** Reads the {@code "mau"} object of a profile; errors name {@code source} and the field. */
    static MauResources parse(JsonNode mau, String source) {
        if (mau == null || mau.isNull()) {
            return UNCONSTRAINED;
        }
        if (!mau.isObject()) {
            throw new UserError(source + ": field 'mau' must be an object");
        }
        JsonNode split = mau.get("registerSplitAcrossStages");
        if (split == null || !split.isBoolean()) {
            throw new UserError(source + ": mau: field 'registerSplitAcrossStages' must be true or false");
        }
        MauResources m = new MauResources(
                count(mau, "sramRows", source), count(mau, "sramLeftColumns", source),
                count(mau, "sramRightColumns", source), count(mau, "mapRams", source),
                count(mau, "registerSpareRams", source), count(mau, "registerMaxRows", source),
                split.asBoolean(), count(mau, "registerActionsPerRegister", source),
                count(mau, "saluPhvSources", source), count(mau, "saluHashBits", source),
                count(mau, "exactVersionBits", source), count(mau, "exactGhostBits", source),
                count(mau, "immediateMaxBits", source), count(mau, "exactMinWays", source),
                count(mau, "exactMaxEntriesPerWord", source), count(mau, "exactMaxPackEntries", source),
                count(mau, "exactOverheadBitsPerRam", source), count(mau, "tcamMaxWide", source),
                count(mau, "ternaryVersionBits", source), count(mau, "ternaryTablesPerStage", source),
                count(mau, "tindMinEntryBits", source), count(mau, "exactXbarBytes", source),
                count(mau, "ternaryXbarBytes", source), count(mau, "gatewaysPerStage", source),
                count(mau, "gatewayPhvBytes", source), count(mau, "gatewayHashBits", source),
                count(mau, "actionDataBusBytes", source), count(mau, "instructionRows", source),
                count(mau, "instructionColours", source), count(mau, "instructionReserved", source),
                count(mau, "statsAlus", source),
                optional(mau, "rangeMaxNibbles", U, source), optional(mau, "rangeMaxLinesPerEntry", 1, source),
                optional(mau, "rangeEntryPercent", 0, source),
                optional(mau, "atcamPartitionRamsPerRow", U, source),
                optional(mau, "idleSweepIntervalNs", DEFAULT_IDLE_SWEEP_NS, source),
                optional(mau, "saluRegisterFileRows", U, source));
        if (m.atcamPartitionRamsPerRow == 0 || m.idleSweepIntervalNs == 0 || m.idleSweepIntervalNs == U) {
            throw new UserError(source + ": mau: atcamPartitionRamsPerRow and idleSweepIntervalNs must be positive (and the sweep"
                    + " interval a number)");
        }
        if (m.rangeMaxLinesPerEntry == 0 || (m.rangeEntryPercent != U && m.rangeEntryPercent > 100)) {
            throw new UserError(source + ": mau: rangeMaxLinesPerEntry must be positive and rangeEntryPercent 0..100");
        }
        if (m.exactMinWays == 0 || m.exactMaxEntriesPerWord == 0 || m.exactMaxPackEntries == 0 || m.exactOverheadBitsPerRam == 0
                || m.tindMinEntryBits == 0) {
            throw new UserError(source + ": mau: exactMinWays, exactMaxEntriesPerWord, exactMaxPackEntries, exactOverheadBitsPerRam "
                    + "and tindMinEntryBits must be positive");
        }
        if (m.instructionReserved > 0 && m.instructionSlots() < 0) {
            throw new UserError(source + ": mau: instructionReserved exceeds instructionRows x instructionColours");
        }
        return m;
    }

    /** A field profiles written before it existed may leave out: {@code absent} then. */
    private static int optional(JsonNode obj, String name, int absent, String source) {
        return obj.has(name) ? count(obj, name, source) : absent;
    }

    /** A non-negative int or "unlimited". */
    private static int count(JsonNode obj, String name, String source) {
        JsonNode n = obj.get(name);
        if (n == null || n.isNull()) {
            throw new UserError(source + ": mau: missing field '" + name + "'");
        }
        if (n.isTextual() && n.asText().equals("unlimited")) {
            return U;
        }
        if (!n.isIntegralNumber() || !n.canConvertToInt() || n.asInt() < 0) {
            throw new UserError(source + ": mau: field '" + name + "' must be a non-negative integer or \"unlimited\", got " + n);
        }
        return n.asInt();
    }
}
