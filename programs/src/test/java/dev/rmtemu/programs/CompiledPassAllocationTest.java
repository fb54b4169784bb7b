package dev.rmtemu.programs;

import dev.rmtemu.emulator.spi.ProgramPlugins;
import dev.rmtemu.emulator.engine.HeaderParser;
import dev.rmtemu.model.phv.Gress;
import dev.rmtemu.model.program.StageProgram;
import dev.rmtemu.model.runtime.Backend;
import dev.rmtemu.model.runtime.PassExecutor;
import dev.rmtemu.model.runtime.Phv;
import dev.rmtemu.model.runtime.PipelineState;
import dev.rmtemu.traces.PacketRecord;
import dev.rmtemu.traces.gen.SplitMix64;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.lang.management.ManagementFactory;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The generated stage code allocates nothing per packet: after warm-up, parsing and
 * running the ingress pass (and the egress pass, for a program that has one) of 200,000 packets moves the thread's allocation counter
 * by less than one object per thousand packets.
 */
class CompiledPassAllocationTest {
    private static final int PACKETS = 200_000;
    /**
     * What the JVM itself may allocate on this thread meanwhile (a late JIT or OSR
     * transition shows up as a few hundred bytes); one object per packet would be
     * at least 16 B x 200,000.
     */
    private static final long TOLERATED_BYTES = 4096;

    @ParameterizedTest
    @ValueSource(strings = {"counter", "hashpipe", "l2fwd", "lds"})
    void steadyStateAllocatesNothing(String name) {
        var plain = ManagementFactory.getThreadMXBean();
        assumeTrue(plain instanceof com.sun.management.ThreadMXBean, "allocation counter not available");
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) plain;
        assumeTrue(mx.isThreadAllocatedMemorySupported() && mx.isThreadAllocatedMemoryEnabled(), "allocation counter disabled");
        StageProgram p = ProgramPlugins.registry().build(name, Map.of());
        PipelineState state = new PipelineState(p, 4);
        if (name.equals("l2fwd")) {
            for (int d = 0; d < 64; d++) {
                state.addExact("l2_fwd", new long[] {d}, 1, d % 8);
            }
        }
        PassExecutor exec = new PassExecutor(state, true, Backend.COMPILED);
        HeaderParser parser = new HeaderParser(p);
        Phv phv = new Phv(p.fields().size());
        PacketRecord[] records = new PacketRecord[1024];
        SplitMix64 rnd = new SplitMix64(3);
        for (int i = 0; i < records.length; i++) {
            records[i] = PacketRecord.allocate().ipVersion(4).srcIpv4((int) rnd.nextLong()).dstIpv4((int) (rnd.nextLong() & 127))
                    .protocol(6).srcPort((int) (rnd.nextLong() & 0xFFFF)).dstPort(443).wireLength(100);
        }
        boolean egress = p.uses(Gress.EGRESS);
        run(exec, parser, phv, records, PACKETS, egress);
        long before = mx.getThreadAllocatedBytes(Thread.currentThread().getId());
        run(exec, parser, phv, records, PACKETS, egress);
        long after = mx.getThreadAllocatedBytes(Thread.currentThread().getId());
        long bytes = after - before;
        assertTrue(bytes <= TOLERATED_BYTES, name + ": " + bytes + " bytes allocated by " + PACKETS + " passes");
    }

    private static void run(PassExecutor exec, HeaderParser parser, Phv phv, PacketRecord[] records, int n, boolean egress) {
        for (int i = 0; i < n; i++) {
            phv.clear();
            parser.parse(records[i & (records.length - 1)], phv);
            exec.run(phv, i & 3, Gress.INGRESS, i);
            if (egress) {
                exec.run(phv, i & 3, Gress.EGRESS, i);
            }
        }
    }
}
