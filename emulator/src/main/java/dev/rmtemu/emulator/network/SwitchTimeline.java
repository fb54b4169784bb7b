package dev.rmtemu.emulator.network;

/**
 * The switches of a network ordered by their next event: an indexed binary min-heap of switch
 * ordinals keyed by (next event cycle, ordinal), so the earliest switch is found in constant
 * time and a switch whose next event moved is re-placed in O(log switches), where a scan would
 * read every switch at every step. Ties go to the lower ordinal, as the network's rule says.
 * Primitive arrays, no allocation after construction.
 */
final class SwitchTimeline {
    private final int[] heap;
    private final int[] position;
    private final long[] next;

    SwitchTimeline(int switches) {
        heap = new int[switches];
        position = new int[switches];
        next = new long[switches];
        for (int s = 0; s < switches; s++) {
            heap[s] = s;
            position[s] = s;
            next[s] = Long.MAX_VALUE;
        }
    }

    /** The switch with the earliest next event (lowest ordinal on a tie). */
    int first() {
        return heap[0];
    }

    /** Next event cycle of switch {@code s} as last told. */
    long next(int s) {
        return next[s];
    }

    /** Switch {@code s}'s next event is now at {@code cycle}. */
    void set(int s, long cycle) {
        long old = next[s];
        next[s] = cycle;
        if (cycle < old) {
            up(position[s]);
        } else if (cycle > old) {
            down(position[s]);
        }
    }

    /** Switch {@code s} has an event at {@code cycle} (its next event moves only if that is earlier). */
    void earlier(int s, long cycle) {
        if (cycle < next[s]) {
            next[s] = cycle;
            up(position[s]);
        }
    }

    private boolean before(int a, int b) {
        return next[a] < next[b] || next[a] == next[b] && a < b;
    }

    private void up(int i) {
        int s = heap[i];
        while (i > 0) {
            int parent = (i - 1) >>> 1;
            int p = heap[parent];
            if (!before(s, p)) {
                break;
            }
            heap[i] = p;
            position[p] = i;
            i = parent;
        }
        heap[i] = s;
        position[s] = i;
    }

    private void down(int i) {
        int n = heap.length;
        int s = heap[i];
        while (true) {
            int child = 2 * i + 1;
            if (child >= n) {
                break;
            }
            if (child + 1 < n && before(heap[child + 1], heap[child])) {
                child++;
            }
            int c = heap[child];
            if (!before(c, s)) {
                break;
            }
            heap[i] = c;
            position[c] = i;
            i = child;
        }
        heap[i] = s;
        position[s] = i;
    }
}
