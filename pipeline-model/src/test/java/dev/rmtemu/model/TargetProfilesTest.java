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
        Files.write(f, new byte[] {'{', (byte) 0xff, '}'});
        e = assertThrows(UserError.class, () -> TargetProfiles.load(f.toString()));
        assertEquals(f + ": not UTF-8 text", e.getMessage());
        e = assertThrows(UserError.class, () -> TargetProfiles.load("tofino9"));
        assertEquals("unknown target 'tofino9' (built-in: tofino1, tofino2, rmt, unconstrained; or a path to a JSON profile)", e.getMessage());
        String neg = new String(TargetProfiles.class.getResourceAsStream("tofino1.json").readAllBytes())
                .replace("\"pipes\": 4", "\"pipes\": -4");
        Files.writeString(f, neg);
        e = assertThrows(UserError.class, () -> TargetProfiles.load(f.toString()));
        assertEquals(f + ": field 'pipes' must be an integer in 1..63, got -4", e.getMessage());
    }

    private static String tofino1() throws Exception {
        return new String(TargetProfiles.class.getResourceAsStream("tofino1.json").readAllBytes());
    }

    /** The one-line refusal for tofino1.json with each {@code from} replaced by the {@code to} after it. */
    private static String refusal(String... fromTo) throws Exception {
        String edited = tofino1();
        for (int i = 0; i < fromTo.length; i += 2) {
            assertTrue(edited.contains(fromTo[i]), fromTo[i]);
            edited = edited.replace(fromTo[i], fromTo[i + 1]);
        }
        String json = edited;
        UserError e = assertThrows(UserError.class, () -> TargetProfiles.parse(json, "p.json"));
        assertEquals(UserError.BAD_INPUT, e.exitCode());
        return e.getMessage();
    }

    @Test
    void everyFieldIsRangeCheckedWhereItIsRead() throws Exception {
        assertEquals("p.json: field 'tmCellBytes' must be an integer in 1..65536, got 0",
                refusal("\"tmCellBytes\": 80", "\"tmCellBytes\": 0"));
        assertEquals("p.json: field 'pipes' must be an integer in 1..63, got 0",
                refusal("\"pipes\": 4", "\"pipes\": 0"));
        assertEquals("p.json: field 'portsPerPipe' must be an integer in 1..448 or \"unlimited\", got 1000000000",
                refusal("\"portsPerPipe\": 16", "\"portsPerPipe\": 1000000000"));
        assertEquals("p.json: field 'portsPerPipe' must be an integer in 1..448 or \"unlimited\", got 1.0E9",
                refusal("\"portsPerPipe\": 16", "\"portsPerPipe\": 1e9"));
        assertEquals("p.json: field 'latency.parserCycles' must be an integer in 0..1000000, got -1",
                refusal("\"parserCycles\": 16", "\"parserCycles\": -1"));
        assertEquals("p.json: field 'phvContainers[1].widthBits' must be an integer in 1..64, got 65",
                refusal("{ \"widthBits\": 16, \"count\": 96,", "{ \"widthBits\": 65, \"count\": 96,"));
        assertEquals("p.json: field 'registerCellWidths[4]' must be an integer in 1..256, got 0",
                refusal("[1, 8, 16, 32, 64]", "[1, 8, 16, 32, 0]"));
        assertEquals("p.json: field 'clockHz' must be an integer in 1..100000000000, got 0",
                refusal("\"clockHz\": 1220000000", "\"clockHz\": 0"));
        assertEquals("p.json: field 'recirculationGbps' must be a number above 0 and at most 1000000, got \"Infinity\"",
                refusal("\"recirculationGbps\": 100", "\"recirculationGbps\": 1e400"));
        assertEquals("p.json: field 'templates' must be a non-empty array",
                refusal("\"templates\": [\"READ\", \"WRITE\", \"RAW\", \"PRAW\", \"IF_ELSE_RAW\", \"SUB\", \"NESTED_IF\", \"PAIR\"]",
                        "\"templates\": []"));
        assertEquals("p.json: field 'description' must be a string",
                refusal("\"description\": \"Intel", "\"description\": 3, \"_d\": \"Intel"));
    }

    @Test
    void unlimitedIsRefusedWhereItMeansNothing() throws Exception {
        assertEquals("p.json: field 'pipes' cannot be \"unlimited\" (must be an integer in 1..63)",
                refusal("\"pipes\": 4", "\"pipes\": \"unlimited\""));
        assertEquals("p.json: field 'sram.widthBits' cannot be \"unlimited\" (must be an integer in 1..4096)",
                refusal("\"widthBits\": 128", "\"widthBits\": \"unlimited\""));
        assertEquals("p.json: field 'tmCellBytes' cannot be \"unlimited\" (must be an integer in 1..65536)",
                refusal("\"tmCellBytes\": 80", "\"tmCellBytes\": \"unlimited\""));
        // where it does mean something, it is still accepted
        TargetProfile p = TargetProfiles.parse(tofino1().replace("\"stagesPerGress\": 12", "\"stagesPerGress\": \"unlimited\""), "p.json");
        assertEquals(TargetProfile.UNLIMITED, p.stagesPerGress());
    }

    @Test
    void productsAndRelationsBetweenFieldsAreChecked() throws Exception {
        assertEquals("p.json: pipes × portsPerPipe = 63 × 448 = 28224 front-panel ports, more than the 448 port numbers"
                        + " below the recirculation ports",
                refusal("\"pipes\": 4", "\"pipes\": 63", "\"portsPerPipe\": 16", "\"portsPerPipe\": 448"));
        assertEquals("p.json: tmBufferBytes (79) must hold at least one cell of tmCellBytes (80)",
                refusal("\"tmBufferBytes\": 22020096", "\"tmBufferBytes\": 79"));
        assertEquals("p.json: registerCellWidths[4] = 128 is wider than a lo/hi pair of 32-bit registerWordBits",
                refusal("[1, 8, 16, 32, 64]", "[1, 8, 16, 32, 128]"));
    }

    @Test
    void unknownKeysAreRefusedNamingTheClosestKnownKey() throws Exception {
        assertEquals("p.json: unknown field 'portPerPipe' (closest known field: 'portsPerPipe')",
                refusal("\"portsPerPipe\": 16", "\"portPerPipe\": 16"));
        assertEquals("p.json: unknown field 'latency.parserCycle' (closest known field: 'latency.parserCycles')",
                refusal("\"parserCycles\": 16", "\"parserCycle\": 16"));
        assertEquals("p.json: unknown field 'tcam.Depth' (closest known field: 'tcam.depth')",
                refusal("\"depth\": 512", "\"Depth\": 512"));
        String longKey = "k".repeat(10_000);
        String msg = refusal("\"pipes\": 4", "\"pipes\": 4, \"" + longKey + "\": 1");
        assertTrue(msg.length() < 200, msg);
        assertTrue(msg.startsWith("p.json: unknown field '" + "k".repeat(60) + "... (10000 characters)'"), msg);
        // keys starting with '_' are comments (the built-ins use "_note")
        assertEquals(4, TargetProfiles.parse(tofino1().replace("\"pipes\": 4", "\"pipes\": 4, \"_why\": [1]"), "p.json").pipes());
    }

    @Test
    void aKeyGivenTwiceIsRefused() throws Exception {
        assertTrue(refusal("\"pipes\": 4", "\"pipes\": 4, \"pipes\": 2").startsWith("p.json: not valid JSON at line 5"));
    }
}
