package dev.rmtemu.emulator.metrics;

import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Percentiles never exceed the maximum and never decrease with the percentile. */
class PercentileSummaryTest {
    private static final long HIGHEST = 3_600_000_000_000L;

    @Test
    void aPercentileInTheMaximumsBucketIsTheMaximum() {
        // 100,001 lies in a bucket of 64 values at 3 significant digits: its highest equivalent is above it
        LatencyHistogram h = new LatencyHistogram("one", HIGHEST);
        h.record(100_001);
        PercentileSummary s = h.summary();
        assertTrue(h.copy().getValueAtPercentile(50.0) > 100_001, "HdrHistogram reports the bucket's top");
        assertEquals(100_001, s.max());
        assertEquals(100_001, s.p50());
        assertEquals(100_001, s.p9999());
    }

    /** Random histograms of several shapes: heavy-tailed, narrow, a few values, clamped ones. */
    @Test
    void percentilesAreOrderedAndAtMostTheMaximumOnRandomHistograms() {
        SplittableRandom rnd = new SplittableRandom(20);
        for (int trial = 0; trial < 300; trial++) {
            LatencyHistogram h = new LatencyHistogram("t" + trial, trial % 7 == 0 ? 5_000_000 : HIGHEST);
            int n = 1 + rnd.nextInt(trial % 3 == 0 ? 5 : 5_000);
            long base = 1 + rnd.nextLong(1L << (1 + rnd.nextInt(40)));
            for (int i = 0; i < n; i++) {
                double u = rnd.nextDouble();
                long v = switch (trial % 4) {
                    case 0 -> base + (long) (base * 0.01 * u);              // narrow, one or two buckets
                    case 1 -> (long) (base / Math.pow(1 - u * 0.999, 2));    // heavy tail
                    case 2 -> base + rnd.nextLong(base);                     // uniform
                    default -> base * (1 + rnd.nextInt(3));                  // a few values
                };
                h.record(v);
            }
            PercentileSummary s = h.summary();
            String ctx = "trial " + trial + ": " + s;
            assertTrue(s.p50() <= s.p90(), ctx);
            assertTrue(s.p90() <= s.p99(), ctx);
            assertTrue(s.p99() <= s.p999(), ctx);
            assertTrue(s.p999() <= s.p9999(), ctx);
            assertTrue(s.p9999() <= s.max(), ctx);
            assertEquals(h.max(), s.max(), ctx);
            assertTrue(s.p50() >= h.copy().getMinValue(), ctx);
        }
    }

    @Test
    void emptyHistogramIsAllZero() {
        assertEquals(PercentileSummary.EMPTY, new LatencyHistogram("e", HIGHEST).summary());
    }
}
