package dev.rmtemu.emulator.metrics;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.PackedHistogram;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.function.LongUnaryOperator;

/**
 * An auto-resizing HdrHistogram ({@value #SIGNIFICANT_DIGITS} significant digits): every
 * value is recorded as it is, however large (a 10^-9 Gb/s port queues for years), so no
 * percentile is ever above the exact maximum. The range given at construction is only what
 * is allocated up front; recording allocates nothing until a value beyond it first widens
 * the histogram (once per doubling of the range).
 * Its counts are a {@link PackedHistogram}: the same buckets and the same output as a plain
 * one, in memory that grows with the distinct values recorded rather than the range (a
 * network has thousands of histograms, most holding a few values).
 *
 * <p>A histogram made with a cycles-to-value conversion also takes values in cycles
 * ({@link #recordCycles}): a cycle count below its pending bound is only counted, exactly,
 * in an array indexed by cycles (grown by doubling up to the bound as larger counts come,
 * so a queue that only sees 0 keeps a tiny one); everything else is converted and recorded at once. The
 * pending counts are folded in, each as {@code recordValueWithCount(convert(c), n)}, before
 * any read, so every read sees exactly the histogram that recording each value directly
 * would have built (HdrHistogram's state does not depend on recording order). This moves
 * the conversion (a division) and the bucket arithmetic off the per-packet path.
 *
 * <p>Values recorded directly (and cycle counts beyond the pending bound) go first into a plain,
 * unpacked {@link Histogram} of the same precision once a histogram has taken
 * {@value #STAGE_AFTER} of them (a packed histogram's record is several times the cost of a plain
 * one's; the plain one's counts array, 64–200 KB, is only worth it for a busy histogram, and a
 * network has thousands that take a few values); it is added into the packed histogram and
 * emptied before any read. Adding puts every count in the bucket recording the value would have,
 * so what is read is the same to the byte.
 */
public final class LatencyHistogram {
    /** Precision of every rmtemu histogram: 3 significant digits (0.1 % resolution). */
    public static final int SIGNIFICANT_DIGITS = 3;

    /**
     * Scaling of .hgrm output: values are written in the recorded unit (ns), unscaled.
     */
    public static final double HGRM_VALUE_UNIT_RATIO = 1.0;

    /** Percentile ticks per half distance in .hgrm output (HdrHistogram's customary 5). */
    public static final int HGRM_TICKS_PER_HALF_DISTANCE = 5;

    private final String name;
    private final Histogram histogram;
    /** Values recorded since the last read, not yet added to {@link #histogram}; null until {@link #STAGE_AFTER} values came. */
    private Histogram unpacked;
    /** Values recorded straight into the packed histogram while {@link #unpacked} is null. */
    private long packedRecords;
    /** Values a histogram records into its packed counts before it stages them in a plain histogram. */
    static final int STAGE_AFTER = 1 << 12;
    /** Exact largest value recorded; the histogram only knows its bucket. */
    private long max;
    /** Conversion of {@link #recordCycles} values; null: the histogram takes values only. */
    private final LongUnaryOperator cyclesToValue;
    /** Not yet recorded cycle counts: pendingCounts[c] values of c cycles; grows up to {@link #pendingBound}. */
    private long[] pendingCounts;
    /** Cycle counts below this are pending; 0 without a conversion. */
    private final int pendingBound;
    /** Lowest and highest index that may be non-zero (lo > hi: nothing pending), so a fold scans only that range. */
    private int pendingLo;
    private int pendingHi;

    /** A histogram whose initial allocation covers 1..{@code initialHighestValue}. */
    public LatencyHistogram(String name, long initialHighestValue) {
        this(name, initialHighestValue, null, 0);
    }

    /**
     * A histogram that also takes values in cycles, converted by {@code cyclesToValue}
     * (non-decreasing is not required); cycle counts below {@code pendingCycles} are counted
     * in a {@code long[pendingCycles]} and folded in before any read.
     */
    public LatencyHistogram(String name, long initialHighestValue, LongUnaryOperator cyclesToValue,
                             int pendingCycles) {
        if (initialHighestValue < 2) {
            throw new IllegalArgumentException("histogram " + name + ": initial highest value must be at least 2, got "
                    + initialHighestValue);
        }
        this.name = name;
        this.histogram = new PackedHistogram(1, initialHighestValue, SIGNIFICANT_DIGITS);
        this.histogram.setAutoResize(true);
        if (pendingCycles < 0 || (pendingCycles > 0 && cyclesToValue == null)) {
            throw new IllegalArgumentException("histogram " + name + ": pending bound " + pendingCycles
                    + " needs a non-negative bound and a cycles conversion");
        }
        this.cyclesToValue = cyclesToValue;
        this.pendingBound = pendingCycles;
        this.pendingCounts = new long[0];
        this.pendingLo = Integer.MAX_VALUE;
        this.pendingHi = -1;
    }

