package dev.rmtemu.emulator.engine;

import dev.rmtemu.emulator.run.ControlScript;
import dev.rmtemu.model.UserError;
import dev.rmtemu.model.check.ResourceChecker;
import dev.rmtemu.model.check.ResourceReport;
import dev.rmtemu.model.check.TableUsage;
import dev.rmtemu.model.compiler.Compilation;
import dev.rmtemu.model.compiler.ProgramCompiler;
import dev.rmtemu.model.p4.lower.P4Programs;
import dev.rmtemu.model.p4.preprocess.PreprocessorOptions;
import dev.rmtemu.model.program.StageProgram;
import dev.rmtemu.model.table.MatchKind;
import dev.rmtemu.model.target.TargetProfile;
import dev.rmtemu.model.target.TargetProfiles;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code p4/const_entries.p4}: const entries of an lpm table (the longest prefix wins, whatever
 * the order), of a range table (the earlier entry wins where ranges overlap) and of an ACL whose
 * key mixes exact, range and ternary fields; two more mixed tables filled by a control script
 * (exact + lpm + range with priorities, exact + lpm by the longest prefix). Each TCP frame's
 * egress port (or its drop) is read from the departures, and every departure is the frame as it
 * arrived.
 */
class P4ConstEntriesTest {
    private static final TargetProfile TOFINO1 = TargetProfiles.builtIn("tofino1");
    private static final int DROPPED = -1;

    private static StageProgram program(String text) {
        StageProgram unplaced = P4Programs.text("const_entries.p4", text, PreprocessorOptions.defaults()).require();
        return ProgramCompiler.compile(unplaced, TOFINO1).requireAccepted().program();
    }

    private static StageProgram program() {
        return program(P4RouterTest.resource("const_entries.p4"));
    }

    private static long ip(int a, int b, int c, int d) {
        return ((long) a << 24) | (b << 16) | (c << 8) | d;
    }

    /** Ethernet, IPv4 (DSCP byte {@code dscp} picks the table) and TCP to {@code dstPort}. */
    private static byte[] tcp(int dscp, long src, long dst, int ttl, int totalLen, int dstPort) {
        return TestFrames.frame().ethernet(0x0800).bytes(0x45, dscp).u16(totalLen).u16(1).u16(0).bytes(ttl, 6).u16(0)
                .u32(src).u32(dst).tcp(40000, dstPort, 0).build();
    }

    private static void assertPorts(SwitchEngine e, int[] ports, byte[]... frames) {
        List<P4RangeTest.Departure> out = P4RangeTest.replay(e, frames);
        for (int i = 0; i < frames.length; i++) {
            P4RangeTest.Departure d = out.get(i);
            assertEquals(ports[i], d == null ? DROPPED : d.port(), "frame " + i);
            if (d != null) {
                assertArrayEquals(frames[i], d.frame(), "frame " + i + " leaves unchanged");
            }
        }
    }

    private static SwitchEngine engine(StageProgram p) {
        return new SwitchEngine(SwitchConfig.of(TOFINO1, p, 100));
    }

    @Test
    void anLpmConstTablePicksTheLongestPrefix() {
        StageProgram p = program();
        assertEquals(MatchKind.LPM, p.table("route").kind());
        assertPorts(engine(p), new int[] {4, 3, 2, 1, 5},
                tcp(1, ip(1, 1, 1, 1), ip(10, 1, 2, 5), 64, 40, 80),   // the /32, written fourth
                tcp(1, ip(1, 1, 1, 1), ip(10, 1, 2, 9), 64, 40, 80),   // the /24
                tcp(1, ip(1, 1, 1, 1), ip(10, 1, 9, 9), 64, 40, 80),   // the /16
                tcp(1, ip(1, 1, 1, 1), ip(10, 9, 9, 9), 64, 40, 80),   // the /8, written first
                tcp(1, ip(1, 1, 1, 1), ip(11, 0, 0, 1), 64, 40, 80));  // only _ (the /0)
    }

    @Test
    void aRangeConstTableTakesTheEarlierOfOverlappingEntries() {
        StageProgram p = program();
        assertEquals(MatchKind.RANGE, p.table("by_length").kind());
        assertPorts(engine(p), new int[] {6, 6, 7, 7, 9, DROPPED},
                tcp(2, ip(1, 1, 1, 1), ip(10, 0, 0, 1), 64, 150, 80),  // 100..199, 0..1499 and 150..160: the first
                tcp(2, ip(1, 1, 1, 1), ip(10, 0, 0, 1), 64, 100, 80),  // the low end of 100..199
                tcp(2, ip(1, 1, 1, 1), ip(10, 0, 0, 1), 64, 99, 80),   // 0..1499 only
                tcp(2, ip(1, 1, 1, 1), ip(10, 0, 0, 1), 64, 200, 80),  // 0..1499 only
                tcp(2, ip(1, 1, 1, 1), ip(10, 0, 0, 1), 64, 1500, 80), // the single value 1500
                tcp(2, ip(1, 1, 1, 1), ip(10, 0, 0, 1), 64, 1501, 80)); // no entry: dropped
    }

