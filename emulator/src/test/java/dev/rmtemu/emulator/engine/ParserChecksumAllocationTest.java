package dev.rmtemu.emulator.engine;

import dev.rmtemu.emulator.AllocationCounter;
import dev.rmtemu.emulator.tm.PortConfig;
import dev.rmtemu.model.compiler.ProgramCompiler;
import dev.rmtemu.model.p4.lower.P4Programs;
import dev.rmtemu.model.p4.preprocess.PreprocessorOptions;
import dev.rmtemu.model.program.StageProgram;
import dev.rmtemu.model.target.TargetProfiles;
import dev.rmtemu.traces.PacketRecord;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The parser's Checksum (verify and the TCP residual) and the deparser's update with the residual
 * allocate nothing per packet ({@code p4/nat_checksum.p4}: every frame is NAT-rewritten and
 * leaves with both checksums valid). The bound leaves room for JVM bookkeeping only.
 */
class ParserChecksumAllocationTest {
    private static final long TOLERATED_BYTES = 16 * 1024;
    private static final long SPACING_CYCLES = 1_000;

    @Test
    void theParserChecksumAndTheResidualUpdateAllocateNothingPerPacket() {
        AllocationCounter.threadBean(); // skips without the counter
        StageProgram p = ProgramCompiler.compile(P4Programs.text("nat_checksum.p4", P4RouterTest.resource("nat_checksum.p4"),
                PreprocessorOptions.defaults()).require(), TargetProfiles.builtIn("tofino1")).requireAccepted().program();
        SwitchEngine e = new SwitchEngine(new SwitchConfig(TargetProfiles.builtIn("tofino1"), p, 8,
                PortConfig.strictPriority(40), true));
        long[] valid = new long[1];
        e.onDeparture((c, port, s, pool) -> {
            // the TCP checksum field after the rewrite: the one a full RFC 1071 sum gives for this frame
            int at = pool.frameOffset(s) + 14 + 20 + 16;
            byte[] f = pool.frameArray();
            if (((f[at] & 0xFF) << 8 | f[at + 1] & 0xFF) == EXPECTED_TCP_CHECKSUM) {
                valid[0]++;
            }
        });
        byte[] frame = P4ParserChecksumTest.tcpFrame(0x0A000001L, 1234);
        PacketRecord r = TestFrames.record(frame);
        long[] cycle = {1};
        run(e, r, cycle, 20_000);
        long before = AllocationCounter.allocatedByThisThread();
        run(e, r, cycle, 20_000);
        long allocated = AllocationCounter.allocatedByThisThread() - before;
        e.drain();
        assertEquals(List.of(40_000L, 40_000L, 40_000L), List.of(e.counters().packetsIn(), e.counters().packetsOut(), valid[0]));
        assertTrue(allocated < TOLERATED_BYTES, "allocated " + allocated + " B for 20,000 packets");
    }

    private static final int EXPECTED_TCP_CHECKSUM = P4ParserChecksumTest.tcpChecksumField(
            P4ParserChecksumTest.tcpFrame(P4ParserChecksumTest.NAT_ADDR, P4ParserChecksumTest.NAT_PORT));

    private static void run(SwitchEngine e, PacketRecord r, long[] cycle, int packets) {
        for (int i = 0; i < packets; i++) {
            e.arrive(cycle[0], 1, r);
            cycle[0] += SPACING_CYCLES;
        }
    }
}
