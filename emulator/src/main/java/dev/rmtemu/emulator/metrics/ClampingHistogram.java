package dev.rmtemu.emulator.metrics;

import org.HdrHistogram.Histogram;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A fixed-range HdrHistogram (no auto-resize, {@value #SIGNIFICANT_DIGITS} significant
 * digits) that never throws on a large value: values above the highest trackable value are
 * recorded as that value and counted, so a report can say how many were clamped.
 * Recording allocates nothing.
 */
public final class ClampingHistogram {
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
    private final long highestTrackable;
    private long clamped;
    /** Exact largest value recorded (after clamping); the histogram only knows its bucket. */
    private long max;

    public ClampingHistogram(String name, long highestTrackableValue) {
        if (highestTrackableValue < 2) {
            throw new IllegalArgumentException("histogram " + name + ": highest trackable value must be at least 2, got "
                    + highestTrackableValue);
        }
        this.name = name;
        this.highestTrackable = highestTrackableValue;
        this.histogram = new Histogram(1, highestTrackableValue, SIGNIFICANT_DIGITS);
    }

    /**
     * Records one value; above the highest trackable value it is clamped and counted.
     *
     * @throws IllegalArgumentException for a negative value (a time that runs backwards is a bug)
     */
    public void record(long value) {
        if (value < 0) {
            throw new IllegalArgumentException("histogram " + name + ": negative value " + value);
        }
        if (value > highestTrackable) {
            clamped++;
            value = highestTrackable;
        }
        if (value > max) {
            max = value;
        }
        histogram.recordValue(value);
    }

    public String name() {
        return name;
    }

    public long highestTrackableValue() {
        return highestTrackable;
    }

    /** Values recorded as the highest trackable value because they were larger. */
    public long clampedCount() {
        return clamped;
    }

    /** Exact largest value recorded (after clamping), 0 when empty. */
    public long max() {
        return max;
    }

    public long count() {
        return histogram.getTotalCount();
    }

    /** A copy of the underlying histogram (for merging or custom output). */
    public Histogram copy() {
        return histogram.copy();
    }

    public PercentileSummary summary() {
        return PercentileSummary.of(histogram, max, clamped);
    }

    /** Writes HdrHistogram's percentile distribution (.hgrm text) to {@code out}. */
    public void writeHgrm(OutputStream out) {
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

    /** Forgets every value and the clamped count. */
    public void reset() {
        histogram.reset();
        clamped = 0;
        max = 0;
    }
}
