package dev.rmtemu.emulator.run;

import dev.rmtemu.emulator.engine.SwitchConfig;
import dev.rmtemu.emulator.engine.SwitchEngine;
import dev.rmtemu.model.UserError;
import dev.rmtemu.model.extern.SelectorMode;
import dev.rmtemu.model.hash.HashAlgorithm;
import dev.rmtemu.model.phv.Field;
import dev.rmtemu.model.phv.Gress;
import dev.rmtemu.model.phv.Intrinsic;
import dev.rmtemu.model.program.ProgramBuilder;
import dev.rmtemu.model.program.StageProgram;
import dev.rmtemu.model.extern.ActionProfileState;
import dev.rmtemu.model.table.MatchKind;
import dev.rmtemu.model.table.MatchTable;
import dev.rmtemu.model.table.TableAction;
import dev.rmtemu.model.table.TableActions;
import dev.rmtemu.model.target.TargetProfiles;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static dev.rmtemu.model.ir.Ir.actionData;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The action profile commands of a control script: what they install (members, groups, indirect
 * entries under their handles) and the one-line FILE:LINE refusal of each mistake, before the run.
 */
class IndirectCommandsTest {
    @TempDir
    Path dir;

    /** Table ecmp (exact on the destination) with selector ecmp_sel of profile ecmp_ap; table plain without one. */
    private static StageProgram program() {
        ProgramBuilder b = ProgramBuilder.create("ecmp", "selector commands");
        Field dst = b.header("ipv4.dst_addr");
        Field src = b.header("ipv4.src_addr");
        Field port = b.intrinsic(Intrinsic.UCAST_EGRESS_PORT);
        ProgramBuilder.StageBuilder s = b.stage(Gress.INGRESS, 0);
        MatchTable ecmp = s.table("ecmp", MatchKind.EXACT, 16, TableActions.of("drop", TableAction.of(1, "forward", "port", 9)),
                dst);
        s.actionSelector("ecmp_ap", 4, "ecmp_sel", HashAlgorithm.byName("crc16"), 14, SelectorMode.FAIR, 2, 2, ecmp, src);
        s.body(code -> code.apply(ecmp).on(1, hit -> hit.set(port, actionData(ecmp))));
        ProgramBuilder.StageBuilder s1 = b.stage(Gress.INGRESS, 1);
        MatchTable plain = s1.table("plain", MatchKind.EXACT, 16, TableActions.of("drop", TableAction.of(1, "forward", "port", 9)),
                src);
        s1.body(code -> code.apply(plain).on(1, hit -> hit.set(port, actionData(plain))));
        return b.build();
    }

    private SwitchEngine engine() {
        return new SwitchEngine(SwitchConfig.of(TargetProfiles.builtIn("tofino1"), program(), 100));
    }

    private static final String SETUP = """
            act_prof_create_member ecmp_ap forward 5
            act_prof_create_member ecmp_sel forward port=6
            act_prof_create_group ecmp_sel
            act_prof_add_member_to_group ecmp_sel 0 0
            act_prof_add_member_to_group Ingress.ecmp_ap 1 0
            """;

    private String refusal(String text) throws Exception {
        Path f = dir.resolve("c.ctl");
        Files.writeString(f, text);
        SwitchEngine e = engine();
        UserError err = assertThrows(UserError.class, () -> ControlScript.apply(f, e));
        assertEquals(UserError.BAD_INPUT, err.exitCode());
        return err.getMessage().substring(err.getMessage().indexOf("c.ctl:"));
    }

    @Test
    void installsMembersGroupsAndIndirectEntries() throws Exception {
        Path f = dir.resolve("c.ctl");
        Files.writeString(f, SETUP + """
                table_indirect_add_with_group ecmp 10.0.0.9 => 0
                table_indirect_add ecmp 10.0.0.8 => 1
                act_prof_remove_member_from_group ecmp_sel 0 0
                """);
        SwitchEngine e = engine();
        ControlScript.apply(f, e);
        ActionProfileState ap = e.state().actionProfile("ecmp_ap");
        assertEquals(6, ap.actionData(1));
        assertEquals(1, ap.actionId(0));
        assertArrayEquals(new int[] {1}, ap.members(0));
        var t = e.state().table("ecmp");
        int group = t.lookup(0, 0x0A000009);
        int member = t.lookup(0, 0x0A000008);
        assertEquals(java.util.List.of(ActionProfileState.GROUP, 0L, ActionProfileState.MEMBER, 1L),
                java.util.List.of(t.actionId(group), t.actionData(group), t.actionId(member), t.actionData(member)));
    }

