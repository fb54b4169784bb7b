package dev.rmtemu.emulator.tm;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

class SchedulerTest {

    private static int[] drainOrder(TrafficManager tm, int port, int n) {
        DequeueInfo info = new DequeueInfo();
        int[] qids = new int[n];
        for (int i = 0; i < n; i++) {
            qids[i] = tm.dequeue(tm.nextDequeueCycle(port), port, info);
        }
        return qids;
    }

    @Test
    void strictPriorityServesHighestQueueIndexFirst() {
        TrafficManager tm = new TrafficManager(TrafficManagerConfig.tofino1(1, 10));
        tm.enqueue(0, 0, 0, 100, 64);
        tm.enqueue(0, 0, 3, 300, 64);
        tm.enqueue(0, 0, 1, 101, 64);
        tm.enqueue(0, 0, 7, 700, 64);
        tm.enqueue(0, 0, 3, 301, 64);
        DequeueInfo info = new DequeueInfo();
        int[] expectedHandles = {700, 300, 301, 101, 100};
        for (int expected : expectedHandles) {
            tm.dequeue(tm.nextDequeueCycle(0), 0, info);
            assertEquals(expected, info.packetHandle());
        }
    }

    @Test
    void strictPriorityLetsALateUrgentFrameOvertakeTheBacklog() {
        TrafficManager tm = new TrafficManager(TrafficManagerConfig.tofino1(1, 10));
        DequeueInfo info = new DequeueInfo();
        for (int i = 0; i < 3; i++) {
            tm.enqueue(0, 0, 0, i, 1500);
        }
        tm.dequeue(0, 0, info); // handle 0, port busy until 1483.52
        tm.enqueue(1000, 0, 5, 99, 64);
        tm.dequeue(tm.nextDequeueCycle(0), 0, info);
        assertEquals(99, info.packetHandle());
        assertEquals(1484, info.serialisationStartCycle());
        assertEquals(484, info.deqTimedelta());
        tm.dequeue(tm.nextDequeueCycle(0), 0, info);
        assertEquals(1, info.packetHandle());
    }

    @Test
    void drrWithQuanta1500And3000SendsOneToTwo() {
        PortConfig port = PortConfig.drr(10, List.of(1500, 3000)).withLimits(100_000, 200_000);
        TrafficManager tm = new TrafficManager(TrafficManagerConfig.uniform(TrafficManagerConfig.TOFINO1_CLOCK_HZ, 1, port)
                .withSharedBufferCells(200_000));
        for (int i = 0; i < 2000; i++) {
            tm.enqueue(0, 0, 0, i, 1500);
            tm.enqueue(0, 0, 1, 10_000 + i, 1500);
        }
        int[] order = drainOrder(tm, 0, 3000);
        // Each round: queue 0 gets 1500 B (one frame), queue 1 gets 3000 B (two frames).
        for (int i = 0; i < 3000; i++) {
            assertEquals(i % 3 == 0 ? 0 : 1, order[i], "dequeue " + i);
        }
        assertEquals(1000, tm.dequeuedPackets(0, 0));
        assertEquals(2000, tm.dequeuedPackets(0, 1));
        assertEquals(1_500_000, tm.dequeuedBytes(0, 0));
        assertEquals(3_000_000, tm.dequeuedBytes(0, 1));
    }

    /**
     * Quantum 1500 with 1000 B frames: rounds send 1, 2, 1, 2… frames (3 per 2 rounds).
     * Quantum 3000 with 700 B frames: deficits 200, 400, 600, 100, 300, 500, 0 → 4,4,4,5,4,4,5
     * frames, 30 per 7 rounds. After 14 rounds both deficits are 0: queue 0 sent 21 frames
     * (21,000 B = 14 × 1500), queue 1 sent 60 (42,000 B = 14 × 3000), 81 dequeues in all.
     */
    @Test
    void drrCarriesDeficitsAcrossRoundsExactly() {
        PortConfig port = PortConfig.drr(100, List.of(1500, 3000)).withLimits(100_000, 200_000);
        TrafficManager tm = new TrafficManager(TrafficManagerConfig.uniform(TrafficManagerConfig.TOFINO1_CLOCK_HZ, 1, port)
                .withSharedBufferCells(200_000));
        for (int i = 0; i < 1000; i++) {
            tm.enqueue(0, 0, 0, i, 1000);
            tm.enqueue(0, 0, 1, 10_000 + i, 700);
        }
        int[] order = drainOrder(tm, 0, 81 * 10);
        int[] firstRounds = {0, 1, 1, 1, 1, 0, 0, 1, 1, 1, 1};
        for (int i = 0; i < firstRounds.length; i++) {
            assertEquals(firstRounds[i], order[i], "dequeue " + i);
        }
        assertEquals(210, tm.dequeuedPackets(0, 0));
        assertEquals(600, tm.dequeuedPackets(0, 1));
        assertEquals(210_000, tm.dequeuedBytes(0, 0));
        assertEquals(420_000, tm.dequeuedBytes(0, 1));
    }

    @Test
    void drrSkipsEmptyQueuesAndForgetsTheirDeficit() {
        PortConfig port = PortConfig.drr(10, List.of(1500, 1500, 1500));
        TrafficManager tm = new TrafficManager(TrafficManagerConfig.uniform(TrafficManagerConfig.TOFINO1_CLOCK_HZ, 1, port));
        tm.enqueue(0, 0, 0, 0, 1000);
        tm.enqueue(0, 0, 2, 2, 1000);
        tm.enqueue(0, 0, 2, 3, 1000);
        DequeueInfo info = new DequeueInfo();
        int[] expected = {0, 2, 2};
        for (int e : expected) {
            assertEquals(e, tm.dequeue(tm.nextDequeueCycle(0), 0, info));
        }
        // Queue 2 had 1500 + 1500 - 2000 = 1000 B left when it emptied; it must not keep it.
        // With its deficit reset: q1 sends 10, q2 gets 1500 and sends 20 (1200 B, 300 left),
        // q1 sends 11, q2 sends 21. Had q2 kept its 1000 B, it would send 20 and 21 at once.
        tm.enqueue(10_000, 0, 1, 10, 1500);
        tm.enqueue(10_000, 0, 1, 11, 1500);
        tm.enqueue(10_000, 0, 2, 20, 1200);
        tm.enqueue(10_000, 0, 2, 21, 1200);
        int[] handles = {10, 20, 11, 21};
        for (int h : handles) {
            tm.dequeue(tm.nextDequeueCycle(0), 0, info);
            assertEquals(h, info.packetHandle());
        }
        assertEquals(TrafficManager.NOTHING_DEQUEUED, tm.dequeue(tm.portFreeCycle(0), 0, info));
    }
}
