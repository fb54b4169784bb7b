package dev.rmtemu.emulator.engine;

import java.util.Arrays;

/**
 * Maximum traffic-manager occupancy over time, in a fixed number of buckets
 * whose width doubles (merging neighbours) whenever the run outgrows them, so
 * memory stays constant for any run length and the result is deterministic.
 */
public final class QueueDepthTimeline {
    /** Buckets kept (the HTML plot's resolution). */
    public static final int BUCKETS = 512;

    private final int[] maxCells = new int[BUCKETS];
    /** Bucket width is 2^shift cycles (a shift, not a division, per packet). */
    private int shift = 10;

    public void record(long cycle, int cells) {
        while ((cycle >>> shift) >= BUCKETS) {
            for (int i = 0; i < BUCKETS / 2; i++) {
                maxCells[i] = Math.max(maxCells[2 * i], maxCells[2 * i + 1]);
            }
            Arrays.fill(maxCells, BUCKETS / 2, BUCKETS, 0);
            shift++;
        }
        int b = (int) (cycle >>> shift);
        if (cells > maxCells[b]) {
            maxCells[b] = cells;
        }
    }

    /** Width of one bucket in cycles. */
    public long bucketCycles() {
        return 1L << shift;
    }

    public int[] maxCells() {
        return maxCells.clone();
    }
}