    /**
     * An ACL's key mixing exact, range and ternary fields is one TCAM table (bf-p4c mau/table_layout.cpp
     * TableLayout::setup_match_layout: any ternary or lpm field makes layout.ternary, a range field
     * layout.has_range), whose const entries match in program order (P4_16 14.2.1.4).
     */
    @Test
    void aMixedExactRangeTernaryAclMatchesInOrder() {
        StageProgram p = program();
        assertEquals(MatchKind.RANGE, p.table("acl").kind());
        assertEquals(List.of(MatchKind.EXACT, MatchKind.RANGE, MatchKind.TERNARY), p.table("acl").fieldKinds());
        // (17, _, _) comes first: were the exact protocol ignored, every frame would leave on port 13
        assertPorts(engine(p), new int[] {10, DROPPED, DROPPED, 12, 12},
                tcp(3, ip(10, 0, 0, 1), ip(10, 0, 0, 2), 64, 40, 22),    // ssh from 10/8
                tcp(3, ip(11, 0, 0, 1), ip(10, 0, 0, 2), 64, 40, 22),    // ssh from elsewhere: 0..1023 denies
                tcp(3, ip(10, 0, 0, 1), ip(10, 0, 0, 2), 64, 40, 80),    // a well-known port: denied
                tcp(3, ip(11, 0, 0, 1), ip(10, 0, 0, 2), 64, 40, 8080),  // above 1023: the catch-all
                tcp(3, ip(10, 0, 0, 1), ip(10, 0, 0, 2), 64, 40, 1024)); // the first port above the range
    }

    @Test
    void controlScriptsFillMixedTablesWithPrioritiesAndPrefixes(@TempDir Path tmp) throws Exception {
        StageProgram p = program();
        assertEquals(MatchKind.RANGE, p.table("acl_cp").kind());
        assertEquals(MatchKind.LPM, p.table("vrf_route").kind());
        Path script = tmp.resolve("mixed.ctl");
        Files.writeString(script, """
                table_add acl_cp to_port 17 0.0.0.0/0 0->65535 => 3 1
                table_add acl_cp to_port 6 10.0.0.0/8 0->1023 => 1 10
                table_add acl_cp to_port 6 10.1.0.0/16 22->22 => 2 5
                table_add acl_cp deny 6 0.0.0.0/0 0->65535 => 30
                table_add vrf_route to_port 64 10.0.0.0/8 => 4
                table_add vrf_route to_port 64 10.1.0.0/16 => 5
                table_add vrf_route to_port 32 10.1.0.0/16 => 6
                """);
        SwitchEngine e = engine(p);
        assertEquals(7, ControlScript.apply(script, e));
        assertPorts(e, new int[] {2, 1, DROPPED, DROPPED, 5, 4, 6, DROPPED},
                tcp(4, ip(10, 1, 0, 1), ip(10, 0, 0, 2), 64, 40, 22),   // priority 5 beats 10: port 2
                tcp(4, ip(10, 2, 0, 1), ip(10, 0, 0, 2), 64, 40, 22),   // 10/8 and 0..1023: port 1
                tcp(4, ip(10, 2, 0, 1), ip(10, 0, 0, 2), 64, 40, 2000), // only the deny (priority 30)
                tcp(4, ip(11, 0, 0, 1), ip(10, 0, 0, 2), 64, 40, 80),   // the deny; UDP's priority 1 needs protocol 17
                tcp(5, ip(1, 1, 1, 1), ip(10, 1, 2, 3), 64, 40, 80),    // ttl 64: the /16 beats the /8
                tcp(5, ip(1, 1, 1, 1), ip(10, 2, 0, 1), 64, 40, 80),    // ttl 64: the /8
                tcp(5, ip(1, 1, 1, 1), ip(10, 1, 2, 3), 32, 40, 80),    // ttl 32: its own /16
                tcp(5, ip(1, 1, 1, 1), ip(10, 2, 0, 1), 32, 40, 80));   // ttl 32 has no /8: a miss
    }

    private static String refusal(Path f, String content, StageProgram p) throws Exception {
        Files.writeString(f, content);
        UserError e = assertThrows(UserError.class, () -> ControlScript.apply(f, engine(p)));
        assertEquals(UserError.BAD_INPUT, e.exitCode());
        return e.getMessage();
    }

