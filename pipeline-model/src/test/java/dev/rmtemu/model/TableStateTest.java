package dev.rmtemu.model;

import dev.rmtemu.model.phv.Field;
import dev.rmtemu.model.phv.Gress;
import dev.rmtemu.model.phv.ParsedField;
import dev.rmtemu.model.program.ProgramBuilder;
import dev.rmtemu.model.program.StageProgram;
import dev.rmtemu.model.runtime.PipelineState;
import dev.rmtemu.model.table.MatchKind;
import dev.rmtemu.model.table.MatchTable;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class TableStateTest {
    @Test
    void exactTernaryAndLpmMatchAsHardwareDoes() {
        ProgramBuilder b = ProgramBuilder.create("tables", "");
        Field dst = b.header("ipv4.dst_addr", 32, ParsedField.IPV4_DST);
        Field port = b.header("l4.dst_port", 16, ParsedField.DST_PORT);
        ProgramBuilder.StageBuilder s = b.stage(Gress.INGRESS, 0);
        MatchTable exact = s.table("exact", MatchKind.EXACT, 4, 9, dst, port);
        MatchTable lpm = s.table("lpm", MatchKind.LPM, 8, 9, dst);
        MatchTable tern = s.table("tern", MatchKind.TERNARY, 8, 9, port);
        StageProgram p = b.build();
        PipelineState st = new PipelineState(p, 1);
        st.addExact("exact", new long[] {0x0A000001L, 80}, 1, 5);
        st.addLpm("lpm", 0x0A000000L, 8, 1, 1);
        st.addLpm("lpm", 0x0A010000L, 16, 1, 2);
        st.addLpm("lpm", 0, 0, 1, 3);
        st.addTernary("tern", new long[] {0x0050}, new long[] {0xFFFF}, 10, 1, 7);
        st.addTernary("tern", new long[] {0x0000}, new long[] {0xFF00}, 5, 1, 8);

        long[] v = new long[p.fields().size()];
        v[dst.slot()] = 0x0A000001L;
        v[port.slot()] = 80;
        assertEquals(5, st.table(exact).actionData(st.table(exact).lookup(exact.keyHi(v), exact.keyLo(v))));
        assertEquals(1, st.table(lpm).actionData(st.table(lpm).lookup(lpm.keyHi(v), lpm.keyLo(v))));
        assertEquals(8, st.table(tern).actionData(st.table(tern).lookup(tern.keyHi(v), tern.keyLo(v))),
                "lower priority value wins on a TCAM");
        v[dst.slot()] = 0x0A01FFFFL;
        assertEquals(-1, st.table(exact).lookup(exact.keyHi(v), exact.keyLo(v)));
        assertEquals(2, st.table(lpm).actionData(st.table(lpm).lookup(lpm.keyHi(v), lpm.keyLo(v))), "longest prefix wins");
        v[dst.slot()] = 0x0B000000L;
        assertEquals(3, st.table(lpm).actionData(st.table(lpm).lookup(lpm.keyHi(v), lpm.keyLo(v))), "default route");
        v[port.slot()] = 0x1234;
        assertEquals(-1, st.table(tern).lookup(tern.keyHi(v), tern.keyLo(v)));
    }

    /**
     * Exact tables narrow enough to be indexed by their key (9 bits) and too wide for it
     * (16 bits, hashed) find what a map of the installed entries says: the last action and
     * data of a key installed twice, a miss for a key never installed, nothing after clear.
     */
    @Test
    void narrowAndWideExactTablesMatchAMapOfTheirEntries() {
        for (int width : new int[] {9, 16}) {
            ProgramBuilder b = ProgramBuilder.create("exact" + width, "");
            Field key = b.metadata(Gress.INGRESS, "meta.key", width);
            MatchTable t = b.stage(Gress.INGRESS, 0).table("t", MatchKind.EXACT, 200, 32, key);
            StageProgram p = b.build();
            PipelineState st = new PipelineState(p, 1);
            java.util.SplittableRandom rnd = new java.util.SplittableRandom(width);
            java.util.Map<Long, long[]> installed = new java.util.TreeMap<>();
            while (installed.size() < 150) {
                long k = rnd.nextLong(1L << width);
                long[] ad = {rnd.nextInt(1, 5), rnd.nextLong(1L << 32)};
                st.addExact("t", new long[] {k}, (int) ad[0], ad[1]);
                installed.put(k, ad);
            }
            long[] v = new long[p.fields().size()];
            for (long k = 0; k < (1L << width); k += width == 9 ? 1 : 7) {
                v[key.slot()] = k;
                int e = st.table(t).lookup(t.keyHi(v), t.keyLo(v));
                long[] ad = installed.get(k);
                if (ad == null) {
                    assertEquals(-1, e, width + "-bit key " + k);
                } else {
                    assertEquals(ad[0], st.table(t).actionId(e), width + "-bit key " + k);
                    assertEquals(ad[1], st.table(t).actionData(e), width + "-bit key " + k);
                    int slot = st.table(t).lookupExactSlot(t.keyHi(v), t.keyLo(v));
                    assertEquals(ad[0], st.table(t).slotActionId(slot), width + "-bit key " + k);
                    assertEquals(ad[1], st.table(t).slotActionData(slot), width + "-bit key " + k);
                }
            }
            st.table(t).clear();
            for (long k : installed.keySet()) {
                v[key.slot()] = k;
                assertEquals(-1, st.table(t).lookup(t.keyHi(v), t.keyLo(v)), "cleared, key " + k);
            }
        }
    }

    @Test
    void fullTableIsAUserError() {
        ProgramBuilder b = ProgramBuilder.create("full", "");
        Field dst = b.header("ipv4.dst_addr", 32, ParsedField.IPV4_DST);
        b.stage(Gress.INGRESS, 0).table("t", MatchKind.EXACT, 2, 9, dst);
        PipelineState st = new PipelineState(b.build(), 1);
        st.addExact("t", new long[] {1}, 1, 1);
        st.addExact("t", new long[] {2}, 1, 1);
        st.addExact("t", new long[] {2}, 1, 9); // same key: replaces, no new entry
        UserError e = assertThrows(UserError.class, () -> st.addExact("t", new long[] {3}, 1, 1));
        assertEquals("table t is full (2 entries)", e.getMessage());
    }

    @Test
    void wideKeysPackAcrossTwoWords() {
        ProgramBuilder b = ProgramBuilder.create("wide", "");
        Field hi = b.header("ipv6.dst_hi", 64, ParsedField.IPV6_DST_HI);
        Field lo = b.header("ipv6.dst_lo", 64, ParsedField.IPV6_DST_LO);
        MatchTable t = b.stage(Gress.INGRESS, 0).table("v6", MatchKind.EXACT, 4, 9, hi, lo);
        StageProgram p = b.build();
        PipelineState st = new PipelineState(p, 1);
        st.addExact("v6", new long[] {0x20010db800000000L, 1}, 1, 42);
        long[] v = new long[p.fields().size()];
        v[hi.slot()] = 0x20010db800000000L;
        v[lo.slot()] = 1;
        assertEquals(0x20010db800000000L, t.keyHi(v));
        assertEquals(42, st.table(t).actionData(st.table(t).lookup(t.keyHi(v), t.keyLo(v))));
        v[lo.slot()] = 2;
        assertEquals(-1, st.table(t).lookup(t.keyHi(v), t.keyLo(v)));
    }
}
