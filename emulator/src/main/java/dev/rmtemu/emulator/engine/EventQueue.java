package dev.rmtemu.emulator.engine;

import java.util.Arrays;

/**
 * The engine's timeline: a binary min-heap of events keyed by (cycle, phase,
 * tie-break, sequence). Within one cycle, events run by phase ({@link Phase}),
 * then by a tie-break the scheduler chooses (the pipe for enqueues, the port for
 * dequeues), then in the order they were scheduled, which makes every tie a
 * documented rule rather than an accident of heap order. Primitive arrays only; grows geometrically
 * during warm-up, never allocates at steady state.
 */
public final class EventQueue {
    /** Same-cycle order: lower phases run first. */
    public static final class Phase {
        /** A recirculated or generated packet reaches a parser (they win parser ties). */
        public static final int RECIRCULATION_ARRIVAL = 0;
        /** A packet from a port (trace, host or link) reaches a parser. */
        public static final int PORT_ARRIVAL = 1;
        /** A packet reaches the traffic manager after ingress. */
        public static final int ENQUEUE = 2;
        /** A port asks the traffic manager for its next packet. */
        public static final int DEQUEUE = 3;
        /** A packet's last bit leaves a port. */
        public static final int DEPARTURE = 4;
        /** Control-plane operations and packet-generator timers. */
        public static final int CONTROL = 5;

        private Phase() {
        }
    }

    private static final int PHASE_SHIFT = 56;
    private static final int TIE_SHIFT = 40;
    /** Largest tie-break value (16 bits). */
    public static final int MAX_TIE = (1 << (PHASE_SHIFT - TIE_SHIFT)) - 1;

    private long[] cycle = new long[1024];
    private long[] order = new long[1024];
    private int[] type = new int[1024];
    private int[] payload = new int[1024];
    private int size;
    private long seq;

    /** The event just popped. */
    private long topCycle;
    private int topType;
    private int topPayload;
    private int topPhase;

    public void schedule(long atCycle, int phase, int eventType, int eventPayload) {
        schedule(atCycle, phase, 0, eventType, eventPayload);
    }

    public void schedule(long atCycle, int phase, int tie, int eventType, int eventPayload) {
        if (size == cycle.length) {
            int n = size * 2;
            cycle = Arrays.copyOf(cycle, n);
            order = Arrays.copyOf(order, n);
            type = Arrays.copyOf(type, n);
            payload = Arrays.copyOf(payload, n);
        }
        long o = ((long) phase << PHASE_SHIFT) | ((long) tie << TIE_SHIFT) | (seq++ & ((1L << TIE_SHIFT) - 1));
        int i = size++;
        while (i > 0) {
            int parent = (i - 1) >>> 1;
            if (!less(atCycle, o, cycle[parent], order[parent])) {
                break;
            }
            move(parent, i);
            i = parent;
        }
        cycle[i] = atCycle;
        order[i] = o;
        type[i] = eventType;
        payload[i] = eventPayload;
    }

    private static boolean less(long c1, long o1, long c2, long o2) {
        return c1 < c2 || (c1 == c2 && o1 < o2);
    }

    private void move(int from, int to) {
        cycle[to] = cycle[from];
        order[to] = order[from];
        type[to] = type[from];
        payload[to] = payload[from];
    }

    public boolean isEmpty() {
        return size == 0;
    }

    public int size() {
        return size;
    }

    /** Cycle of the earliest event; Long.MAX_VALUE when empty. */
    public long peekCycle() {
        return size == 0 ? Long.MAX_VALUE : cycle[0];
    }

    /** Phase of the earliest event; Integer.MAX_VALUE when empty. */
    public int peekPhase() {
        return size == 0 ? Integer.MAX_VALUE : (int) (order[0] >>> PHASE_SHIFT);
    }

    /** Removes the earliest event; read it with {@link #cycle()}, {@link #type()}, {@link #payload()}. */
    public void pop() {
        topCycle = cycle[0];
        topType = type[0];
        topPayload = payload[0];
        topPhase = (int) (order[0] >>> PHASE_SHIFT);
        int last = --size;
        if (last == 0) {
            return;
        }
        long c = cycle[last];
        long o = order[last];
        int t = type[last];
        int p = payload[last];
        int i = 0;
        while (true) {
            int child = 2 * i + 1;
            if (child >= last) {
                break;
            }
            if (child + 1 < last && less(cycle[child + 1], order[child + 1], cycle[child], order[child])) {
                child++;
            }
            if (!less(cycle[child], order[child], c, o)) {
                break;
            }
            move(child, i);
            i = child;
        }
        cycle[i] = c;
        order[i] = o;
        type[i] = t;
        payload[i] = p;
    }

    public long cycle() {
        return topCycle;
    }

    public int type() {
        return topType;
    }

    public int payload() {
        return topPayload;
    }

    public int phase() {
        return topPhase;
    }
}
