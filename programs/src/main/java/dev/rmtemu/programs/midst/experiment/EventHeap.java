package dev.rmtemu.programs.midst.experiment;

import java.util.Arrays;

/**
 * A min-heap of (time, payload) events for the closed-loop traffic models, in primitive
 * arrays. Equal times pop in insertion order, so a run does not depend on heap layout.
 * Only growth allocates.
 */
final class EventHeap {
    private long[] time = new long[256];
    private long[] order = new long[256];
    private long[] payload = new long[256];
    private int size;
    private long inserted;

    boolean isEmpty() {
        return size == 0;
    }

    int size() {
        return size;
    }

    void push(long t, long p) {
        if (size == time.length) {
            time = Arrays.copyOf(time, size * 2);
            order = Arrays.copyOf(order, size * 2);
            payload = Arrays.copyOf(payload, size * 2);
        }
        int i = size++;
        long o = inserted++;
        while (i > 0) {
            int parent = (i - 1) >>> 1;
            if (!less(t, o, time[parent], order[parent])) {
                break;
            }
            time[i] = time[parent];
            order[i] = order[parent];
            payload[i] = payload[parent];
            i = parent;
        }
        time[i] = t;
        order[i] = o;
        payload[i] = p;
    }

    long peekTime() {
        return time[0];
    }

    long peekPayload() {
        return payload[0];
    }

    /** Removes the earliest event (read it with the peeks first). */
    void pop() {
        int last = --size;
        long t = time[last];
        long o = order[last];
        long p = payload[last];
        int i = 0;
        while (true) {
            int c = 2 * i + 1;
            if (c >= size) {
                break;
            }
            if (c + 1 < size && less(time[c + 1], order[c + 1], time[c], order[c])) {
                c++;
            }
            if (!less(time[c], order[c], t, o)) {
                break;
            }
            time[i] = time[c];
            order[i] = order[c];
            payload[i] = payload[c];
            i = c;
        }
        time[i] = t;
        order[i] = o;
        payload[i] = p;
    }

    private static boolean less(long t1, long o1, long t2, long o2) {
        return t1 < t2 || (t1 == t2 && o1 < o2);
    }
}
