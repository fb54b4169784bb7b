package dev.rmtemu.emulator.engine;

import dev.rmtemu.emulator.AllocationCounter;
import dev.rmtemu.emulator.tm.PortConfig;
import dev.rmtemu.model.phv.Field;
import dev.rmtemu.model.phv.Gress;
import dev.rmtemu.model.phv.Intrinsic;
import dev.rmtemu.model.program.ProgramBuilder;
import dev.rmtemu.model.program.StageProgram;
import dev.rmtemu.model.target.TargetProfiles;
import dev.rmtemu.traces.PacketRecord;
import org.junit.jupiter.api.Test;

import java.util.List;

import static dev.rmtemu.model.ir.Ir.constant;
import static dev.rmtemu.model.ir.Ir.eq;
import static dev.rmtemu.model.ir.Ir.read;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A resubmitted packet's second pass (the parser over the original frame again, the resubmit
 * header read back) allocates nothing per packet. Every packet's first pass rewrites its
 * EtherType and resubmits with a header; the second pass sees the original EtherType, writes
 * the carried tag into it and leaves on port 2 (a packet whose second pass saw the first
 * pass's write would leave on port 3). The bound leaves room for JVM bookkeeping only.
 */
class ResubmitAllocationTest {
    private static final long TOLERATED_BYTES = 16 * 1024;
    private static final long SPACING_CYCLES = 1_000;

    static StageProgram rewritesThenResubmits() {
        ProgramBuilder b = ProgramBuilder.create("resubmit_reparse", "first pass rewrites, second pass re-parses");
        Field etherType = b.header("ethernet.ether_type");
        Field out = b.intrinsic(Intrinsic.UCAST_EGRESS_PORT);
        Field type = b.intrinsic(Intrinsic.RESUBMIT);
        Field flag = b.intrinsic(Intrinsic.RESUBMIT_FLAG);
        Field tag = b.metadata(Gress.INGRESS, "meta.tag", 16);
        b.resubmit(1, List.of("tag"), List.of(tag));
        b.stage(Gress.INGRESS, 0).body(c -> c.when(eq(read(flag), constant(0)),
                first -> first.set(tag, 0xBEEF).set(etherType, 0x1111).set(type, 1)));
        b.stage(Gress.INGRESS, 1).body(c -> c.when(eq(read(flag), constant(1)),
                second -> second.when(eq(read(etherType), constant(0x88B5)),
                        original -> original.set(out, 2).set(etherType, read(tag)),
                        rewritten -> rewritten.set(out, 3))));
        return b.build();
    }

    @Test
    void theResubmittedPassAllocatesNothingPerPacket() {
        AllocationCounter.threadBean(); // skips without the counter
        SwitchEngine e = new SwitchEngine(new SwitchConfig(TargetProfiles.builtIn("tofino1"), rewritesThenResubmits(), 8,
                PortConfig.strictPriority(40), true));
        long[] etherTypes = new long[4];
        e.onDeparture((c, p, s, pool) -> {
            int at = pool.frameOffset(s) + 12;
            byte[] f = pool.frameArray();
            if (p == 2 && ((f[at] & 0xFF) << 8 | f[at + 1] & 0xFF) == 0xBEEF) {
                etherTypes[p]++;
            } else {
                etherTypes[0]++;
            }
        });
        PacketRecord r = TestFrames.record(TestFrames.frame().ethernet(0x88B5).payload("x".repeat(86)).build());
        long[] cycle = {1};
        run(e, r, cycle, 20_000);
        long before = AllocationCounter.allocatedByThisThread();
        run(e, r, cycle, 20_000);
        long allocated = AllocationCounter.allocatedByThisThread() - before;
        e.drain();
        e.checkConservation();
        assertEquals(List.of(40_000L, 40_000L, 0L, 40_000L), List.of(e.counters().packetsIn(), e.counters().packetsOut(),
                etherTypes[0], etherTypes[2]));
        assertTrue(allocated < TOLERATED_BYTES, "allocated " + allocated + " B for 20,000 resubmitted packets");
    }

    private static void run(SwitchEngine e, PacketRecord r, long[] cycle, int packets) {
        for (int i = 0; i < packets; i++) {
            e.arrive(cycle[0], 1, r);
            cycle[0] += SPACING_CYCLES;
        }
    }
}
