package dev.rmtemu.traces;

import java.util.LinkedHashMap;
import java.util.Map;

/** Per-reason counts of skipped frames; a primitive array indexed by {@link SkipReason}. */
public final class SkipCounters {
    private static final SkipReason[] ORDER = SkipReason.inLabelOrder();
    private final long[] counts = new long[SkipReason.values().length];

    public void increment(SkipReason reason) {
        counts[reason.ordinal()]++;
    }

    public void add(SkipReason reason, long n) {
        counts[reason.ordinal()] += n;
    }

    public void addAll(SkipCounters other) {
        for (int i = 0; i < counts.length; i++) {
            counts[i] += other.counts[i];
        }
    }

    public long count(SkipReason reason) {
        return counts[reason.ordinal()];
    }

    public long total() {
        long t = 0;
        for (long c : counts) {
            t += c;
        }
        return t;
    }

    /** Non-zero counts keyed by label, in label order (deterministic). */
    public Map<String, Long> asMap() {
        Map<String, Long> m = new LinkedHashMap<>();
        for (SkipReason r : ORDER) {
            long c = counts[r.ordinal()];
            if (c != 0) {
                m.put(r.label(), c);
            }
        }
        return m;
    }

    @Override
    public String toString() {
        return asMap().toString();
    }
}
