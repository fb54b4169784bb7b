package dev.rmtemu.programs.midst.control;

import java.util.Arrays;

/**
 * Open-addressing table from (IPv4 5-tuple, epoch) to the largest loss estimate and
 * S_in estimate reported for it. Keys are packed exactly into two longs; only growth
 * allocates, so a report costs no allocation.
 */
final class FlowEpochTable {
    private static final int INITIAL_CAPACITY = 1 << 10;
    private static final double MAX_LOAD = 0.5;
    /**
     * Per entry four longs side by side (32 bytes, one cache line): key 1, key 2 with
     * {@link #USED} set (0: an empty entry), loss, burst. A report then touches one line of a
     * table far larger than the caches, where separate arrays cost a miss each.
     */
    private static final int STRIDE = 4;
    /** Marks a used entry's key 2 ({@link #key2} leaves the top bit clear). */
    private static final long USED = Long.MIN_VALUE;
    private long[] entries = new long[INITIAL_CAPACITY * STRIDE];
    private int capacity = INITIAL_CAPACITY;
    private int size;

    static long key1(long src, long dst) {
        return (src << 32) | (dst & 0xFFFFFFFFL);
    }

    static long key2(long proto, long srcPort, long dstPort, long epoch) {
        return ((srcPort & 0xFFFF) << 40) | ((dstPort & 0xFFFF) << 24) | ((proto & 0xFF) << 16) | (epoch & 0xFFFF);
    }

    /** Keeps the maxima of the two values for the key. */
    void report(long a, long b, long lossEstimate, long burstEstimate) {
        int e = entry(a, b);
        entries[e + 2] = Math.max(entries[e + 2], lossEstimate);
        entries[e + 3] = Math.max(entries[e + 3], burstEstimate);
    }

    /** Adds {@code n} to the first value of the key (a per-flow counter when used with epoch 0). */
    void add(long a, long b, long n) {
        int e = entry(a, b);
        entries[e + 2] += n;
    }

    /** The key's entry (its first long), made when new. */
    private int entry(long a, long b) {
        if (b < 0) {
            throw new IllegalArgumentException("key 2 " + Long.toHexString(b) + " has its top bit set");
        }
        if (size + 1 > capacity * MAX_LOAD) {
            grow();
        }
        int e = find(entries, capacity, a, b | USED);
        if (entries[e + 1] == 0) {
            entries[e] = a;
            entries[e + 1] = b | USED;
            size++;
        }
        return e;
    }

    /** The entry holding key (a, marked b), or the empty one where it goes. */
    private static int find(long[] entries, int capacity, long a, long markedB) {
        int mask = capacity - 1;
        int i = (int) (mix(a * 31 + (markedB & ~USED)) & mask);
        while (true) {
            int e = i * STRIDE;
            long k = entries[e + 1];
            if (k == 0 || (k == markedB && entries[e] == a)) {
                return e;
            }
            i = (i + 1) & mask;
        }
    }

    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }

    private void grow() {
        long[] old = entries;
        int cap = capacity * 2;
        long[] next = new long[cap * STRIDE];
        for (int e = 0; e < old.length; e += STRIDE) {
            if (old[e + 1] != 0) {
                int to = find(next, cap, old[e], old[e + 1]);
                System.arraycopy(old, e, next, to, STRIDE);
            }
        }
        entries = next;
        capacity = cap;
    }

    int size() {
        return size;
    }

    /** Entry positions in key order (deterministic output). */
    int[] sortedSlots() {
        int[] slots = new int[size];
        int n = 0;
        for (int i = 0; i < capacity; i++) {
            if (entries[i * STRIDE + 1] != 0) {
                slots[n++] = i;
            }
        }
        Integer[] boxed = new Integer[n];
        for (int i = 0; i < n; i++) {
            boxed[i] = slots[i];
        }
        Arrays.sort(boxed, (x, y) -> {
            int c = Long.compareUnsigned(k1(x), k1(y));
            return c != 0 ? c : Long.compareUnsigned(k2(x), k2(y));
        });
        for (int i = 0; i < n; i++) {
            slots[i] = boxed[i];
        }
        return slots;
    }

    long k1(int slot) {
        return entries[slot * STRIDE];
    }

    long k2(int slot) {
        return entries[slot * STRIDE + 1] & ~USED;
    }

    long loss(int slot) {
        return entries[slot * STRIDE + 2];
    }

    long burst(int slot) {
        return entries[slot * STRIDE + 3];
    }
}
