package dev.rmtemu.model.table;

import dev.rmtemu.model.phv.Field;

import java.util.Set;

/**
 * An algorithmic TCAM table: a ternary or LPM table the Tofino lays out in SRAM, matched one
 * partition at a time. It matches packets as the plain table would; only its resources differ.
 * <ul>
 * <li>{@link Kind#ATCAM} (P4 {@code @atcam_partition_index}, {@code @atcam_number_partitions}):
 *     a ternary table whose key holds an exact partition-index field; the entries are spread
 *     over {@code partitions} partitions (bf-p4c {@code mau/table_layout.cpp}
 *     {@code TableLayout::check_for_atcam}, {@code DoTableLayout::check_atcam_parameters}).</li>
 * <li>{@link Kind#ALPM} (TNA {@code implementation = Alpm(number_partitions, subtrees_per_partition)}):
 *     an LPM table split into a pre-classifier TCAM of {@code partitions x subtreesPerPartition}
 *     entries that finds the partition, and an ATCAM of the table's size keyed by the prefix and
 *     the partition index (bf-p4c {@code midend/alpm.cpp} {@code SplitAlpm::postorder},
 *     {@code create_preclassifier_table}, {@code create_atcam_table}).</li>
 * </ul>
 *
 * @param kind                 ATCAM or ALPM
 * @param partitions           partitions of the ATCAM
 * @param subtreesPerPartition ALPM only: pre-classifier entries per partition (1 for an ATCAM)
 * @param partitionIndex       ATCAM only: the exact key field that selects the partition (null for ALPM)
 */
public record AlgorithmicTcam(Kind kind, int partitions, int subtreesPerPartition, Field partitionIndex) {
    /** The two shapes. */
    public enum Kind { ATCAM, ALPM }

    /** The partition counts Alpm accepts (midend/alpm.cpp SplitAlpm::valid_partition_values). */
    public static final Set<Integer> ALPM_PARTITIONS = Set.of(1024, 2048, 4096, 8192);
    /** Alpm's defaults when the program names none (SplitAlpm::postorder). */
    public static final int ALPM_DEFAULT_PARTITIONS = 1024;
    public static final int ALPM_DEFAULT_SUBTREES = 2;
    /** The most subtrees a partition may have (SplitAlpm::values_through_pragmas: "in the range [1:10]"). */
    public static final int ALPM_MAX_SUBTREES = 10;

    public AlgorithmicTcam {
        if (kind == Kind.ALPM) {
            if (!ALPM_PARTITIONS.contains(partitions)) {
                throw new IllegalArgumentException("Alpm number_partitions " + partitions + ": allowed values are 1024, 2048, 4096"
                        + " and 8192");
            }
            if (subtreesPerPartition < 1 || subtreesPerPartition > ALPM_MAX_SUBTREES) {
                throw new IllegalArgumentException("Alpm subtrees_per_partition " + subtreesPerPartition + " outside 1.."
                        + ALPM_MAX_SUBTREES);
            }
            if (partitionIndex != null) {
                throw new IllegalArgumentException("an Alpm table's partition index is its pre-classifier's result, not a key field");
            }
        } else {
            if (partitionIndex == null) {
                throw new IllegalArgumentException("an ATCAM table needs its partition-index key field");
            }
            if (partitions < 1 || partitionIndex.width() < Integer.SIZE - 1 && partitions > 1 << partitionIndex.width()) {
                throw new IllegalArgumentException("ATCAM of " + partitions + " partitions: its partition index "
                        + partitionIndex.name() + " of " + partitionIndex.width() + " bits gives at most "
                        + (1L << Math.min(partitionIndex.width(), 62)));
            }
            if (subtreesPerPartition != 1) {
                throw new IllegalArgumentException("subtrees per partition are an Alpm's, not an ATCAM's");
            }
        }
    }

    /** TNA's {@code Alpm(number_partitions, subtrees_per_partition)}. */
    public static AlgorithmicTcam alpm(int partitions, int subtreesPerPartition) {
        return new AlgorithmicTcam(Kind.ALPM, partitions, subtreesPerPartition, null);
    }

    /** An ATCAM partitioned by {@code partitionIndex} into {@code partitions} partitions. */
    public static AlgorithmicTcam atcam(Field partitionIndex, int partitions) {
        return new AlgorithmicTcam(Kind.ATCAM, partitions, 1, partitionIndex);
    }

    /** An ATCAM with as many partitions as its partition index can name (check_atcam_parameters' default). */
    public static AlgorithmicTcam atcam(Field partitionIndex) {
        return atcam(partitionIndex, 1 << partitionIndex.width());
    }

    /** ALPM: bits of the partition index the pre-classifier writes (ceil_log2(partitions)). */
    public int partitionIndexBits() {
        return Integer.SIZE - Integer.numberOfLeadingZeros(partitions - 1);
    }

    /** ALPM: entries of the pre-classifier TCAM (partitions x subtrees per partition). */
    public int preClassifierEntries() {
        return partitions * subtreesPerPartition;
    }
}
