package dev.rmtemu.model;

import dev.rmtemu.model.register.AtomTemplate;
import dev.rmtemu.model.target.TargetProfile;
import dev.rmtemu.model.target.TargetProfiles;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TargetProfilesTest {
    @Test
    void builtInsCarryThePublishedNumbers() {
        TargetProfile t1 = TargetProfiles.builtIn("tofino1");
        assertEquals(12, t1.stagesPerGress());
        assertEquals(4, t1.pipes());
        assertEquals(1_220_000_000L, t1.clockHz());
        assertEquals(80, t1.sram().blocks());
        assertEquals(1024 * 128, t1.sram().bitsPerBlock());
        assertEquals(24, t1.tcam().blocks());
        assertEquals(44, t1.tcam().widthBits());
        assertEquals(4, t1.statefulAlusPerStage());
        assertEquals(416, t1.hashBitsPerStage());
        assertEquals(4096, t1.phvBits());
        assertEquals(64, t1.maxCellWidth());
        assertEquals(20, t1.latency().matchStageCycles());
        assertEquals(160, t1.latency().minEgressCycles());

        // the compiler's layout rules (bf-p4c mau/tofino/memories.h and friends)
        assertEquals(48, t1.mau().mapRams());
        assertEquals(32, t1.mau().leftSideRams());
        assertEquals(48, t1.mau().rightSideRams());
        assertEquals(36, t1.mau().registerMaxRams());
        assertEquals(1, t1.mau().registerSpareRams());
        assertFalse(t1.mau().registerSplitAcrossStages());
        assertEquals(63, t1.mau().instructionSlots());
        assertEquals(128, t1.mau().exactXbarBytes());
        assertEquals(66, t1.mau().ternaryXbarBytes());
        assertEquals(16, t1.phvContainers().get(0).ingressOnly());
        assertEquals(48, t1.phvContainers().get(0).usableBy(true));

        TargetProfile t2 = TargetProfiles.builtIn("tofino2");
        assertTrue(t2.mau().registerSplitAcrossStages());
        assertEquals(20, t2.stagesPerGress());
        assertEquals(5120, t2.phvBits());
        assertEquals(128, t2.maxCellWidth());

        TargetProfile rmt = TargetProfiles.builtIn("rmt");
        assertEquals(32, rmt.stagesPerGress());
        assertEquals(1, rmt.pipes());
        assertEquals(106, rmt.sram().blocks());
        assertEquals(80, rmt.sram().widthBits());
        assertEquals(2000, rmt.tcam().depth());
        assertEquals(4096, rmt.phvBits());
        assertFalse(rmt.templates().contains(AtomTemplate.PAIR));

        TargetProfile free = TargetProfiles.builtIn("unconstrained");
        assertTrue(free.sram().unlimited());
        assertEquals(TargetProfile.UNLIMITED, free.phvBits());
        assertTrue(free.templates().contains(AtomTemplate.FREEFORM));
        assertEquals(TargetProfile.UNLIMITED, free.mau().mapRams());
        assertEquals(TargetProfile.UNLIMITED, rmt.mau().instructionSlots());
    }

    @Test
    void layoutRulesAreOptionalButCheckedWhenGiven(@TempDir Path dir) throws Exception {
        String t1 = new String(TargetProfiles.class.getResourceAsStream("tofino1.json").readAllBytes());
        String withoutMau = t1.substring(0, t1.indexOf(",\n  \"mau\"")) + "\n}\n";
        assertEquals(dev.rmtemu.model.target.MauResources.UNCONSTRAINED, TargetProfiles.parse(withoutMau, "x.json").mau());
        UserError e = assertThrows(UserError.class, () -> TargetProfiles.parse(t1.replace("\"mapRams\": 48", "\"mapRams\": -1"), "x.json"));
        assertEquals("x.json: mau: field 'mapRams' must be a non-negative integer or \"unlimited\", got -1", e.getMessage());
        e = assertThrows(UserError.class, () -> TargetProfiles.parse(t1.replace("\"registerSplitAcrossStages\": false", "\"registerSplitAcrossStages\": 0"), "x.json"));
        assertEquals("x.json: mau: field 'registerSplitAcrossStages' must be true or false", e.getMessage());
        e = assertThrows(UserError.class, () -> TargetProfiles.parse(t1.replace("\"gatewaysPerStage\": 16, ", ""), "x.json"));
        assertEquals("x.json: mau: missing field 'gatewaysPerStage'", e.getMessage());
    }

    @Test
    void userProfileLoadsFromAFile(@TempDir Path dir) throws Exception {
        String json = new String(TargetProfiles.class.getResourceAsStream("tofino1.json").readAllBytes())
                .replace("\"name\": \"tofino1\"", "\"name\": \"mine\"")
                .replace("\"stagesPerGress\": 12", "\"stagesPerGress\": 6");
        Path f = dir.resolve("mine.json");
        Files.writeString(f, json);
        TargetProfile p = TargetProfiles.load(f.toString());
        assertEquals("mine", p.name());
        assertEquals(6, p.stagesPerGress());
    }

    @Test
    void badProfilesGiveOneLineNamingFileAndField(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("bad.json");
        Files.writeString(f, "{\"name\": \"x\"}");
        UserError e = assertThrows(UserError.class, () -> TargetProfiles.load(f.toString()));
        assertEquals(f + ": missing field 'registerCellWidths'", e.getMessage());
        Files.writeString(f, "{ not json");
        e = assertThrows(UserError.class, () -> TargetProfiles.load(f.toString()));
        assertTrue(e.getMessage().startsWith(f + ": not valid JSON at line 1"), e.getMessage());
        e = assertThrows(UserError.class, () -> TargetProfiles.load("tofino9"));
        assertEquals("unknown target 'tofino9' (built-in: tofino1, tofino2, rmt, unconstrained; or a path to a JSON profile)", e.getMessage());
        String neg = new String(TargetProfiles.class.getResourceAsStream("tofino1.json").readAllBytes())
                .replace("\"pipes\": 4", "\"pipes\": -4");
        Files.writeString(f, neg);
        e = assertThrows(UserError.class, () -> TargetProfiles.load(f.toString()));
        assertTrue(e.getMessage().contains("field 'pipes' must be a non-negative integer"), e.getMessage());
    }
}
