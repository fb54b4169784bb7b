package dev.rmtemu.emulator.network;

import dev.rmtemu.emulator.topology.Topology;
import dev.rmtemu.emulator.topology.TopologySpec;
import dev.rmtemu.model.UserError;
import dev.rmtemu.model.program.StageProgram;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Idle switches are cheap, and the estimate made before a network is built bounds what it takes. */
class NetworkMemoryEstimateTest {
    private static final com.sun.management.ThreadMXBean MX =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    private static StageProgram[] plain(Topology t) {
        StageProgram[] p = new StageProgram[t.switches().size()];
        java.util.Arrays.fill(p, NetworkEngine.plainForwardingProgram());
        return p;
    }

    /** Heap allocated while building the network (an upper bound of what it keeps). */
    private static long buildBytes(Topology t) {
        long before = MX.getCurrentThreadAllocatedBytes();
        NetworkEngine net = NetworkEngine.build(t, NetworkOptions.of(1));
        long after = MX.getCurrentThreadAllocatedBytes();
        assertEquals(t.switches().size(), net.switchCount());
        return after - before;
    }

    @Test
    void anIdleSwitchCostsLessThanItsBudgetAndTheEstimateBoundsTheBuild() {
        // each topology built once before it is measured: class loading and the build code's first, interpreted
        // runs (which allocate what compiled code keeps off the heap) stay outside the figures
        for (String warm : new String[] {"builtin:fattree?k=4", "builtin:chain?m=200&regular=50", "builtin:fattree?k=8",
                "builtin:abilene", "builtin:chain?m=200&regular=0&hosts=1"}) {
            buildBytes(TopologySpec.parse(warm));
        }
        for (String spec : new String[] {"builtin:chain?m=200&regular=50", "builtin:fattree?k=8", "builtin:abilene"}) {
            Topology t = TopologySpec.parse(spec);
            long built = buildBytes(t);
            NetworkMemoryEstimate e = NetworkMemoryEstimate.of(t, plain(t));
            assertTrue(built <= e.bytes(), spec + ": built " + built + " > estimate " + e.bytes());
            assertTrue(e.bytes() <= 4 * built, spec + ": estimate " + e.bytes() + " far above " + built);
        }
        Topology chain = TopologySpec.parse("builtin:chain?m=200&regular=0&hosts=1");
        long perSwitch = buildBytes(chain) / chain.switches().size();
        assertTrue(perSwitch < NetworkMemoryEstimate.IDLE_SWITCH_BYTES, "an idle switch takes " + perSwitch + " bytes");
    }

    @Test
    void aTopologyThatCannotFitTheHeapIsRefusedBeforeAnythingIsBuilt() {
        Topology t = TopologySpec.parse("builtin:fattree?k=24");
        NetworkMemoryEstimate e = NetworkMemoryEstimate.of(t, plain(t));
        assertEquals(720L * (NetworkMemoryEstimate.IDLE_SWITCH_BYTES + 16 * (72 + 256)), e.switchBytes());
        assertEquals(4176L * 3456 * NetworkMemoryEstimate.ROUTING_BYTES_PER_NODE_AND_HOST, e.routingBytes());
        UserError u = assertThrows(UserError.class, () -> e.check("builtin:fattree?k=24", 256L << 20));
        assertEquals("topology builtin:fattree?k=24 needs about 309 MB before its first packet (switches 138 MB,"
                + " routing 165 MB, registers 0 MB), more than the 128 MB it may take: half of this JVM's 256 MB heap"
                + " (the other half is for packets in flight, the ring and the report); run with RMTEMU_JAVA_OPTS=-Xmx1g",
                u.getMessage());
        e.check("builtin:fattree?k=24", 1L << 30); // fits half of 1 GiB
    }

    /**
     * Issue 30 point 15: -Xmx3g refused an estimate of 1,700 MB without saying that a network
     * may take only half the heap; the line now names the share and its size.
     */
    @Test
    void theRefusalSaysOnlyHalfTheHeapIsAllowed() {
        long mib = 1L << 20;
        NetworkMemoryEstimate e = new NetworkMemoryEstimate(1700 * mib, 500 * mib, 1000 * mib, 200 * mib);
        UserError u = assertThrows(UserError.class, () -> e.check("big.yaml", 3L << 30));
        assertEquals("topology big.yaml needs about 1700 MB before its first packet (switches 500 MB, routing 1000 MB,"
                + " registers 200 MB), more than the 1536 MB it may take: half of this JVM's 3072 MB heap (the other"
                + " half is for packets in flight, the ring and the report); run with RMTEMU_JAVA_OPTS=-Xmx4g",
                u.getMessage());
        e.check("big.yaml", 4L << 30); // its legal twin: half of 4 GiB holds it
    }
}
