package dev.rmtemu.emulator.tm;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** A down port's queues flushed one head at a time: highest queue first, FIFO within a queue. */
class PortFlushTest {
    @Test
    void flushTakesEveryQueuedPacketOffThePortWithoutSendingIt() {
        TrafficManager tm = new TrafficManager(TrafficManagerConfig.tofino1(2, 100));
        tm.enqueue(0, 1, 0, 10, 64);
        tm.enqueue(0, 1, 3, 11, 81);
        tm.enqueue(1, 1, 0, 12, 64);
        tm.enqueue(1, 1, 3, 13, 64);
        tm.enqueue(1, 0, 0, 14, 64); // another port keeps its packet
        long freeBefore = tm.portFreeCycle(1);
        DequeueInfo info = new DequeueInfo();
        List<String> flushed = new ArrayList<>();
        int q;
        while ((q = tm.flushHead(1, info)) != TrafficManager.NOTHING_DEQUEUED) {
            flushed.add(info.packetHandle() + "/q" + q);
        }
        assertEquals(List.of("11/q3", "13/q3", "10/q0", "12/q0"), flushed);
        assertEquals(0, tm.portDepthCells(1));
        assertEquals(1, tm.bufferOccupancyCells()); // port 0's 64-byte packet
        assertEquals(4, tm.flushedPackets(1));
        assertEquals(4, tm.totalFlushed());
        assertEquals(0, tm.totalDequeued());
        assertEquals(freeBefore, tm.portFreeCycle(1)); // nothing was serialised
        assertEquals(Long.MAX_VALUE, tm.nextDequeueCycle(1));
        assertEquals(tm.totalOffered(), tm.totalDequeued() + tm.totalDropped() + tm.totalFlushed() + tm.queuedPackets());
    }
}