    /** Smallest pending array a histogram starts with once it takes a value in cycles. */
    static final int INITIAL_PENDING = 64;

    /** Room for pending count {@code c} (below the bound): the next power of two, at most the bound. */
    private void growPending(int c) {
        int n = Math.max(INITIAL_PENDING, Integer.highestOneBit(c) << 1);
        pendingCounts = Arrays.copyOf(pendingCounts, Math.min(n, pendingBound));
    }

    /**
     * Records one value given in cycles: counted now if below the pending bound, otherwise
     * converted and recorded as {@link #record} does.
     *
     * @throws IllegalStateException if the histogram has no cycles conversion
     */
    public void recordCycles(long cycles) {
        long[] pc = pendingCounts;
        if (cycles >= pc.length && cycles < pendingBound) {
            growPending((int) cycles);
            pc = pendingCounts;
        }
        if (cycles >= 0 && cycles < pc.length) {
            int c = (int) cycles;
            pc[c]++;
            if (c < pendingLo) {
                pendingLo = c;
            }
            if (c > pendingHi) {
                pendingHi = c;
            }
        } else {
            if (cyclesToValue == null) {
                throw new IllegalStateException("histogram " + name + " takes no values in cycles");
            }
            record(cyclesToValue.applyAsLong(cycles));
        }
    }

    /** Folds the pending cycle counts into the histogram, lowest cycle count first. */
    private void foldPending() {
        if (unpacked != null && unpacked.getTotalCount() != 0) {
            histogram.add(unpacked);
            unpacked.reset();
        }
        int hi = pendingHi;
        if (hi < 0) {
            return;
        }
        long[] pc = pendingCounts;
        for (int c = pendingLo; c <= hi; c++) {
            long n = pc[c];
            if (n != 0) {
                pc[c] = 0;
                recordWithCount(cyclesToValue.applyAsLong(c), n);
            }
        }
        pendingLo = Integer.MAX_VALUE;
        pendingHi = -1;
    }

    /**
     * Records one value (any size: the histogram widens to take it).
     *
     * @throws IllegalArgumentException for a negative value (a time that runs backwards is a bug)
     */
    public void record(long value) {
        if (value < 0) {
            throw new IllegalArgumentException("histogram " + name + ": negative value " + value);
        }
        if (value > max) {
            max = value;
        }
        Histogram u = unpacked;
        if (u == null) {
            if (++packedRecords <= STAGE_AFTER) {
                histogram.recordValue(value);
                return;
            }
            // lowest 1 and the packed histogram's precision: the same buckets, so adding it is exact
            u = new Histogram(1, Math.max(2, value), SIGNIFICANT_DIGITS);
            u.setAutoResize(true);
            unpacked = u;
        }
        u.recordValue(value);
    }

    /** {@code count} values equal to {@code value}. */
    private void recordWithCount(long value, long count) {
        if (value < 0) {
            throw new IllegalArgumentException("histogram " + name + ": negative value " + value);
        }
        if (value > max) {
            max = value;
        }
        histogram.recordValueWithCount(value, count);
    }

    public String name() {
        return name;
    }

    /** Exact largest value recorded, 0 when empty. */
    public long max() {
        foldPending();
        return max;
    }

    public long count() {
        foldPending();
        return histogram.getTotalCount();
    }

    /** A copy of the underlying histogram (for merging or custom output). */
    public Histogram copy() {
        foldPending();
        return histogram.copy();
    }

    public PercentileSummary summary() {
        foldPending();
        return PercentileSummary.of(histogram, max);
    }

    /** Writes HdrHistogram's percentile distribution (.hgrm text) to {@code out}. */
    public void writeHgrm(OutputStream out) {
        foldPending();
        PrintStream ps = new PrintStream(out, false, StandardCharsets.UTF_8);
        histogram.outputPercentileDistribution(ps, HGRM_TICKS_PER_HALF_DISTANCE, HGRM_VALUE_UNIT_RATIO);
        ps.flush();
    }

    /** Writes the .hgrm text to {@code file}, replacing it. */
    public void writeHgrm(Path file) throws IOException {
        try (OutputStream out = Files.newOutputStream(file)) {
            writeHgrm(out);
        }
    }

    /** Forgets every value (pending ones too). */
    public void reset() {
        if (pendingHi >= 0) {
            Arrays.fill(pendingCounts, pendingLo, pendingHi + 1, 0);
            pendingLo = Integer.MAX_VALUE;
            pendingHi = -1;
        }
        histogram.reset();
        if (unpacked != null) {
            unpacked.reset();
        }
        max = 0;
    }
}
