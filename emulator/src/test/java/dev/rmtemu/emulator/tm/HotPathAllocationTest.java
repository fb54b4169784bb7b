package dev.rmtemu.emulator.tm;

import dev.rmtemu.emulator.AllocationCounter;
import dev.rmtemu.emulator.metrics.Counters;
import dev.rmtemu.emulator.metrics.LatencyMetrics;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The per-packet paths (enqueue, dequeue, multicast, histogram and counter recording)
 * allocate nothing at steady state. Measured with the JVM's per-thread allocation counter;
 * the bound (a few KB for 200,000 packets) leaves room for incidental JVM bookkeeping but
 * not for even one object per packet (which would be megabytes).
 */
class HotPathAllocationTest {
    private static final long TOLERATED_BYTES = 16 * 1024;

    @Test
    void steadyStateAllocatesNothingPerPacket() {
        AllocationCounter.threadBean(); // skips without the counter

        // Offered load exceeds the line rate, so queues fill to their (small) limits during
        // warm-up and the drop path is exercised too; FIFO rings then stop growing.
        PortConfig sp = PortConfig.strictPriority(100).withLimits(500, 1000);
        PortConfig drr = PortConfig.drr(100, List.of(1500, 3000)).withLimits(500, 1000);
        TrafficManager tm = new TrafficManager(new TrafficManagerConfig(TrafficManagerConfig.TOFINO1_CLOCK_HZ, 80, 20,
                TrafficManagerConfig.TOFINO1_BUFFER_CELLS, List.of(sp, drr, sp)));
        LatencyMetrics metrics = new LatencyMetrics(TrafficManagerConfig.TOFINO1_CLOCK_HZ, 3, 8);
        Counters counters = new Counters();
        int dropId = counters.dropCause(DropCause.QUEUE_LIMIT.reportName());
        for (int p = 0; p < 3; p++) {
            for (int q = 0; q < tm.queueCount(p); q++) {
                metrics.prepareQueue(p, q);
            }
        }
        DequeueInfo info = new DequeueInfo();
        int[] ports = {0, 1, 2};
        int[] codes = new int[3];
        long[] cycle = {0};
        // Warm up (FIFO growth, JIT, and every busy histogram past LatencyHistogram.STAGE_AFTER,
        // where it allocates its plain staging counts once), then measure the same workload.
        run(tm, metrics, counters, dropId, info, ports, codes, cycle, 200_000);
        long before = AllocationCounter.allocatedByThisThread();
        run(tm, metrics, counters, dropId, info, ports, codes, cycle, 200_000);
        long allocated = AllocationCounter.allocatedByThisThread() - before;
        assertTrue(allocated < TOLERATED_BYTES, "allocated " + allocated + " B for 200,000 packets");
        assertTrue(counters.droppedTotal() > 0 && counters.packetsOut() > 0, "workload drops and forwards");
        counters.checkConservation(tm.queuedPackets());
    }

    private static void run(TrafficManager tm, LatencyMetrics metrics, Counters counters, int dropId, DequeueInfo info,
                            int[] ports, int[] codes, long[] cycleHolder, int packets) {
        long cycle = cycleHolder[0];
        for (int i = 0; i < packets; i++) {
            cycle += 3;
            int bytes = 64 + (i * 37) % 1400;
            if (i % 16 == 0) {
                int admitted = tm.enqueueMulticast(cycle, ports, 3, i % 2, i, bytes, codes);
                counters.packetsIn(3);
                for (int c = admitted; c < 3; c++) {
                    counters.dropped(dropId);
                }
            } else {
                counters.packetIn();
                if (tm.enqueue(cycle, i % 3, i % 2, i, bytes) != DropCause.ADMITTED) {
                    counters.dropped(dropId);
                }
            }
            for (int p = 0; p < 3; p++) {
                while (tm.nextDequeueCycle(p) <= cycle) {
                    tm.dequeue(tm.nextDequeueCycle(p), p, info);
                    metrics.recordQueueingDelayCycles(p, info.qid(), info.deqTimedelta());
                    metrics.recordLatencyCycles(info.enqTstamp(), info.serialisationEndCycle());
                    counters.packetOut();
                }
            }
        }
        cycleHolder[0] = cycle;
    }
}