    @Test
    void eachMistakeIsOneLineWithItsPlace() throws Exception {
        assertEquals("c.ctl:1: program ecmp has no action profile or selector 'ecmp_app' (it has ecmp_ap, ecmp_sel)",
                refusal("act_prof_create_member ecmp_app forward 5\n"));
        assertEquals("c.ctl:1: table ecmp has no action 'fwd' (did you mean forward?)",
                refusal("act_prof_create_member ecmp_ap fwd 5\n"));
        assertEquals("c.ctl:5: action profile ecmp_ap is full (4 members)",
                refusal("act_prof_create_member ecmp_ap forward 1\n".repeat(5)));
        assertEquals("c.ctl:3: action selector ecmp_sel has 2 groups (num_groups)",
                refusal("act_prof_create_group ecmp_sel\n".repeat(3)));
        assertEquals("c.ctl:6: action profile ecmp_ap has no member 2 (members 0..1)",
                refusal(SETUP + "act_prof_add_member_to_group ecmp_sel 2 0\n"));
        assertEquals("c.ctl:6: action selector ecmp_sel has no group 1 (groups 0..0)",
                refusal(SETUP + "table_indirect_add_with_group ecmp 10.0.0.9 => 1\n"));
        assertEquals("c.ctl:6: member 1 is already in group 0 of ecmp_sel",
                refusal(SETUP + "act_prof_add_member_to_group ecmp_sel 1 0\n"));
        assertEquals("c.ctl:8: group 0 of ecmp_sel is full (max_group_size 2)",
                refusal(SETUP + "act_prof_create_member ecmp_ap forward 7\nact_prof_create_group ecmp_sel\n"
                        + "act_prof_add_member_to_group ecmp_sel 2 0\n"));
        assertEquals("c.ctl:3: member 0 is not in group 0 of ecmp_sel",
                refusal("act_prof_create_member ecmp_ap forward 5\nact_prof_create_group ecmp_sel\n"
                        + "act_prof_remove_member_from_group ecmp_sel 0 0\n"));
        assertEquals("c.ctl:1: 'x' is not a member handle (0, 1, ... as act_prof_create_member gave them)",
                refusal("table_indirect_add ecmp 10.0.0.9 => x\n"));
        assertEquals("c.ctl:1: table ecmp takes its actions from action profile ecmp_ap: table_add does not apply;"
                        + " table_indirect_add TABLE KEY... => MEMBER or table_indirect_add_with_group TABLE KEY... => GROUP"
                        + " adds entries",
                refusal("table_add ecmp forward 10.0.0.9 => 3\n"));
        assertEquals("c.ctl:1: table plain has no action profile (implementation): table_add adds its entries",
                refusal("table_indirect_add plain 10.0.0.9 => 0\n"));
        assertEquals("c.ctl:1: action selector ecmp_sel has no group 0 (the script has created none)",
                refusal("table_indirect_add_with_group ecmp 10.0.0.9 => 0\n"));
    }

    /**
     * Deletes as bmv2's action profile does them: a member leaves once no group holds it and no
     * entry points at it, a group once no entry points at it (its members stay), and a deleted
     * handle is the next one created (the lowest free handle).
     */
    @Test
    void deletesFreeTheirHandlesForTheNextCreate() throws Exception {
        Path f = dir.resolve("c.ctl");
        Files.writeString(f, SETUP + """
                act_prof_remove_member_from_group ecmp_sel 0 0
                table_indirect_add ecmp 10.0.0.8 => 0
                table_delete ecmp 0
                act_prof_delete_member ecmp_ap 0
                act_prof_create_member ecmp_ap forward 7
                act_prof_create_group ecmp_sel
                act_prof_delete_group ecmp_sel 0
                act_prof_create_group ecmp_sel
                act_prof_add_member_to_group ecmp_sel 0 0
                """);
        SwitchEngine e = engine();
        ControlScript.apply(f, e);
        ActionProfileState ap = e.state().actionProfile("ecmp_ap");
        assertEquals(java.util.List.of(7L, 6L, true, true), java.util.List.of(ap.actionData(0), ap.actionData(1),
                ap.hasGroup(0), ap.hasGroup(1)));
        assertArrayEquals(new int[] {0}, ap.members(0), "group 0, made again, holds only member 0");
        assertArrayEquals(new int[] {}, ap.members(1));
    }

    @Test
    void aMemberOrGroupStillInUseIsNotDeleted() throws Exception {
        assertEquals("c.ctl:6: member 0 of ecmp_ap is still in group 0 of ecmp_sel: act_prof_remove_member_from_group first",
                refusal(SETUP + "act_prof_delete_member ecmp_ap 0\n"));
        assertEquals("c.ctl:3: member 0 of ecmp_ap is still used by entry 0 of table ecmp: table_delete first",
                refusal("act_prof_create_member ecmp_ap forward 5\ntable_indirect_add ecmp 10.0.0.9 => 0\n"
                        + "act_prof_delete_member ecmp_ap 0\n"));
        assertEquals("c.ctl:7: group 0 of ecmp_sel is still used by entry 0 of table ecmp: table_delete first",
                refusal(SETUP + "table_indirect_add_with_group ecmp 10.0.0.9 => 0\nact_prof_delete_group ecmp_sel 0\n"));
        assertEquals("c.ctl:5: action profile ecmp_ap has no member 1 (members 0, 2)",
                refusal("act_prof_create_member ecmp_ap forward 5\n".repeat(3) + "act_prof_delete_member ecmp_ap 1\n"
                        + "table_indirect_add ecmp 10.0.0.9 => 1\n"));
        assertEquals("c.ctl:4: action selector ecmp_sel has no group 0 (groups 1)",
                refusal("act_prof_create_group ecmp_sel\n".repeat(2) + "act_prof_delete_group ecmp_sel 0\n"
                        + "act_prof_delete_group ecmp_sel 0\n"));
    }
}
