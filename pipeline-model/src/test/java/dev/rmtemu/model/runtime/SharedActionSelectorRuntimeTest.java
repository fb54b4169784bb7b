package dev.rmtemu.model.runtime;

import dev.rmtemu.model.compiler.Compilation;
import dev.rmtemu.model.compiler.ProgramCompiler;
import dev.rmtemu.model.extern.ActionProfile;
import dev.rmtemu.model.extern.ActionProfileState;
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

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * One action selector shared by two tables (the same instance in both tables' implementation):
 * one set of members and groups, so a member created once serves both tables' entries and a
 * flow hashes to the same member whichever table it hits. The hashes are ActionSelectorRuntimeTest's
 * (CRC-16/ARC over src then sport, worked out by hand): K1..K6 -> 0x5be0, 0x6601, 0x3ca1, 0x884d,
 * 0xf7ee, 0x3813; FAIR over members [0, 1, 2, 3] (writing 10..13) takes (h &amp; 0x3fff) mod 4.
 */
class SharedActionSelectorRuntimeTest {
    private static final int[][] KEYS = {
        {0xf03f, 33994}, {0xbd6a, 62135}, {0xf20c, 50804}, {0xfd61, 28440}, {0xc7a5, 1985}, {0x77fa, 25132}};

    private static final class P {
        final StageProgram program;
        final Field dst;
        final Field vlan;
        final Field src;
        final Field sport;
        final Field outA;
        final Field outB;

        /** {@code ecmp_a} matches dst and writes outA, {@code ecmp_b} matches vlan and writes outB; both in stage 0. */
        P() {
            ProgramBuilder b = ProgramBuilder.create("ecmp2", "a selector shared by two tables");
            dst = b.bridged("dst", 16);
            vlan = b.bridged("vlan", 16);
            src = b.bridged("src", 16);
            sport = b.bridged("sport", 16);
            outA = b.metadata(Gress.INGRESS, "out_a", 16);
            outB = b.metadata(Gress.INGRESS, "out_b", 16);
            ProgramBuilder.StageBuilder s = b.stage(Gress.INGRESS, 0);
            TableActions actions = TableActions.of("miss", TableAction.of(1, "set_out", "v", 16));
            MatchTable a = s.table("ecmp_a", MatchKind.EXACT, 64, actions, dst);
            MatchTable bt = s.table("ecmp_b", MatchKind.EXACT, 64, actions, vlan);
            ActionProfile p = s.actionSelector("ecmp_ap", 16, "ecmp_sel", HashAlgorithm.byName("crc16"), 16, SelectorMode.FAIR,
                    8, 4, a, src, sport);
            ActionProfile shared = s.shareActionProfile(p, bt, src, sport);
            assertEquals(List.of("ecmp_a", "ecmp_b"), shared.tables());
            assertEquals(p.id(), shared.id());
            s.body(code -> {
                code.apply(a).on(1, x -> x.set(outA, Ir.actionData(a))).miss(x -> x.set(outA, 0xffff));
                code.apply(bt).on(1, x -> x.set(outB, Ir.actionData(bt))).miss(x -> x.set(outB, 0xffff));
            });
            program = b.build();
        }
    }

    private static void send(PassExecutor x, Phv phv, P p, int dst, int vlan, int[] key, long n) {
        phv.clear();
        phv.load(p.dst, dst);
        phv.load(p.vlan, vlan);
        phv.load(p.src, key[0]);
        phv.load(p.sport, key[1]);
        phv.stamp(64, n * 10);
        x.run(phv, 0, Gress.INGRESS, n);
    }

    @Test
    void bothTablesPickTheSameMemberOfTheSharedGroupOnBothBackends() {
        for (Backend backend : Backend.values()) {
            P p = new P();
            Compilation c = ProgramCompiler.compile(p.program, TargetProfiles.builtIn("tofino1"));
            assertTrue(c.accepted(), () -> String.valueOf(c.lines()));
            PipelineState s = new PipelineState(p.program, 1);
            // the profile is one state, whichever name or table reaches it
            assertSame(s.actionProfile("ecmp_ap"), s.actionProfile("ecmp_sel"));
            assertSame(s.table("ecmp_a").profile(), s.table("ecmp_b").profile());
            ActionProfileState ap = s.actionProfile("ecmp_ap");
            for (int m = 0; m < 4; m++) {
                ap.createMember(m, 1, 10 + m);
            }
            ap.createGroup(0);
            for (int m = 0; m < 4; m++) {
                ap.addToGroup(m, 0);
            }
            s.addExact("ecmp_a", new long[] {5}, ActionProfileState.GROUP, 0);
            s.addExact("ecmp_b", new long[] {7}, ActionProfileState.GROUP, 0);
            s.addExact("ecmp_b", new long[] {8}, ActionProfileState.MEMBER, 2); // member 2, created once, from the second table
            PassExecutor x = new PassExecutor(s, true, backend);
            Phv phv = new Phv(p.program.fields().size());
            long[] a = new long[KEYS.length];
            long[] b = new long[KEYS.length];
            for (int i = 0; i < KEYS.length; i++) {
                send(x, phv, p, 5, 7, KEYS[i], i);
                a[i] = phv.get(p.outA);
                b[i] = phv.get(p.outB);
            }
            assertArrayEquals(new long[] {10, 11, 11, 11, 12, 13}, a, backend.name());
            assertArrayEquals(new long[] {10, 11, 11, 11, 12, 13}, b, backend.name());
            send(x, phv, p, 9, 8, KEYS[0], 20);
            assertEquals(List.of(0xffffL, 12L), List.of(phv.get(p.outA), phv.get(p.outB)), backend.name());
            // a removal from the shared group moves both tables' flows alike: mod 3 over [0, 2, 3]
            ap.removeFromGroup(1, 0);
            for (int i = 0; i < KEYS.length; i++) {
                send(x, phv, p, 5, 7, KEYS[i], 30 + i);
                a[i] = phv.get(p.outA);
                b[i] = phv.get(p.outB);
            }
            assertArrayEquals(new long[] {13, 10, 13, 12, 13, 10}, a, backend.name());
            assertArrayEquals(a, b, backend.name());
        }
    }
}
