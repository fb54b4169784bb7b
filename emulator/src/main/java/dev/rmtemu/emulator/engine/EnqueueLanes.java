package dev.rmtemu.emulator.engine;

/**
 * Packets on their way from a pipe's parser to the traffic manager. Every packet
 * of a pipe takes the same ingress latency and parser slots strictly increase,
 * so each pipe's arrivals at the TM are a FIFO in time: a ring per pipe replaces
 * heap events. Across pipes, equal cycles go in pipe order (the ENQUEUE
 * tie-break of {@link EventQueue}).
 *
 * <p>The rings share two flat arrays (pipe p owns {@code [p·cap, (p+1)·cap)}) and the
 * earliest pipe is cached: it can change only when a lane goes from empty to busy
 * (add) or loses its head (poll), so the per-event question "which lane is first"
 * costs a field read.
 */
final class EnqueueLanes {
    private static final int INITIAL_CAPACITY = 64;

    private final int pipes;
    private long[] cycle;
    private int[] slot;
    private int cap;
    private final int[] head;
    private final int[] size;
    private int total;
    /** The pipe whose head is earliest (lowest pipe on ties), or -1 when all are empty. */
    private int earliest = -1;

    EnqueueLanes(int pipes) {
        this.pipes = pipes;
        this.cap = INITIAL_CAPACITY;
        cycle = new long[pipes * cap];
        slot = new int[pipes * cap];
        head = new int[pipes];
        size = new int[pipes];
    }

    void add(int pipe, long at, int packetSlot) {
        if (size[pipe] == cap) {
            grow();
        }
        int tail = pipe * cap + ((head[pipe] + size[pipe]) & (cap - 1));
        cycle[tail] = at;
        slot[tail] = packetSlot;
        total++;
        if (size[pipe]++ == 0) {
            // the lane's head is new: it may now be the earliest
            if (earliest < 0) {
                earliest = pipe;
            } else {
                long e = headCycle(earliest);
                if (at < e || (at == e && pipe < earliest)) {
                    earliest = pipe;
                }
            }
        }
    }

    private void grow() {
        int n = cap * 2;
        long[] c = new long[pipes * n];
        int[] s = new int[pipes * n];
        for (int p = 0; p < pipes; p++) {
            for (int i = 0; i < size[p]; i++) {
                int from = p * cap + ((head[p] + i) & (cap - 1));
                c[p * n + i] = cycle[from];
                s[p * n + i] = slot[from];
            }
            head[p] = 0;
        }
        cycle = c;
        slot = s;
        cap = n;
    }

    /** The pipe whose head is earliest (lowest pipe on ties), or -1 when all are empty. */
    int earliestPipe() {
        return earliest;
    }

    long headCycle(int pipe) {
        return cycle[pipe * cap + head[pipe]];
    }

    /** Removes the head of a pipe's lane and returns its packet slot. */
    int poll(int pipe) {
        int s = slot[pipe * cap + head[pipe]];
        head[pipe] = (head[pipe] + 1) & (cap - 1);
        size[pipe]--;
        total--;
        if (pipe == earliest) {
            earliest = scanEarliest();
        }
        return s;
    }

    private int scanEarliest() {
        if (total == 0) {
            return -1;
        }
        int best = -1;
        long bestCycle = Long.MAX_VALUE;
        for (int p = 0; p < pipes; p++) {
            if (size[p] > 0) {
                long c = headCycle(p);
                if (c < bestCycle) {
                    bestCycle = c;
                    best = p;
                }
            }
        }
        return best;
    }

    boolean isEmpty() {
        return total == 0;
    }

    int total() {
        return total;
    }
}
