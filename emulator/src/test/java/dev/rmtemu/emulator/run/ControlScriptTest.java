package dev.rmtemu.emulator.run;

import dev.rmtemu.emulator.engine.SwitchConfig;
import dev.rmtemu.emulator.engine.SwitchEngine;
import dev.rmtemu.model.UserError;
import dev.rmtemu.model.phv.Field;
import dev.rmtemu.model.phv.Gress;
import dev.rmtemu.model.phv.Intrinsic;
import dev.rmtemu.model.program.ProgramBuilder;
import dev.rmtemu.model.program.ProgramRegistry;
import dev.rmtemu.model.program.StageProgram;
import dev.rmtemu.model.table.MatchKind;
import dev.rmtemu.model.table.MatchTable;
import dev.rmtemu.model.table.TableAction;
import dev.rmtemu.model.table.TableActions;
import dev.rmtemu.model.target.TargetProfiles;
import dev.rmtemu.traces.PacketRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static dev.rmtemu.model.ir.Ir.actionData;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ControlScriptTest {
    private static SwitchEngine engine(String program) {
        return engine(new ProgramRegistry().build(program, Map.of()));
    }

    private static SwitchEngine engine(StageProgram p) {
        return new SwitchEngine(SwitchConfig.of(TargetProfiles.builtIn("tofino1"), p, 100));
    }

    /**
     * A forwarding program whose one table {@code fwd} matches the destination with {@code kind}:
     * {@code forward(port)} and {@code pair(hi, lo)} (port = hi * 32 + lo: the first parameter in
     * the high bits) set the egress port, {@code flood(group)} multicasts, a miss runs {@code drop};
     * a second table {@code fixed} has a const default action.
     */
    private static StageProgram program(MatchKind kind) {
        ProgramBuilder b = ProgramBuilder.create("fwd_" + kind.name().toLowerCase(), "control-script test program");
        Field dst = b.header("ipv4.dst_addr");
        Field port = b.intrinsic(Intrinsic.UCAST_EGRESS_PORT);
        Field drop = b.intrinsic(Intrinsic.DROP_CTL);
        Field group = b.intrinsic(Intrinsic.MCAST_GRP);
        ProgramBuilder.StageBuilder s = b.stage(Gress.INGRESS, 0);
        MatchTable fwd = s.table("fwd", kind, 16, TableActions.of("drop", TableAction.of(1, "forward", "port", 9),
                TableAction.of(2, "pair", "hi", 4, "lo", 5), TableAction.of(3, "flood", "group", 16)), dst);
        s.body(code -> code.apply(fwd)
                .on(1, hit -> hit.set(port, actionData(fwd)))
                .on(2, hit -> hit.set(port, actionData(fwd)))
                .on(3, hit -> hit.set(group, actionData(fwd)))
                .miss(miss -> miss.set(drop, 1)));
        ProgramBuilder.StageBuilder s1 = b.stage(Gress.INGRESS, 1);
        MatchTable fixed = s1.table("fixed", MatchKind.EXACT, 4, TableActions.constDefault("NoAction",
                TableAction.of(1, "mark")), dst);
        s1.body(code -> code.apply(fixed));
        ProgramBuilder.StageBuilder s2 = b.stage(Gress.INGRESS, 2);
        MatchTable constant = s2.constTable("const_map", 8, List.of(new MatchTable.ConstEntry(new long[] {1}, 1, 7)), dst);
        s2.body(code -> code.apply(constant));
        return b.build();
    }

    private static PacketRecord to(long dst) {
        PacketRecord r = PacketRecord.allocate();
        return r.wireLength(100).ipVersion(4).protocol(17).dstIpv4((int) dst);
    }

    /** The egress port of a packet to each destination, one at a time (-1: dropped), after the script's cycles. */
    private static List<Integer> ports(SwitchEngine e, long startCycle, long... dsts) {
        List<Integer> out = new ArrayList<>();
        int[] departed = {-1};
        e.onDeparture((c, p, s, pool) -> departed[0] = p);
        long cycle = startCycle;
        for (long d : dsts) {
            departed[0] = -1;
            e.arrive(cycle, 0, to(d));
            e.drain();
            out.add(departed[0]);
            cycle = e.now() + 1000;
        }
        return out;
    }

    private static Path script(Path dir, String text) throws Exception {
        Path f = dir.resolve("c.ctl");
        Files.writeString(f, text);
        return f;
    }

    /**
     * A switch without Tofino's layout rules: a range key of 32 bits (an IPv4 address) spans 8 PHV
     * nibbles, more than the 5 a Tofino range key may (TofinoLayoutRulesTest), so tofino1 refuses it.
     */
    private static SwitchEngine unconstrained(StageProgram p) {
        return new SwitchEngine(SwitchConfig.of(TargetProfiles.builtIn("unconstrained"), p, 100));
    }

    private static String refusal(Path f, byte[] content, StageProgram program) throws Exception {
        return refusal(f, content, engine(program));
    }

    private static String refusal(Path f, String content, SwitchEngine engine) throws Exception {
        return refusal(f, content.getBytes(StandardCharsets.UTF_8), engine);
    }

    private static String refusal(Path f, byte[] content, SwitchEngine engine) throws Exception {
        Files.write(f, content);
        UserError e = assertThrows(UserError.class, () -> ControlScript.apply(f, engine));
        assertEquals(UserError.BAD_INPUT, e.exitCode());
        return e.getMessage();
    }

    private static String refusal(Path f, String content, StageProgram program) throws Exception {
        return refusal(f, content.getBytes(StandardCharsets.UTF_8), program);
    }

    private static String refusal(Path f, String content, String program) throws Exception {
        return refusal(f, content, new ProgramRegistry().build(program, Map.of()));
    }

    private static final long A = 0x0A000002L;
    private static final long B = 0x0A000003L;
    private static final long C = 0x0A000004L;

    @Test
    void tableAddForwardsAndMissesRunTheDefaultAction(@TempDir Path tmp) throws Exception {
        Path f = script(tmp, """
                # two routes
                table_add l2_fwd forward 02:00:0a:00:00:02 => 3
                table_add Ingress.l2_fwd Ingress.forward 0x02000a000003 => port=5   # qualified names, a named parameter
                """);
        SwitchEngine e = engine("l2fwd");
        assertEquals(2, ControlScript.apply(f, e));
        assertEquals(List.of(3, 5, -1), ports(e, 0, A, B, C));
        assertEquals(1, e.counters().droppedFor(SwitchEngine.DROP_INGRESS));
        assertEquals(2, e.state().table("l2_fwd").count());
    }

    @Test
    void everyValueSyntaxGivesTheSameKey(@TempDir Path tmp) throws Exception {
        // decimal, hex, IPv4, IPv6 with :: and with a dotted tail: all 10.0.0.2, 10.0.0.3, 10.0.0.4
        SwitchEngine e = engine(program(MatchKind.EXACT));
        ControlScript.apply(script(tmp, "table_add fwd forward 167772162 => 0x1f\ntable_add fwd forward ::a00:3 => 7\n"
                + "table_add fwd forward ::10.0.0.4 => 1\n"), e);
        assertEquals(List.of(31, 7, 1), ports(e, 0, A, B, C));
        assertEquals(0x0000_1122_3344_5566L, ControlValues.value("11:22:33:44:55:66", 48, "mac"));
        assertEquals(0xFFL, ControlValues.value("0:0:0:0:0:0:0:ff", 128, "v6"));
        assertEquals(new java.math.BigInteger("20010db8000000000000000000000001", 16), ControlValues.unsigned("2001:db8::1"));
        assertEquals(null, ControlValues.unsigned("1::2::3"));
        assertEquals(null, ControlValues.unsigned("-1"));
        assertEquals(null, ControlValues.unsigned("256.0.0.1"));
    }

    @Test
    void parametersByPositionAndByNamePackTheFirstHigh(@TempDir Path tmp) throws Exception {
        SwitchEngine e = engine(program(MatchKind.EXACT));
        ControlScript.apply(script(tmp, "table_add fwd pair 10.0.0.2 => 1 2\ntable_add fwd pair 10.0.0.3 => lo=7 hi=0\n"
                + "table_add fwd pair 10.0.0.4 => 1 lo=31\n"), e);
        assertEquals(List.of(34, 7, 63), ports(e, 0, A, B, C));
    }

    @Test
    void setDefaultReplacesTheMissAndTheProgramsOwnDefaultRestoresIt(@TempDir Path tmp) throws Exception {
        SwitchEngine e = engine(program(MatchKind.EXACT));
        ControlScript.apply(script(tmp, "table_set_default fwd forward 9\nat 50000 table_set_default fwd drop\n"), e);
        List<Integer> departed = new ArrayList<>();
        e.onDeparture((c, p, s, pool) -> departed.add(p));
        e.arrive(0, 0, to(A));
        e.arrive(60_000, 0, to(B));
        e.drain();
        assertEquals(List.of(9), departed, "a miss forwards to 9 until cycle 50,000");
        assertEquals(1, e.counters().droppedFor(SwitchEngine.DROP_INGRESS), "then the miss drops again");
    }

    @Test
    void deleteModifyAndClearByHandle(@TempDir Path tmp) throws Exception {
        SwitchEngine e = engine(program(MatchKind.EXACT));
        ControlScript.apply(script(tmp, """
                table_add fwd forward 10.0.0.2 => 1
                table_add fwd forward 10.0.0.3 => 2
                table_delete fwd 0
                table_add fwd forward 10.0.0.4 => 3     # handle 0 again: the lowest free one
                table_modify fwd pair 0 1 1             # 10.0.0.4 -> 33
                """), e);
        assertEquals(2, e.state().table("fwd").count());
        assertEquals(List.of(-1, 2, 33), ports(e, 0, A, B, C));
        SwitchEngine cleared = engine(program(MatchKind.EXACT));
        ControlScript.apply(script(tmp, "table_add fwd forward 10.0.0.2 => 1\ntable_set_default fwd forward 4\n"
                + "at 10 table_clear fwd\n"), cleared);
        assertEquals(List.of(4), ports(cleared, 100, A), "cleared: the entry is gone, the default stays");
        assertEquals(0, cleared.state().table("fwd").count());
    }

    @Test
    void ternaryEntriesNeedAPriorityAndTheLowerValueWins(@TempDir Path tmp) throws Exception {
        SwitchEngine e = engine(program(MatchKind.TERNARY));
        ControlScript.apply(script(tmp, """
                table_add fwd forward 10.0.0.0&&&255.0.0.0 => 1 20
                table_add fwd forward 10.0.0.3&&&0xffffffff => 2 10
                table_add fwd forward 10.0.0.4 => port=3 30     # a plain value: every bit
                """), e);
        assertEquals(List.of(1, 2, 1), ports(e, 0, A, B, C), "10.0.0.4's own entry has the higher value (30): /8 wins");
        SwitchEngine deleted = engine(program(MatchKind.TERNARY));
        ControlScript.apply(script(tmp, "table_add fwd forward 10.0.0.0&&&255.0.0.0 => 1 20\n"
                + "table_add fwd forward 10.0.0.0&&&255.0.0.0 => 2 5\ntable_delete fwd 1\n"), deleted);
        assertEquals(List.of(1), ports(deleted, 0, A), "the same value and mask at another priority is another entry");
    }

    @Test
    void lpmEntriesTakeTheLongestPrefix(@TempDir Path tmp) throws Exception {
        SwitchEngine e = engine(program(MatchKind.LPM));
        ControlScript.apply(script(tmp, """
                table_add fwd forward 10.0.0.0/8 => 1
                table_add fwd forward 10.0.0.3/32 => 2
                table_add fwd forward 0.0.0.0/0 => 3
                table_delete fwd 1
                """), e);
        assertEquals(List.of(1, 1, 3), ports(e, 0, A, B, 0x0B000000L));
    }

    @Test
    void rangeEntriesTakeLowToHighInEveryValueSyntaxAndAPriority(@TempDir Path tmp) throws Exception {
        SwitchEngine e = unconstrained(program(MatchKind.RANGE));
        ControlScript.apply(script(tmp, """
                table_add fwd forward 10.0.0.0->10.0.0.255 => 1 20
                table_add fwd forward 167772163->0x0a000004 => 2 10     # decimal and hex: 10.0.0.3 to 10.0.0.4
                table_add fwd forward 10.0.0.4->10.0.0.4 => port=3 30
                """), e);
        assertEquals(List.of(1, 2, 2, 1, -1), ports(e, 0, A, B, C, 0x0A0000FFL, 0x0A000100L),
                "10.0.0.3 and .4 are in both /24's range and 3..4: priority 10 wins; .255 is the high end, inclusive");
        SwitchEngine deleted = unconstrained(program(MatchKind.RANGE));
        ControlScript.apply(script(tmp, "table_add fwd forward 10.0.0.0->10.0.0.255 => 1 20\n"
                + "table_add fwd forward 10.0.0.3->10.0.0.4 => 2 10\ntable_add fwd forward 10.0.0.4->10.0.0.4 => 3 5\n"
                + "table_delete fwd 1\ntable_modify fwd pair 2 hi=0 lo=7\n"), deleted);
        assertEquals(List.of(1, 1, 7), ports(deleted, 0, A, B, C), "3..4 deleted; .4's own entry now runs pair(0, 7)");
    }

    @Test
    void registerWritesGoToEveryPipeOrOne(@TempDir Path tmp) throws Exception {
        SwitchEngine e = engine("counter");
        ControlScript.apply(script(tmp, "register_write flow_count 7 100\nregister_write Ingress.flow_count 8 5 pipe=2\n"
                + "at 1000 register_reset flow_count\n"), e);
        for (int p = 0; p < 4; p++) {
            assertEquals(100, e.state().readRegister(p, "flow_count", 7), "pipe " + p);
            assertEquals(p == 2 ? 5 : 0, e.state().readRegister(p, "flow_count", 8), "pipe " + p);
        }
        e.arrive(2000, 0, to(1));
        e.drain();
        assertEquals(0, e.state().readRegister(0, "flow_count", 7));
    }

    @Test
    void multicastGroupsReplicateToTheirNodesPorts(@TempDir Path tmp) throws Exception {
        SwitchEngine e = engine(program(MatchKind.EXACT));
        ControlScript.apply(script(tmp, """
                mc_mgrp_create 3
                mc_node_create 0 1 2
                mc_node_create 1 5
                mc_node_associate 3 0
                mc_node_associate 3 1
                table_add fwd flood 10.0.0.2 => 3
                """), e);
        List<Integer> ports = new ArrayList<>();
        e.onDeparture((c, p, s, pool) -> ports.add(p));
        e.arrive(0, 0, to(A));
        e.drain();
        ports.sort(null);
        assertEquals(List.of(1, 2, 5), ports);
    }

    /**
     * Tofino's exclusion ids from a script: a node associated with L1 XID 7 is skipped by a
     * packet of level1_exclusion_id 7; the prune table entry of level2_exclusion_id 5 takes port 6
     * from the node of the packet's rid (1), not from the node of RID 2.
     */
    @Test
    void aNodesLevelOneXidAndThePortPruneTableComeFromTheScript(@TempDir Path tmp) throws Exception {
        ProgramBuilder b = ProgramBuilder.create("mc_xid", "multicast with exclusion ids");
        Field group = b.intrinsic(Intrinsic.MCAST_GRP);
        Field l1 = b.intrinsic(Intrinsic.LEVEL1_EXCLUSION_ID);
        Field l2 = b.intrinsic(Intrinsic.LEVEL2_EXCLUSION_ID);
        Field rid = b.intrinsic(Intrinsic.RID);
        b.stage(Gress.INGRESS, 0).body(c -> c.set(group, 3).set(l1, 7).set(l2, 5).set(rid, 1));
        SwitchEngine e = engine(b.build());
        ControlScript.apply(script(tmp, """
                mc_mgrp_create 3
                mc_node_create 0 1 2
                mc_node_create 1 5 6
                mc_node_create 2 4 6
                mc_node_associate 3 0 7
                mc_node_associate 3 1
                mc_node_associate 3 2
                mc_update_port_prune_table 5 6
                """), e);
        List<Integer> ports = new ArrayList<>();
        e.onDeparture((c, p, s, pool) -> ports.add(p));
        e.arrive(0, 0, to(A));
        e.drain();
        e.checkConservation();
        ports.sort(null);
        assertEquals(List.of(4, 5, 6), ports);
        assertEquals(2, e.counters().replicated());
    }

    @Test
    void mistakesAreOneLineNamingFileLineAndTheClosestName(@TempDir Path tmp) throws Exception {
        Path f = tmp.resolve("bad.ctl");
        StageProgram p = program(MatchKind.EXACT);
        StageProgram t = program(MatchKind.TERNARY);
        assertEquals(f + ":3: program fwd_exact has no table 'fwdd' (did you mean fwd?)",
                refusal(f, "\n# ok\ntable_add fwdd forward 1 => 1\n", p));
        assertEquals(f + ":1: table fwd has no action 'foward' (did you mean forward?)",
                refusal(f, "table_add fwd foward 1 => 1\n", p));
        assertEquals(f + ":1: action drop is table fwd's default action only (entries take forward, pair, flood)",
                refusal(f, "table_add fwd drop 1 =>\n", p));
        assertEquals(f + ":1: action pair has no parameter 'low' (did you mean lo?)",
                refusal(f, "table_add fwd pair 1 => hi=1 low=2\n", p));
        assertEquals(f + ":1: action pair needs parameter lo (5 bits)", refusal(f, "table_add fwd pair 1 => 1\n", p));
        assertEquals(f + ":1: action forward takes 1 parameter (port), got 2", refusal(f, "table_add fwd forward 1 => 1 2\n", p));
        assertEquals(f + ":1: action pair: parameter hi given twice", refusal(f, "table_add fwd pair 1 => 1 hi=2 lo=0\n", p));
        assertEquals(f + ":1: action pair: positional parameter 2 after named ones",
                refusal(f, "table_add fwd pair 1 => lo=1 2\n", p));
        assertEquals(f + ":1: value 512 does not fit port's 9 bits", refusal(f, "table_add fwd forward 1 => 512\n", p));
        assertEquals(f + ":1: value aa:bb:cc:dd:ee:ff does not fit ipv4.dst_addr's 32 bits",
                refusal(f, "table_add fwd forward aa:bb:cc:dd:ee:ff => 1\n", p));
        assertEquals(f + ":1: 'x1' is not a value (decimal, 0x hex, IPv4, IPv6 or MAC address)",
                refusal(f, "at 10 table_add fwd forward x1 => 1\n", p));
        assertEquals(f + ":1: table fwd needs 1 key field (ipv4.dst_addr), got 2",
                refusal(f, "table_add fwd forward 1 2 => 1\n", p));
        assertEquals(f + ":1: table_add needs '=>' between the key and the action parameters",
                refusal(f, "table_add fwd forward 1 1\n", p));
        assertEquals(f + ":1: table fwd matches exact: key 1&&&1 must be a plain value",
                refusal(f, "table_add fwd forward 1&&&1 => 1\n", p));
        assertEquals(f + ":1: table fwd matches exact: key 1->5 must be a plain value",
                refusal(f, "table_add fwd forward 1->5 => 1\n", p));
        assertEquals(f + ":1: table fwd matches ternary: key 1->5 must be VALUE&&&MASK",
                refusal(f, "table_add fwd forward 1->5 => 1 1\n", t));
        StageProgram r = program(MatchKind.RANGE);
        UserError tofino = assertThrows(UserError.class, () -> engine(r));
        assertEquals(3, tofino.exitCode(), "tofino1 refuses a 32-bit range key: the program does not fit");
        assertTrue(tofino.getMessage().contains("range table 'fwd' matches ipv4.dst_addr (32 b) over 8 PHV nibbles > 5"),
                tofino.getMessage());
        assertEquals(f + ":1: table fwd matches range: key 10.0.0.2 must be LOW->HIGH",
                refusal(f, "table_add fwd forward 10.0.0.2 => 1 1\n", unconstrained(r)));
        assertEquals(f + ":1: table fwd matches range: key 10.0.0.0/8 must be LOW->HIGH",
                refusal(f, "table_add fwd forward 10.0.0.0/8 => 1 1\n", unconstrained(r)));
        assertEquals(f + ":1: range 10.0.0.9->10.0.0.2 of ipv4.dst_addr is empty: its low end is above its high end",
                refusal(f, "table_add fwd forward 10.0.0.9->10.0.0.2 => 1 1\n", unconstrained(r)));
        assertEquals(f + ":1: value 0x100000000 does not fit ipv4.dst_addr's 32 bits",
                refusal(f, "table_add fwd forward 0->0x100000000 => 1 1\n", unconstrained(r)));
        assertEquals(f + ":1: table fwd matches range: its entries end with a PRIORITY (a number; the lower value wins)",
                refusal(f, "table_add fwd forward 1->5 =>\n", unconstrained(r)));
        assertEquals(f + ":2: table fwd already has an entry for key 1->0x5 priority 3 (handle 0): table_modify changes its action",
                refusal(f, "table_add fwd forward 0x1->5 => 1 3\ntable_add fwd forward 1->0x5 => 2 3\n", unconstrained(r)));
        assertEquals(f + ":1: table fwd matches ternary: its entries end with a PRIORITY (a number; the lower value wins)",
                refusal(f, "table_add fwd forward 1&&&1 =>\n", t));
        assertEquals(f + ":1: prefix length 33 outside 0..32 for ipv4.dst_addr",
                refusal(f, "table_add fwd forward 1/33 => 1\n", program(MatchKind.LPM)));
        assertEquals(f + ":2: table fwd already has an entry for key 0x0a000002 (handle 0): table_modify changes its action",
                refusal(f, "table_add fwd forward 10.0.0.2 => 1\ntable_add fwd forward 0x0a000002 => 2\n", p));
        assertEquals(f + ":2: table fwd already has an entry for key 10.9.9.9&&&255.0.0.0 priority 1 (handle 0): table_modify"
                + " changes its action", refusal(f, "table_add fwd forward 10.0.0.0&&&255.0.0.0 => 1 1\n"
                + "table_add fwd forward 10.9.9.9&&&255.0.0.0 => 2 1\n", t));
        assertEquals(f + ":2: table fwd already has an entry for key 10.1.0.0/8 (handle 0): table_modify changes its action",
                refusal(f, "table_add fwd forward 10.0.0.0/8 => 1\ntable_add fwd forward 10.1.0.0/8 => 2\n",
                        program(MatchKind.LPM)));
        assertEquals(f + ":2: table fwd has no entry with handle 1 (handles: 0)",
                refusal(f, "table_add fwd forward 10.0.0.2 => 1\ntable_delete fwd 1\n", p));
        assertEquals(f + ":1: table fwd has no entry with handle 0 (the script has added none)",
                refusal(f, "table_modify fwd forward 0 1\n", p));
        assertEquals(f + ":1: too many arguments: table_delete TABLE HANDLE", refusal(f, "table_delete fwd 0 1\n", p));
        assertEquals(f + ":1: table fixed's default action NoAction is const: the control plane cannot change it",
                refusal(f, "table_set_default fixed mark\n", p));
        assertEquals(f + ":1: unknown command 'tabel_add' (did you mean table_add?) (prefixes: at CYCLE, on SWITCH)",
                refusal(f, "tabel_add fwd forward 1 => 1\n", p));
        assertEquals(f + ":1: 'table' is the old control syntax: scripts speak bmv2's runtime_CLI (table_add TABLE ACTION"
                        + " KEY... => PARAM..., register_write REGISTER INDEX VALUE, mc_mgrp_create GROUP)",
                refusal(f, "table fwd exact 1 action=1 data=3\n", p));
        assertEquals(f + ":1: mc_mgrp_create configures the switch before the run: no 'at CYCLE'",
                refusal(f, "at 5 mc_mgrp_create 1\n", p));
        assertEquals(f + ":2: no multicast group 4 (create it with mc_mgrp_create 4)",
                refusal(f, "mc_node_create 0 1\nmc_node_associate 4 0\n", p));
        assertEquals(f + ":4: multicast node 0 is already associated with group 1",
                refusal(f, "mc_mgrp_create 1\nmc_node_create 0 1\nmc_node_associate 1 0\nmc_node_associate 1 0\n", p));
        assertEquals(f + ":3: no multicast node with handle 1 (1 created)",
                refusal(f, "mc_mgrp_create 1\nmc_node_create 0 1\nmc_node_associate 1 1\n", p));
        assertEquals(f + ":3: level-1 exclusion id 65536 outside 0..65535",
                refusal(f, "mc_mgrp_create 1\nmc_node_create 0 1\nmc_node_associate 1 0 65536\n", p));
        assertEquals(f + ":1: missing arguments: mc_node_associate GROUP NODE_HANDLE [L1_XID]",
                refusal(f, "mc_node_associate 1\n", p));
        assertEquals(f + ":1: level-2 exclusion id 512 outside 0..511", refusal(f, "mc_update_port_prune_table 512 1\n", p));
        assertEquals(f + ":1: the program's parser declares no value sets (value_set), so there is no 'vs'",
                refusal(f, "pvs_add vs 1\n", p));
        assertEquals(f + ":1: 'on s1' names a switch, which needs a network replay (--topology)",
                refusal(f, "on s1 register_reset flow_count\n", "counter"));
    }

    @Test
    void aConstTableRefusesEveryChange(@TempDir Path tmp) throws Exception {
        // a table with const entries is fixed by the program (P4_16: the control plane cannot change it)
        Path f = tmp.resolve("c.ctl");
        StageProgram p = program(MatchKind.EXACT);
        String msg = ":1: table const_map has const entries: the control plane cannot change it";
        for (String line : List.of("table_add const_map set 3 => 8", "table_clear const_map",
                "table_delete const_map 0", "table_modify const_map set 0 1")) {
            assertEquals(f + msg, refusal(f, line + "\n", p), line);
        }
        assertEquals(f + ":1: table const_map declares no actions a control script can name (its entries are const)",
                refusal(f, "table_set_default const_map x\n", p));
    }

    @Test
    void anAmbiguousNameListsItsCandidates() {
        record Named(String control, String name) {
        }
        List<Named> items = List.of(new Named("Ingress", "t"), new Named("Egress", "t"), new Named("Egress", "u"));
        UserError e = assertThrows(UserError.class, () -> ProgramNames.resolve("table", "t", items, Named::name,
                Named::control, "p"));
        assertEquals("table 't' is ambiguous: Ingress.t, Egress.t", e.getMessage());
        assertEquals(items.get(1), ProgramNames.resolve("table", "Egress.t", items, Named::name, Named::control, "p"));
        assertEquals(items.get(2), ProgramNames.resolve("table", "u", items, Named::name, Named::control, "p"));
        assertEquals("program p has no table 'Egress.uu' (did you mean Egress.u?)", assertThrows(UserError.class,
                () -> ProgramNames.resolve("table", "Egress.uu", items, Named::name, Named::control, "p")).getMessage());
    }

    @Test
    void aValueWiderThanTheCellsIsRefused(@TempDir Path tmp) throws Exception {
        Path f = tmp.resolve("c.txt");
        assertEquals(f + ":2: value 4294967296 does not fit flow_count's 32-bit cells",
                refusal(f, "register_write flow_count 3 4294967295\nregister_write flow_count 3 4294967296\n", "counter"));
        assertEquals(f + ":1: value 0x100000000 does not fit flow_count's 32-bit cells",
                refusal(f, "at 10 register_write flow_count 3 0x100000000\n", "counter"));
        assertEquals(f + ":1: value -1 does not fit flow_count's 32-bit cells",
                refusal(f, "register_write flow_count 3 -1\n", "counter"));
        assertEquals(f + ":1: register flow_count: index 65536 outside 0..65535",
                refusal(f, "at 10 register_write flow_count 65536 1\n", "counter"));
        assertEquals(f + ":1: '4294967296' is out of range for a register index (0..2147483647)",
                refusal(f, "register_write flow_count 4294967296 1\n", "counter"));
        assertEquals(f + ":1: register flow_count has one word per cell: no HI_VALUE",
                refusal(f, "register_write flow_count 1 1 1\n", "counter"));
        assertEquals(f + ":1: pipe 4 outside 0..3", refusal(f, "register_write flow_count 1 1 pipe=4\n", "counter"));
        assertEquals(f + ":1: program counter has no register array 'flow_cnt' (did you mean flow_count?)",
                refusal(f, "register_reset flow_cnt\n", "counter"));
        SwitchEngine e = engine("counter");
        Files.writeString(f, "register_write flow_count 3 4294967295\n");
        ControlScript.apply(f, e);
        assertEquals(4294967295L, e.state().readRegister(0, "flow_count", 3));
    }

    @Test
    void negativeCyclesAreRefused(@TempDir Path tmp) throws Exception {
        Path f = tmp.resolve("c.txt");
        assertEquals(f + ":1: cycle -5 is negative", refusal(f, "at -5 register_reset flow_count\n", "counter"));
    }

    @Test
    void anOperationAfterTheLastEventIsNotAppliedAndDoesNotStretchTheRun(@TempDir Path tmp) throws Exception {
        Path f = tmp.resolve("c.txt");
        Files.writeString(f, "register_write flow_count 7 100\nat 1000 register_write flow_count 7 5\n"
                + "at 9223372036854775807 register_reset flow_count\n");
        SwitchEngine e = engine("counter");
        ControlScript.apply(f, e);
        e.arrive(2000, 0, to(1));
        e.drain();
        assertEquals(5, e.state().readRegister(0, "flow_count", 7), "the reset at the end of time was not applied");
        assertTrue(e.now() < 10_000, "run not stretched: " + e.now());
        assertEquals(List.of(f + ":3"), e.controlOpsNotApplied().stream().map(Object::toString).toList());
    }

    @Test
    void aProgramsOwnControlOperationAfterTheLastPacketStillRuns() {
        // programs read their sketches at the end of an interval with scheduleControl: that always runs
        SwitchEngine e = engine("counter");
        List<Long> ran = new ArrayList<>();
        e.scheduleControl(50_000, (state, cycle) -> ran.add(cycle));
        e.scheduleControlWithinRun(60_000, (state, cycle) -> ran.add(cycle));
        e.arrive(2000, 0, to(1));
        e.drain();
        assertEquals(List.of(50_000L), ran);
        assertEquals(50_000, e.now());
        assertEquals(1, e.controlOpsNotApplied().size());
    }

    @Test
    void longTokensAreCutInMessages(@TempDir Path tmp) throws Exception {
        Path f = tmp.resolve("c.txt");
        String huge = "x".repeat(10_000_000);
        String msg = refusal(f, "table_add " + huge + " a 1 => 1\n", "counter");
        assertTrue(msg.startsWith(f + ":1: program counter has no table '" + "x".repeat(60) + "... (10000000 characters)'"), msg);
        msg = refusal(f, "at 5 register_write flow_count 1 " + "9".repeat(100) + "\n", "counter");
        assertEquals(f + ":1: value " + "9".repeat(60) + "... (100 characters) does not fit flow_count's 32-bit cells", msg);
    }

    @Test
    void binaryInputIsNotUtf8TextAndAByteOrderMarkIsSkipped(@TempDir Path tmp) throws Exception {
        Path f = tmp.resolve("c.txt");
        byte[] bin = {'#', ' ', 'o', 'k', '\n', 'r', 'e', 'g', (byte) 0xC3, '\n', (byte) 0xFF, 0};
        assertEquals(f + ":2: not UTF-8 text", refusal(f, bin, new ProgramRegistry().build("counter", Map.of())));
        byte[] text = "register_write flow_count 7 9\r\n".getBytes(StandardCharsets.UTF_8);
        byte[] withBom = new byte[text.length + 3];
        withBom[0] = (byte) 0xEF;
        withBom[1] = (byte) 0xBB;
        withBom[2] = (byte) 0xBF;
        System.arraycopy(text, 0, withBom, 3, text.length);
        Files.write(f, withBom);
        SwitchEngine e = engine("counter");
        assertEquals(1, ControlScript.apply(f, e));
        assertEquals(9, e.state().readRegister(0, "flow_count", 7));
        assertEquals("control file " + tmp + " is not a regular file",
                assertThrows(UserError.class, () -> ControlScript.apply(tmp, engine("counter"))).getMessage());
    }

    @Test
    void parametersPackAndUnpack() {
        TableAction a = TableAction.of(2, "pair", "hi", 4, "lo", 5);
        assertEquals(34, a.pack(new long[] {1, 2}));
        assertArrayEquals(new long[] {1, 2}, a.unpack(34));
    }
}
