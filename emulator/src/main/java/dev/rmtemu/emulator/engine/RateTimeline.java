package dev.rmtemu.emulator.engine;

import java.util.Arrays;

/**
 * An amount (bits sent, packets dropped) summed over time in a fixed number of buckets whose
 * width doubles (neighbours added together) whenever the run outgrows them, like
 * {@link QueueDepthTimeline}: constant memory for any run length, deterministic, nothing
 * allocated per packet. Divided by the bucket width it is a rate over time.
 */
public final class RateTimeline {
    /** Buckets kept (the HTML plot's resolution). */
    public static final int BUCKETS = QueueDepthTimeline.BUCKETS;

    private final long[] sums = new long[BUCKETS];
    /** Bucket width is 2^shift cycles. */
    private int shift = 10;

    public void add(long cycle, long amount) {
        while ((cycle >>> shift) >= BUCKETS) {
            for (int i = 0; i < BUCKETS / 2; i++) {
                sums[i] = sums[2 * i] + sums[2 * i + 1];
            }
            Arrays.fill(sums, BUCKETS / 2, BUCKETS, 0);
            shift++;
        }
        sums[(int) (cycle >>> shift)] += amount;
    }

    /** Width of one bucket in cycles. */
    public long bucketCycles() {
        return 1L << shift;
    }

    /** The sum in each bucket. */
    public long[] sums() {
        return sums.clone();
    }
}
