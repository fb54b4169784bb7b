package dev.rmtemu.model.check;

import dev.rmtemu.model.phv.Field;
import dev.rmtemu.model.phv.Gress;
import dev.rmtemu.model.program.ProgramBuilder;
import dev.rmtemu.model.program.StageProgram;
import dev.rmtemu.model.table.AlgorithmicTcam;
import dev.rmtemu.model.table.IdleTimeout;
import dev.rmtemu.model.table.MatchKind;
import dev.rmtemu.model.table.TableActions;
import dev.rmtemu.model.table.TableOptions;
import dev.rmtemu.model.target.TargetProfile;
import dev.rmtemu.model.target.TargetProfiles;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.function.BiConsumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * ALPM, ATCAM and idle time cost what p4c's Tofino back end counts, hand-computed on tofino1
 * (RAMs of 1024 x 128 b, TCAMs of 512 x 44 b):
 * <ul>
 * <li>ATCAM: bf-p4c mau/table_layout.cpp DoTableLayout::determine_byte_impacts (ternary and lpm
 *     key bits stored twice, the partition index not at all), LayoutChoices::setup_exact_match
 *     (entries a row 1..5 on one payload bus, RAMs wide as for exact match, + 4 version bits),
 *     mau/resource_estimate.cpp StageUseEstimate::options_to_atcam_entries (RAMs = ceil(ceil(size /
 *     partitions) / entries a row) deep x wide x ceil(partitions / 1024) ways),
 *     calculate_partition_sizes (ceil(deep / MAX_PARTITION_RAMS_PER_ROW 5) logical tables).</li>
 * <li>ALPM: midend/alpm.cpp SplitAlpm::postorder, create_preclassifier_table: a pre-classifier
 *     TCAM of partitions x subtrees entries writing a ceil_log2(partitions)-bit index, then the ATCAM.</li>
 * <li>Idle time: resource_estimate.cpp calculate_attached_rams with IdleTimePerWord (8, 4, 2, 1
 *     entries a word at 1, 2, 3, 6 bits), map RAMs only, sized by the layout's entries.</li>
 * </ul>
 */
class AlgorithmicTcamAndIdleTimeResourcesTest {
    private static final TargetProfile TOFINO1 = TargetProfiles.builtIn("tofino1");

    private static StageProgram program(BiConsumer<ProgramBuilder.StageBuilder, Field[]> stage) {
        ProgramBuilder b = ProgramBuilder.create("algo", "algorithmic tcams");
        Field dst = b.bridged("dst", 32);
        Field part = b.metadata(Gress.INGRESS, "part", 10);
        stage.accept(b.stage(Gress.INGRESS, 0), new Field[] {dst, part});
        return b.build();
    }

    private static TableActions nhop() {
        return TableActions.of("miss", dev.rmtemu.model.table.TableAction.of(1, "set_nhop", "nhop", 16));
    }

    private static TableUsage usage(ResourceReport r, String name, String kind) {
        return r.tables().stream().filter(t -> t.name().equals(name) && t.kind().equals(kind)).findFirst().orElseThrow();
    }

    private static StageProgram alpm(int size, IdleTimeout idle) {
        return program((s, f) -> s.table("routes", MatchKind.LPM, size, 16, nhop(),
                new TableOptions(idle, AlgorithmicTcam.alpm(1024, 2)), f[0]));
    }

    @Test
    void alpmIsAPreClassifierTcamAndAnAtcamOfPartitions() {
        ResourceReport r = ResourceChecker.check(alpm(8192, IdleTimeout.DEFAULT), TOFINO1);
        assertTrue(r.fits(), () -> String.valueOf(r.failures()));
        // pre-classifier: 1024 x 2 = 2048 entries; 4 key bytes x 2 + version nibble = 9 nibbles, one TCAM wide, 4 deep;
        // a 10-bit index as immediate data: 16-bit indirection entries, 8 a word: ceil(2048 / 8192) = 1 RAM
        TableUsage pre = usage(r, "routes__alpm_preclassifier", "alpm_preclassifier");
        assertEquals(List.of(4L, 1L, 0L), List.of(pre.tcams(), pre.tindRams(), pre.dataRams()));
        // ATCAM: entry 2 x 32 + 4 version + 16 immediate = 84 b, 8 match bytes; 8192 / 1024 = 8 entries a partition.
        // 1 a row: 8 RAMs; 3 a row in 2 RAMs (252 b, 24 bytes): ceil(8 / 3) = 3 deep = 6; 4 in 3 RAMs: 2 deep = 6 (wider);
        // 5 a row needs 80 overhead bits, two payload buses: not an ATCAM row. Data in action RAMs: at best 6 + 1.
        TableUsage atcam = usage(r, "routes", "alpm");
        assertEquals(List.of(6L, 0L, 1, 84, 0), List.of(atcam.dataRams(), atcam.actionRams(), atcam.ways(), atcam.entryBits(),
                atcam.entriesPerWord()));
        // idle time, 3 bits (2 a word), over the ATCAM's 3 deep x 3 a row x 1024 = 9216 entries: ceil(9216 / 2048) = 5 map RAMs
        TableUsage idle = usage(r, "routes", "idletime");
        assertEquals(List.of(5L, 2), List.of(idle.dataRams(), idle.entriesPerWord()));
        StageUsage row = r.stages().get(0);
        assertEquals(7, row.sramBlocks());          // 6 ATCAM + 1 indirection; idle time takes no SRAM
        assertEquals(4, row.tcamBlocks());
        assertEquals(5, row.mapRams());
        assertEquals(2, row.logicalTables());       // the pre-classifier and ceil(3 / 5) = 1 ATCAM logical table
        assertEquals(1, row.ternaryTables());
    }

