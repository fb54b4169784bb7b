package dev.rmtemu.programs.hashpipe.reference;

import dev.rmtemu.programs.hashpipe.control.FlowCount;
import dev.rmtemu.programs.hashpipe.control.KeyCountMap;

import java.util.List;

/**
 * A fixed number of (key, count) slots kept as a binary min-heap on count, with
 * a key index: the exact minimum is the root. Space saving and the heavy-flow
 * cache of count-min use it. No allocation per update.
 */
final class MinHeapTable {
    private final int capacity;
    private final long[] lo;
    private final long[] hi;
    private final long[] count;
    /** key -> heap position */
    private final KeyCountMap position;
    private int size;

    MinHeapTable(int capacity) {
        this.capacity = capacity;
        this.lo = new long[capacity];
        this.hi = new long[capacity];
        this.count = new long[capacity];
        this.position = new KeyCountMap(capacity);
    }

    /** Heap position of the key, or -1. */
    int find(long l, long h) {
        int slot = position.find(l, h);
        return slot < 0 ? -1 : (int) position.value(slot);
    }

    boolean full() {
        return size == capacity;
    }

    int size() {
        return size;
    }

    long minCount() {
        return count[0];
    }

    long count(int pos) {
        return count[pos];
    }

    /** Raises the count at a heap position (counts only grow). */
    void raise(int pos, long newCount) {
        count[pos] = newCount;
        siftDown(pos);
    }

    void insert(long l, long h, long c) {
        int pos = size++;
        lo[pos] = l;
        hi[pos] = h;
        count[pos] = c;
        position.put(l, h, pos);
        siftUp(pos);
    }

    /** Replaces the minimum entry with a new key and count. */
    void replaceMin(long l, long h, long c) {
        position.remove(lo[0], hi[0]);
        lo[0] = l;
        hi[0] = h;
        count[0] = c;
        position.put(l, h, 0);
        siftDown(0);
    }

    void clear() {
        size = 0;
        position.clear();
    }

    void reportInto(List<FlowCount> out) {
        for (int i = 0; i < size; i++) {
            out.add(new FlowCount(lo[i], hi[i], count[i]));
        }
    }

    private void siftUp(int pos) {
        while (pos > 0) {
            int parent = (pos - 1) >>> 1;
            if (count[parent] <= count[pos]) {
                return;
            }
            swap(pos, parent);
            pos = parent;
        }
    }

    private void siftDown(int pos) {
        while (true) {
            int l = 2 * pos + 1;
            if (l >= size) {
                return;
            }
            int r = l + 1;
            int m = r < size && count[r] < count[l] ? r : l;
            if (count[pos] <= count[m]) {
                return;
            }
            swap(pos, m);
            pos = m;
        }
    }

    private void swap(int a, int b) {
        long t = lo[a];
        lo[a] = lo[b];
        lo[b] = t;
        t = hi[a];
        hi[a] = hi[b];
        hi[b] = t;
        t = count[a];
        count[a] = count[b];
        count[b] = t;
        position.put(lo[a], hi[a], a);
        position.put(lo[b], hi[b], b);
    }
}
