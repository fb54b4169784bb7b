package dev.rmtemu.emulator.metrics;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import org.HdrHistogram.Histogram;

import java.util.Collections;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Percentiles of one histogram (written to JSON with the keys of {@link #toMap()}, in that order), in the histogram's unit (ns for every rmtemu histogram).
 * Percentile values are HdrHistogram's: the highest value equivalent to the bucket holding
 * the percentile, exact below 2048 and within 0.1 % above (3 significant digits), but never
 * above the exact maximum (the top bucket's highest value may lie beyond it).
 *
 * @param count   values recorded
 * @param mean    arithmetic mean (0 when empty)
 * @param p50     50th percentile
 * @param p90     90th percentile
 * @param p99     99th percentile
 * @param p999    99.9th percentile
 * @param p9999   99.99th percentile
 * @param max     largest value recorded, exact
 */
@JsonPropertyOrder(alphabetic = true)
public record PercentileSummary(long count, double mean, long p50, long p90, long p99,
                                @JsonProperty("p99_9") long p999, @JsonProperty("p99_99") long p9999, long max) {

    /** The summary of a histogram with no values. */
    public static final PercentileSummary EMPTY = new PercentileSummary(0, 0.0, 0, 0, 0, 0, 0, 0);

    /**
     * Summarises {@code histogram}; {@code exactMax} is tracked by the caller (the
     * histogram only knows the bucket of its largest value).
     */
    public static PercentileSummary of(Histogram histogram, long exactMax) {
        long count = histogram.getTotalCount();
        if (count == 0) {
            return EMPTY;
        }
        return new PercentileSummary(count, histogram.getMean(),
                Math.min(exactMax, histogram.getValueAtPercentile(50.0)),
                Math.min(exactMax, histogram.getValueAtPercentile(90.0)),
                Math.min(exactMax, histogram.getValueAtPercentile(99.0)),
                Math.min(exactMax, histogram.getValueAtPercentile(99.9)),
                Math.min(exactMax, histogram.getValueAtPercentile(99.99)),
                exactMax);
    }


    /**
     * The summary as a map with sorted (hence stable) keys, ready for a JSON writer:
     * {@code count, max, mean, p50, p90, p99, p99_9, p99_99}.
     */
    public SortedMap<String, Number> toMap() {
        TreeMap<String, Number> m = new TreeMap<>();
        m.put("count", count);
        m.put("max", max);
        m.put("mean", mean);
        m.put("p50", p50);
        m.put("p90", p90);
        m.put("p99", p99);
        m.put("p99_9", p999);
        m.put("p99_99", p9999);
        return Collections.unmodifiableSortedMap(m);
    }
}
