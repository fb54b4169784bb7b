package dev.rmtemu.programs.hashpipe.reference;

import dev.rmtemu.programs.hashpipe.control.FlowCount;
import dev.rmtemu.programs.hashpipe.program.KeyKind;

import dev.rmtemu.model.hash.HashAlgorithm;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Count-min sketch (Cormode and Muthukrishnan, 2005) with a heavy-flow cache, as
 * HashPipe's paper simulates it (SOSR 2017, Section 5.3, baseline 2): memory split in
 * half, m/2 sketch counters over {@link #ROWS} rows and a flow cache of m/2 slots.
 * Every packet updates the sketch. A key whose sketch estimate reaches the heavy
 * threshold — the paper liberally gives it the offline exact count of the k-th
 * heaviest flow of the interval ({@link #heavyThreshold}) — enters the cache and is
 * counted exactly from that packet on. The cache is a hash table (one hash function)
 * that keeps the key already in a slot on a collision: nothing is ever evicted. The
 * report is the cache's keys with their exact counts since entry.
 */
public final class CountMinCache implements HeavyHitters {
    /** Sketch rows, the usual small depth (error probability e^-3 ≈ 5% per estimate). */
    public static final int ROWS = 3;
    /** Row r hashes with seeded:(SEED_BASE + r), independent of HashPipe's stage hashes; the cache with the next seed. */
    public static final long SEED_BASE = 0xC0DE;

    private final KeyHash[] rows;
    private final long[][] sketch;
    private final KeyHash cacheHash;
    private final long[] cacheLo;
    private final long[] cacheHi;
    private final long[] cacheCount;
    private long threshold;

    /**
     * @param memory         counters in all: half for the sketch, half for the cache
     * @param heavyThreshold sketch estimate at which a key enters the cache (at least 1)
     */
    public CountMinCache(int memory, KeyKind key, long heavyThreshold) {
        int sketchCounters = memory / 2;
        int width = Math.max(1, sketchCounters / ROWS);
        rows = new KeyHash[ROWS];
        sketch = new long[ROWS][width];
        for (int r = 0; r < ROWS; r++) {
            rows[r] = new KeyHash(HashAlgorithm.seeded(SEED_BASE + r), key);
        }
        cacheHash = new KeyHash(HashAlgorithm.seeded(SEED_BASE + ROWS), key);
        int slots = Math.max(1, memory - sketchCounters);
        cacheLo = new long[slots];
        cacheHi = new long[slots];
        cacheCount = new long[slots];
        heavyThreshold(heavyThreshold);
    }

    /** Sets the heavy threshold for the next interval (the experiment gives the k-th heaviest flow's count). */
    public void heavyThreshold(long t) {
        if (t < 1) {
            throw new IllegalArgumentException("heavy threshold must be at least 1: " + t);
        }
        this.threshold = t;
    }

    public long heavyThreshold() {
        return threshold;
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
        int c = cacheHash.index(lo, hi, cacheLo.length);
        if (cacheCount[c] != 0 && cacheLo[c] == lo && cacheHi[c] == hi) {
            cacheCount[c] += inc;
        } else if (cacheCount[c] == 0 && est >= threshold) {
            cacheLo[c] = lo;
            cacheHi[c] = hi;
            cacheCount[c] = inc; // exact from the packet that made it heavy
        }
        // else: a light key, or a heavy one colliding with a cached key (the cached key stays)
    }

    @Override
    public List<FlowCount> report() {
        List<FlowCount> out = new ArrayList<>();
        for (int i = 0; i < cacheLo.length; i++) {
            if (cacheCount[i] != 0) {
                out.add(new FlowCount(cacheLo[i], cacheHi[i], cacheCount[i]));
            }
        }
        out.sort(FlowCount.BY_COUNT_DESC);
        return out;
    }

    @Override
    public void reset() {
        for (long[] row : sketch) {
            Arrays.fill(row, 0);
        }
        Arrays.fill(cacheLo, 0);
        Arrays.fill(cacheHi, 0);
        Arrays.fill(cacheCount, 0);
    }
}
