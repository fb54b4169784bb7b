package dev.rmtemu.emulator.network;

import dev.rmtemu.emulator.AllocationCounter;
import dev.rmtemu.emulator.topology.TopologySpec;
import dev.rmtemu.traces.PacketRecord;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Injecting, forwarding through five switches and delivering allocates nothing per
 * packet once warm (measured with the JVM's per-thread allocation counter; the bound
 * is far below one object per packet, which would be megabytes), on one thread and on
 * two (the injecting thread and the network's worker threads counted together).
 */
class NetworkAllocationTest {
    private static final long TOLERATED_BYTES = 64 * 1024;

    @ParameterizedTest
    @ValueSource(ints = {1, 2})
    void fatTreeSteadyStateAllocatesNothingPerPacket(int threads) {
        com.sun.management.ThreadMXBean bean = AllocationCounter.threadBean();
        NetworkEngine net = NetworkEngine.build(TopologySpec.parse("builtin:fattree?k=4"), NetworkOptions.of(2).withThreads(threads));
        PacketRecord[] packets = new PacketRecord[4096];
        for (int i = 0; i < packets.length; i++) {
            packets[i] = NetworkEngineTest.packet(i, 64 + (i * 37) % 1400);
        }
        long cycle = 0;
        for (int i = 0; i < 20_000; i++) {
            net.inject(cycle += 150, packets[i & (packets.length - 1)]);
        }
        long[] ids = engineThreads();
        assertTrue(ids.length >= threads, "worker threads: " + (ids.length - 1));
        long before = allocated(bean, ids);
        for (int i = 0; i < 40_000; i++) {
            net.inject(cycle += 150, packets[i & (packets.length - 1)]);
        }
        long allocated = allocated(bean, ids) - before;
        assertEquals(threads, net.threadsUsed());
        net.drain();
        net.checkConservation();
        assertEquals(60_000, net.totals().delivered());
        assertTrue(allocated < TOLERATED_BYTES, "allocated " + allocated + " B for 40,000 packets");
    }

    /** This thread and the network's workers (started by the warm-up's first window). */
    private static long[] engineThreads() {
        List<Long> ids = new ArrayList<>(List.of(Thread.currentThread().getId()));
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.getName().startsWith(NetworkWorkers.THREAD_NAME)) {
                ids.add(t.getId());
            }
        }
        return ids.stream().mapToLong(Long::longValue).toArray();
    }

    private static long allocated(com.sun.management.ThreadMXBean bean, long[] ids) {
        long sum = 0;
        for (long b : bean.getThreadAllocatedBytes(ids)) {
            sum += b;
        }
        return sum;
    }
}
