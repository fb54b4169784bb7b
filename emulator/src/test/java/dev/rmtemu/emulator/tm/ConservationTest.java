package dev.rmtemu.emulator.tm;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A seeded mixed workload (unicast and multicast, strict priority and DRR ports, tight
 * limits so all three drop causes occur): after every step, offered = dequeued + dropped +
 * queued, the buffer holds exactly the cells of the queued frames, every queue stays FIFO
 * and no port serialises two frames at once.
 */
class ConservationTest {

    @Test
    void countersAndCellsBalanceAfterEveryStep() {
        PortConfig sp = PortConfig.strictPriority(10).withLimits(60, 100);
        PortConfig drr = PortConfig.drr(25, List.of(1500, 3000, 600)).withLimits(60, 100);
        TrafficManagerConfig cfg = new TrafficManagerConfig(TrafficManagerConfig.TOFINO1_CLOCK_HZ, 80, 20, 230,
                List.of(sp, drr, sp, drr));
        TrafficManager tm = new TrafficManager(cfg);
        int nPorts = cfg.portCount();
        SplittableRandom rnd = new SplittableRandom(7);
        DequeueInfo info = new DequeueInfo();
        int[] mcPorts = new int[nPorts];
        int[] codes = new int[nPorts];
        long[] lastEnd = new long[nPorts];
        // Last handle dequeued per (port, queue): handles grow, so FIFO order means increasing.
        int[][] lastHandle = new int[nPorts][8];
        for (int[] row : lastHandle) {
            java.util.Arrays.fill(row, -1);
        }
        long offered = 0;
        long cycle = 0;
        int handle = 0;
        for (int step = 0; step < 50_000; step++) {
            cycle += rnd.nextInt(150);
            for (int p = 0; p < nPorts; p++) {
                while (tm.nextDequeueCycle(p) <= cycle) {
                    int q = tm.dequeue(tm.nextDequeueCycle(p), p, info);
                    assertTrue(info.packetHandle() > lastHandle[p][q], "FIFO order on port " + p + " queue " + q);
                    lastHandle[p][q] = info.packetHandle();
                    assertTrue(info.serialisationStartCycle() >= lastEnd[p], "no overlap on port " + p);
                    assertTrue(info.deqTimedelta() >= 0);
                    lastEnd[p] = info.serialisationEndCycle();
                }
            }
            int bytes = 64 + rnd.nextInt(1455);
            if (rnd.nextInt(10) == 0) {
                int k = 1 + rnd.nextInt(nPorts);
                for (int i = 0; i < k; i++) {
                    mcPorts[i] = (i + step) % nPorts;
                }
                tm.enqueueMulticast(cycle, mcPorts, k, 0, handle++, bytes, codes);
                offered += k;
            } else {
                int p = rnd.nextInt(nPorts);
                tm.enqueue(cycle, p, rnd.nextInt(tm.queueCount(p)), handle++, bytes);
                offered++;
            }
            assertEquals(offered, tm.totalOffered());
            assertEquals(tm.totalOffered(), tm.totalDequeued() + tm.totalDropped() + tm.queuedPackets());
            int cells = 0;
            long packets = 0;
            for (int p = 0; p < nPorts; p++) {
                int portCells = 0;
                for (int q = 0; q < tm.queueCount(p); q++) {
                    portCells += tm.queueDepthCells(p, q);
                    packets += tm.queueDepthPackets(p, q);
                }
                assertEquals(portCells, tm.portDepthCells(p));
                cells += portCells;
            }
            assertEquals(cells, tm.bufferOccupancyCells());
            assertEquals(packets, tm.queuedPackets());
            assertTrue(cells <= 230);
        }
        for (DropCause cause : DropCause.values()) {
            assertTrue(tm.totalDropped(cause) > 0, "workload exercises " + cause);
        }
        // Drain everything: the buffer must come back empty.
        for (int p = 0; p < nPorts; p++) {
            while (tm.nextDequeueCycle(p) != Long.MAX_VALUE) {
                tm.dequeue(tm.nextDequeueCycle(p), p, info);
            }
        }
        assertEquals(0, tm.queuedPackets());
        assertEquals(0, tm.bufferOccupancyCells());
        assertEquals(offered, tm.totalDequeued() + tm.totalDropped());
    }

    @Test
    void fifoGrowsAndWrapsWithoutReorderingOrLosingFields() {
        PacketFifo f = new PacketFifo();
        int pushed = 0;
        int popped = 0;
        // Interleave so the ring wraps before and after each doubling.
        for (int round = 0; round < 200; round++) {
            for (int i = 0; i < 7; i++) {
                f.push(pushed, pushed * 3, pushed * 11, pushed * 5, pushed * 7L);
                pushed++;
            }
            for (int i = 0; i < 5; i++) {
                assertEquals(popped, f.headHandle());
                assertEquals(popped * 3, f.headBytes());
                assertEquals(popped * 11, f.headCells());
                assertEquals(popped * 5, f.headEnqDepth());
                assertEquals(popped * 7L, f.headEnqTstamp());
                f.pop();
                popped++;
            }
        }
        assertEquals(400, f.size());
        assertEquals(512, f.capacity(), "grew geometrically from 16 to the next power of two");
    }
}