    @Test
    void aKeyWordOfAnotherKindIsRefusedNamingTheField(@TempDir Path tmp) throws Exception {
        StageProgram p = program();
        Path f = tmp.resolve("bad.ctl");
        assertEquals(f + ":1: table acl_cp matches tcp.dst_port by range: key 22 must be LOW->HIGH",
                refusal(f, "table_add acl_cp to_port 6 10.0.0.0/8 22 => 1 1\n", p));
        assertEquals(f + ":1: table acl_cp matches ipv4.src_addr by lpm: key 10.0.0.0&&&255.0.0.0 must be VALUE/LENGTH",
                refusal(f, "table_add acl_cp to_port 6 10.0.0.0&&&255.0.0.0 0->5 => 1 1\n", p));
        assertEquals(f + ":1: table acl_cp matches ipv4.protocol by exact: key 6->6 must be a plain value",
                refusal(f, "table_add acl_cp to_port 6->6 10.0.0.0/8 0->5 => 1 1\n", p));
        assertEquals(f + ":1: table acl_cp matches range: its entries end with a PRIORITY (a number; the lower value wins)",
                refusal(f, "table_add acl_cp deny 6 10.0.0.0/8 0->5 =>\n", p));
        assertEquals(f + ":1: table vrf_route matches ipv4.dst_addr by lpm: key 10.0.0.0 must be VALUE/LENGTH",
                refusal(f, "table_add vrf_route to_port 64 10.0.0.0 => 1\n", p));
    }

    /** P4_16 14.2.1.4: the control plane neither adds to nor removes from a table with const entries. */
    @Test
    void aConstTableRefusesTableAddAndTableDelete(@TempDir Path tmp) throws Exception {
        StageProgram p = program();
        Path f = tmp.resolve("const.ctl");
        assertEquals(f + ":1: table route has const entries: the control plane cannot change it",
                refusal(f, "table_add route to_port 10.0.0.0/8 => 1\n", p));
        assertEquals(f + ":1: table by_length has const entries: the control plane cannot change it",
                refusal(f, "table_delete by_length 0\n", p));
        assertEquals(f + ":1: table acl has const entries: the control plane cannot change it",
                refusal(f, "table_add acl deny 6 0->5 1.0.0.0&&&255.0.0.0 => 1\n", p));
    }

    /**
     * TCAM lines of the range tables, counted by hand from bf-p4c's rules: TablePlacement::
     * initial_stage_and_entries (mau/table_placement.cpp) sizes a table with a range key by
     * RangeEntries (mau/resource_estimate.cpp): preorder, visiting only the key's range fields,
     * takes 2 x PHV nibbles - 1 lines for the widest (capped at the multirange distributor's 8);
     * postorder prices RANGE_ENTRY_PERCENTAGE (25 %) of the table's size at that and the rest at
     * one line. A line is 44 b = 11 nibbles of key bytes and the version nibble.
     */
    @Test
    void rangeTablesAreSizedInTcamLinesAsBfP4cCountsThem() {
        ResourceReport r = ResourceChecker.check(program(), TOFINO1);
        TableUsage byLength = r.tables().stream().filter(u -> u.name().equals("by_length")).findFirst().orElseThrow();
        // total_len: 16 b = 4 nibbles, 7 lines; size 64: 16 x 7 + 48 = 160 lines, 1 TCAM deep; 2 key bytes + version = 5 nibbles, 1 wide
        assertTrue(byLength.sizedBy().startsWith("range: 64 entries x 25% at 7 lines + 48 at 1 = 160 TCAM lines;"
                + " TCAM: 2 key bytes + version = 5 nibbles, 11 per TCAM: 1 wide x 1 deep"), byLength.sizedBy());
        assertEquals(1, byLength.tcams());
        TableUsage acl = r.tables().stream().filter(u -> u.name().equals("acl")).findFirst().orElseThrow();
        // only dst_port (16 b) is a range: 7 lines, not the 8 the 32-bit ternary source would give; size 200:
        // 50 x 7 + 150 = 500 lines, 1 deep (it would be 550, 2 deep, counting the ternary field's nibbles);
        // 1 + 2 + 4 key bytes + version = 15 nibbles, 2 wide
        assertTrue(acl.sizedBy().startsWith("range: 200 entries x 25% at 7 lines + 150 at 1 = 500 TCAM lines;"
                + " TCAM: 7 key bytes + version = 15 nibbles, 11 per TCAM: 2 wide x 1 deep"), acl.sizedBy());
        assertEquals(2, acl.tcams());
        assertEquals("range", acl.kind());
        assertTrue(r.failures().isEmpty(), r.failures().toString());
    }

    /**
     * The rule behind the ACL's legal 32-bit ternary field: RangeEntries::preorder refuses a range key
     * over more than 5 PHV nibbles (TERNARY_BYTES_PER_GROUP); the same source address as a range is refused.
     */
    @Test
    void aThirtyTwoBitRangeFieldInTheAclDoesNotFit() {
        String text = P4RouterTest.resource("const_entries.p4")
                .replace("hdr.ipv4.src_addr : ternary;", "hdr.ipv4.src_addr : range;")
                .replace("0x0A000000 &&& 0xFF000000) : to_port(10);", "0x0A000000 .. 0x0AFFFFFF) : to_port(10);");
        StageProgram unplaced = P4Programs.text("const_entries.p4", text, PreprocessorOptions.defaults()).require();
        Compilation c = ProgramCompiler.compile(unplaced, TOFINO1);
        assertFalse(c.accepted());
        assertTrue(c.lines().stream().anyMatch(l -> l.contains("range table 'acl' matches ipv4.src_addr (32 b) over 8 PHV"
                + " nibbles > 5 a range key may span")), c.lines().toString());
    }
}
