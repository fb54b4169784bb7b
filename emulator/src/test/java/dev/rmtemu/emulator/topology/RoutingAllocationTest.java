package dev.rmtemu.emulator.topology;

import dev.rmtemu.emulator.AllocationCounter;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The per-packet lookups allocate nothing (measured with the JVM's per-thread allocation counter). */
class RoutingAllocationTest {
    @Test
    void lookupAndEcmpAllocateNothing() {
        AllocationCounter.threadBean(); // skips without the counter
        Topology t = TopologySpec.parse("builtin:fattree?k=8");
        Routing r = Routing.of(t);
        int agg = t.nodeIndex("agg0_0");
        long sum = run(r, agg, 200_000); // warm up (JIT) first
        long before = AllocationCounter.allocatedByThisThread();
        sum += run(r, agg, 1_000_000);
        long after = AllocationCounter.allocatedByThisThread();
        assertTrue(sum != 0);
        // Only the counter's own bookkeeping may show; a per-call allocation would be >= 16 MB here.
        assertTrue(after - before < 4096, "allocated " + (after - before) + " bytes");
        assertEquals(0, r.lookup(0x0A000002)); // h0_0_0 is the first host
    }

    private static long run(Routing r, int node, int n) {
        long sum = 0;
        for (int i = 0; i < n; i++) {
            // Addresses 10.p.e.h of the k=8 tree, p < 8, e < 4, h in 2..5, plus some misses.
            int addr = 0x0A000000 | ((i & 7) << 16) | (((i >>> 3) & 3) << 8) | (2 + ((i >>> 5) & 3)) + ((i & 1023) == 0 ? 100 : 0);
            sum += r.route(node, addr, i * 0x9E3779B97F4A7C15L);
        }
        return sum;
    }
}
