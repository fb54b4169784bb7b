package dev.rmtemu.model.check;

import dev.rmtemu.model.UserError;
import dev.rmtemu.model.extern.CounterType;
import dev.rmtemu.model.extern.Meter;
import dev.rmtemu.model.extern.MeterType;
import dev.rmtemu.model.phv.Field;
import dev.rmtemu.model.phv.Gress;
import dev.rmtemu.model.program.ProgramBuilder;
import dev.rmtemu.model.program.StageProgram;
import dev.rmtemu.model.table.MatchKind;
import dev.rmtemu.model.table.MatchTable;
import dev.rmtemu.model.target.TargetProfile;
import dev.rmtemu.model.target.TargetProfiles;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Counters and meters cost what p4c's Tofino back end counts, hand-computed on tofino1 (RAMs of
 * 1024 words of 128 bits):
 * <ul>
 * <li>RAMs: bf-p4c mau/resource_estimate.cpp StageUseEstimate::calculate_attached_rams,
 *     units = ceil(entries / (1024 x per_word)), "units++; // spare bank", as many map RAMs;
 *     per_word from CounterPerWord (packets or bytes: 4 at <= 32 b, else 2; packets and bytes:
 *     2 at <= 36 b, else 1) and 1 for a meter; a direct one takes its table's entries.</li>
 * <li>ALUs: mau/tofino/memories.h STATS_ALUS = 4 (one per counter) and METER_ALUS = 4, which
 *     meters share with register arrays' stateful ALUs (resource_estimate.h MAX_METER_ALUS).</li>
 * </ul>
 */
class ExternResourcesTest {
    private static final TargetProfile TOFINO1 = TargetProfiles.builtIn("tofino1");

    private static StageProgram program(Consumer<ProgramBuilder.StageBuilder> stage) {
        return program((s, k) -> stage.accept(s));
    }

    private static StageProgram program(BiConsumer<ProgramBuilder.StageBuilder, Field> stage) {
        ProgramBuilder b = ProgramBuilder.create("ext", "externs");
        Field k = b.bridged("k", 16);
        stage.accept(b.stage(Gress.INGRESS, 0), k);
        return b.build();
    }

    private static TableUsage usage(ResourceReport r, String name) {
        return r.tables().stream().filter(t -> t.name().equals(name)).findFirst().orElseThrow();
    }

    @Test
    void statsRamsByEntriesPerWordForEachTypeAndWidth() {
        ResourceReport r = ResourceChecker.check(program(s -> {
            s.counter("p32", CounterType.PACKETS, 32, 4096);                 // 4 per word: 1 + spare
            s.counter("b64", CounterType.BYTES, 64, 4096);                   // 2 per word: 2 + spare
            s.counter("pb36", CounterType.PACKETS_AND_BYTES, 36, 4096);      // 28 + 36 b, 2 per word: 2 + spare
            s.counter("pb64", CounterType.PACKETS_AND_BYTES, 64, 4096);      // 64 + 64 b, 1 per word: 4 + spare
        }), TOFINO1);
        assertEquals(List.of(2L, 3L, 3L, 5L), List.of(usage(r, "p32").srams(), usage(r, "b64").srams(),
                usage(r, "pb36").srams(), usage(r, "pb64").srams()));
        assertEquals(List.of(4, 2, 2, 1), List.of(usage(r, "p32").entriesPerWord(), usage(r, "b64").entriesPerWord(),
                usage(r, "pb36").entriesPerWord(), usage(r, "pb64").entriesPerWord()));
        assertEquals("cells: ceil(4096 / (1024 x 1 per word)) = 4 data + 1 spare", usage(r, "pb64").sizedBy());
        StageUsage row = r.stages().get(0);
        assertEquals(13, row.mapRams());
        assertEquals(13, row.sramBlocks());
        assertEquals(4, row.statsAlus());
        assertEquals(4, row.logicalTables()); // each indirect counter is driven by a table of its own
        assertTrue(r.fits(), () -> String.valueOf(r.failures()));
    }

