package dev.rmtemu.programs.hashpipe.control;

import dev.rmtemu.programs.hashpipe.program.KeyKind;

import java.util.Arrays;
import dev.rmtemu.traces.FlowKey;

/**
 * An open-addressing map from a key (lo, hi) to a long, without boxing: linear
 * probing, backward-shift deletion, doubling at 60% load. {@code lo == 0}
 * marks a free slot (keys never have lo 0, see {@link KeyKind}). Iterate with
 * {@link #capacity()} / {@link #occupied(int)}; callers sort before output.
 */
public final class KeyCountMap {
    private static final double MAX_LOAD = 0.6;
    private long[] lo;
    private long[] hi;
    private long[] value;
    private int mask;
    private int size;

    public KeyCountMap(int expected) {
        int cap = Integer.highestOneBit(Math.max(16, (int) (expected / MAX_LOAD) + 1) * 2 - 1);
        alloc(cap);
    }

    private void alloc(int cap) {
        lo = new long[cap];
        hi = new long[cap];
        value = new long[cap];
        mask = cap - 1;
        size = 0;
    }

    private int home(long l, long h) {
        return (int) FlowKey.mix(l * 0x9E3779B97F4A7C15L ^ h) & mask;
    }

    /** The slot holding the key, or -1. */
    public int find(long l, long h) {
        int i = home(l, h);
        while (lo[i] != 0) {
            if (lo[i] == l && hi[i] == h) {
                return i;
            }
            i = (i + 1) & mask;
        }
        return -1;
    }

    public long get(long l, long h) {
        int i = find(l, h);
        return i < 0 ? 0 : value[i];
    }

    public boolean contains(long l, long h) {
        return find(l, h) >= 0;
    }

    /** Adds {@code delta} to the key's value (inserting it at 0 first); returns the new value. */
    public long add(long l, long h, long delta) {
        int i = home(l, h);
        while (lo[i] != 0) {
            if (lo[i] == l && hi[i] == h) {
                return value[i] += delta;
            }
            i = (i + 1) & mask;
        }
        lo[i] = l;
        hi[i] = h;
        value[i] = delta;
        if (++size > mask * MAX_LOAD) {
            grow();
        }
        return delta;
    }

    public void put(long l, long h, long v) {
        int i = find(l, h);
        if (i >= 0) {
            value[i] = v;
        } else {
            add(l, h, v);
        }
    }

    /** Removes the key if present. */
    public void remove(long l, long h) {
        int i = find(l, h);
        if (i < 0) {
            return;
        }
        size--;
        // backward-shift deletion keeps every probe chain unbroken
        int j = i;
        while (true) {
            j = (j + 1) & mask;
            if (lo[j] == 0) {
                break;
            }
            int k = home(lo[j], hi[j]);
            boolean between = i <= j ? (i < k && k <= j) : (i < k || k <= j);
            if (!between) {
                lo[i] = lo[j];
                hi[i] = hi[j];
                value[i] = value[j];
                i = j;
            }
        }
        lo[i] = 0;
        hi[i] = 0;
        value[i] = 0;
    }

    private void grow() {
        long[] ol = lo;
        long[] oh = hi;
        long[] ov = value;
        alloc(ol.length * 2);
        for (int i = 0; i < ol.length; i++) {
            if (ol[i] != 0) {
                add(ol[i], oh[i], ov[i]);
            }
        }
    }

    public void clear() {
        Arrays.fill(lo, 0);
        Arrays.fill(hi, 0);
        Arrays.fill(value, 0);
        size = 0;
    }

    public int size() {
        return size;
    }

    public int capacity() {
        return lo.length;
    }

    public boolean occupied(int slot) {
        return lo[slot] != 0;
    }

    public long keyLo(int slot) {
        return lo[slot];
    }

    public long keyHi(int slot) {
        return hi[slot];
    }

    public long value(int slot) {
        return value[slot];
    }

    public void value(int slot, long v) {
        value[slot] = v;
    }
}
