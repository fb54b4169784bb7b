package dev.rmtemu.model.check;

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

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Action profile and selector RAMs against hand counts from p4c's Tofino back end:
 * <ul>
 * <li>action RAMs: mau/resource_estimate.cpp {@code StageUseEstimate::calculate_attached_rams}
 *     with {@code ActionDataPerWord}: 16-bit action data in 2-byte slots, 8 a 128-bit word,
 *     so 10,000 members take ceil(10000 / 8192) = 2 RAMs;</li>
 * <li>selector RAMs: resource_estimate.cpp {@code SelectorRAMLinesPerEntry} (ceil(max_group_size
 *     / 120) lines a group) times num_groups, then mau/tofino/memories.cpp
 *     {@code Memories::swbox_bus_selectors_indirects}: {@code mems_needed(RAM_lines, SRAM_DEPTH, 1,
 *     true)} = ceil(lines / 1024) + 1 spare; 200 members and 1,000 groups: 2 x 1000 = 2,000
 *     lines, 2 + 1 = 3 RAMs, each a map RAM; one meter ALU (mau/selector_update.cpp
 *     {@code AddSelectorSalu});</li>
 * <li>the match entry's pointer: 14 bits of member address (10,000 members) + 11 bits of group
 *     line (2,000 lines) + {@code SelectorLengthBits} for 2 words (2 mod bits, no shift) = 27.</li>
 * </ul>
 */
class ActionProfileResourcesTest {
    private static StageProgram program(int members, int maxGroup, int groups) {
        ProgramBuilder b = ProgramBuilder.create("lag", "a selector");
        Field dst = b.bridged("dst", 16);
        Field src = b.bridged("src", 32);
        Field out = b.metadata(Gress.INGRESS, "out", 16);
        ProgramBuilder.StageBuilder s = b.stage(Gress.INGRESS, 0);
        MatchTable t = s.table("lag", MatchKind.EXACT, 1024, TableActions.of("miss", TableAction.of(1, "set_out", "v", 16)), dst);
        s.actionSelector("lag_ap", members, "lag_sel", HashAlgorithm.byName("crc16"), 14, SelectorMode.FAIR, maxGroup, groups,
                t, src);
        s.body(code -> code.apply(t).on(1, a -> a.set(out, Ir.actionData(t))));
        return b.build();
    }

    private static TableUsage row(ResourceReport r, String name) {
        return r.tables().stream().filter(u -> u.name().equals(name)).findFirst().orElseThrow();
    }

    @Test
    void actionRamsSelectorRamsAndThePointerAsP4cCountsThem() {
        ResourceReport r = ResourceChecker.check(program(10_000, 200, 1000), TargetProfiles.builtIn("tofino1"));
        assertTrue(r.fits(), () -> String.valueOf(r.failures()));
        TableUsage profile = row(r, "lag_ap");
        assertEquals("action profile", profile.kind());
        assertEquals(2, profile.actionRams());
        TableUsage sel = row(r, "lag_sel");
        assertEquals("selector", sel.kind());
        assertEquals(2, sel.dataRams());
        assertEquals(1, sel.spareRams());
        TableUsage lag = row(r, "lag");
        assertTrue(lag.sizedBy().startsWith("entries hold a 27-bit pointer into lag_ap; "), lag.sizedBy());
        StageUsage st = r.stages().get(0);
        assertEquals(lag.srams() + 2 + 3, st.sramBlocks());
        assertEquals(3, st.mapRams());
        assertEquals(1, st.statefulAlus());
        assertEquals(14, st.hashBits());
        assertEquals(1, st.hashUnits());
        // the selector's 4 key bytes on the exact crossbar beside the table's 2
        assertEquals(2 + 4, st.exactXbarBytes());
    }

    @Test
    void aSelectorNeedingMoreMapRamsThanTheStageHasIsRefusedAndItsTwinFits() {
        // 120 members a group: one line each; 47 x 1024 groups take 47 + 1 = 48 map RAMs (all of them), 48 x 1024 take 49
        ResourceReport fits = ResourceChecker.check(program(1024, 120, 47 * 1024), TargetProfiles.builtIn("tofino1"));
        assertTrue(fits.fits(), () -> String.valueOf(fits.failures()));
        assertEquals(48, fits.stages().get(0).mapRams());
        ResourceReport over = ResourceChecker.check(program(1024, 120, 48 * 1024), TargetProfiles.builtIn("tofino1"));
        assertFalse(over.fits());
        assertTrue(over.failures().contains("stage 0 ingress: selector lag_sel needs 49 map RAMs, 48 left of 48"),
                () -> String.valueOf(over.failures()));
    }
}
