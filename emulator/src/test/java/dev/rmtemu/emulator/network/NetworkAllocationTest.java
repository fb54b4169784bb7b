package dev.rmtemu.emulator.network;

import dev.rmtemu.emulator.topology.TopologySpec;
import dev.rmtemu.traces.PacketRecord;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Injecting, forwarding through five switches and delivering allocates nothing per
 * packet once warm (measured with the JVM's per-thread allocation counter; the bound
 * is far below one object per packet, which would be megabytes).
 */
class NetworkAllocationTest {
    private static final long TOLERATED_BYTES = 64 * 1024;

    @Test
    void fatTreeSteadyStateAllocatesNothingPerPacket() {
        java.lang.management.ThreadMXBean plain = ManagementFactory.getThreadMXBean();
        assumeTrue(plain instanceof com.sun.management.ThreadMXBean, "allocation counter not available");
        com.sun.management.ThreadMXBean bean = (com.sun.management.ThreadMXBean) plain;
        assumeTrue(bean.isThreadAllocatedMemorySupported() && bean.isThreadAllocatedMemoryEnabled(),
                "allocation counter disabled");
        NetworkEngine net = NetworkEngine.build(TopologySpec.parse("builtin:fattree?k=4"), NetworkOptions.of(2));
        PacketRecord[] packets = new PacketRecord[4096];
        for (int i = 0; i < packets.length; i++) {
            packets[i] = NetworkEngineTest.packet(i, 64 + (i * 37) % 1400);
        }
        long cycle = 0;
        for (int i = 0; i < 20_000; i++) {
            net.inject(cycle += 150, packets[i & (packets.length - 1)]);
        }
        long before = bean.getThreadAllocatedBytes(Thread.currentThread().getId());
        for (int i = 0; i < 40_000; i++) {
            net.inject(cycle += 150, packets[i & (packets.length - 1)]);
        }
        long allocated = bean.getThreadAllocatedBytes(Thread.currentThread().getId()) - before;
        net.drain();
        net.checkConservation();
        assertEquals(60_000, net.totals().delivered());
        assertTrue(allocated < TOLERATED_BYTES, "allocated " + allocated + " B for 40,000 packets");
    }
}
