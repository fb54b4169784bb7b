package dev.rmtemu.emulator.engine;

import dev.rmtemu.emulator.tm.PortConfig;
import dev.rmtemu.model.UserError;
import dev.rmtemu.model.check.ResourceChecker;
import dev.rmtemu.model.check.ResourceReport;
import dev.rmtemu.model.check.StageUsage;
import dev.rmtemu.model.check.TableUsage;
import dev.rmtemu.model.compiler.ProgramCompiler;
import dev.rmtemu.model.extern.Counter;
import dev.rmtemu.model.extern.CounterType;
import dev.rmtemu.model.extern.Meter;
import dev.rmtemu.model.extern.MeterType;
import dev.rmtemu.model.p4.lower.P4Programs;
import dev.rmtemu.model.p4.preprocess.PreprocessorOptions;
import dev.rmtemu.model.p4.source.Diagnostic;
import dev.rmtemu.model.phv.Gress;
import dev.rmtemu.model.program.StageProgram;
import dev.rmtemu.model.target.TargetProfile;
import dev.rmtemu.model.target.TargetProfiles;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * TNA's Counter, DirectCounter, Meter and DirectMeter written in P4 ({@code p4/metered_forwarder.p4})
 * lower to the IR's counters and meters, are placed with their users, cost what p4c counts
 * and count and colour packets exactly (each frame counted with its 4-byte CRC).
 */
class P4ExternsTest {
    private static final TargetProfile TOFINO1 = TargetProfiles.builtIn("tofino1");
    private static final long KNOWN = 0x020000000002L;
    private static final long SENDER = 0x020000000009L;
    /** tofino1 runs 1.22 GHz: 1,220 cycles a microsecond. */
    private static final long US = 1220;

    private static StageProgram placed(String text) {
        return ProgramCompiler.compile(P4Programs.text("metered_forwarder.p4", text, PreprocessorOptions.defaults()).require(),
                TOFINO1).requireAccepted().program();
    }

    @Test
    void countersAndMetersLowerAndArePlacedWithTheirUsers() {
        StageProgram p = placed(P4RouterTest.resource("metered_forwarder.p4"));
        Counter ports = p.counter("port_stats");
        Counter hits = p.counter("dmac_hits");
        Meter rate = p.meter("dmac_rate");
        Meter police = p.meter("police");
        assertEquals(List.of(CounterType.PACKETS_AND_BYTES, 32, 512, false), List.of(ports.type(), ports.widthBits(), ports.size(),
                ports.direct()));
        assertEquals(List.of(CounterType.PACKETS_AND_BYTES, 64, 16, "dmac"), List.of(hits.type(), hits.widthBits(), hits.size(),
                hits.table().name()));
        assertEquals(List.of(MeterType.PACKETS, Meter.Algorithm.TRTCM, 16, "dmac"), List.of(rate.type(), rate.algorithm(),
                rate.size(), rate.table().name()));
        assertEquals(List.of(MeterType.BYTES, Meter.Algorithm.TRTCM, 4), List.of(police.type(), police.algorithm(), police.size()));
        // nothing orders the count, the table and the meter: all in stage 0; the gateway on the colour reads it from stage 1
        assertEquals(List.of(0, 0, 0, 0, 0), List.of(ports.stage(), hits.stage(), rate.stage(), police.stage(),
                p.table("dmac").stage()));
        assertEquals(Gress.INGRESS, ports.gress());
    }

    /**
     * The hand count, tofino1 (RAMs of 1024 words of 128 bits): bf-p4c
     * mau/resource_estimate.cpp StageUseEstimate::calculate_attached_rams, units =
     * ceil(entries / (1024 x per_word)) + 1 spare, per_word from CounterPerWord (packets and
     * bytes: 2 per word at W <= 36 (28 + 36 b), else 1) and 1 for a meter; a direct one has its
     * table's entries. Stats ALUs one per counter (mau/tofino/memories.h STATS_ALUS = 4); meters
     * on meter ALUs, shared with the stateful ALUs (METER_ALUS = 4).
     */
    @Test
    void resourcesAreWhatP4cCounts() {
        StageProgram p = placed(P4RouterTest.resource("metered_forwarder.p4"));
        ResourceReport r = ResourceChecker.check(p, TOFINO1);
        assertEquals(2, usage(r, "port_stats").srams()); // 512 / (1024 x 2): 1 + spare
        assertEquals(2, usage(r, "dmac_hits").srams());  // 16 / (1024 x 1): 1 + spare
        assertEquals(2, usage(r, "dmac_rate").srams());  // 16 / 1024: 1 + spare
        assertEquals(2, usage(r, "police").srams());     // 4 / 1024: 1 + spare
        StageUsage s0 = r.stages().stream().filter(s -> s.stage() == 0 && s.gress() == Gress.INGRESS).findFirst().orElseThrow();
        assertEquals(2, s0.statsAlus());
        assertEquals(2, s0.statefulAlus());
        assertTrue(r.fits(), () -> String.valueOf(r.failures()));
    }

