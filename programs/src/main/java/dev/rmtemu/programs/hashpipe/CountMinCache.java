package dev.rmtemu.programs.hashpipe;

import dev.rmtemu.model.hash.HashAlgorithm;

import java.util.ArrayList;
import java.util.List;

/**
 * Count-min sketch (Cormode and Muthukrishnan, 2005) with a heavy-flow cache,
 * memory split in half: m/2 sketch counters over {@link #ROWS} rows, and m/2
 * (key, estimate) cache slots kept as a min-heap. Every packet updates the
 * sketch; a cached key takes the new estimate; an uncached key enters when the
 * cache has room or its estimate beats the cache's minimum (which it evicts).
 */
public final class CountMinCache implements HeavyHitters {
    /** Sketch rows, the usual small depth (error probability e^-3 ≈ 5% per estimate). */
    public static final int ROWS = 3;
    /** Row r hashes with seeded:(SEED_BASE + r), independent of HashPipe's stage hashes. */
    public static final long SEED_BASE = 0xC0DE;

    private final KeyHash[] rows;
    private final long[][] sketch;
    private final MinHeapTable cache;

    public CountMinCache(int memory, KeyKind key) {
        int sketchCounters = memory / 2;
        int width = Math.max(1, sketchCounters / ROWS);
        rows = new KeyHash[ROWS];
        sketch = new long[ROWS][width];
        for (int r = 0; r < ROWS; r++) {
            rows[r] = new KeyHash(HashAlgorithm.seeded(SEED_BASE + r), key);
        }
        cache = new MinHeapTable(Math.max(1, memory - sketchCounters));
    }

    @Override
    public String name() {
        return "count-min+cache";
    }

    @Override
    public void update(long lo, long hi, long inc) {
        long est = Long.MAX_VALUE;
        for (int r = 0; r < ROWS; r++) {
            long[] row = sketch[r];
            int s = rows[r].index(lo, hi, row.length);
            est = Math.min(est, row[s] += inc);
        }
        int pos = cache.find(lo, hi);
        if (pos >= 0) {
            cache.raise(pos, Math.max(cache.count(pos), est));
        } else if (!cache.full()) {
            cache.insert(lo, hi, est);
        } else if (est > cache.minCount()) {
            cache.replaceMin(lo, hi, est);
        }
    }

    @Override
    public List<FlowCount> report() {
        List<FlowCount> out = new ArrayList<>();
        cache.reportInto(out);
        out.sort(FlowCount.BY_COUNT_DESC);
        return out;
    }

    @Override
    public void reset() {
        for (long[] row : sketch) {
            java.util.Arrays.fill(row, 0);
        }
        cache.clear();
    }
}
