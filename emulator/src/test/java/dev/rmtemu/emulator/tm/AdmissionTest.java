package dev.rmtemu.emulator.tm;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Tail-drop admission in 80-byte cells; a 1500 B frame takes ceil(1500 / 80) = 19 cells. */
class AdmissionTest {
    private static final int FRAME = 1500;
    private static final int FRAME_CELLS = 19;

    private static TrafficManager tm(int ports, int queueLimit, int portLimit, int bufferCells) {
        PortConfig port = PortConfig.strictPriority(10).withLimits(queueLimit, portLimit);
        return new TrafficManager(TrafficManagerConfig.uniform(TrafficManagerConfig.TOFINO1_CLOCK_HZ, ports, port)
                .withSharedBufferCells(bufferCells));
    }

    @Test
    void cellsAreRoundedUp() {
        TrafficManager tm = tm(1, 100, 100, 100);
        assertEquals(1, tm.cellsFor(1));
        assertEquals(1, tm.cellsFor(80));
        assertEquals(2, tm.cellsFor(81));
        assertEquals(FRAME_CELLS, tm.cellsFor(FRAME));
        tm.enqueue(0, 0, 3, 1, 64);
        tm.enqueue(0, 0, 3, 2, 81);
        assertEquals(3, tm.queueDepthCells(0, 3));
        assertEquals(2, tm.queueDepthPackets(0, 3));
        assertEquals(3, tm.portDepthCells(0));
        assertEquals(3, tm.bufferOccupancyCells());
    }

    @Test
    void bridgedBytesTakeBufferCellsButNotWireTime() {
        // 1500 B on the wire + 29 B of bridged header: ceil(1529 / 80) = 20 cells, not 19
        TrafficManager tm = tm(1, 100, 100, 100);
        assertEquals(0, tm.enqueue(0, 0, 0, 1, FRAME, 29));
        assertEquals(FRAME_CELLS + 1, tm.queueDepthCells(0, 0));
        // five such frames need 100 cells: the fifth still fits, a plain 1-byte frame then does not
        for (int i = 2; i <= 5; i++) {
            assertEquals(0, tm.enqueue(0, 0, 0, i, FRAME, 29));
        }
        assertEquals(100, tm.queueDepthCells(0, 0));
        assertEquals(DropCause.QUEUE_LIMIT.code(), tm.enqueue(0, 0, 0, 6, 1));
        // serialisation counts the wire bytes only: 1500 B at 10 Gb/s (+20 B overhead) = 1483.52 cycles
        TrafficManager wire = new TrafficManager(TrafficManagerConfig.tofino1(1, 10));
        wire.enqueue(0, 0, 0, 7, FRAME, 29);
        DequeueInfo info = new DequeueInfo();
        wire.dequeue(0, 0, info);
        assertEquals(1484, info.serialisationEndCycle());
        assertThrows(IllegalArgumentException.class, () -> tm.enqueue(0, 0, 1, 8, FRAME, -1));
    }

    @Test
    void queueOverflowDropsExactlyTheFramesBeyondTheLimit() {
        // Limit 100 cells: five frames = 95 cells fit, a sixth would need 114.
        TrafficManager tm = tm(1, 100, 1000, 1000);
        int[] codes = new int[8];
        for (int i = 0; i < 8; i++) {
            codes[i] = tm.enqueue(i, 0, 0, i, FRAME);
        }
        int q = DropCause.QUEUE_LIMIT.code();
        assertArrayEquals(new int[] {0, 0, 0, 0, 0, q, q, q}, codes);
        assertEquals(5, tm.enqueuedPackets(0, 0));
        assertEquals(3, tm.droppedPackets(0, 0, DropCause.QUEUE_LIMIT));
        assertEquals(0, tm.droppedPackets(0, 0, DropCause.PORT_LIMIT));
        assertEquals(95, tm.queueDepthCells(0, 0));
        // A 400 B frame (5 cells) still fits: 95 + 5 = 100.
        assertEquals(0, tm.enqueue(9, 0, 0, 9, 400));
        assertEquals(DropCause.QUEUE_LIMIT.code(), tm.enqueue(9, 0, 0, 10, 1));
        assertEquals(DropCause.QUEUE_LIMIT, DropCause.fromCode(codes[7]));
    }

    @Test
    void portLimitCountsAllQueuesOfThePort() {
        TrafficManager tm = tm(1, 100, 150, 1000);
        for (int i = 0; i < 5; i++) {
            assertEquals(0, tm.enqueue(0, 0, 0, i, FRAME)); // 95 cells
        }
        assertEquals(0, tm.enqueue(0, 0, 1, 10, FRAME)); // 114
        assertEquals(0, tm.enqueue(0, 0, 1, 11, FRAME)); // 133
        assertEquals(DropCause.PORT_LIMIT.code(), tm.enqueue(0, 0, 1, 12, FRAME)); // would be 152
        // Breaking queue and port limit at once: the queue limit is checked first.
        assertEquals(DropCause.QUEUE_LIMIT.code(), tm.enqueue(0, 0, 0, 13, FRAME));
        assertEquals(1, tm.droppedPackets(0, DropCause.PORT_LIMIT));
        assertEquals(1, tm.droppedPackets(0, DropCause.QUEUE_LIMIT));
        assertEquals(133, tm.portDepthCells(0));
    }

