package dev.rmtemu.model.runtime;

import dev.rmtemu.model.UserError;
import dev.rmtemu.model.compiler.Compilation;
import dev.rmtemu.model.compiler.ProgramCompiler;
import dev.rmtemu.model.extern.SelectorMode;
import dev.rmtemu.model.hash.HashAlgorithm;
import dev.rmtemu.model.ir.Ir;
import dev.rmtemu.model.phv.Field;
import dev.rmtemu.model.phv.Gress;
import dev.rmtemu.model.program.ProgramBuilder;
import dev.rmtemu.model.program.StageProgram;
import dev.rmtemu.model.extern.ActionProfileState;
import dev.rmtemu.model.table.MatchKind;
import dev.rmtemu.model.table.MatchTable;
import dev.rmtemu.model.table.TableAction;
import dev.rmtemu.model.table.TableActions;
import dev.rmtemu.model.target.TargetProfiles;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * An action selector on both back ends: the member a group gives each flow is the one the
 * documented formula names (ActionProfileState), computed here from hashes worked out by hand
 * with CRC-16/ARC (TNA's CRC16: polynomial 0x8005 reflected, init 0) over the selector key's
 * bytes (src then sport, big-endian): K1 0xf03f/33994 -> 0x5be0, K2 0xbd6a/62135 -> 0x6601,
 * K3 0xf20c/50804 -> 0x3ca1, K4 0xfd61/28440 -> 0x884d, K5 0xc7a5/1985 -> 0xf7ee,
 * K6 0x77fa/25132 -> 0x3813. Members 0..3 write 10..13.
 */
class ActionSelectorRuntimeTest {
    private static final int[][] KEYS = {
        {0xf03f, 33994}, {0xbd6a, 62135}, {0xf20c, 50804}, {0xfd61, 28440}, {0xc7a5, 1985}, {0x77fa, 25132}};

    private static final class P {
        final StageProgram program;
        final Field dst;
        final Field src;
        final Field sport;
        final Field out;

        P(SelectorMode mode) {
            ProgramBuilder b = ProgramBuilder.create("ecmp", "an action selector");
            dst = b.bridged("dst", 16);
            src = b.bridged("src", 16);
            sport = b.bridged("sport", 16);
            out = b.metadata(Gress.INGRESS, "out", 16);
            ProgramBuilder.StageBuilder s = b.stage(Gress.INGRESS, 0);
            MatchTable t = s.table("ecmp", MatchKind.EXACT, 64,
                    TableActions.of("miss", TableAction.of(1, "set_out", "v", 16)), dst);
            s.actionSelector("ecmp_ap", 16, "ecmp_sel", HashAlgorithm.byName("crc16"), 16, mode, 8, 4, t, src, sport);
            s.body(code -> code.apply(t).on(1, a -> a.set(out, Ir.actionData(t))).miss(a -> a.set(out, 0xffff)));
            program = b.build();
        }
    }

    private static long send(PassExecutor x, Phv phv, P p, int dst, int src, int sport, long n) {
        phv.clear();
        phv.load(p.dst, dst);
        phv.load(p.src, src);
        phv.load(p.sport, sport);
        phv.stamp(64, n * 10);
        x.run(phv, 0, Gress.INGRESS, n);
        return phv.get(p.out);
    }

    private static long[] flows(PassExecutor x, Phv phv, P p, int dst) {
        long[] got = new long[KEYS.length];
        for (int i = 0; i < KEYS.length; i++) {
            got[i] = send(x, phv, p, dst, KEYS[i][0], KEYS[i][1], i);
        }
        return got;
    }

    /** Four members in group 0 (joined 0, 1, 2, 3), a member entry and a group entry. */
    private static PipelineState installed(P p) {
        PipelineState s = new PipelineState(p.program, 1);
        ActionProfileState ap = s.actionProfile("ecmp_ap");
        for (int m = 0; m < 4; m++) {
            ap.createMember(m, 1, 10 + m);
        }
        s.actionProfile("ecmp_sel").createGroup(0);
        for (int m = 0; m < 4; m++) {
            ap.addToGroup(m, 0);
        }
        s.addExact("ecmp", new long[] {5}, ActionProfileState.GROUP, 0);
        s.addExact("ecmp", new long[] {6}, ActionProfileState.MEMBER, 2);
        return s;
    }

    @Test
    void fairPicksHashModuloLiveMembersAndRepacksOnRemovalOnBothBackends() {
        for (Backend backend : Backend.values()) {
            P p = new P(SelectorMode.FAIR);
            Compilation c = ProgramCompiler.compile(p.program, TargetProfiles.builtIn("tofino1"));
            assertTrue(c.accepted(), () -> String.valueOf(c.lines()));
            PipelineState s = installed(p);
            PassExecutor x = new PassExecutor(s, true, backend);
            Phv phv = new Phv(p.program.fields().size());
            // (h & 0x3fff) mod 4 over [0, 1, 2, 3]
            assertArrayEquals(new long[] {10, 11, 11, 11, 12, 13}, flows(x, phv, p, 5), backend.name());
            assertEquals(12, send(x, phv, p, 6, KEYS[0][0], KEYS[0][1], 9), "a member entry runs its member");
            assertEquals(0xffff, send(x, phv, p, 7, KEYS[0][0], KEYS[0][1], 10), "a miss runs the miss block");
            s.actionProfile("ecmp_ap").removeFromGroup(1, 0);
            // mod 3 over [0, 2, 3]: every flow may move
            assertArrayEquals(new long[] {13, 10, 13, 12, 13, 10}, flows(x, phv, p, 5), backend.name());
        }
    }

    @Test
    void resilientKeepsFlowsOfTheMembersThatStayOnBothBackends() {
        for (Backend backend : Backend.values()) {
            P p = new P(SelectorMode.RESILIENT);
            PipelineState s = installed(p);
            PassExecutor x = new PassExecutor(s, true, backend);
            Phv phv = new Phv(p.program.fields().size());
            // slot h mod 4 of [0, 1, 2, 3]
            assertArrayEquals(new long[] {10, 11, 11, 11, 12, 13}, flows(x, phv, p, 5), backend.name());
            s.actionProfile("ecmp_sel").removeFromGroup(1, 0);
            // slots [0, -, 2, 3]: K1, K5, K6 stay; K2..K4 (slot 1) go to [0, 2, 3][(h / 4) mod 3]
            assertArrayEquals(new long[] {10, 10, 12, 13, 12, 13}, flows(x, phv, p, 5), backend.name());
            // member 1 back into the free slot: the flows of slot 1 return to it
            s.actionProfile("ecmp_sel").addToGroup(1, 0);
            assertArrayEquals(new long[] {10, 11, 11, 11, 12, 13}, flows(x, phv, p, 5), backend.name());
        }
    }

    @Test
    void anEmptyGroupMissesOnBothBackends() {
        for (Backend backend : Backend.values()) {
            P p = new P(SelectorMode.FAIR);
            PipelineState s = installed(p);
            ActionProfileState ap = s.actionProfile("ecmp_ap");
            for (int m = 0; m < 4; m++) {
                ap.removeFromGroup(m, 0);
            }
            PassExecutor x = new PassExecutor(s, true, backend);
            Phv phv = new Phv(p.program.fields().size());
            assertEquals(0xffff, send(x, phv, p, 5, KEYS[0][0], KEYS[0][1], 0), backend.name());
        }
    }

    @Test
    void refusesWhatTheSelectorCannotHold() {
        P p = new P(SelectorMode.FAIR);
        PipelineState s = installed(p);
        ActionProfileState ap = s.actionProfile("ecmp_ap");
        assertEquals("member 2 is already in group 0 of ecmp_sel",
                assertThrows(UserError.class, () -> ap.addToGroup(2, 0)).getMessage());
        assertEquals("action selector ecmp_sel has 4 groups (num_groups)",
                assertThrows(UserError.class, () -> ap.createGroup(4)).getMessage());
        assertEquals("action profile ecmp_ap is full (16 members)",
                assertThrows(UserError.class, () -> ap.createMember(16, 1, 0)).getMessage());
        ap.createGroup(1);
        for (int m = 4; m < 12; m++) {
            ap.createMember(m, 1, m);
        }
        for (int m = 4; m < 12; m++) {
            ap.addToGroup(m, 1);
        }
        assertEquals("group 1 of ecmp_sel is full (max_group_size 8)",
                assertThrows(UserError.class, () -> ap.addToGroup(0, 1)).getMessage());
        assertEquals("member 3 is not in group 1 of ecmp_sel",
                assertThrows(UserError.class, () -> ap.removeFromGroup(3, 1)).getMessage());
    }
}
