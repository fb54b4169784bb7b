package dev.rmtemu.programs.p4;

import dev.rmtemu.emulator.spi.ProgramPlugins;
import dev.rmtemu.model.program.StageProgram;
import dev.rmtemu.programs.hashpipe.program.HashPipeProgram;
import dev.rmtemu.traces.PacketRecord;
import dev.rmtemu.traces.PacketSource;
import dev.rmtemu.traces.gen.SplitMix64;
import dev.rmtemu.traces.spec.TraceSpec;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code programs/p4/hashpipe.p4} against its Java IR twin {@code hashpipe} (key=srcip,
 * count=packets, 6 stages of 1,024 slots, crc32 family): on a seeded ISP-like trace spread
 * over the front-panel ports, both give the same departures and drops and the same 12 pair
 * registers (key and count words) in every pipe.
 *
 * <p>Resources: the same stages (the P4 placement puts each stage's two stateful ALUs in
 * ingress stages 1, 3, ..., 11 as the IR does by hand), SRAM, map RAMs, stateful ALUs and
 * logical tables, and the same pipeline latency. Hash bits differ: the IR's index hash keeps
 * 32 bits of the CRC and masks them to the 1,024 slots (its hash family serves any stage
 * size), the P4 program's {@code Hash<bit<10>>} gives only the 10 bits the index needs; both
 * index by the CRC's low 10 bits.
 */
class HashPipeP4TwinTest {
    private static final String TRACE = "gen:isp?packets=20000&flows=2000&seed=7";

    @Test
    void theP4HashPipeKeepsTheSameTablesAsTheIrHashPipe() {
        StageProgram ir = ProgramPlugins.registry().build(HashPipeProgram.NAME, Map.of("key", "srcip"));
        StageProgram p4 = P4Twins.compile("hashpipe.p4");
        List<P4Twins.Arrival> trace = new ArrayList<>();
        SplitMix64 rnd = new SplitMix64(3);
        long cycle = 0;
        try (PacketSource src = TraceSpec.open(TRACE)) {
            PacketRecord r = PacketRecord.allocate();
            while (src.next(r)) {
                cycle += (long) (rnd.nextDouble() * 60);
                trace.add(new P4Twins.Arrival(cycle, (int) (rnd.nextDouble() * 8), PacketRecord.allocate(r.frameCapacity()).copyFrom(r)));
            }
        }
        P4Twins.Run a = P4Twins.run(ir, e -> { }, trace);
        P4Twins.Run b = P4Twins.run(p4, e -> { }, trace);
        a.assertSameTraffic(b);
        a.assertSameRegisters(b, ir);
        // every packet is sent to port 1, which the eight input ports' traffic overloads: some are tail-dropped
        assertEquals(trace.size(), a.departures().size() / 3 + a.dropped(), "every packet leaves on port 1 or is tail-dropped");
        long[] counts = a.engine().state().snapshotHi(0, HashPipeProgram.tableName(0));
        long total = 0;
        for (long c : counts) {
            total += c;
        }
        assertTrue(total > 0, "stage 0 counted packets");

        List<String> irUse = P4Twins.stageUse(ir);
        List<String> p4Use = P4Twins.stageUse(p4);
        assertEquals(7, irUse.size(), "six stateful-ALU stages and the latency: " + irUse);
        List<String> irWith10HashBits = new ArrayList<>();
        for (String row : irUse) {
            irWith10HashBits.add(row.replace("hash bits 32", "hash bits 10"));
        }
        assertEquals(irWith10HashBits, p4Use);
    }
}