    @Test
    void sharedBufferExhaustionAcrossTwoPorts() {
        // Buffer 200 cells. Port 0 takes 7 frames (133 cells), its 8th hits the port limit;
        // port 1 then fits 3 frames (57 cells, total 190) and its 4th finds the buffer full.
        TrafficManager tm = tm(2, 200, 150, 200);
        for (int i = 0; i < 7; i++) {
            assertEquals(0, tm.enqueue(0, 0, 0, i, FRAME));
        }
        assertEquals(DropCause.PORT_LIMIT.code(), tm.enqueue(0, 0, 0, 7, FRAME));
        for (int i = 0; i < 3; i++) {
            assertEquals(0, tm.enqueue(0, 1, 0, 100 + i, FRAME));
        }
        assertEquals(DropCause.BUFFER_FULL.code(), tm.enqueue(0, 1, 0, 103, FRAME));
        assertEquals(DropCause.BUFFER_FULL.code(), tm.enqueue(0, 1, 2, 104, FRAME));
        assertEquals(190, tm.bufferOccupancyCells());
        assertEquals(2, tm.totalDropped(DropCause.BUFFER_FULL));
        assertEquals(1, tm.totalDropped(DropCause.PORT_LIMIT));
        // Draining one frame of port 0 makes room for one more on port 1.
        tm.dequeue(0, 0, new DequeueInfo());
        assertEquals(171, tm.bufferOccupancyCells());
        assertEquals(0, tm.enqueue(1, 1, 0, 105, FRAME));
        assertEquals(DropCause.BUFFER_FULL.code(), tm.enqueue(1, 1, 0, 106, FRAME));
        assertEquals(11, tm.totalEnqueued());
        assertEquals(4, tm.totalDropped());
        assertEquals(10, tm.queuedPackets());
    }

    @Test
    void multicastAdmitsEachCopyIndependentlyAndChargesCellsPerCopy() {
        TrafficManager tm = tm(3, 100, 1000, 1000);
        for (int i = 0; i < 5; i++) {
            tm.enqueue(0, 1, 0, i, FRAME); // port 1 queue 0 now at 95 of 100 cells
        }
        int[] ports = {0, 1, 2, 9};
        int[] codes = new int[4];
        assertEquals(2, tm.enqueueMulticast(1, ports, 3, 0, 42, FRAME, codes));
        assertArrayEquals(new int[] {0, DropCause.QUEUE_LIMIT.code(), 0, 0}, codes);
        assertEquals(95 + 2 * FRAME_CELLS, tm.bufferOccupancyCells());
        DequeueInfo info = new DequeueInfo();
        tm.dequeue(1, 2, info);
        assertEquals(42, info.packetHandle());
        assertEquals(2, info.port());
        assertEquals(8, tm.totalOffered());
        // A bad port anywhere in the list rejects the whole call before any copy is queued.
        assertThrows(IllegalArgumentException.class, () -> tm.enqueueMulticast(2, ports, 4, 0, 43, FRAME, codes));
        assertEquals(8, tm.totalOffered());
    }

    @Test
    void engineBugsAreRejected() {
        TrafficManager tm = tm(1, 100, 100, 100);
        assertThrows(IllegalArgumentException.class, () -> tm.enqueue(0, 1, 0, 0, 64));
        assertThrows(IllegalArgumentException.class, () -> tm.enqueue(0, 0, 8, 0, 64));
        assertThrows(IllegalArgumentException.class, () -> tm.enqueue(0, 0, 0, 0, 0));
        assertThrows(IllegalArgumentException.class, () -> tm.enqueue(0, 0, 0, 0, TrafficManager.MAX_PACKET_BYTES + 1));
        tm.enqueue(10, 0, 0, 0, 64);
        assertThrows(IllegalArgumentException.class, () -> tm.enqueue(9, 0, 0, 1, 64));
        assertEquals(0, tm.enqueue(9, 0, 1, 1, 64), "another queue has its own order");
    }

    @Test
    void configValidation() {
        assertThrows(dev.rmtemu.model.UserError.class,
                () -> new TrafficManagerConfig(0, 80, 20, 100, List.of(PortConfig.strictPriority(10))));
        assertThrows(dev.rmtemu.model.UserError.class,
                () -> new TrafficManagerConfig(1_000_000_000L, 80, 20, 100, List.of()));
        assertThrows(dev.rmtemu.model.UserError.class,
                () -> PortConfig.strictPriority(10).withLimits(0, 10));
        assertThrows(dev.rmtemu.model.UserError.class, () -> new TrafficManagerConfig(
                TrafficManagerConfig.MAX_CLOCK_HZ + 1, 80, 20, 100, List.of(PortConfig.strictPriority(10))));
        assertThrows(dev.rmtemu.model.UserError.class, () -> PortConfig.gbps(20_000));
        assertEquals(275_000, TrafficManagerConfig.TOFINO1_BUFFER_CELLS);
    }
}