    @Test
    void directCountersAndMetersAreSizedByTheirTable() {
        ResourceReport r = ResourceChecker.check(program((s, k) -> {
            MatchTable t = s.table("t", MatchKind.EXACT, 2048, 0, k);
            s.directCounter("hits", CounterType.PACKETS_AND_BYTES, 64, t); // 2048 entries, 1 per word: 2 + spare
            s.directMeter("rate", MeterType.BYTES, Meter.Algorithm.TRTCM, t);  // 2048 cells of one word: 2 + spare
            s.meter("police", MeterType.PACKETS, Meter.Algorithm.SRTCM, 1500); // ceil(1500 / 1024) = 2 + spare
        }), TOFINO1);
        assertEquals(3, usage(r, "hits").srams());
        assertEquals(3, usage(r, "rate").srams());
        assertEquals(3, usage(r, "police").srams());
        assertEquals("entries of its table: ceil(2048 / (1024 x 1 per word)) = 2 data + 1 spare", usage(r, "hits").sizedBy());
        StageUsage row = r.stages().get(0);
        assertEquals(9, row.mapRams());
        assertEquals(2, row.statefulAlus()); // two meters on meter ALUs
        assertEquals(1, row.statsAlus());
        assertEquals(2, row.logicalTables()); // the table, and the indirect meter's own
    }

    @Test
    void aFifthCounterInAStageIsRefusedFourFit() {
        // memories.h STATS_ALUS = 4; StageUseEstimate::MAX_STATS_ALUS = 4 (mau/resource_estimate.h)
        ResourceReport five = ResourceChecker.check(program(s -> {
            for (int i = 0; i < 5; i++) {
                s.counter("c" + i, CounterType.PACKETS, 32, 16);
            }
        }), TOFINO1);
        assertEquals(List.of("stage 0 ingress: statistics ALUs 5 > 4 (one per counter)"), five.failures());
        ResourceReport four = ResourceChecker.check(program(s -> {
            for (int i = 0; i < 4; i++) {
                s.counter("c" + i, CounterType.PACKETS, 32, 16);
            }
        }), TOFINO1);
        assertTrue(four.fits(), () -> String.valueOf(four.failures()));
    }

    @Test
    void metersShareTheStatefulAlusWithRegisters() {
        // memories.h METER_ALUS = 4: meters and stateful ALUs (registers) are one budget
        ResourceReport five = ResourceChecker.check(program(s -> {
            for (int i = 0; i < 3; i++) {
                s.register("r" + i, 32, 16);
            }
            s.meter("m0", MeterType.BYTES, Meter.Algorithm.TRTCM, 16);
            s.meter("m1", MeterType.BYTES, Meter.Algorithm.TRTCM, 16);
        }), TOFINO1);
        assertEquals(List.of("stage 0 ingress: stateful ALUs 5 > 4"), five.failures());
        ResourceReport four = ResourceChecker.check(program(s -> {
            for (int i = 0; i < 2; i++) {
                s.register("r" + i, 32, 16);
            }
            s.meter("m0", MeterType.BYTES, Meter.Algorithm.TRTCM, 16);
            s.meter("m1", MeterType.BYTES, Meter.Algorithm.TRTCM, 16);
        }), TOFINO1);
        assertTrue(four.fits(), () -> String.valueOf(four.failures()));
    }

    @Test
    void statsAndMeterRamsTakeMapRams() {
        // calculate_attached_rams: need_maprams for counters and meters; 48 map RAMs a stage (6 right columns x 8 rows)
        ResourceReport over = ResourceChecker.check(program(s -> s.meter("big", MeterType.BYTES, Meter.Algorithm.TRTCM,
                48 * 1024)), TOFINO1);
        assertFalse(over.fits());
        assertTrue(over.failures().contains("stage 0 ingress: meter big needs 49 map RAMs, 48 left of 48"),
                () -> String.valueOf(over.failures()));
        ResourceReport fits = ResourceChecker.check(program(s -> s.meter("big", MeterType.BYTES, Meter.Algorithm.TRTCM,
                47 * 1024)), TOFINO1);
        assertTrue(fits.fits(), () -> String.valueOf(fits.failures()));
    }

    @Test
    void aProfileWithoutTheStatsAluBudgetIsRefusedByName() throws Exception {
        String t1 = new String(TargetProfiles.class.getResourceAsStream("tofino1.json").readAllBytes());
        UserError e = assertThrows(UserError.class, () -> TargetProfiles.parse(t1.replace(" \"statsAlus\": 4,", ""), "x.json"));
        assertEquals("x.json: mau: missing field 'statsAlus'", e.getMessage());
    }
}
