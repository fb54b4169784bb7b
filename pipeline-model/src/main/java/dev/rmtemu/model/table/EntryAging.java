package dev.rmtemu.model.table;

import java.util.Arrays;

/**
 * The idle-timeout state of one table's entries, by handle: when each was last active (hit,
 * or given its TTL) in emulated ns, its TTL (0: none, the entry never ages), and whether it
 * has been reported idle. A hit costs one store; a sweep walks the handles in order, so what
 * it reports is deterministic. An entry reported idle that is hit again is active again and
 * can age out again (the hardware's idle counter is reset by a hit).
 */
public final class EntryAging {
    private final HitClock clock;
    private final long[] lastActiveNs;
    private final long[] ttlNs;
    private final boolean[] idle;

    /** What a sweep reports: an entry not active for its TTL. */
    @FunctionalInterface
    public interface AgedOut {
        void agedOut(int handle, long lastActiveNs, long ttlNs);
    }

    EntryAging(HitClock clock, int entries) {
        this.clock = clock;
        lastActiveNs = new long[entries];
        ttlNs = new long[entries];
        idle = new boolean[entries];
    }

    /** A lookup hit the entry with this handle (hot path). */
    void hit(int handle) {
        lastActiveNs[handle] = clock.nowNs();
    }

    /** The entry with this handle is new or gone: no TTL until the control plane gives one. */
    void forget(int handle) {
        ttlNs[handle] = 0;
        idle[handle] = false;
    }

    void forgetAll() {
        Arrays.fill(ttlNs, 0);
        Arrays.fill(idle, false);
    }

    /** Gives the entry a TTL of {@code ttl} ns, counted from {@code nowNs} (bmv2's table_set_timeout; the idle count restarts). */
    public void setTtl(int handle, long ttl, long nowNs) {
        if (ttl <= 0) {
            throw new IllegalArgumentException("a TTL is positive, not " + ttl);
        }
        ttlNs[handle] = ttl;
        lastActiveNs[handle] = nowNs;
        idle[handle] = false;
    }

    /** The entry's TTL in ns (0: none). */
    public long ttlNs(int handle) {
        return ttlNs[handle];
    }

    /** When the entry was last hit or given its TTL, in emulated ns. */
    public long lastActiveNs(int handle) {
        return lastActiveNs[handle];
    }

    /**
     * The sweep at {@code nowNs}: every entry with a TTL not active for at least its TTL, and not
     * yet reported, is reported (handles in ascending order) and marked idle; an idle entry hit
     * since is active again. Returns how many were reported.
     */
    public int sweep(long nowNs, AgedOut sink) {
        int n = 0;
        for (int h = 0; h < ttlNs.length; h++) {
            long ttl = ttlNs[h];
            if (ttl == 0) {
                continue;
            }
            boolean expired = nowNs - lastActiveNs[h] >= ttl;
            if (expired && !idle[h]) {
                idle[h] = true;
                sink.agedOut(h, lastActiveNs[h], ttl);
                n++;
            } else if (!expired) {
                idle[h] = false;
            }
        }
        return n;
    }
}
