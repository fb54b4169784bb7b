package dev.rmtemu.model;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.rmtemu.model.check.ReportRenderer;
import dev.rmtemu.model.check.ResourceChecker;
import dev.rmtemu.model.check.ResourceReport;
import dev.rmtemu.model.check.StageUsage;
import dev.rmtemu.model.phv.Field;
import dev.rmtemu.model.phv.Gress;
import dev.rmtemu.model.program.ProgramBuilder;
import dev.rmtemu.model.program.StageProgram;
import dev.rmtemu.model.register.AluOp;
import dev.rmtemu.model.register.Operand;
import dev.rmtemu.model.register.RegisterAction;
import dev.rmtemu.model.register.RegisterArray;
import dev.rmtemu.model.table.MatchKind;
import dev.rmtemu.model.target.TargetProfiles;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ResourceCheckerTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static ResourceReport check(StageProgram p, String target) {
        return ResourceChecker.check(p, TargetProfiles.builtIn(target));
    }

    @Test
    void counterOnTofino1UsesSeventeenSramBlocks() throws Exception {
        ResourceReport r = TestPrograms.check("counter", "tofino1", Map.of());
        assertTrue(r.fits(), r.failures().toString());
        JsonNode stages = JSON.readTree(ReportRenderer.json(r)).at("/resources/mau/mau_stages");
        assertEquals(12, stages.size(), "one row per tofino1 stage of the used gress");
        for (int i = 0; i < 12; i++) {
            assertEquals(i, stages.get(i).get("stage_number").asInt());
            assertEquals("ingress", stages.get(i).get("gress").asText());
        }
        JsonNode s0 = stages.get(0);
        // 32 b x 65536 cells = 2 Mib = 16 blocks of 1024 x 128 b, + 1 spare RAM
        assertEquals(17, s0.at("/rams/used").asInt());
        assertEquals(80, s0.at("/rams/available").asInt());
        assertEquals(21.3, s0.at("/rams/percent").asDouble());
        assertEquals(17, s0.at("/map_rams/used").asInt());
        assertEquals(0, s0.at("/tcams/used").asInt());
        assertEquals(1, s0.at("/meter_alus/used").asInt());
        assertEquals(16, s0.at("/hash_bits/used").asInt());
        assertEquals(416, s0.at("/hash_bits/available").asInt());
        assertEquals(1, s0.at("/logical_tables/used").asInt());
        assertEquals(0, stages.get(1).at("/rams/used").asInt());
        assertEquals(24, s0.get("latency_cycles").asInt(), "20 base + 4 for the stateful ALU");
        assertEquals(17, JSON.readTree(ReportRenderer.json(r)).at("/resources/mau/totals/ingress/rams/used").asInt());
        assertEquals("RAW", JSON.readTree(ReportRenderer.json(r)).at("/resources/templates/0").asText());
        JsonNode phv = JSON.readTree(ReportRenderer.json(r)).at("/resources/phv_containers");
        assertEquals(6, phv.size(), "three ordinary groups, then three tagalong ones");
        assertEquals(8, phv.get(0).get("width").asInt());
        assertEquals(false, phv.get(0).get("tagalong").asBoolean());
        assertEquals(true, phv.get(5).get("tagalong").asBoolean());
        assertEquals(64, phv.get(0).get("available").asInt());
    }

    @Test
    void oversizedCounterFailsNamingTheStage() {
        ResourceReport r = TestPrograms.check("counter", "tofino1", Map.of("cells", "4194304", "stage", "4"));
        assertFalse(r.fits());
        // 4,194,304 / 4096 = 1024 data RAMs + 1 spare
        assertEquals(List.of(
                "stage 4 ingress: register flow_count needs 1025 RAMs, more than the 36 one stateful ALU reaches (6 rows x 6 right-side RAMs), and tofino1 cannot split a register across stages",
                "stage 4 ingress: register flow_count needs 1025 map RAMs, 48 left of 48",
                "stage 4 ingress: register flow_count needs 1025 right-side RAMs, 48 left of 48 (6 columns x 8 rows)",
                "stage 4 ingress: SRAM blocks 1025 > 80"), r.failures());
        assertTrue(r.failing(4, Gress.INGRESS));
        assertFalse(r.failing(3, Gress.INGRESS));
        assertTrue(ReportRenderer.table(r).contains("!!"));
    }

    @Test
    void fiveArraysInOneStageExceedTheStatefulAlus() {
        ProgramBuilder b = ProgramBuilder.create("five", "");
        ProgramBuilder.StageBuilder s = b.stage(Gress.INGRESS, 4);
        for (int i = 0; i < 5; i++) {
            RegisterArray r = s.register("r" + i, 32, 1024);
            s.action(RegisterAction.on(r, "inc").updateLo(AluOp.ADD, Operand.REG_LO, Operand.constant(1)));
        }
        ResourceReport r = check(b.build(), "tofino1");
        assertEquals(List.of("stage 4 ingress: stateful ALUs 5 > 4"), r.failures());
        assertTrue(check(b2(), "unconstrained").fits());
    }

    private static StageProgram b2() {
        ProgramBuilder b = ProgramBuilder.create("five", "");
        ProgramBuilder.StageBuilder s = b.stage(Gress.INGRESS, 4);
        for (int i = 0; i < 50; i++) {
            s.register("r" + i, 64, 1 << 20);
        }
        return b.build();
    }

    @Test
    void ingressAndEgressShareAStagesBudget() {
        ProgramBuilder b = ProgramBuilder.create("shared", "");
        for (Gress g : Gress.values()) {
            ProgramBuilder.StageBuilder s = b.stage(g, 0);
            for (int i = 0; i < 3; i++) {
                s.register(g.label() + i, 32, 1024);
            }
        }
        ResourceReport r = check(b.build(), "tofino1");
        assertEquals(List.of("stage 0 (ingress+egress): stateful ALUs 6 > 4 (ingress 3 + egress 3)"), r.failures());
        assertTrue(r.failing(0, Gress.INGRESS) && r.failing(0, Gress.EGRESS));
    }

    @Test
    void tooManyStagesAndUnsupportedCellsAndTemplatesAreReported() {
        ProgramBuilder b = ProgramBuilder.create("deep", "");
        b.stage(Gress.INGRESS, 12).register("late", 32, 16);
        RegisterArray wide = b.stage(Gress.INGRESS, 0).register("wide", 64, true, 16);
        b.stage(Gress.INGRESS, 0).action(RegisterAction.on(wide, "p").updateHi(AluOp.ADD, Operand.REG_HI, Operand.constant(1)));
        ResourceReport t1 = check(b.build(), "tofino1");
        assertEquals(List.of(
                "ingress: program uses 13 stages > 12",
                "stage 0 ingress: register 'wide' words of 64 b > 32 b stateful-ALU word on tofino1"), t1.failures());

        ProgramBuilder c = ProgramBuilder.create("pairs", "");
        RegisterArray kc = c.stage(Gress.INGRESS, 0).register("key_count", 32, true, 1024);
        c.stage(Gress.INGRESS, 0).action(RegisterAction.on(kc, "swap").updateHi(AluOp.ADD, Operand.REG_HI, Operand.constant(1)));
        StageProgram pairs = c.build();
        assertTrue(check(pairs, "tofino1").fits());
        assertEquals(List.of("stage 0 ingress: register action 'key_count.swap' needs the PAIR template, which rmt's stateful ALUs do not implement"),
                check(pairs, "rmt").failures());
    }

    @Test
    void tablesAreCountedInBlocksOfTheTargetGeometry() {
        ProgramBuilder b = ProgramBuilder.create("tables", "");
        Field src = b.header("ipv4.src_addr");
        Field dst = b.header("ipv4.dst_addr");
        Field proto = b.header("ipv4.protocol");
        Field sp = b.overlay("l4.src_port", "tcp.src_port", "udp.src_port");
        Field dp = b.overlay("l4.dst_port", "tcp.dst_port", "udp.dst_port");
        ProgramBuilder.StageBuilder s = b.stage(Gress.INGRESS, 0);
        // ACL: 13 key bytes + the version nibble = 27 nibbles, 11 per 44-bit TCAM = 3 wide, 2048 entries = 4 deep -> 12 blocks
        s.table("acl", MatchKind.TERNARY, 2048, 16, src, dst, proto, sp, dp);
        // exact on dst: 32 - 10 ghost + 4 version + 9 immediate = 35 b; 3 per word would take 22 RAMs deep, 7 in a
        // 2-RAM row (245 b, 28 key bytes, 63 overhead bits) take ceil(65536 / 7168) = 10 deep x 2 = 20 (table_layout.cpp
        // setup_exact_match, the fewest RAMs: resource_estimate.cpp select_best_option)
        s.table("fwd", MatchKind.EXACT, 65536, 9, dst);
        StageProgram p = b.build();
        StageUsage u = check(p, "tofino1").stages().get(0);
        assertEquals(12, u.tcamBlocks());
        // acl's 16-bit immediate in 16-bit indirection entries, 8 per word: 2048 entries = 1 RAM (left side)
        assertEquals(1, u.tindRams());
        assertEquals(21, u.sramBlocks());
        assertEquals(2, u.logicalTables());
        assertEquals(22, u.latencyCycles(), "20 base + 2 for TCAM, no stateful ALU");
        // rmt: 40-bit TCAM words hold 10 nibbles, no version nibble: 26 -> 3 wide, 2000 deep -> 2 deep = 6 blocks
        assertEquals(6, check(p, "rmt").stages().get(0).tcamBlocks());
    }

    @Test
    void overBudgetPhvIsRejectedNamingTheField() {
        ProgramBuilder b = ProgramBuilder.create("phv", "");
        for (int i = 0; i < 70; i++) {
            b.metadata(Gress.INGRESS, String.format("meta.f%02d", i), 64);
        }
        b.stage(Gress.INGRESS, 0);
        ResourceReport ok = check(b.build(), "tofino1");
        // 70 x 64 b = 4480 b > 3200 b of containers ingress may use
        assertFalse(ok.fits());
        assertTrue(ok.failures().get(0).startsWith("PHV: field meta.f"), ok.failures().toString());
        assertTrue(check(b2phv(49), "tofino1").fits());
    }

    private static StageProgram b2phv(int n) {
        ProgramBuilder b = ProgramBuilder.create("phv", "");
        for (int i = 0; i < n; i++) {
            b.metadata(Gress.INGRESS, "meta.f" + i, 64);
        }
        b.stage(Gress.INGRESS, 0);
        return b.build();
    }

    @Test
    void phvPacksSmallFieldsTogetherAndSplitsWideOnes() {
        ProgramBuilder b = ProgramBuilder.create("pack", "");
        b.metadata(Gress.INGRESS, "meta.a", 3);
        b.metadata(Gress.INGRESS, "meta.b", 4);
        b.metadata(Gress.INGRESS, "meta.wide", 48);
        b.stage(Gress.INGRESS, 0);
        ResourceReport r = check(b.build(), "tofino1");
        // intrinsics always present in ingress: ingress_port 9, ucast_egress_port 9, drop_ctl 3
        // 48 -> 32 + 16; 9 -> 16 (7 spare), 9 -> 16 (7 spare); 4, 3, 3 fit in spare bits
        assertEquals(List.of(0, 3, 1), List.of(r.phv().get(0).used(), r.phv().get(1).used(), r.phv().get(2).used()));
    }

    @Test
    void egressLatencyHasTheMinimum() {
        ProgramBuilder b = ProgramBuilder.create("eg", "");
        b.stage(Gress.EGRESS, 0).register("x", 32, 16);
        ResourceReport r = check(b.build(), "tofino1");
        assertEquals(160, r.pipelineLatencyCycles().get(Gress.EGRESS));
    }

    @Test
    void jsonAndTableAreDeterministic() {
        ResourceReport a = TestPrograms.check("l2fwd", "tofino2", Map.of());
        ResourceReport b = TestPrograms.check("l2fwd", "tofino2", Map.of());
        assertEquals(ReportRenderer.json(a), ReportRenderer.json(b));
        assertEquals(ReportRenderer.table(a), ReportRenderer.table(b));
        assertEquals(20, a.stages().size());
    }
}