    @Test
    void anAlpmTooLargeForTheStageIsRefusedAndItsLegalTwinFits() {
        // 65536 / 1024 = 64 a partition: 3 a row, 22 deep x 2 wide = 44 RAMs + 1 indirection = 45 of 80
        ResourceReport fits = ResourceChecker.check(alpm(65536, null), TOFINO1);
        assertTrue(fits.fits(), () -> String.valueOf(fits.failures()));
        assertEquals(45, fits.stages().get(0).sramBlocks());
        // 131072 / 1024 = 128 a partition: 43 deep x 2 wide = 86 + 1 = 87 > 80
        ResourceReport refused = ResourceChecker.check(alpm(131072, null), TOFINO1);
        assertFalse(refused.fits());
        assertEquals(List.of("stage 0 ingress: SRAM blocks 87 > 80"), refused.failures());
    }

    @Test
    void atcamKeepsTheTernaryKeyTwiceAndThePartitionIndexNotAtAll() {
        ResourceReport r = ResourceChecker.check(program((s, f) -> s.table("acl", MatchKind.TERNARY, 16384, 0, TableActions.NONE,
                new TableOptions(null, AlgorithmicTcam.atcam(f[1], 1024)), f[1], f[0])), TOFINO1);
        assertTrue(r.fits(), () -> String.valueOf(r.failures()));
        // entry 2 x 32 + 4 = 68 b, 8 match bytes; 16 a partition: 1 a row 16 RAMs; 3 a row in 2 RAMs, 6 deep: 12;
        // 4 or 5 a row in 3 RAMs, 4 deep: 12 but wider
        TableUsage atcam = usage(r, "acl", "atcam");
        assertEquals(List.of(12L, 68, 0L), List.of(atcam.dataRams(), atcam.entryBits(), atcam.tcams()));
        StageUsage row = r.stages().get(0);
        assertEquals(12, row.sramBlocks());
        assertEquals(0, row.tcamBlocks());
        assertEquals(2, row.logicalTables());       // ceil(6 / 5) = 2 logical tables
        assertEquals(0, row.ternaryTables());       // in SRAM, not TCAM
    }

    @Test
    void idleTimeMapRamsByPrecision() {
        // a ternary table of 3000 entries holds 6 TCAM rows of 512 = 3072 entries
        int[] precision = {1, 2, 3, 6};
        long[] expected = {1, 1, 2, 3}; // ceil(3072 / (1024 x 8, 4, 2, 1))
        for (int i = 0; i < precision.length; i++) {
            int p = precision[i];
            ResourceReport r = ResourceChecker.check(program((s, f) -> s.table("acl", MatchKind.TERNARY, 3000, 0, TableActions.NONE,
                    new TableOptions(new IdleTimeout(p), null), f[0])), TOFINO1);
            assertEquals(expected[i], usage(r, "acl", "idletime").dataRams(), "precision " + p);
            assertEquals(expected[i], r.stages().get(0).mapRams(), "precision " + p);
            assertEquals(0, r.stages().get(0).sramBlocks(), "idle time takes no SRAM");
        }
        assertEquals("idle time 6 b: ceil(3072 entries / (1024 x 1 per word)) = 3 map RAMs",
                usage(ResourceChecker.check(program((s, f) -> s.table("acl", MatchKind.TERNARY, 3000, 0, TableActions.NONE,
                        new TableOptions(new IdleTimeout(6), null), f[0])), TOFINO1), "acl", "idletime").sizedBy());
    }

    @Test
    void idleTimeOverTheMapRamsIsRefused() {
        // 6 bits, 1 a word: a 49152-entry ternary table needs 48 map RAMs (fits), a 50176-entry one 49 > 48
        ResourceReport fits = ResourceChecker.check(program((s, f) -> s.table("acl", MatchKind.TERNARY, 49152, 0,
                TableActions.NONE, new TableOptions(new IdleTimeout(6), null), f[0])), TOFINO1);
        assertTrue(fits.failures().stream().noneMatch(x -> x.contains("idle time")), () -> String.valueOf(fits.failures()));
        ResourceReport refused = ResourceChecker.check(program((s, f) -> s.table("acl", MatchKind.TERNARY, 50176, 0,
                TableActions.NONE, new TableOptions(new IdleTimeout(6), null), f[0])), TOFINO1);
        assertTrue(refused.failures().contains("stage 0 ingress: idle time of table acl needs 49 map RAMs, 48 left of 48"),
                () -> String.valueOf(refused.failures()));
    }

    @Test
    void shapesAndPrecisionsP4cRefuses() {
        // midend/alpm.cpp: number_partitions in {1024, 2048, 4096, 8192}, subtrees 1..10; mau/table_layout.cpp createIdleTime
        assertEquals("Alpm number_partitions 1000: allowed values are 1024, 2048, 4096 and 8192",
                assertThrows(IllegalArgumentException.class, () -> AlgorithmicTcam.alpm(1000, 2)).getMessage());
        assertThrows(IllegalArgumentException.class, () -> AlgorithmicTcam.alpm(1024, 11));
        assertEquals("idle time precision of 4 bits: Tofino keeps 1, 2, 3 or 6",
                assertThrows(IllegalArgumentException.class, () -> new IdleTimeout(4)).getMessage());
        assertThrows(IllegalArgumentException.class, () -> program((s, f) -> s.table("t", MatchKind.TERNARY, 16, 0,
                TableActions.NONE, new TableOptions(null, AlgorithmicTcam.alpm(1024, 2)), f[0])));
    }
}
