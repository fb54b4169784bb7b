package dev.rmtemu.emulator.engine;

import java.util.Arrays;

/**
 * The traffic manager's pending dequeues: at most one per port, ordered by (cycle, port),
 * which is the DEQUEUE phase's order on the timeline. An indexed min-heap over ports, kept
 * apart from the general {@link EventQueue} because nearly every packet schedules one and
 * a port's pending dequeue never needs a sequence number (there is only one).
 */
final class DequeueCalendar {
    private final long[] cycleOf;
    /** Heap of ports; position of each port in it, or -1 when it has no dequeue pending. */
    private final int[] heap;
    private final int[] position;
    private int size;

    DequeueCalendar(int ports) {
        cycleOf = new long[ports];
        heap = new int[ports];
        position = new int[ports];
        Arrays.fill(position, -1);
    }

    boolean pending(int port) {
        return position[port] >= 0;
    }

    /** Port {@code port} (with nothing pending) dequeues at {@code cycle}. */
    void schedule(int port, long cycle) {
        if (position[port] >= 0) {
            throw new IllegalStateException("port " + port + " already has a dequeue at cycle " + cycleOf[port]);
        }
        cycleOf[port] = cycle;
        int i = size++;
        while (i > 0) {
            int parent = (i - 1) >>> 1;
            int p = heap[parent];
            if (!before(port, p)) {
                break;
            }
            heap[i] = p;
            position[p] = i;
            i = parent;
        }
        heap[i] = port;
        position[port] = i;
    }

    boolean isEmpty() {
        return size == 0;
    }

    /** Cycle of the first pending dequeue; Long.MAX_VALUE when none. */
    long headCycle() {
        return size == 0 ? Long.MAX_VALUE : cycleOf[heap[0]];
    }

    /** Port of the first pending dequeue (only when not empty). */
    int headPort() {
        return heap[0];
    }

    /** Removes the first pending dequeue and returns its port. */
    int poll() {
        int port = heap[0];
        position[port] = -1;
        int last = heap[--size];
        if (size > 0) {
            int i = 0;
            while (true) {
                int child = 2 * i + 1;
                if (child >= size) {
                    break;
                }
                if (child + 1 < size && before(heap[child + 1], heap[child])) {
                    child++;
                }
                if (!before(heap[child], last)) {
                    break;
                }
                heap[i] = heap[child];
                position[heap[i]] = i;
                i = child;
            }
            heap[i] = last;
            position[last] = i;
        }
        return port;
    }

    private boolean before(int a, int b) {
        return cycleOf[a] < cycleOf[b] || (cycleOf[a] == cycleOf[b] && a < b);
    }
}
