package dev.rmtemu.emulator.tm;

import dev.rmtemu.traces.gen.SplitMix64;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link TrafficManager#cutThrough} is enqueue followed by dequeue at the same cycle, for a port
 * that is empty and idle: the same dequeue description, port timing, counters and drops.
 */
class CutThroughTest {
    private static TrafficManager tm(double gbps, int queueLimitCells) {
        PortConfig port = PortConfig.strictPriority(gbps).withLimits(queueLimitCells, PortConfig.DEFAULT_PORT_LIMIT_CELLS);
        return new TrafficManager(TrafficManagerConfig.uniform(TrafficManagerConfig.TOFINO1_CLOCK_HZ, 2, port));
    }

    @Test
    void aPacketToAnIdlePortStartsAsEnqueueThenDequeueWouldStartIt() {
        // 40 G: a 1500 B frame takes 1520 * 8 * 1.22e9 / 40e9 = 370.88 cycles, so free instants carry fractions
        TrafficManager queued = tm(40, PortConfig.DEFAULT_QUEUE_LIMIT_CELLS);
        TrafficManager cut = tm(40, PortConfig.DEFAULT_QUEUE_LIMIT_CELLS);
        DequeueInfo a = new DequeueInfo();
        DequeueInfo b = new DequeueInfo();
        SplitMix64 random = new SplitMix64(34);
        long cycle = 0;
        int fractional = 0;
        for (int handle = 1; handle <= 2000; handle++) {
            int bytes = 64 + random.nextInt(1437);
            int qid = random.nextInt(8);
            cycle = Math.max(cycle + random.nextInt(400), queued.portFreeCycle(1));
            assertEquals(queued.canCutThrough(1, cycle), cut.canCutThrough(1, cycle));
            assertTrue(cut.canCutThrough(1, cycle), "port idle and empty at cycle " + cycle);
            assertEquals(0, queued.enqueue(cycle, 1, qid, handle, bytes, 3));
            assertEquals(qid, queued.dequeue(cycle, 1, a));
            assertEquals(0, cut.cutThrough(cycle, 1, qid, handle, bytes, 3, b));
            assertEquals(a.toString(), b.toString()); // cells included: what the admission counted
            assertEquals((bytes + 3 + 79) / 80, b.cells(), "80 B cells for the frame and 3 bridged bytes");
            assertEquals(queued.portFreeCycleFloor(1), cut.portFreeCycleFloor(1));
            assertEquals(queued.portFreeCycleRemainder(1), cut.portFreeCycleRemainder(1));
            assertEquals(queued.enqueuedPackets(1, qid), cut.enqueuedPackets(1, qid));
            assertEquals(queued.dequeuedBytes(1, qid), cut.dequeuedBytes(1, qid));
            assertEquals(0, cut.bufferOccupancyCells());
            assertEquals(cycle, b.serialisationStartCycle(), "starts at once");
            if (queued.portFreeCycleRemainder(1) != 0) {
                fractional++;
            }
        }
        assertEquals(queued.totalDequeued(), cut.totalDequeued());
        assertTrue(fractional > 1000, "most free instants fall between two cycles: " + fractional);
    }

    @Test
    void aPacketToAnEmptyBusyPortStartsAsEnqueueThenTheLaterDequeueWouldStartIt() {
        // offered while the port still serialises its previous packet: admitted at c, sent at the free cycle d
        TrafficManager queued = tm(40, PortConfig.DEFAULT_QUEUE_LIMIT_CELLS);
        TrafficManager cut = tm(40, PortConfig.DEFAULT_QUEUE_LIMIT_CELLS);
        DequeueInfo a = new DequeueInfo();
        DequeueInfo b = new DequeueInfo();
        SplitMix64 random = new SplitMix64(35);
        long cycle = 0;
        long lastDequeue = 0;
        int waited = 0;
        for (int handle = 1; handle <= 2000; handle++) {
            int bytes = 64 + random.nextInt(1437);
            int qid = random.nextInt(8);
            // from 200 cycles before the port is free to 200 after it (never before the last dequeue: one timeline)
            cycle = Math.max(lastDequeue, queued.portFreeCycle(1) - 200 + random.nextInt(400));
            long d = cut.cutThroughCycle(1, cycle);
            assertEquals(Math.max(cycle, queued.portFreeCycle(1)), d);
            assertEquals(0, queued.enqueue(cycle, 1, qid, handle, bytes, 3));
            assertEquals(d, queued.nextDequeueCycle(1));
            assertEquals(qid, queued.dequeue(d, 1, a));
            assertEquals(0, cut.cutThrough(cycle, d, 1, qid, handle, bytes, 3, b));
            assertEquals(a.toString(), b.toString());
            assertEquals(queued.portFreeCycleFloor(1), cut.portFreeCycleFloor(1));
            assertEquals(queued.portFreeCycleRemainder(1), cut.portFreeCycleRemainder(1));
            assertEquals(0, cut.bufferOccupancyCells());
            if (d > cycle) {
                waited++;
            }
            lastDequeue = d;
        }
        assertEquals(queued.totalDequeued(), cut.totalDequeued());
        assertTrue(waited > 500, "many found the port busy: " + waited);
    }

