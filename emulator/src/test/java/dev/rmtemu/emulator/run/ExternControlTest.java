package dev.rmtemu.emulator.run;

import dev.rmtemu.emulator.engine.SwitchConfig;
import dev.rmtemu.emulator.engine.SwitchEngine;
import dev.rmtemu.model.UserError;
import dev.rmtemu.model.extern.Meter;
import dev.rmtemu.model.extern.MeterColor;
import dev.rmtemu.model.extern.MeterType;
import dev.rmtemu.model.phv.Field;
import dev.rmtemu.model.phv.Gress;
import dev.rmtemu.model.phv.Intrinsic;
import dev.rmtemu.model.program.ProgramBuilder;
import dev.rmtemu.model.program.ProgramRegistry;
import dev.rmtemu.model.program.StageProgram;
import dev.rmtemu.model.runtime.PipelineState;
import dev.rmtemu.model.target.TargetProfiles;
import dev.rmtemu.traces.PacketRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static dev.rmtemu.model.ir.Ir.color;
import static dev.rmtemu.model.ir.Ir.constant;
import static dev.rmtemu.model.ir.Ir.eq;
import static dev.rmtemu.model.ir.Ir.read;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The control script's counter and meter operations on a running switch (tofino1: 1.22 GHz,
 * so 1,220 cycles are 1 us): l2fwd's direct counter read and reset at set cycles, each frame
 * counted with its 4-byte CRC, and a policer whose meter rates the script sets, dropping RED.
 */
class ExternControlTest {
    private static final long US = 1220;

    private static SwitchEngine engine(StageProgram program) {
        return new SwitchEngine(SwitchConfig.of(TargetProfiles.builtIn("tofino1"), program, 100));
    }

    private static PacketRecord to(int dst, int wire) {
        PacketRecord r = PacketRecord.allocate();
        return r.wireLength(wire).ipVersion(4).protocol(17).dstIpv4(dst);
    }

    @Test
    void l2fwdCountsEachEntryReadAndResetAtTheirCycles(@TempDir Path tmp) throws Exception {
        Path f = tmp.resolve("ops.txt");
        Files.writeString(f, """
                table_add l2_fwd forward 02:00:0a:00:00:02 => 3
                table_add l2_fwd forward 02:00:0a:00:00:03 => 5
                at 5000 counter_read l2_fwd_hits 0
                at 7000 counter_reset l2_fwd_hits
                at 8100 counter_read l2_fwd_hits 0
                """);
        SwitchEngine e = engine(new ProgramRegistry().build("l2fwd", Map.of()));
        assertEquals(5, ControlScript.apply(f, e));
        e.arrive(0, 0, to(0x0A000002, 100));
        e.arrive(10, 0, to(0x0A000002, 1514));
        e.arrive(20, 0, to(0x0A000003, 60));
        e.arrive(30, 0, to(0x0A000009, 200)); // a miss: dropped, counted nowhere
        e.arrive(8000, 0, to(0x0A000002, 64));
        e.drain();
        assertEquals(List.of(
                new PipelineState.CounterRead(f + ":3", 5000, "l2_fwd_hits", 0, 2, 104 + 1518),
                new PipelineState.CounterRead(f + ":5", 8100, "l2_fwd_hits", 0, 1, 68)), e.state().counterReads());
        assertArrayEquals(new long[] {1, 68}, e.state().readCounter("l2_fwd_hits", 0));
        assertArrayEquals(new long[] {0, 0}, e.state().readCounter("l2_fwd_hits", 1), "reset at 7000");
    }

    /**
     * A miss that runs the default action the control plane set counts in the direct counter's
     * miss cell (index = the table's size, 4096): Tofino takes a logical table's stats address
     * on a miss from its miss-value register (mau_stats_adr_miss_value), pointed at the
     * default entry's own cell; the entries' cells are untouched.
     */
    @Test
    void aMissOnAControlPlaneDefaultActionCountsInTheMissCell(@TempDir Path tmp) throws Exception {
        Path f = tmp.resolve("ops.txt");
        Files.writeString(f, """
                table_add l2_fwd forward 02:00:0a:00:00:02 => 3
                table_set_default l2_fwd forward 7
                at 5000 counter_read l2_fwd_hits 4096
                """);
        SwitchEngine e = engine(new ProgramRegistry().build("l2fwd", Map.of()));
        ControlScript.apply(f, e);
        List<Integer> ports = new ArrayList<>();
        e.onDeparture((cycle, port, slot, pool) -> ports.add(port));
        e.arrive(0, 0, to(0x0A000002, 100));
        e.arrive(10, 0, to(0x0A000009, 200)); // misses: forwarded to 7 by the default action
        e.arrive(20, 0, to(0x0A00000A, 60));
        e.arrive(6000, 0, to(0x0A000002, 64)); // after the read
        e.drain();
        assertEquals(List.of(3, 7, 7, 3), ports);
        assertEquals(List.of(new PipelineState.CounterRead(f + ":3", 5000, "l2_fwd_hits", 4096, 2, 204 + 64)),
                e.state().counterReads());
        assertArrayEquals(new long[] {2, 104 + 68}, e.state().readCounter("l2_fwd_hits", 0));
        assertArrayEquals(new long[] {0, 0}, e.state().readCounter("l2_fwd_hits", 1));
        assertArrayEquals(new long[] {2, 204 + 64}, e.state().readCounter("l2_fwd_hits", 4096));
    }

