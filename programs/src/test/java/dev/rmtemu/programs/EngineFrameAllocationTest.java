package dev.rmtemu.programs;

import dev.rmtemu.emulator.engine.SwitchConfig;
import dev.rmtemu.emulator.engine.SwitchEngine;
import dev.rmtemu.emulator.spi.ProgramPlugins;
import dev.rmtemu.emulator.tm.PortConfig;
import dev.rmtemu.model.program.StageProgram;
import dev.rmtemu.model.target.TargetProfile;
import dev.rmtemu.model.target.TargetProfiles;
import dev.rmtemu.traces.PacketRecord;
import dev.rmtemu.traces.gen.SplitMix64;
import dev.rmtemu.traces.pcap.FrameSynthesizer;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.lang.management.ManagementFactory;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The whole switch allocates nothing per packet once warm, on the path a replay takes:
 * each record carries its frame's bytes, the arrival copies them into the packet pool, the
 * program's parse graph runs over them in place and loads the header fields, then the
 * passes, the deparser (WBMon, LossRadar and LDS write their shim into every frame) the
 * traffic manager and departure. 100,000 warm packets move the thread's
 * allocation counter by less than one object per thousand packets.
 */
class EngineFrameAllocationTest {
    private static final int PACKETS = 100_000;
    /** What the JVM itself may allocate on this thread meanwhile (a late JIT or OSR transition); one object per packet would be 1.6 MB. */
    private static final long TOLERATED_BYTES = 4096;
    /** Cycles between arrivals: well under line rate, so the queues stay short and nothing is dropped. */
    private static final long GAP_CYCLES = 200;

    @ParameterizedTest
    @ValueSource(strings = {"counter", "hashpipe", "l2fwd", "wbmon", "lossradar", "lds"})
    void steadyStateReplayOfFramesAllocatesNothing(String name) {
        var plain = ManagementFactory.getThreadMXBean();
        assumeTrue(plain instanceof com.sun.management.ThreadMXBean, "allocation counter not available");
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) plain;
        assumeTrue(mx.isThreadAllocatedMemorySupported() && mx.isThreadAllocatedMemoryEnabled(), "allocation counter disabled");
        TargetProfile profile = TargetProfiles.builtIn("tofino1");
        StageProgram p = ProgramPlugins.registry().build(name, Map.of());
        SwitchEngine engine = new SwitchEngine(new SwitchConfig(profile, p, SwitchConfig.defaultPorts(profile),
                PortConfig.strictPriority(100), true));
        PacketRecord[] records = new PacketRecord[1024];
        SplitMix64 rnd = new SplitMix64(5);
        for (int i = 0; i < records.length; i++) {
            records[i] = PacketRecord.allocate(FrameSynthesizer.MAX_MIN_FRAME).ipVersion(4).ttl(64)
                    .srcIpv4((int) rnd.nextLong()).dstIpv4((int) (rnd.nextLong() & 127)).protocol(i % 3 == 0 ? 17 : 6)
                    .srcPort((int) (rnd.nextLong() & 0xFFFF)).dstPort(443).wireLength(100);
            assertTrue(FrameSynthesizer.attachFrame(records[i]) > 0, "record " + i + " carries its frame");
        }
        long cycle = 0;
        cycle = replay(engine, records, cycle);
        long before = mx.getThreadAllocatedBytes(Thread.currentThread().getId());
        replay(engine, records, cycle);
        long bytes = mx.getThreadAllocatedBytes(Thread.currentThread().getId()) - before;
        engine.drain();
        assertEquals(Map.of(), engine.counters().parserErrors(), name + ": every frame parses");
        assertEquals(2L * PACKETS, engine.counters().packetsIn(), name);
        assertTrue(bytes <= TOLERATED_BYTES, name + ": " + bytes + " bytes allocated by " + PACKETS + " packets");
    }

    private static long replay(SwitchEngine engine, PacketRecord[] records, long from) {
        long cycle = from;
        for (int i = 0; i < PACKETS; i++) {
            cycle += GAP_CYCLES;
            engine.arrive(cycle, i % 8, records[i & (records.length - 1)]);
        }
        return cycle;
    }
}