    @Test
    void theEnginesCutThroughAtIsTheCheckedCutThrough() {
        // cutThroughAt (the engine's: d just had from cutThroughCycle) against cutThrough, with refusals
        TrafficManager checked = tm(40, 12);
        TrafficManager at = tm(40, 12);
        DequeueInfo a = new DequeueInfo();
        DequeueInfo b = new DequeueInfo();
        SplitMix64 random = new SplitMix64(36);
        long cycle = 0;
        int refused = 0;
        for (int handle = 1; handle <= 2000; handle++) {
            int bytes = 64 + random.nextInt(1437);
            int qid = random.nextInt(8);
            cycle = Math.max(cycle, checked.portFreeCycle(1) - 200 + random.nextInt(400));
            long d = at.cutThroughCycle(1, cycle);
            assertEquals(checked.cutThroughCycle(1, cycle), d);
            int code = checked.cutThrough(cycle, d, 1, qid, handle, bytes, 3, a);
            assertEquals(code, at.cutThroughAt(cycle, d, 1, qid, handle, bytes, 3, b));
            if (code == 0) {
                assertEquals(a.toString(), b.toString());
                cycle = d;
            } else {
                refused++;
            }
            assertEquals(checked.portFreeCycleFloor(1), at.portFreeCycleFloor(1));
            assertEquals(checked.portFreeCycleRemainder(1), at.portFreeCycleRemainder(1));
            assertEquals(checked.droppedPackets(1, qid, DropCause.QUEUE_LIMIT), at.droppedPackets(1, qid, DropCause.QUEUE_LIMIT));
            assertEquals(checked.dequeuedBytes(1, qid), at.dequeuedBytes(1, qid));
        }
        assertEquals(checked.totalDequeued(), at.totalDequeued());
        assertTrue(refused > 100, "frames over 12 cells (955 B) are refused: " + refused);
        long late = cycle + 10_000;
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> at.cutThroughAt(late, at.cutThroughCycle(1, late), 1, 8, 1, 64, 0, b));
        assertEquals("queue 8 does not exist on port 1 (it has 8)", e.getMessage());
    }

    @Test
    void aLaterDequeueNeedsAnEmptyStrictPriorityPort() {
        TrafficManager tm = tm(40, PortConfig.DEFAULT_QUEUE_LIMIT_CELLS);
        DequeueInfo info = new DequeueInfo();
        assertEquals(0, tm.cutThrough(100, 100, 0, 0, 1, 1500, 0, info));
        assertEquals(471, tm.cutThroughCycle(0, 200), "the port serialises until 470.88");
        assertEquals(500, tm.cutThroughCycle(0, 500));
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> tm.cutThrough(200, 470, 0, 0, 2, 64, 0, info));
        assertEquals("cut-through at cycle 200 on port 0 dequeued at 470: the port holds packets or is free at another cycle",
                e.getMessage());
        assertEquals(-1, tm.cutThroughCycle(0, 99), "before the port's last dequeue");
        assertEquals(0, tm.enqueue(200, 0, 0, 2, 64));
        assertEquals(-1, tm.cutThroughCycle(0, 201), "a packet is queued");
        TrafficManager drr = new TrafficManager(TrafficManagerConfig.uniform(TrafficManagerConfig.TOFINO1_CLOCK_HZ, 1,
                PortConfig.drr(40, List.of(1500, 1500))));
        assertEquals(-1, drr.cutThroughCycle(0, 0), "a DRR port always goes through its queues");
    }

    @Test
    void aBusyOrNonEmptyPortCannotCutThrough() {
        TrafficManager tm = tm(40, PortConfig.DEFAULT_QUEUE_LIMIT_CELLS);
        DequeueInfo info = new DequeueInfo();
        assertEquals(0, tm.cutThrough(100, 0, 0, 1, 1500, 0, info));
        assertEquals(471, info.serialisationEndCycle()); // 100 + 370.88, rounded up
        assertFalse(tm.canCutThrough(0, 470), "still serialising");
        assertTrue(tm.canCutThrough(0, 471));
        assertTrue(tm.canCutThrough(1, 100), "another port is idle");
        assertEquals(0, tm.enqueue(471, 0, 0, 2, 64));
        assertFalse(tm.canCutThrough(0, 471), "a packet is queued");
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> tm.cutThrough(471, 0, 0, 3, 64, 0, info));
        assertEquals("cut-through at cycle 471 on port 0, which is busy or holds packets", e.getMessage());
        TrafficManager drr = new TrafficManager(TrafficManagerConfig.uniform(TrafficManagerConfig.TOFINO1_CLOCK_HZ, 1,
                PortConfig.drr(40, List.of(1500, 1500))));
        assertFalse(drr.canCutThrough(0, 0), "a DRR port always goes through its queues");
    }

    @Test
    void aRefusedPacketIsDroppedAndCountedAsAtEnqueue() {
        TrafficManager tm = tm(40, 10); // a 1500 B frame needs 19 cells
        DequeueInfo info = new DequeueInfo();
        assertEquals(DropCause.QUEUE_LIMIT.code(), tm.cutThrough(0, 0, 2, 1, 1500, 0, info));
        assertEquals(1, tm.droppedPackets(0, 2, DropCause.QUEUE_LIMIT));
        assertEquals(0, tm.totalEnqueued());
        assertTrue(tm.canCutThrough(0, 0), "nothing was sent");
        assertEquals(0, tm.cutThrough(0, 0, 2, 2, 800, 0, info)); // 10 cells fit
        assertEquals(10, info.cells());
        assertEquals(1, tm.totalDequeued());
    }

    /**
     * The cut-through's admission reads no cell count of its (empty) port: a port limit and a
     * shared buffer filled by another port refuse it as they refuse enqueue, and a port that
     * queued packets and sent them all admits it with the depths 0 that enqueue then dequeue give.
     */
    @Test
    void anEmptyPortsAdmissionIsEnqueuesAfterItsQueueDrained() {
        PortConfig port = PortConfig.strictPriority(40).withLimits(PortConfig.DEFAULT_QUEUE_LIMIT_CELLS, 15);
        java.util.function.Supplier<TrafficManager> make = () -> new TrafficManager(new TrafficManagerConfig(
                TrafficManagerConfig.TOFINO1_CLOCK_HZ, TrafficManagerConfig.TOFINO_CELL_BYTES,
                TrafficManagerConfig.ETHERNET_OVERHEAD_BYTES, 25, List.of(port, port)));
        TrafficManager queued = make.get();
        TrafficManager cut = make.get();
        DequeueInfo a = new DequeueInfo();
        DequeueInfo b = new DequeueInfo();
        // port 1 queues two packets (12 + 2 cells) and sends both; the cut-through twin queues them too
        for (TrafficManager t : List.of(queued, cut)) {
            assertEquals(0, t.enqueue(0, 1, 0, 1, 960, 0));
            assertEquals(0, t.enqueue(0, 1, 0, 2, 100, 0));
            assertEquals(0, t.dequeue(0, 1, a));
            assertEquals(0, t.dequeue(t.nextDequeueCycle(1), 1, a));
        }
        assertEquals(Long.MAX_VALUE, cut.nextDequeueCycle(1), "port 1 holds no packet");
        long c = cut.portFreeCycleFloor(1) + 1;
        assertTrue(cut.canCutThrough(1, c));
        // 16 cells break port 1's limit of 15 (its queue's is larger)
        assertEquals(DropCause.PORT_LIMIT.code(), queued.enqueue(c, 1, 0, 3, 1280, 0));
        assertEquals(DropCause.PORT_LIMIT.code(), cut.cutThrough(c, 1, 0, 3, 1280, 0, b));
        // port 0 holds 15 of the buffer's 25 cells: 11 more do not fit, 10 do
        assertEquals(0, queued.enqueue(c, 0, 0, 4, 1200, 0));
        assertEquals(0, cut.enqueue(c, 0, 0, 4, 1200, 0));
        assertEquals(DropCause.BUFFER_FULL.code(), queued.enqueue(c, 1, 0, 5, 880, 0));
        assertEquals(DropCause.BUFFER_FULL.code(), cut.cutThrough(c, 1, 0, 5, 880, 0, b));
        assertEquals(0, queued.enqueue(c, 1, 0, 6, 800, 0));
        assertEquals(0, queued.dequeue(c, 1, a));
        assertEquals(0, cut.cutThrough(c, 1, 0, 6, 800, 0, b));
        assertEquals(a.toString(), b.toString()); // enq_qdepth and deq_qdepth 0 in both
        assertEquals(0, b.enqQdepth());
        for (DropCause cause : DropCause.values()) {
            assertEquals(queued.droppedPackets(1, cause), cut.droppedPackets(1, cause), cause.name());
        }
        assertEquals(1, cut.droppedPackets(1, DropCause.PORT_LIMIT));
        assertEquals(1, cut.droppedPackets(1, DropCause.BUFFER_FULL));
    }
}
