package dev.rmtemu.model.check;

import dev.rmtemu.model.extern.ActionProfile;
import dev.rmtemu.model.extern.SelectorMode;
import dev.rmtemu.model.hash.HashAlgorithm;
import dev.rmtemu.model.ir.Ir;
import dev.rmtemu.model.phv.Field;
import dev.rmtemu.model.phv.Gress;
import dev.rmtemu.model.program.ProgramBuilder;
import dev.rmtemu.model.program.StageProgram;
import dev.rmtemu.model.table.MatchKind;
import dev.rmtemu.model.table.MatchTable;
import dev.rmtemu.model.table.TableAction;
import dev.rmtemu.model.table.TableActions;
import dev.rmtemu.model.target.TargetProfiles;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * An action selector shared by two tables, against hand counts from p4c's Tofino back end. The
 * copy's RAMs are ActionProfileResourcesTest's (10,000 members of 16-bit data: 2 action RAMs;
 * 1,000 groups of at most 200: 2,000 lines, 2 data RAMs + 1 spare, 3 map RAMs, one meter ALU, a
 * 14-bit hash; each entry a 27-bit pointer). Where the copies live follows bf-p4c
 * mau/table_placement.cpp: {@code TablePlacement::can_duplicate} is true for ActionData and
 * Selector, so {@code TablePlacement::initial_stage_and_entries} places the whole profile with
 * each table that uses it: tables sharing a stage share one copy (counted once), a table in
 * another stage takes its own copy there. Tables may share only what one instance can serve: the
 * same selector key (the selector has one Hash: backends/bmv2/common/sharedActionSelectorCheck.cpp
 * refuses differing inputs), the same actions (a member's action runs in either table), one gress.
 */
class SharedActionProfileResourcesTest {
    private static final int MEMBERS = 10_000;
    private static final int MAX_GROUP = 200;
    private static final int GROUPS = 1000;

    private static final class P {
        final ProgramBuilder b = ProgramBuilder.create("lag2", "a shared selector");
        final Field dst = b.bridged("dst", 16);
        final Field vlan = b.bridged("vlan", 16);
        final Field src = b.bridged("src", 32);
        final Field outA = b.metadata(Gress.INGRESS, "out_a", 16);
        final Field outB = b.metadata(Gress.INGRESS, "out_b", 16);
        final TableActions actions = TableActions.of("miss", TableAction.of(1, "set_out", "v", 16));
        final ProgramBuilder.StageBuilder s0 = b.stage(Gress.INGRESS, 0);
        final MatchTable a = s0.table("lag_a", MatchKind.EXACT, 1024, actions, dst);
        final ActionProfile p = s0.actionSelector("lag_ap", MEMBERS, "lag_sel", HashAlgorithm.byName("crc16"), 14,
                SelectorMode.FAIR, MAX_GROUP, GROUPS, a, src);

        /** lag_b in {@code stage} sharing lag_a's selector. */
        StageProgram build(int stage) {
            ProgramBuilder.StageBuilder s = stage == 0 ? s0 : b.stage(Gress.INGRESS, stage);
            MatchTable t = s.table("lag_b", MatchKind.EXACT, 1024, actions, vlan);
            s.shareActionProfile(p, t, src);
            if (stage == 0) {
                s0.body(code -> {
                    code.apply(a).on(1, x -> x.set(outA, Ir.actionData(a)));
                    code.apply(t).on(1, x -> x.set(outB, Ir.actionData(t)));
                });
            } else {
                s0.body(code -> code.apply(a).on(1, x -> x.set(outA, Ir.actionData(a))));
                s.body(code -> code.apply(t).on(1, x -> x.set(outB, Ir.actionData(t))));
            }
            return b.build();
        }
    }

    private static List<TableUsage> rows(ResourceReport r, String name) {
        return r.tables().stream().filter(u -> u.name().equals(name)).toList();
    }

    @Test
    void tablesInOneStageShareOneCopyCountedOnce() {
        ResourceReport r = ResourceChecker.check(new P().build(0), TargetProfiles.builtIn("tofino1"));
        assertTrue(r.fits(), () -> String.valueOf(r.failures()));
        assertEquals(1, rows(r, "lag_ap").size());
        assertEquals(2, rows(r, "lag_ap").get(0).actionRams());
        assertEquals(1, rows(r, "lag_sel").size());
        TableUsage a = rows(r, "lag_a").get(0);
        TableUsage b = rows(r, "lag_b").get(0);
        assertTrue(a.sizedBy().startsWith("entries hold a 27-bit pointer into lag_ap; "), a.sizedBy());
        assertTrue(b.sizedBy().startsWith("entries hold a 27-bit pointer into lag_ap; "), b.sizedBy());
        StageUsage st = r.stages().get(0);
        assertEquals(a.srams() + b.srams() + 2 + 3, st.sramBlocks());
        assertEquals(List.of(3L, 1, 14, 1), List.of(st.mapRams(), st.statefulAlus(), st.hashBits(), st.hashUnits()));
        // both tables' 2 key bytes and, once, the selector's 4
        assertEquals(2 + 2 + 4, st.exactXbarBytes());
    }

    @Test
    void aTableInAnotherStageTakesItsOwnCopyThere() {
        ResourceReport r = ResourceChecker.check(new P().build(1), TargetProfiles.builtIn("tofino1"));
        assertTrue(r.fits(), () -> String.valueOf(r.failures()));
        assertEquals(List.of(0, 1), rows(r, "lag_ap").stream().map(TableUsage::stage).toList());
        assertEquals(List.of(0, 1), rows(r, "lag_sel").stream().map(TableUsage::stage).toList());
        for (int stage = 0; stage < 2; stage++) {
            StageUsage st = r.stages().get(stage);
            TableUsage t = rows(r, stage == 0 ? "lag_a" : "lag_b").get(0);
            assertEquals(stage, st.stage());
            assertEquals(t.srams() + 2 + 3, st.sramBlocks(), "stage " + stage);
            assertEquals(List.of(3L, 1, 14, 1, 2 + 4), List.of(st.mapRams(), st.statefulAlus(), st.hashBits(), st.hashUnits(),
                    st.exactXbarBytes()), "stage " + stage);
        }
    }

    @Test
    void sharingIsRefusedForADifferentSelectorKeyADifferentActionListOrTheOtherGress() {
        P differentKey = new P();
        MatchTable b1 = differentKey.s0.table("lag_b", MatchKind.EXACT, 1024, differentKey.actions, differentKey.vlan);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> differentKey.s0.shareActionProfile(differentKey.p, b1, differentKey.dst));
        assertEquals("tables lag_a and lag_b share action selector lag_sel but hash different selector keys (src vs dst)",
                e.getMessage());

        P differentActions = new P();
        MatchTable b2 = differentActions.s0.table("lag_b", MatchKind.EXACT, 1024,
                TableActions.of("miss", TableAction.of(1, "set_other", "v", 16)), differentActions.vlan);
        e = assertThrows(IllegalArgumentException.class,
                () -> differentActions.s0.shareActionProfile(differentActions.p, b2, differentActions.src));
        assertEquals("tables lag_a and lag_b share action selector lag_sel but declare different actions (a member's action"
                + " runs in either table)", e.getMessage());

        P egress = new P();
        ProgramBuilder.StageBuilder e0 = egress.b.stage(Gress.EGRESS, 0);
        Field tag = egress.b.metadata(Gress.EGRESS, "tag", 16);
        MatchTable b3 = e0.table("lag_b", MatchKind.EXACT, 1024, egress.actions, tag);
        e = assertThrows(IllegalArgumentException.class, () -> e0.shareActionProfile(egress.p, b3, egress.src));
        assertEquals("action selector lag_sel of ingress cannot implement egress table lag_b (a profile is shared by tables"
                + " of one gress)", e.getMessage());

        // the legal twin: same key, same actions, same gress
        StageProgram legal = new P().build(0);
        assertEquals(List.of("lag_a", "lag_b"), legal.actionProfile("lag_sel").tables());
        assertEquals("lag_ap", legal.implementationOf("lag_b").name());
    }
}
