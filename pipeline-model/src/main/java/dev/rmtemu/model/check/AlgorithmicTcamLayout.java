package dev.rmtemu.model.check;

import dev.rmtemu.model.phv.Field;
import dev.rmtemu.model.table.AlgorithmicTcam;
import dev.rmtemu.model.table.MatchKind;
import dev.rmtemu.model.table.MatchTable;
import dev.rmtemu.model.table.TableActions;
import dev.rmtemu.model.table.TableOptions;
import dev.rmtemu.model.target.MauResources;
import dev.rmtemu.model.target.MemoryGeometry;
import dev.rmtemu.model.target.TargetProfile;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Sizes an ALPM or ATCAM table ({@link AlgorithmicTcam}) as the Tofino back end of p4c does.
 *
 * <p>ATCAM (bf-p4c {@code mau/table_layout.cpp} {@code DoTableLayout::determine_byte_impacts},
 * {@code LayoutChoices::setup_exact_match}; {@code mau/resource_estimate.cpp}
 * {@code StageUseEstimate::options_to_atcam_entries}, {@code calculate_partition_sizes}): the
 * entries sit in SRAM, each ternary or prefix key bit stored twice (the s0q1/s1q0 encoding that
 * gives a don't-care), the partition index not at all (it is the RAM row); the version bits
 * and the overhead as in an exact entry, and no ghost bits. A row packs P = 1 .. 5 entries
 * (one payload bus: the row's overhead within one RAM's 64 bits) over W RAMs, W as for an exact
 * table. A partition holds ceil(size / partitions) entries; RAMs deep = ceil(that / P), and a
 * partition needs ceil(partitions / RAM depth) ways: RAMs = deep x W x ways, the fewest winning
 * (ties as exact tables break them). The table takes ceil(deep / 5) logical tables
 * ({@code Memories::MAX_PARTITION_RAMS_PER_ROW}; one per RAM of depth beyond 4096 partitions).
 *
 * <p>ALPM (bf-p4c {@code midend/alpm.cpp} {@code SplitAlpm::postorder}): a pre-classifier
 * TCAM of partitions x subtrees entries over the table's key, whose one action writes the
 * ceil_log2(partitions)-bit partition index from immediate data, then an ATCAM of the table's
 * size keyed by the prefix (twice) and that index (free). rmtemu charges both to the table's
 * stage; the hardware places the pre-classifier a stage earlier (its result is the ATCAM's key).
 */
final class AlgorithmicTcamLayout {
    private static final int BITS_PER_BYTE = 8;
    /** Ternary and prefix key bits an ATCAM entry stores twice (determine_byte_impacts' match_multiplier 2). */
    private static final int TERNARY_COPIES = 2;
    /** Partition counts above which every RAM of depth is its own logical table (calculate_partition_sizes). */
    private static final int ONE_LOGICAL_TABLE_PER_RAM_ABOVE = 4096;

    private AlgorithmicTcamLayout() {
    }

    /** The table's rows: the ATCAM (an ALPM's pre-classifier first), and its extra logical tables. */
    record Sized(List<TableUsage> rows, TableUsage atcam, MatchTable preClassifier, int logicalTables, String refusal) {
    }

    static Sized size(MatchTable m, TargetProfile t) {
        AlgorithmicTcam a = m.options().algorithmic();
        List<TableUsage> rows = new ArrayList<>();
        MatchTable pre = null;
        if (a.kind() == AlgorithmicTcam.Kind.ALPM) {
            pre = new MatchTable(m.id(), m.name() + "__alpm_preclassifier", MatchKind.LPM, m.key(), a.preClassifierEntries(),
                    a.partitionIndexBits(), m.gress(), m.stage(), List.of(), TableActions.NONE, TableOptions.NONE, m.fieldKinds());
            TableUsage p = MemoryLayout.table(pre, t);
            rows.add(new TableUsage(p.stage(), p.gress(), p.name(), "alpm_preclassifier", p.dataRams(), p.spareRams(),
                    p.actionRams(), p.tindRams(), p.tcams(), p.ways(), p.entryBits(), p.entriesPerWord(),
                    String.format(Locale.ROOT, "%d partitions x %d subtrees = %d entries, %d-bit partition index; %s",
                            a.partitions(), a.subtreesPerPartition(), a.preClassifierEntries(), a.partitionIndexBits(),
                            p.sizedBy())));
        }
        Layout best = best(m, a, t);
        if (best == null) {
            return new Sized(rows, null, pre, 0, String.format(Locale.ROOT,
                    "%s table '%s': an entry of %d bits (%d match bytes) fits no ATCAM row: one payload bus of %d overhead bits,"
                            + " at most %d entries a row and %d RAMs wide", kindName(a), m.name(), entryBits(m, a, t, true),
                    matchBytes(m, a), t.mau().exactOverheadBitsPerRam(), t.mau().exactMaxEntriesPerWord(), t.mau().sramRows()));
        }
        TableUsage atcam = best.usage(m, a, t);
        rows.add(atcam);
        int logical = logicalTables(best.depth, a, t.mau()) + (pre == null ? 0 : 1);
        return new Sized(rows, atcam, pre, logical, null);
    }

    /** Entries the ATCAM's layout holds: RAMs deep x ways x entries a row x RAM depth (options_to_atcam_entries). */
    static long capacity(MatchTable m, TargetProfile t) {
        Layout best = best(m, m.options().algorithmic(), t);
        return best == null ? m.size() : best.depth * best.ways * best.pack * t.sram().depth();
    }

    private static int logicalTables(long depth, AlgorithmicTcam a, MauResources mau) {
        if (a.partitions() > ONE_LOGICAL_TABLE_PER_RAM_ABOVE) {
            return (int) depth;
        }
        int perRow = mau.atcamPartitionRamsPerRow();
        return perRow == TargetProfile.UNLIMITED ? 1 : (int) ResourceChecker.ceilDiv(depth, perRow);
    }

    private static String kindName(AlgorithmicTcam a) {
        return a.kind() == AlgorithmicTcam.Kind.ALPM ? "ALPM" : "ATCAM";
    }

    /** Bits of key one entry stores: the ternary or prefix fields twice, the partition index not at all. */
    static int matchBits(MatchTable m, AlgorithmicTcam a) {
        int bits = 0;
        for (Field f : m.key()) {
            bits += f == a.partitionIndex() ? 0 : TERNARY_COPIES * f.width();
        }
        return bits;
    }

    /** Crossbar bytes of the stored key, each field in whole bytes, ternary and prefix fields twice. */
    static int matchBytes(MatchTable m, AlgorithmicTcam a) {
        int bytes = 0;
        for (Field f : m.key()) {
            bytes += f == a.partitionIndex() ? 0 : TERNARY_COPIES * MemoryLayout.fieldBytes(f);
        }
        return bytes;
    }

    private static int entryBits(MatchTable m, AlgorithmicTcam a, TargetProfile t, boolean immediate) {
        return matchBits(m, a) + t.mau().exactVersionBits() + t.exactEntryOverheadBits() + (immediate ? m.actionDataBits() : 0);
    }

    private static Layout best(MatchTable m, AlgorithmicTcam a, TargetProfile t) {
        MauResources mau = t.mau();
        MemoryGeometry sram = t.sram();
        int data = m.actionDataBits();
        boolean[] formats = data == 0 ? new boolean[] {true}
                : MemoryLayout.fitsImmediate(data, mau) ? new boolean[] {true, false} : new boolean[] {false};
        long perPartition = ResourceChecker.ceilDiv(m.size(), a.partitions());
        int ways = (int) ResourceChecker.ceilDiv(a.partitions(), sram.depth());
        Layout best = null;
        for (boolean immediate : formats) {
            int entry = entryBits(m, a, t, immediate);
            int overhead = t.exactEntryOverheadBits() + (immediate ? data : 0);
            int maxPack = mau.exactMaxEntriesPerWord() == TargetProfile.UNLIMITED
                    ? Math.max(1, sram.widthBits() / Math.max(1, entry)) : mau.exactMaxEntriesPerWord();
            for (int pack = 1; pack <= maxPack; pack++) {
                // setup_exact_match: an ATCAM has one payload bus, its priority ranking is on one bus
                if (mau.exactOverheadBitsPerRam() != TargetProfile.UNLIMITED
                        && ResourceChecker.ceilDiv((long) pack * overhead, mau.exactOverheadBitsPerRam()) > 1) {
                    break;
                }
                long width = ResourceChecker.ceilDiv((long) pack * entry, sram.widthBits());
                width = Math.max(width, ResourceChecker.ceilDiv((long) pack * matchBytes(m, a), sram.widthBits() / BITS_PER_BYTE));
                if (mau.exactMaxEntriesPerWord() != TargetProfile.UNLIMITED) {
                    width = Math.max(width, ResourceChecker.ceilDiv(pack, mau.exactMaxEntriesPerWord()));
                }
                width = Math.max(1, width);
                if (mau.sramRows() != TargetProfile.UNLIMITED && width > mau.sramRows()) {
                    break;
                }
                long narrower = width > pack ? width % pack : pack % width;
                if (narrower == 0 && Math.min(width, pack) != 1) {
                    continue; // the same packing as a narrower row
                }
                long depth = ResourceChecker.ceilDiv(perPartition, pack);
                long capacity = depth * ways * pack * sram.depth();
                long action = immediate ? 0 : MemoryLayout.actionRams(m, capacity, sram);
                Layout l = new Layout(immediate, entry, pack, (int) width, depth, ways, action, capacity, perPartition);
                if (best == null || l.betterThan(best)) {
                    best = l;
                }
            }
        }
        return best;
    }

    /** One ATCAM layout option. */
    private record Layout(boolean immediate, int entryBits, int pack, int width, long depth, int ways, long actionRams,
                          long capacity, long perPartition) implements SramLayoutChoice {
        @Override
        public long rams() {
            return depth * width * ways + actionRams;
        }

        TableUsage usage(MatchTable m, AlgorithmicTcam a, TargetProfile t) {
            String rule = String.format(Locale.ROOT,
                    "%s: %d partitions, ceil(%d / %d) = %d entries a partition, %d per %d-RAM row (%d b entries, key bits"
                            + " twice): %d RAMs deep x %d wide x %d way%s",
                    kindName(a), a.partitions(), m.size(), a.partitions(), perPartition, pack, width, entryBits, depth, width,
                    ways, ways == 1 ? "" : "s");
            if (actionRams > 0) {
                rule += String.format(Locale.ROOT, ", action data %d b in %d action RAMs", m.actionDataBits(), actionRams);
            }
            String kind = a.kind() == AlgorithmicTcam.Kind.ALPM ? "alpm" : "atcam";
            return new TableUsage(m.stage(), m.gress(), m.name(), kind, depth * width * ways, 0, actionRams, 0, 0, ways, entryBits,
                    width == 1 ? pack : 0, rule);
        }
    }
}
