package dev.rmtemu.model.check;

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

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * LPFs and WREDs cost what p4c counts for a meter, hand-computed on tofino1 (RAMs of 1024 words
 * of 128 bits). p4c turns {@code Lpf}, {@code DirectLpf}, {@code Wred} and {@code DirectWred}
 * into {@code IR::MAU::Meter} with implementation "lpf" or "wred" (bf-p4c
 * mau/extract_maupipe.cpp {@code createAttached}); {@code StageUseEstimate::calculate_attached_rams}
 * (mau/resource_estimate.cpp) gives every {@code IR::MAU::Meter} one cell a word, its size (or
 * its table's entries when direct), a spare bank and map RAMs; each runs on a meter ALU, which
 * the stage shares with the register arrays' stateful ALUs (mau/tofino/memories.h METER_ALUS = 4).
 */
class FilterResourcesTest {
    private static final TargetProfile TOFINO1 = TargetProfiles.builtIn("tofino1");

    private static StageProgram program(BiConsumer<ProgramBuilder.StageBuilder, Field> stage) {
        ProgramBuilder b = ProgramBuilder.create("filters", "lpf and wred");
        Field k = b.bridged("k", 16);
        stage.accept(b.stage(Gress.EGRESS, 0), k);
        return b.build();
    }

    private static TableUsage usage(ResourceReport r, String name) {
        return r.tables().stream().filter(t -> t.name().equals(name)).findFirst().orElseThrow();
    }

    @Test
    void oneCellAWordASpareBankAndAMeterAluEach() {
        ResourceReport r = ResourceChecker.check(program((s, k) -> {
            MatchTable t = s.table("queues", MatchKind.EXACT, 4096, 0, k);
            s.lpf("avg_queue", 19, 2048);          // ceil(2048 / 1024) = 2 + spare = 3
            s.directWred("early_drop", 1, 0, t);   // its table's 4096 entries: 4 + spare = 5
        }), TOFINO1);
        assertEquals(3, usage(r, "avg_queue").srams());
        assertEquals(5, usage(r, "early_drop").srams());
        assertEquals("entries of its table: ceil(4096 / (1024 x 1 per word)) = 4 data + 1 spare",
                usage(r, "early_drop").sizedBy());
        StageUsage row = r.stages().get(0);
        assertEquals(8, row.mapRams());
        assertEquals(2, row.statefulAlus());   // two meter ALUs
        assertEquals(2, row.logicalTables());  // the table, and the indirect LPF's own
        assertTrue(r.fits(), () -> String.valueOf(r.failures()));
    }

    @Test
    void filtersShareTheMeterAlusWithRegistersAFifthIsRefused() {
        ResourceReport five = ResourceChecker.check(program((s, k) -> {
            for (int i = 0; i < 3; i++) {
                s.register("r" + i, 32, 16);
            }
            s.lpf("l", 16, 16);
            s.wred("w", 16, 1, 0);
        }), TOFINO1);
        assertEquals(List.of("stage 0 egress: stateful ALUs 5 > 4"), five.failures());
        ResourceReport four = ResourceChecker.check(program((s, k) -> {
            for (int i = 0; i < 2; i++) {
                s.register("r" + i, 32, 16);
            }
            s.lpf("l", 16, 16);
            s.wred("w", 16, 1, 0);
        }), TOFINO1);
        assertTrue(four.fits(), () -> String.valueOf(four.failures()));
    }
}
