package dev.rmtemu.emulator.engine;

import java.util.Arrays;

/**
 * The engine's timeline: events keyed by (cycle, phase, tie-break, sequence). Within one cycle,
 * events run by phase ({@link Phase}), then by a tie-break the scheduler chooses (the pipe for
 * enqueues, the port for dequeues), then in the order they were scheduled, which makes every tie
 * a documented rule rather than an accident of heap order. Primitive arrays only; grows
 * geometrically during warm-up, never allocates at steady state.
 *
 * <p>Two stores hold the events: a ring of events scheduled in key order (an event whose key is
 * not below the ring's last goes to its tail) and a binary min-heap of the others; the earliest
 * event is the lesser of the ring's head and the heap's top. Keys are unique (the sequence), so
 * the events come out in the same order as from one heap. A network's switch is scheduled its
 * link arrivals in time order almost always (a window's arrivals, each link's in the order it
 * sent them): they pass through the ring, one append and one poll each, where a heap holding
 * a window's packets would sift each one through its levels twice.
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
    private static final int INITIAL_RING = 64;

    // the heap
    private long[] cycle = new long[1024];
    private long[] order = new long[1024];
    private int[] type = new int[1024];
    private int[] payload = new int[1024];
    private int size;
    private long seq;

    // the ring of events scheduled in key order: head .. head + ringSize - 1 (mod its length)
    private long[] ringCycle = new long[INITIAL_RING];
    private long[] ringOrder = new long[INITIAL_RING];
    private int[] ringType = new int[INITIAL_RING];
    private int[] ringPayload = new int[INITIAL_RING];
    private int ringMask = INITIAL_RING - 1;
    private int ringHead;
    private int ringSize;
    /** Key of the ring's last event (valid while it holds one). */
    private long ringLastCycle;
    private long ringLastOrder;

    /** The event just popped. */
    private long topCycle;
    private int topType;
    private int topPayload;
    private int topPhase;

    public void schedule(long atCycle, int phase, int eventType, int eventPayload) {
        schedule(atCycle, phase, 0, eventType, eventPayload);
    }

    public void schedule(long atCycle, int phase, int tie, int eventType, int eventPayload) {
        long o = ((long) phase << PHASE_SHIFT) | ((long) tie << TIE_SHIFT) | (seq++ & ((1L << TIE_SHIFT) - 1));
        if (ringSize == 0 || !less(atCycle, o, ringLastCycle, ringLastOrder)) {
            append(atCycle, o, eventType, eventPayload);
            return;
        }
        if (size == cycle.length) {
            int n = size * 2;
            cycle = Arrays.copyOf(cycle, n);
            order = Arrays.copyOf(order, n);
            type = Arrays.copyOf(type, n);
            payload = Arrays.copyOf(payload, n);
        }
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

    /** An event whose key is not below any in the ring goes to its tail. */
    private void append(long atCycle, long o, int eventType, int eventPayload) {
        if (ringSize == ringMask + 1) {
            growRing();
        }
        int t = (ringHead + ringSize++) & ringMask;
        ringCycle[t] = atCycle;
        ringOrder[t] = o;
        ringType[t] = eventType;
        ringPayload[t] = eventPayload;
        ringLastCycle = atCycle;
        ringLastOrder = o;
    }

    private void growRing() {
        int n = (ringMask + 1) * 2;
        long[] c = new long[n];
        long[] o = new long[n];
        int[] t = new int[n];
        int[] p = new int[n];
        for (int i = 0; i < ringSize; i++) {
            int from = (ringHead + i) & ringMask;
            c[i] = ringCycle[from];
            o[i] = ringOrder[from];
            t[i] = ringType[from];
            p[i] = ringPayload[from];
        }
        ringCycle = c;
        ringOrder = o;
        ringType = t;
        ringPayload = p;
        ringHead = 0;
        ringMask = n - 1;
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

    /** Whether the earliest event is the ring's head (the ring holds one and the heap none earlier). */
    private boolean ringFirst() {
        return ringSize != 0 && (size == 0 || less(ringCycle[ringHead], ringOrder[ringHead], cycle[0], order[0]));
    }

    public boolean isEmpty() {
        return size == 0 && ringSize == 0;
    }

    public int size() {
        return size + ringSize;
    }

    /** Cycle of the earliest event; Long.MAX_VALUE when empty. */
    public long peekCycle() {
        if (ringFirst()) {
            return ringCycle[ringHead];
        }
        return size == 0 ? Long.MAX_VALUE : cycle[0];
    }

    /** Phase of the earliest event; Integer.MAX_VALUE when empty. */
    public int peekPhase() {
        if (ringFirst()) {
            return (int) (ringOrder[ringHead] >>> PHASE_SHIFT);
        }
        return size == 0 ? Integer.MAX_VALUE : (int) (order[0] >>> PHASE_SHIFT);
    }

    /** Removes the earliest event; read it with {@link #cycle()}, {@link #type()}, {@link #payload()}. */
    public void pop() {
        if (ringFirst()) {
            int h = ringHead;
            topCycle = ringCycle[h];
            topType = ringType[h];
            topPayload = ringPayload[h];
            topPhase = (int) (ringOrder[h] >>> PHASE_SHIFT);
            ringHead = (h + 1) & ringMask;
            ringSize--;
            return;
        }
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
