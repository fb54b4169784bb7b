package dev.rmtemu.emulator.engine;

import dev.rmtemu.emulator.AllocationCounter;
import dev.rmtemu.emulator.tm.PortConfig;
import dev.rmtemu.model.target.TargetProfiles;
import dev.rmtemu.traces.PacketRecord;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Mirrored copies through egress allocate nothing per packet: each packet makes an ingress copy
 * (its header read by the egress parser) and an egress-to-egress copy (its header set aside while
 * egress deparses the packet behind it), and all three run egress and leave. The bound (a few KB
 * for 20,000 packets) leaves room for JVM bookkeeping, not for one object per packet.
 */
class MirrorAllocationTest {
    private static final long TOLERATED_BYTES = 16 * 1024;
    private static final long SPACING_CYCLES = 1_000;

    @Test
    void copiesThroughEgressAllocateNothingPerPacket() {
        AllocationCounter.threadBean(); // skips without the counter
        SwitchEngine e = new SwitchEngine(new SwitchConfig(TargetProfiles.builtIn("tofino1"), MirrorTest.copiesThroughEgress(), 8,
                PortConfig.strictPriority(40), true));
        e.mirrorSession(5, 3, 0);
        e.mirrorSession(6, 4, 20);
        PacketRecord r = TestFrames.record(TestFrames.frame().ethernet(0x88B5).payload("x".repeat(86)).build());
        long[] cycle = {1};
        run(e, r, cycle, 20_000);
        long before = AllocationCounter.allocatedByThisThread();
        run(e, r, cycle, 20_000);
        long allocated = AllocationCounter.allocatedByThisThread() - before;
        e.drain();
        e.checkConservation();
        assertEquals(List.of(40_000L, 80_000L, 120_000L), List.of(e.counters().packetsIn(), e.counters().mirrored(),
                e.counters().packetsOut()));
        assertTrue(allocated < TOLERATED_BYTES, "allocated " + allocated + " B for 20,000 packets and their 40,000 copies");
    }

    private static void run(SwitchEngine e, PacketRecord r, long[] cycle, int packets) {
        for (int i = 0; i < packets; i++) {
            e.arrive(cycle[0], 1, r);
            cycle[0] += SPACING_CYCLES;
        }
    }
}
