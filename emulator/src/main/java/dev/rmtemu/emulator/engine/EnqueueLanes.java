package dev.rmtemu.emulator.engine;

/**
 * Packets on their way from the pipes' parsers to the traffic manager, in the order they
 * reach it: by cycle, then by pipe (the ENQUEUE tie-break of {@link EventQueue}). Every
 * packet of a pipe takes the same ingress latency and a pipe's parser slots strictly
 * increase, so each pipe's packets come in time order; packets of different pipes
 * interleave almost in time order too (a packet overtakes another pipe's only when that
 * pipe's parser was busy). One ring sorted by insertion from the tail therefore replaces
 * heap events: an add almost always appends, a poll takes the head.
 */
final class EnqueueLanes {
    private static final int INITIAL_CAPACITY = 64;

    private long[] cycle;
    private int[] pipe;
    private int[] slot;
    private int mask;
    private int head;
    private int size;

    EnqueueLanes() {
        cycle = new long[INITIAL_CAPACITY];
        pipe = new int[INITIAL_CAPACITY];
        slot = new int[INITIAL_CAPACITY];
        mask = INITIAL_CAPACITY - 1;
    }

    /** Packet {@code packetSlot} of {@code fromPipe} reaches the traffic manager at cycle {@code at}. */
    void add(int fromPipe, long at, int packetSlot) {
        if (size == mask + 1) {
            grow();
        }
        int i = size;
        // walk back over entries that go after (at, fromPipe); equal keys keep their order
        while (i > 0) {
            int prev = (head + i - 1) & mask;
            long c = cycle[prev];
            if (c < at || (c == at && pipe[prev] <= fromPipe)) {
                break;
            }
            int to = (head + i) & mask;
            cycle[to] = c;
            pipe[to] = pipe[prev];
            slot[to] = slot[prev];
            i--;
        }
        int at2 = (head + i) & mask;
        cycle[at2] = at;
        pipe[at2] = fromPipe;
        slot[at2] = packetSlot;
        size++;
    }

    private void grow() {
        int n = (mask + 1) * 2;
        long[] c = new long[n];
        int[] p = new int[n];
        int[] s = new int[n];
        for (int i = 0; i < size; i++) {
            int from = (head + i) & mask;
            c[i] = cycle[from];
            p[i] = pipe[from];
            s[i] = slot[from];
        }
        cycle = c;
        pipe = p;
        slot = s;
        head = 0;
        mask = n - 1;
    }

    boolean isEmpty() {
        return size == 0;
    }

    /** Cycle of the first packet to reach the traffic manager; Long.MAX_VALUE when empty. */
    long headCycle() {
        return size == 0 ? Long.MAX_VALUE : cycle[head];
    }

    /** Removes the first packet and returns its slot (the lanes must not be empty). */
    int poll() {
        int s = slot[head];
        head = (head + 1) & mask;
        size--;
        return s;
    }

    int size() {
        return size;
    }
}