    private static TableUsage usage(ResourceReport r, String name) {
        return r.tables().stream().filter(t -> t.name().equals(name)).findFirst().orElseThrow();
    }

    @Test
    void packetsAreCountedAndPolicedExactly() {
        StageProgram p = placed(P4RouterTest.resource("metered_forwarder.p4"));
        SwitchEngine e = new SwitchEngine(new SwitchConfig(TOFINO1, p, SwitchConfig.defaultPorts(TOFINO1),
                PortConfig.strictPriority(40), true));
        e.state().addExact("dmac", new long[] {KNOWN}, 1, 7); // forward(7)
        // police: CIR 1,000,000 B/s, CBS 200 B; PIR 2,000,000 B/s, PBS 300 B
        e.state().setMeterRates("police", 0, 1_000_000, 200, 2_000_000, 300);
        List<Integer> ports = new ArrayList<>();
        List<Long> numbers = new ArrayList<>();
        e.onDeparture((cycle, port, slot, pool) -> {
            ports.add(port);
            numbers.add(pool.packetNumber(slot));
        });
        byte[] known = TestFrames.frame().ethernet(KNOWN, SENDER, 0x88B5).payload("known").build();
        byte[] unknown = TestFrames.frame().ethernet(0x020000000003L, SENDER, 0x88B5).payload("unknown").build();
        long c = e.now() + 1;
        // 100 counted bytes each (96 on the wire + CRC): police marks G, G, Y, R; then 100 us later G again
        e.arrive(c, 3, TestFrames.record(known, known.length, 96));
        e.arrive(c + 1, 3, TestFrames.record(known, known.length, 96));
        e.arrive(c + 2, 5, TestFrames.record(unknown, unknown.length, 96)); // a miss: the default action drop()
        e.arrive(c + 3, 5, TestFrames.record(known, known.length, 96));     // RED: dropped by the gateway
        e.arrive(c + 100 * US, 3, TestFrames.record(known, known.length, 96));
        e.drain();
        assertEquals(List.of(7, 7, 7), ports);
        assertEquals(List.of(0L, 1L, 4L), numbers);
        assertEquals(2, e.counters().droppedTotal());
        assertArrayEquals(new long[] {3, 300}, e.state().readCounter("port_stats", 3));
        assertArrayEquals(new long[] {2, 200}, e.state().readCounter("port_stats", 5));
        assertArrayEquals(new long[] {4, 400}, e.state().readCounter("dmac_hits", 0));
        // drop() as the program's default action counts at the miss cell (index 16, the table's size)
        assertArrayEquals(new long[] {1, 100}, e.state().readCounter("dmac_hits", 16));
    }

    @Test
    void aDirectCounterNoTableNamesIsRefusedWithItsPlace() {
        String text = P4RouterTest.resource("metered_forwarder.p4").replace("        counters = dmac_hits;\n", "")
                .replace("        dmac_hits.count();\n", "");
        P4Programs.Result r = P4Programs.text("metered_forwarder.p4", text, PreprocessorOptions.defaults());
        int line = 1 + (int) text.substring(0, text.indexOf("DirectCounter<")).chars().filter(ch -> ch == '\n').count();
        assertEquals(List.of("metered_forwarder.p4:" + line + ":5: DirectCounter dmac_hits is attached to no table (name it in"
                + " a table's counters property)"), r.errors().stream().map(Diagnostic::line).toList());
    }

    @Test
    void anUnusedCounterIsRefusedByPlacementItsUsedTwinIsPlaced() {
        String text = P4RouterTest.resource("metered_forwarder.p4").replace("        port_stats.count(ig_intr_md.ingress_port);\n", "");
        StageProgram lowered = P4Programs.text("metered_forwarder.p4", text, PreprocessorOptions.defaults()).require();
        UserError err = assertThrows(UserError.class, () -> ProgramCompiler.compile(lowered, TOFINO1).requireAccepted());
        assertTrue(err.getMessage().endsWith("the ingress control declares counter port_stats but its apply body never uses it"),
                err.getMessage());
    }
}
