package dev.rmtemu.model.check;

import dev.rmtemu.model.hash.HashAlgorithm;
import dev.rmtemu.model.phv.Field;
import dev.rmtemu.model.phv.Gress;
import dev.rmtemu.model.program.ProgramBuilder;
import dev.rmtemu.model.program.ProgramRegistry;
import dev.rmtemu.model.program.StageProgram;
import dev.rmtemu.model.register.AluOp;
import dev.rmtemu.model.register.Operand;
import dev.rmtemu.model.register.RegisterAction;
import dev.rmtemu.model.register.RegisterArray;
import dev.rmtemu.model.table.MatchKind;
import dev.rmtemu.model.target.TargetProfile;
import dev.rmtemu.model.target.TargetProfiles;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * One test per layout rule of the Tofino back end of p4c (p4lang/p4c,
 * backends/tofino/bf-p4c/): a program the rule refuses, with its one-line message,
 * and a twin one unit smaller that fits. Numbers are worked by hand in the comments.
 */
class TofinoLayoutRulesTest {
    private static final TargetProfile T1 = TargetProfiles.builtIn("tofino1");

    private static ResourceReport check(StageProgram p) {
        return ResourceChecker.check(p, T1);
    }

    /** tofino1 with some profile lines replaced (each pair: exact text, replacement). */
    private static TargetProfile tofino1With(String... pairs) {
        try (InputStream in = TargetProfiles.class.getResourceAsStream("tofino1.json")) {
            String json = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            for (int i = 0; i < pairs.length; i += 2) {
                assertTrue(json.contains(pairs[i]), pairs[i]);
                json = json.replace(pairs[i], pairs[i + 1]);
            }
            return TargetProfiles.parse(json, "variant");
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static StageProgram counter(long cells) {
        return new ProgramRegistry().build("counter", Map.of("cells", Long.toString(cells)));
    }

    /** Registers of 32-bit cells in ingress stage 0, one RAW action each. */
    private static StageProgram registers(int... sizes) {
        ProgramBuilder b = ProgramBuilder.create("regs", "");
        ProgramBuilder.StageBuilder s = b.stage(Gress.INGRESS, 0);
        for (int i = 0; i < sizes.length; i++) {
            RegisterArray r = s.register("r" + i, 32, sizes[i]);
            s.action(RegisterAction.on(r, "inc").updateLo(AluOp.ADD, Operand.REG_LO, Operand.constant(1)));
        }
        return b.build();
    }

    private static TableUsage only(ResourceReport r, String name) {
        for (TableUsage t : r.tables()) {
            if (t.name().equals(name)) {
                return t;
            }
        }
        throw new AssertionError("no table " + name);
    }

    // --- registers: mau/tofino/memories.cpp mems_needed (synth-2-port tables take one RAM more), fill_RAM_use

    @Test
    void registerTakesItsDataRamsPlusOneSpare() {
        // 65,536 cells of 32 b, 4 per 128-bit word: 65536 / (1024 x 4) = 16 data RAMs + 1 spare = 17
        TableUsage c = only(check(counter(65_536)), "flow_count");
        assertEquals(16, c.dataRams());
        assertEquals(1, c.spareRams());
        assertEquals("cells: ceil(65536 / (1024 x 4 per word)) = 16 data + 1 spare", c.sizedBy());
        assertEquals(17, check(counter(65_536)).stages().get(0).sramBlocks());
        assertEquals(17, check(counter(65_536)).stages().get(0).mapRams());
        // one cell more: ceil(65537 / 4096) = 17 data + 1 spare = 18
        assertEquals(18, check(counter(65_537)).stages().get(0).mapRams());
    }

    @Test
    void everyRegisterRamTakesAMapRam() {
        // memories.h: 6 map-RAM columns x 8 rows = 48 map RAMs; fill_RAM_use reserves one per synth-2-port RAM.
        // 65,536 cells: 16 + 1 = 17 each; two take 34, a third 17 > 14 left: at most two such registers, not five
        ResourceReport three = check(registers(65_536, 65_536, 65_536));
        assertEquals(List.of(
                "stage 0 ingress: register r2 needs 17 map RAMs, 14 left of 48",
                "stage 0 ingress: register r2 needs 17 right-side RAMs, 14 left of 48 (6 columns x 8 rows)"), three.failures());
        // twin: third register of 53,248 cells = 13 + 1 = 14 RAMs, 48 of 48
        assertTrue(check(registers(65_536, 65_536, 53_248)).fits());
        // one cell more: ceil(53249 / 4096) = 14 + 1 = 15 > 14 left
        assertEquals("stage 0 ingress: register r2 needs 15 map RAMs, 14 left of 48",
                check(registers(65_536, 65_536, 53_249)).failures().get(0));
        // with the right side unbounded the map RAMs alone refuse it
        TargetProfile wideRight = tofino1With("\"sramRightColumns\": 6", "\"sramRightColumns\": \"unlimited\"");
        assertEquals(List.of("stage 0 ingress: register r2 needs 15 map RAMs, 14 left of 48"),
                ResourceChecker.check(registers(65_536, 65_536, 53_249), wideRight).failures());
    }

    @Test
    void registersLiveOnlyInTheSixRightSideColumns() {
        // memories.h: RIGHT_SIDE_COLUMNS = 10 - 4 = 6, x 8 rows = 48; fill_RAM_use puts synth-2-port RAMs on the right only.
        // Map RAMs unbounded here, so only the right side refuses: 17 + 17 + 15 = 49 > 48
        TargetProfile manyMaps = tofino1With("\"mapRams\": 48", "\"mapRams\": \"unlimited\"");
        assertEquals(List.of("stage 0 ingress: register r2 needs 15 right-side RAMs, 14 left of 48 (6 columns x 8 rows)"),
                ResourceChecker.check(registers(65_536, 65_536, 53_249), manyMaps).failures());
        assertTrue(ResourceChecker.check(registers(65_536, 65_536, 53_248), manyMaps).fits());
    }

    @Test
    void oneRegisterSpansAtMostSixRowsOfSixRams() {
        // memories.cpp lowest_row_to_overflow: RAMs at most MAX_DATA_SWBOX_ROWS = 5 rows below the ALU's home row
        // (alu_pathway_available: odd rows), so 6 rows x 6 right-side RAMs = 36 RAMs = 35 data + 1 spare.
        // 35 x 1024 x 4 = 143,360 cells fits; 143,361 needs 36 data + 1 = 37 RAMs
        assertTrue(check(counter(143_360)).fits(), check(counter(143_360)).failures().toString());
        assertEquals(List.of("stage 0 ingress: register flow_count needs 37 RAMs, more than the 36 one stateful ALU reaches"
                        + " (6 rows x 6 right-side RAMs), and tofino1 cannot split a register across stages"),
                check(counter(143_361)).failures());
        // the example: 200,000 cells = ceil(200000 / 4096) = 49 + 1 = 50 RAMs: reach, map and right side all refuse
        assertEquals(List.of(
                "stage 0 ingress: register flow_count needs 50 RAMs, more than the 36 one stateful ALU reaches"
                        + " (6 rows x 6 right-side RAMs), and tofino1 cannot split a register across stages",
                "stage 0 ingress: register flow_count needs 50 map RAMs, 48 left of 48",
                "stage 0 ingress: register flow_count needs 50 right-side RAMs, 48 left of 48 (6 columns x 8 rows)"),
                check(counter(200_000)).failures());
    }

    @Test
    void onlyTofino1RefusesToSplitARegisterAcrossStages() {
        // table_placement.cpp can_split: false on Tofino (1); a stateful table may split on later devices.
        // 143,361 cells (37 RAMs) is over one ALU's reach on tofino1 but still within 48 map RAMs on tofino2
        assertFalse(check(counter(143_361)).fits());
        assertTrue(ResourceChecker.check(counter(143_361), TargetProfiles.builtIn("tofino2")).fits());
    }

    @Test
    void cellWidthsAreOneEightSixteenThirtyTwoOrAPair() {
        // stateful_alu.cpp CheckStatefulAlu / resource_estimate.cpp RegisterPerWord: 1, 8, 16, 32 b, or 64 b as a 32+32 pair
        ProgramBuilder b = ProgramBuilder.create("w", "");
        b.stage(Gress.INGRESS, 0).register("odd", 17, 16);
        assertEquals(List.of("stage 0 ingress: register 'odd' cells of 17 b not supported on tofino1 (cell widths [1, 8, 16, 32, 64])"),
                check(b.build()).failures());
        ProgramBuilder ok = ProgramBuilder.create("w", "");
        ok.stage(Gress.INGRESS, 0).register("even", 16, 16);
        ok.stage(Gress.INGRESS, 1).register("pair", 32, true, 16);
        assertTrue(check(ok.build()).fits());
        ProgramBuilder wide = ProgramBuilder.create("w", "");
        wide.stage(Gress.INGRESS, 0).register("wide", 33, 16);
        assertEquals(List.of("stage 0 ingress: register 'wide' words of 33 b > 32 b stateful-ALU word on tofino1"),
                check(wide.build()).failures());
        // a pair: 2 cells of 64 b per word, 2048 cells = 1 data RAM + 1 spare
        ProgramBuilder p = ProgramBuilder.create("w", "");
        p.stage(Gress.INGRESS, 0).register("pair", 32, true, 2048);
        assertEquals(2, check(p.build()).stages().get(0).sramBlocks());
    }

    @Test
    void atMostFourRegisterActionsPerRegister() {
        // midend/register_read_write.cpp and the stateful ALU's 4 instruction slots: 4 register actions per register
        assertTrue(check(withActions(4)).fits());
        assertEquals(List.of("stage 0 ingress: register 'r' has 5 register actions > 4 per register"),
                check(withActions(5)).failures());
    }

    private static StageProgram withActions(int n) {
        ProgramBuilder b = ProgramBuilder.create("acts", "");
        ProgramBuilder.StageBuilder s = b.stage(Gress.INGRESS, 0);
        RegisterArray r = s.register("r", 32, 1024);
        for (int i = 0; i < n; i++) {
            s.action(RegisterAction.on(r, "a" + i).updateLo(AluOp.ADD, Operand.REG_LO, Operand.constant(i + 1)));
        }
        return b.build();
    }

    @Test
    void fourStatefulAlusPerStage() {
        // memories.h METER_ALUS = 4, shared by registers, meters and selectors (mem_info::constraint_check)
        assertTrue(check(registers(1024, 1024, 1024, 1024)).fits());
        assertEquals(List.of("stage 0 ingress: stateful ALUs 5 > 4"), check(registers(1024, 1024, 1024, 1024, 1024)).failures());
    }

    // --- exact match: mau/table_layout.cpp setup_exact_match, mau/resource_estimate.cpp calculate_way_sizes

    private static StageProgram exact(int keyBits, int actionBits, int... sizes) {
        ProgramBuilder b = ProgramBuilder.create("exact", "");
        Field key = b.metadata(Gress.INGRESS, "meta.key", keyBits);
        ProgramBuilder.StageBuilder s = b.stage(Gress.INGRESS, 0);
        for (int i = 0; i < sizes.length; i++) {
            s.table("t" + i, MatchKind.EXACT, sizes[i], actionBits, key);
        }
        return b.build();
    }

    @Test
    void exactEntryIsKeyLessGhostBitsPlusVersionAndImmediate() {
        // entry = 32 key - 10 ghost + 4 version + 0 overhead + 0 immediate = 26 b: 4 per 128-bit word, 4096 per RAM.
        // 80 RAMs hold 327,680 entries; one more needs 81 (a 36-bit entry without ghost bits would need 107)
        ResourceReport fits = check(exact(32, 0, 327_680));
        assertTrue(fits.fits(), fits.failures().toString());
        assertEquals(26, only(fits, "t0").entryBits());
        assertEquals(4, only(fits, "t0").entriesPerWord());
        assertEquals(80, only(fits, "t0").dataRams());
        assertEquals(5, only(fits, "t0").ways(), "80 RAMs: ways of 16 (4 x 16 <= 80 < 4 x 32), 80 / 16 = 5");
        assertEquals(List.of("stage 0 ingress: SRAM blocks 81 > 80"), check(exact(32, 0, 327_681)).failures());
        // immediate data counts in the entry: 32 - 10 + 4 + 32 = 58 b, 2 per word: 2048 entries a RAM
        assertEquals(58, only(check(exact(32, 32, 1)), "t0").entryBits());
        // at most 5 entries a word: 16 - 10 + 4 = 10 b would pack 12, the layout takes 5
        assertEquals(5, only(check(exact(16, 0, 1)), "t0").entriesPerWord());
    }

    @Test
    void exactTableHasAtLeastFourWays() {
        // calculate_way_sizes: a hashed table of 1..4 RAMs deep gets 4 ways of 1 RAM. 8 one-entry tables on a
        // 16-bit key: 8 x 4 = 32 RAMs; next to two registers of 36 + 12 = 48 right-side RAMs: 80 of 80
        StageProgram eight = withRegistersAndTables(16, 8);
        assertTrue(check(eight).fits(), check(eight).failures().toString());
        assertEquals(4, only(check(eight), "t0").ways());
        assertEquals("minimum 4 ways (1 entries need 1 RAM deep at 5 per word)", only(check(eight), "t0").sizedBy());
        assertEquals(List.of("stage 0 ingress: SRAM blocks 84 > 80"), check(withRegistersAndTables(16, 9)).failures());
        // a key of at most 10 bits is the row address itself: 1 RAM, no ways (9 x 1 + 48 = 57)
        ResourceReport direct = check(withRegistersAndTables(8, 9));
        assertTrue(direct.fits());
        assertEquals(1, only(direct, "t0").ways());
        assertEquals(57, direct.stages().get(0).sramBlocks());
    }

    private static StageProgram withRegistersAndTables(int keyBits, int tables) {
        ProgramBuilder b = ProgramBuilder.create("mix", "");
        Field key = b.metadata(Gress.INGRESS, "meta.key", keyBits);
        ProgramBuilder.StageBuilder s = b.stage(Gress.INGRESS, 0);
        s.register("big", 32, 35 * 4096);   // 35 + 1 = 36
        s.register("small", 32, 11 * 4096); // 11 + 1 = 12
        for (int i = 0; i < tables; i++) {
            s.table("t" + i, MatchKind.EXACT, 1, 0, key);
        }
        return b.build();
    }

    @Test
    void wideActionDataGoesToPowerOfTwoActionRams() {
        // resource_estimate.cpp ActionDataPerWord: action data over 32 b leaves the entry for action RAMs whose
        // entries are a power of two bytes: 40 b = 5 B -> 8 B, 2 per word, 2048 per RAM.
        // Match: 16 - 10 + 4 = 10 b, 5 per word, 5120 per RAM. 116,736 entries: ceil(116736/5120) = 23 + 116736/2048 = 57 = 80
        ResourceReport fits = check(exact(16, 40, 116_736));
        assertTrue(fits.fits(), fits.failures().toString());
        assertEquals(57, only(fits, "t0").actionRams());
        assertEquals(23, only(fits, "t0").dataRams());
        // one more entry: 58 action RAMs + 23 = 81 (5-byte entries packed 3 a word would need only 39)
        assertEquals(List.of("stage 0 ingress: SRAM blocks 81 > 80"), check(exact(16, 40, 116_737)).failures());
        assertEquals(8, check(exact(16, 40, 1)).stages().get(0).actionDataBusBytes(), "an 8-byte action RAM slot on the bus");
    }

    @Test
    void waysSplitAsTheCompilerSplitsThem() {
        // calculate_way_sizes: 24 RAMs become 6 ways of 4; 5..7 RAMs stay 4 ways; 8 RAMs 4 ways of 2
        assertEquals(6, MemoryLayout.ways(24, 4));
        assertEquals(4, MemoryLayout.ways(7, 4));
        assertEquals(4, MemoryLayout.ways(8, 4));
        assertEquals(5, MemoryLayout.ways(9, 4));
    }

    // --- ternary: mau/tofino/memories.cpp analyze_tables, mau/resource_estimate.cpp TernaryIndirectPerWord

    private static StageProgram ternary(int[] keyFieldBits, int actionBits, int size, int tables) {
        ProgramBuilder b = ProgramBuilder.create("tern", "");
        Field[] key = new Field[keyFieldBits.length];
        for (int i = 0; i < key.length; i++) {
            key[i] = b.metadata(Gress.INGRESS, "meta.k" + i, keyFieldBits[i]);
        }
        ProgramBuilder.StageBuilder s = b.stage(Gress.INGRESS, 0);
        for (int i = 0; i < tables; i++) {
            s.table("t" + i, MatchKind.TERNARY, size, actionBits, key);
        }
        return b.build();
    }

    @Test
    void tcamsAreCountedInKeyNibbles() {
        // a 44-bit TCAM row holds 11 nibbles (5 bytes and a nibble of the shared byte); the version takes a nibble.
        // 5 key bytes: 10 + 1 = 11 nibbles = 1 TCAM wide; x 24 deep (12,288 entries) = 24 of 24
        assertTrue(check(ternary(new int[] {32, 8}, 0, 12_288, 1)).fits());
        // one key byte more: 13 nibbles = 2 wide, x 24 deep = 48 > 24
        assertEquals(List.of("stage 0 ingress: TCAM blocks 48 > 24"), check(ternary(new int[] {32, 16}, 0, 12_288, 1)).failures());
        // the 5-tuple: 13 bytes = 27 nibbles = 3 wide
        assertEquals(3, MemoryLayout.tcamsWide(ternary(new int[] {32, 32, 8, 16, 16}, 0, 1, 1).tables().get(0), T1));
    }

    @Test
    void aTernaryEntrySpansAtMostTwelveTcams() {
        // memories.h TCAM_ROWS = 12: one entry spans at most a column of 12 TCAMs (66 bytes). Our keys are at most
        // 128 b (3 TCAMs), so the rule is shown with the limit at 2: 10 bytes = 21 nibbles = 2 fits, 11 bytes = 23 = 3
        TargetProfile two = tofino1With("\"tcamMaxWide\": 12", "\"tcamMaxWide\": 2");
        assertTrue(ResourceChecker.check(ternary(new int[] {64, 16}, 0, 1, 1), two).fits());
        assertEquals(List.of("stage 0 ingress: ternary table 't0' needs 3 TCAMs wide (11 key bytes and the version nibble) > 2"),
                ResourceChecker.check(ternary(new int[] {64, 24}, 0, 1, 1), two).failures());
    }

    @Test
    void ternaryIndirectionRamsSitInTheLeftColumns() {
        // memories.h LEFT_SIDE_COLUMNS = 4: tind RAMs only there. A 32-bit immediate makes 32-bit tind entries,
        // 4 per word, 4096 per RAM. With TCAMs unbounded and 1 left column (8 RAMs): 32,768 entries = 8 fits, +1 = 9
        TargetProfile oneColumn = tofino1With("\"sramLeftColumns\": 4", "\"sramLeftColumns\": 1",
                "\"tcam\": { \"blocks\": 24", "\"tcam\": { \"blocks\": \"unlimited\"");
        assertTrue(ResourceChecker.check(ternary(new int[] {32}, 32, 32_768, 1), oneColumn).fits());
        assertEquals(List.of("stage 0 ingress: ternary indirection RAMs 9 > 8 (left-side columns, 1 x 8 rows)"),
                ResourceChecker.check(ternary(new int[] {32}, 32, 32_769, 1), oneColumn).failures());
        // tofino1: a 9-bit immediate rounds up to a 16-bit tind entry, 8 per word: 2048 entries = 1 RAM (tindMinEntryBits 8)
        assertEquals(1, only(check(ternary(new int[] {32}, 9, 2048, 1)), "t0").tindRams());
    }

    // --- range: mau/resource_estimate.cpp RangeEntries::preorder and ::postorder, through
    //     mau/table_placement.cpp TablePlacement::initial_stage_and_entries (a table with ranges is sized in TCAM lines)

    private static StageProgram range(int keyBits, int size) {
        ProgramBuilder b = ProgramBuilder.create("ranges", "");
        Field k = b.metadata(Gress.INGRESS, "meta.port", keyBits);
        b.stage(Gress.INGRESS, 0).table("t0", MatchKind.RANGE, size, 0, k);
        return b.build();
    }

    @Test
    void aRangeEntryTakesTwoLinesPerNibbleLessOneForAQuarterOfTheEntries() {
        // RangeEntries::preorder: 16 bits = 4 PHV nibbles, 2 x 4 - 1 = 7 lines; ::postorder: RANGE_ENTRY_PERCENTAGE (25)
        // of 512 = 128 entries at 7 lines + 384 at 1 = 1280 lines = 3 TCAMs deep (512 rows), 2 key bytes + version
        // = 5 nibbles = 1 wide: 3 TCAMs, where the same table matching ternary takes 1
        TableUsage t = only(check(range(16, 512)), "t0");
        assertEquals(3, t.tcams());
        assertEquals("range", t.kind());
        assertEquals(1, only(check(ternary(new int[] {16}, 0, 512, 1)), "t0").tcams());
        // 5 nibbles would be 9 lines: MULTIRANGE_DISTRIBUTION_LIMIT caps it at 8 (2048 entries: 512 x 8 + 1536 = 5632 lines
        // = 11 deep); a 4-bit key is 1 nibble, 1 line: no expansion
        assertEquals(11, only(check(range(20, 2048)), "t0").tcams());
        assertEquals(1, only(check(range(4, 512)), "t0").tcams());
    }

    @Test
    void rangeLinesCountAgainstTheStagesTcams() {
        // 4,915 entries on a 16-bit key: 1,228 x 7 + 3,687 = 12,283 lines = 24 deep = 24 of 24 TCAMs;
        // one entry more: 1,229 x 7 + 3,687 = 12,290 lines = 25 deep (as ternary those 4,916 entries take 10)
        assertTrue(check(range(16, 4915)).fits());
        assertEquals(List.of("stage 0 ingress: TCAM blocks 25 > 24"), check(range(16, 4916)).failures());
    }

    @Test
    void aRangeKeySpansAtMostFivePhvNibbles() {
        // RangeEntries::preorder: ERROR_CHECK(range_nibbles <= Tofino::IXBar::TERNARY_BYTES_PER_GROUP (5)): 20 bits fit,
        // 24 bits (6 nibbles) do not compile, nor does an IPv4 address
        assertTrue(check(range(20, 1)).fits());
        assertEquals(List.of("stage 0 ingress: range table 't0' matches meta.port (24 b) over 6 PHV nibbles > 5 a range key may span"),
                check(range(24, 1)).failures());
        assertTrue(ResourceChecker.check(range(32, 1), TargetProfiles.builtIn("unconstrained")).fits(), "unconstrained: any key");
    }

    @Test
    void atMostEightTernaryTablesPerStage() {
        // memories.h TERNARY_TABLES_MAX = 8 (mem_info::constraint_check)
        assertTrue(check(ternary(new int[] {8}, 0, 1, 8)).fits());
        assertEquals(List.of("stage 0 ingress: ternary tables 9 > 8"), check(ternary(new int[] {8}, 0, 1, 9)).failures());
    }

    // --- logical tables: memories.h LOGICAL_TABLES / TABLES_MAX = 16; attached_info.cpp: one stateful user per table

    @Test
    void sixteenLogicalTablesAndARegisterBringsTheTableThatRunsIt() {
        // 15 direct exact tables (key 8 b: 1 RAM each) + 1 register run by its own table = 16 fits; a second register 17
        assertTrue(check(tablesAndRegisters(15, 1)).fits());
        assertEquals(List.of("stage 0 ingress: logical tables 17 > 16"), check(tablesAndRegisters(15, 2)).failures());
    }

    private static StageProgram tablesAndRegisters(int tables, int regs) {
        ProgramBuilder b = ProgramBuilder.create("lt", "");
        Field key = b.metadata(Gress.INGRESS, "meta.key", 8);
        ProgramBuilder.StageBuilder s = b.stage(Gress.INGRESS, 0);
        for (int i = 0; i < tables; i++) {
            s.table("t" + i, MatchKind.EXACT, 1, 0, key);
        }
        for (int i = 0; i < regs; i++) {
            s.register("r" + i, 32, 16);
        }
        return b.build();
    }

    // --- hash and crossbars: specs/mau_spec.h, mau/tofino/input_xbar.cpp

    private static StageProgram hashes(int count, int outputBits, int inputFields, int inputBits) {
        ProgramBuilder b = ProgramBuilder.create("hash", "");
        Field[] in = new Field[inputFields];
        for (int i = 0; i < inputFields; i++) {
            in[i] = b.metadata(Gress.INGRESS, "meta.in" + i, inputBits);
        }
        ProgramBuilder.StageBuilder s = b.stage(Gress.INGRESS, 0);
        for (int i = 0; i < count; i++) {
            s.hash("h" + i, HashAlgorithm.identity(), outputBits, in);
        }
        return b.build();
    }

    @Test
    void eightHashGroupsOfFiftyTwoBitsEachOneFunction() {
        // mau_spec.h: 8 hash groups of 52 bits; a function takes a group, so 9 functions of 8 b (72 of 416 bits) do not fit
        assertTrue(check(hashes(8, 8, 1, 8)).fits());
        assertEquals(List.of("stage 0 ingress: hash functions 9 > 8 (one per hash group of 52 bits)"),
                check(hashes(9, 8, 1, 8)).failures());
        assertTrue(check(hashes(1, 52, 1, 8)).fits());
        assertEquals(List.of("stage 0 ingress: hash 'h0' outputs 53 bits > 52 bits of its hash group"),
                check(hashes(1, 53, 1, 8)).failures());
    }

    @Test
    void exactCrossbarHoldsOneHundredTwentyEightBytes() {
        // input_xbar.cpp: 128 exact-match crossbar bytes; hash inputs ride it. 16 fields of 64 b = 128 B fit, 17 = 136
        assertTrue(check(hashes(1, 16, 16, 64)).fits());
        assertEquals(List.of("stage 0 ingress: exact-match crossbar bytes 136 > 128"), check(hashes(1, 16, 17, 64)).failures());
        // a field read by two hash functions crosses once: 2 functions over the same 16 fields are still 128 B
        assertEquals(128, check(hashes(2, 16, 16, 64)).stages().get(0).exactXbarBytes());
    }

    @Test
    void ternaryCrossbarHoldsSixtySixBytes() {
        // input_xbar.cpp: 66 ternary crossbar bytes. 4 tables keyed on two 64-bit fields each (64 B) + one on
        // a 16-bit field = 66 B fit; a 24-bit field instead = 67 B
        assertTrue(check(ternaryXbar(16)).fits(), check(ternaryXbar(16)).failures().toString());
        assertEquals(List.of("stage 0 ingress: ternary crossbar bytes 67 > 66"), check(ternaryXbar(24)).failures());
    }

    private static StageProgram ternaryXbar(int lastBits) {
        ProgramBuilder b = ProgramBuilder.create("tx", "");
        ProgramBuilder.StageBuilder s = b.stage(Gress.INGRESS, 0);
        Field[] f = new Field[8];
        for (int i = 0; i < 8; i++) {
            f[i] = b.metadata(Gress.INGRESS, "meta.f" + i, 64);
        }
        Field last = b.metadata(Gress.INGRESS, "meta.last", lastBits);
        for (int i = 0; i < 4; i++) {
            s.table("t" + i, MatchKind.TERNARY, 1, 0, f[2 * i], f[2 * i + 1]);
        }
        s.table("t4", MatchKind.TERNARY, 1, 0, last);
        return b.build();
    }

    @Test
    void aStatefulAluReadsTwoPhvWordsOrFiftyTwoHashBits() {
        // mau/tofino/input_xbar.cpp (stateful ALU inputs) and specs/mau_spec.h: a stateful ALU reads its lo/hi PHV
        // words from the crossbar, at most 2, or up to 52 bits of one hash group. Given per register as StageLogic.
        StageProgram one = registers(1024);
        assertTrue(ResourceChecker.check(one, T1, List.of(new StageLogic(Gress.INGRESS, 0, 0, 0, 0,
                List.of(new StageLogic.AluInputs("r0", 2, 52))))).fits());
        assertEquals(List.of("stage 0 ingress: register 'r0' stateful ALU reads 3 PHV words > 2"),
                ResourceChecker.check(one, T1, List.of(new StageLogic(Gress.INGRESS, 0, 0, 0, 0,
                        List.of(new StageLogic.AluInputs("r0", 3, 0))))).failures());
        assertEquals(List.of("stage 0 ingress: register 'r0' stateful ALU reads 53 hash bits > 52"),
                ResourceChecker.check(one, T1, List.of(new StageLogic(Gress.INGRESS, 0, 0, 0, 0,
                        List.of(new StageLogic.AluInputs("r0", 0, 53))))).failures());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ResourceChecker.check(one, T1,
                List.of(new StageLogic(Gress.INGRESS, 1, 0, 0, 0, List.of(new StageLogic.AluInputs("r0", 1, 0))))));
        assertEquals("stage logic of ingress stage 1 names register 'r0', which that stage does not declare", e.getMessage());
    }

    // --- what the program form cannot show, given as StageLogic

    private static StageProgram oneTable() {
        ProgramBuilder b = ProgramBuilder.create("logic", "");
        Field dst = b.header("ipv4.dst_addr");
        b.stage(Gress.INGRESS, 0).table("fwd", MatchKind.EXACT, 1024, 9, dst);
        b.stage(Gress.EGRESS, 0);
        return b.build();
    }

    @Test
    void sixteenGatewaysPerStageSharedByBothGresses() {
        // memories.h GATEWAYS_PER_ROW = 2 x 8 rows = 16
        assertTrue(ResourceChecker.check(oneTable(), T1, List.of(new StageLogic(Gress.INGRESS, 0, 16, 0, 0))).fits());
        assertEquals(List.of("stage 0 ingress: gateways 17 > 16"), ResourceChecker.check(oneTable(), T1,
                List.of(new StageLogic(Gress.INGRESS, 0, 17, 0, 0))).failures());
        assertEquals(List.of("stage 0 (ingress+egress): gateways 17 > 16 (ingress 9 + egress 8)"), ResourceChecker.check(oneTable(), T1,
                List.of(new StageLogic(Gress.INGRESS, 0, 9, 0, 0), new StageLogic(Gress.EGRESS, 0, 8, 0, 0))).failures());
    }

    @Test
    void actionDataBusHoldsOneHundredTwentyEightBytes() {
        // mau/tofino/action_data_bus.h ADB_BYTES: 128 bytes a stage. fwd's 9-bit immediate takes 2 bytes, so 126 more fit, 127 do not
        ResourceReport fits = ResourceChecker.check(oneTable(), T1, List.of(new StageLogic(Gress.INGRESS, 0, 0, 0, 126)));
        assertTrue(fits.fits());
        assertEquals(128, fits.stages().get(0).actionDataBusBytes());
        assertEquals(List.of("stage 0 ingress: action data bus bytes 129 > 128"), ResourceChecker.check(oneTable(), T1,
                List.of(new StageLogic(Gress.INGRESS, 0, 0, 0, 127))).failures());
    }

    @Test
    void instructionMemoryIsThirtyTwoRowsOfTwoColoursPerGress() {
        // mau/tofino/instruction_memory.h: 32 rows x 2 colours per gress; row 0 colour 0 is the no-op: 63 instructions
        assertTrue(ResourceChecker.check(oneTable(), T1, List.of(new StageLogic(Gress.INGRESS, 0, 0, 63, 0),
                new StageLogic(Gress.EGRESS, 0, 0, 63, 0))).fits(), "each gress has its own instruction memory");
        assertEquals(List.of("stage 0 ingress: VLIW instructions 64 > 63 (instruction memory 32 rows x 2 colours, 1 reserved for the no-op)"),
                ResourceChecker.check(oneTable(), T1, List.of(new StageLogic(Gress.INGRESS, 0, 0, 64, 0))).failures());
    }

    @Test
    void stageLogicOfAStageWithoutDeclarationsStillCountsAndDuplicatesAreRefused() {
        ResourceReport r = ResourceChecker.check(oneTable(), T1, List.of(new StageLogic(Gress.INGRESS, 3, 17, 0, 0)));
        assertEquals(List.of("stage 3 ingress: gateways 17 > 16"), r.failures());
        assertEquals(17, r.stages().get(3).gateways());
        assertThrows(IllegalArgumentException.class, () -> ResourceChecker.check(oneTable(), T1,
                List.of(new StageLogic(Gress.INGRESS, 0, 1, 0, 0), new StageLogic(Gress.INGRESS, 0, 2, 0, 0))));
        assertThrows(IllegalArgumentException.class, () -> new StageLogic(Gress.INGRESS, 0, -1, 0, 0));
        // the plain check is the one with no stage logic
        assertEquals(ReportRenderer.json(ResourceChecker.check(oneTable(), T1)),
                ReportRenderer.json(ResourceChecker.check(oneTable(), T1, List.of())));
    }

    // --- PHV: specs/phv_spec.cpp TofinoPhvSpec: groups of 16, group 0 of each size ingress-only, group 1 egress-only

    private static StageProgram wideIngressFields(int n) {
        ProgramBuilder b = ProgramBuilder.create("phv", "");
        for (int i = 0; i < n; i++) {
            b.metadata(Gress.INGRESS, String.format("meta.f%02d", i), 64);
        }
        b.stage(Gress.INGRESS, 0);
        return b.build();
    }

    @Test
    void ingressMayNotUseTheEgressOnlyPhvGroups() {
        // ingress may use 48 x 8 + 80 x 16 + 48 x 32 = 3200 b of the 4096. 49 fields of 64 b = 3136 b, and the
        // intrinsics (9 + 9 + 3 b) fit in 4 more 8-bit containers: 44 of 48. 50 fields = 3200 b leave none for them
        assertTrue(check(wideIngressFields(49)).fits(), check(wideIngressFields(49)).failures().toString());
        ResourceReport r = check(wideIngressFields(50));
        assertFalse(r.fits());
        assertTrue(r.failures().get(0).startsWith("PHV: field ig_intr"), r.failures().get(0));
        assertTrue(r.failures().get(0).endsWith("no free container ingress may use (8b 48 of 64, 16b 80 of 96, 32b 48 of 64)"),
                r.failures().get(0));
        // tofino2 reserves no group here (and has 5120 b)
        assertTrue(ResourceChecker.check(wideIngressFields(50), TargetProfiles.builtIn("tofino2")).fits());
    }

    // --- report

    @Test
    void reportShowsTheNewColumnsAndPerTableSizes() throws Exception {
        ResourceReport r = ResourceChecker.check(oneTable(), T1, List.of(new StageLogic(Gress.INGRESS, 0, 3, 5, 10)));
        String table = ReportRenderer.table(r);
        assertTrue(table.contains("| Map RAMs"), table);
        assertTrue(table.contains("Instructions"), table);
        // fwd: 32 - 10 + 4 + 9 = 35 b, 3 a word, 1024 entries = 1 RAM deep, raised to 4 ways
        assertTrue(table.contains("minimum 4 ways (1024 entries need 1 RAM deep at 3 per word)"), table);
        com.fasterxml.jackson.databind.JsonNode j = new com.fasterxml.jackson.databind.ObjectMapper().readTree(ReportRenderer.json(r));
        com.fasterxml.jackson.databind.JsonNode s0 = j.at("/resources/mau/mau_stages/0");
        assertEquals(4, s0.at("/rams/used").asInt());
        assertEquals(0, s0.at("/map_rams/used").asInt());
        assertEquals(48, s0.at("/map_rams/available").asInt());
        assertEquals(3, s0.at("/gateways/used").asInt());
        assertEquals(12, s0.at("/action_data_bus_bytes/used").asInt(), "2 for fwd's 9 bits + 10 given");
        assertEquals(5, s0.at("/instruction_memory/used").asInt());
        assertEquals(63, s0.at("/instruction_memory/available").asInt());
        assertEquals(4, s0.at("/exact_xbar_bytes/used").asInt());
        com.fasterxml.jackson.databind.JsonNode t = j.at("/resources/mau/tables/0");
        assertEquals("fwd", t.get("name").asText());
        assertEquals(4, t.at("/rams/data").asInt());
        assertEquals(0, t.at("/rams/spare").asInt());
        assertEquals(4, t.get("ways").asInt());
        assertEquals(35, t.get("entry_bits").asInt());
        assertEquals(ReportRenderer.table(r), ReportRenderer.table(ResourceChecker.check(oneTable(), T1,
                List.of(new StageLogic(Gress.INGRESS, 0, 3, 5, 10)))));
    }
}