    /** A policer: meter 'police' colours each packet; stage 1 drops the RED ones. */
    private static StageProgram policer() {
        ProgramBuilder b = ProgramBuilder.create("policer", "drops what its meter marks RED");
        Field out = b.intrinsic(Intrinsic.UCAST_EGRESS_PORT);
        Field drop = b.intrinsic(Intrinsic.DROP_CTL);
        Field c = b.metadata(Gress.INGRESS, "meta.color", 8);
        ProgramBuilder.StageBuilder s0 = b.stage(Gress.INGRESS, 0);
        Meter m = s0.meter("police", MeterType.BYTES, Meter.Algorithm.TRTCM, 1);
        s0.body(code -> code.meter(m, constant(0)).set(c, color(m)).set(out, 1));
        b.stage(Gress.INGRESS, 1).body(code -> code.when(eq(read(c), constant(MeterColor.RED)), red -> red.set(drop, 1)));
        return b.build();
    }

    @Test
    void aPolicerDropsWhatItsRatesMarkRed(@TempDir Path tmp) throws Exception {
        Path f = tmp.resolve("rates.txt");
        // CIR 1 B/us = 1,000,000 B/s, CBS 200 B; PIR 2 B/us, PBS 300 B
        Files.writeString(f, "meter_set_rates police 0 1:200 2:300\n");
        SwitchEngine e = engine(policer());
        ControlScript.apply(f, e);
        List<Long> departed = new ArrayList<>();
        e.onDeparture((cycle, port, slot, pool) -> departed.add(pool.packetNumber(slot)));
        // 100 counted bytes each (96 + CRC): G (Tc 100, Tp 200), G (0, 100), Y (Tp ~0), R
        for (int i = 0; i < 4; i++) {
            e.arrive(i, 0, to(1, 96));
        }
        // 100 us later: Tc + 100, Tp + 200: G
        e.arrive(100 * US + 4, 0, to(1, 96));
        e.drain();
        assertEquals(List.of(0L, 1L, 2L, 4L), departed);
        assertEquals(1, e.counters().droppedFor(SwitchEngine.DROP_INGRESS));
    }

    @Test
    void badCounterAndMeterOperationsAreRefusedBeforeTheRun(@TempDir Path tmp) throws Exception {
        String[][] cases = {
            {"counter_read l2_fwd_hits 4097", "counter l2_fwd_hits: index 4097 outside 0..4096", "l2fwd"},
            {"counter_read nosuch 0", "program l2fwd has no counter 'nosuch'", "l2fwd"},
            {"counter_reset", "missing arguments: counter_reset COUNTER", "l2fwd"},
            {"meter_set_rates police 0 0.0000001:10 2:300", "rate 0.0000001 units/us is not a whole number of units per second",
                "policer"},
            {"meter_set_rates police 0 2:200 1:300", "meter police[0] is a trTCM (RFC 2698): PIR 1000000 must be >= CIR 2000000",
                "policer"},
            {"meter_set_rates police 0 1-200 2:300", "'1-200' is not RATE:BURST (units per microsecond : units)", "policer"},
            {"at 10 meter_set_rates police 1 1:200 2:300", "meter police: index 1 outside 0..0", "policer"},
        };
        for (String[] c : cases) {
            Path f = tmp.resolve("bad.txt");
            Files.writeString(f, "# line 1\n" + c[0] + "\n");
            SwitchEngine e = c[2].equals("l2fwd") ? engine(new ProgramRegistry().build("l2fwd", Map.of())) : engine(policer());
            UserError err = assertThrows(UserError.class, () -> ControlScript.apply(f, e), c[0]);
            assertEquals(f + ":2: " + c[1], err.getMessage(), c[0]);
        }
    }
}
