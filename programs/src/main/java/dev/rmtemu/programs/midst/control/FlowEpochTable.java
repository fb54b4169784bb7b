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
    private long[] k1 = new long[INITIAL_CAPACITY];
    private long[] k2 = new long[INITIAL_CAPACITY];
    private long[] loss = new long[INITIAL_CAPACITY];
    private long[] burst = new long[INITIAL_CAPACITY];
    private boolean[] used = new boolean[INITIAL_CAPACITY];
    private int size;

    static long key1(long src, long dst) {
        return (src << 32) | (dst & 0xFFFFFFFFL);
    }

    static long key2(long proto, long srcPort, long dstPort, long epoch) {
        return (srcPort << 40) | (dstPort << 24) | (proto << 16) | (epoch & 0xFFFF);
    }

    /** Keeps the maxima of the two values for the key. */
    void report(long a, long b, long lossEstimate, long burstEstimate) {
        if (size + 1 > used.length * MAX_LOAD) {
            grow();
        }
        int i = find(a, b);
        if (!used[i]) {
            used[i] = true;
            k1[i] = a;
            k2[i] = b;
            size++;
        }
        loss[i] = Math.max(loss[i], lossEstimate);
        burst[i] = Math.max(burst[i], burstEstimate);
    }

    /** Adds {@code n} to the first value of the key (a per-flow counter when used with epoch 0). */
    void add(long a, long b, long n) {
        if (size + 1 > used.length * MAX_LOAD) {
            grow();
        }
        int i = find(a, b);
        if (!used[i]) {
            used[i] = true;
            k1[i] = a;
            k2[i] = b;
            size++;
        }
        loss[i] += n;
    }

    private int find(long a, long b) {
        int mask = used.length - 1;
        int i = (int) (mix(a * 31 + b) & mask);
        while (used[i] && (k1[i] != a || k2[i] != b)) {
            i = (i + 1) & mask;
        }
        return i;
    }

    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }

    private void grow() {
        long[] o1 = k1;
        long[] o2 = k2;
        long[] ol = loss;
        long[] ob = burst;
        boolean[] ou = used;
        int cap = ou.length * 2;
        k1 = new long[cap];
        k2 = new long[cap];
        loss = new long[cap];
        burst = new long[cap];
        used = new boolean[cap];
        for (int j = 0; j < ou.length; j++) {
            if (ou[j]) {
                int i = find(o1[j], o2[j]);
                used[i] = true;
                k1[i] = o1[j];
                k2[i] = o2[j];
                loss[i] = ol[j];
                burst[i] = ob[j];
            }
        }
    }

    int size() {
        return size;
    }

    /** Entry positions in key order (deterministic output). */
    int[] sortedSlots() {
        int[] slots = new int[size];
        int n = 0;
        for (int i = 0; i < used.length; i++) {
            if (used[i]) {
                slots[n++] = i;
            }
        }
        Integer[] boxed = new Integer[n];
        for (int i = 0; i < n; i++) {
            boxed[i] = slots[i];
        }
        Arrays.sort(boxed, (x, y) -> {
            int c = Long.compareUnsigned(k1[x], k1[y]);
            return c != 0 ? c : Long.compareUnsigned(k2[x], k2[y]);
        });
        for (int i = 0; i < n; i++) {
            slots[i] = boxed[i];
        }
        return slots;
    }

    long k1(int slot) {
        return k1[slot];
    }

    long k2(int slot) {
        return k2[slot];
    }

    long loss(int slot) {
        return loss[slot];
    }

    long burst(int slot) {
        return burst[slot];
    }
}
