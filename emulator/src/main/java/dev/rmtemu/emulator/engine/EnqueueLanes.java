package dev.rmtemu.emulator.engine;

import java.util.Arrays;

/**
 * Packets on their way from a pipe's parser to the traffic manager. Every packet
 * of a pipe takes the same ingress latency and parser slots strictly increase,
 * so each pipe's arrivals at the TM are a FIFO in time: a ring per pipe replaces
 * heap events. Across pipes, equal cycles go in pipe order (the ENQUEUE
 * tie-break of {@link EventQueue}).
 */
final class EnqueueLanes {
    private long[][] cycle;
    private int[][] slot;
    private final int[] head;
    private final int[] size;

    EnqueueLanes(int pipes) {
        cycle = new long[pipes][64];
        slot = new int[pipes][64];
        head = new int[pipes];
        size = new int[pipes];
    }

    void add(int pipe, long at, int packetSlot) {
        int cap = cycle[pipe].length;
        if (size[pipe] == cap) {
            long[] c = new long[cap * 2];
            int[] s = new int[cap * 2];
            for (int i = 0; i < cap; i++) {
                c[i] = cycle[pipe][(head[pipe] + i) & (cap - 1)];
                s[i] = slot[pipe][(head[pipe] + i) & (cap - 1)];
            }
            cycle[pipe] = c;
            slot[pipe] = s;
            head[pipe] = 0;
            cap *= 2;
        }
        int tail = (head[pipe] + size[pipe]) & (cap - 1);
        cycle[pipe][tail] = at;
        slot[pipe][tail] = packetSlot;
        size[pipe]++;
    }

    /** The pipe whose head is earliest (lowest pipe on ties), or -1 when all are empty. */
    int earliestPipe() {
        int best = -1;
        long bestCycle = Long.MAX_VALUE;
        for (int p = 0; p < size.length; p++) {
            if (size[p] > 0) {
                long c = cycle[p][head[p]];
                if (c < bestCycle) {
                    bestCycle = c;
                    best = p;
                }
            }
        }
        return best;
    }

    long headCycle(int pipe) {
        return cycle[pipe][head[pipe]];
    }

    /** Removes the head of a pipe's lane and returns its packet slot. */
    int poll(int pipe) {
        int s = slot[pipe][head[pipe]];
        head[pipe] = (head[pipe] + 1) & (cycle[pipe].length - 1);
        size[pipe]--;
        return s;
    }

    boolean isEmpty() {
        for (int n : size) {
            if (n > 0) {
                return false;
            }
        }
        return true;
    }

    int total() {
        return Arrays.stream(size).sum();
    }
}
