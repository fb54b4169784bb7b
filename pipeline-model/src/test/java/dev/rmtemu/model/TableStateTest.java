package dev.rmtemu.model;

import dev.rmtemu.model.phv.Field;
import dev.rmtemu.model.phv.Gress;
import dev.rmtemu.model.program.ProgramBuilder;
import dev.rmtemu.model.program.StageProgram;
import dev.rmtemu.model.runtime.PipelineState;
import dev.rmtemu.model.table.MatchKind;
import dev.rmtemu.model.table.MatchTable;
import dev.rmtemu.model.table.TableState;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class TableStateTest {
    @Test
    void exactTernaryAndLpmMatchAsHardwareDoes() {
        ProgramBuilder b = ProgramBuilder.create("tables", "");
        Field dst = b.header("ipv4.dst_addr");
        Field port = b.overlay("l4.dst_port", "tcp.dst_port", "udp.dst_port");
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
        Field dst = b.header("ipv4.dst_addr");
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
        Field hi = b.header("ipv6.dst_addr[127:64]");
        Field lo = b.header("ipv6.dst_addr[63:0]");
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

    /**
     * Removing exact entries closes the holes of linear probing: after random adds and removes
     * (keys on a narrow, directly indexed table and on a wide, hashed one) every key still
     * present is found with its data, every removed one misses, and a set default answers the
     * misses through both lookups the back ends use.
     */
    @Test
    void exactRemovalsKeepEveryOtherKeyAndTheDefaultAnswersMisses() {
        for (int bits : new int[] {8, 32}) {
            MatchTable t = new MatchTable(0, "t" + bits, MatchKind.EXACT,
                    java.util.List.of(new Field("k", bits, dev.rmtemu.model.phv.FieldKind.METADATA, Gress.INGRESS, 0)),
                    64, 16, Gress.INGRESS, 0);
            TableState s = new TableState(t);
            java.util.TreeMap<Long, Long> model = new java.util.TreeMap<>();
            java.util.SplittableRandom r = new java.util.SplittableRandom(bits);
            for (int step = 0; step < 5000; step++) {
                long key = r.nextLong(bits == 8 ? 256 : 200);
                if (r.nextBoolean() && model.size() < 64) {
                    if (!model.containsKey(key)) {
                        model.put(key, (long) step & 0xFFFF);
                        s.addExact(0, key, 1, step & 0xFFFF);
                    }
                } else {
                    assertEquals(model.remove(key) != null, s.removeExact(0, key), "remove " + key);
                }
                assertEquals(model.size(), s.count());
            }
            for (long key = 0; key < 256; key++) {
                int slot = s.lookupExactSlot(0, key);
                int entry = s.lookup(0, key);
                if (model.containsKey(key)) {
                    assertEquals(model.get(key), s.slotActionData(slot), "key " + key);
                    assertEquals(model.get(key), s.actionData(entry), "key " + key);
                } else {
                    assertEquals(-1, slot, "key " + key);
                    assertEquals(-1, entry, "key " + key);
                }
            }
            s.clear();
            assertEquals(0, s.addExact(0, 10, 1, 0));
            assertEquals(1, s.addExact(0, 11, 1, 0));
            assertEquals(2, s.addExact(0, 12, 1, 0));
            s.removeExact(0, 10);
            assertEquals(0, s.addExact(0, 13, 1, 0), "a removed entry's index is reused first; the others never move");
            assertEquals(1, s.lookup(0, 11));
            s.setDefault(2, 77);
            long missing = 255;
            s.removeExact(0, missing);
            assertEquals(2, s.slotActionId(s.lookupExactSlot(0, missing)));
            assertEquals(77, s.actionData(s.lookup(0, missing)));
            s.clear();
            assertEquals(77, s.slotActionData(s.lookupExactSlot(0, 1)), "clear keeps the default");
            s.resetDefault();
            assertEquals(-1, s.lookupExactSlot(0, 1));
        }
    }

    @Test
    void ternaryAndLpmEntriesAreRemovedAndModifiedByTheirMatch() {
        MatchTable t = new MatchTable(0, "tern", MatchKind.TERNARY,
                java.util.List.of(new Field("k", 16, dev.rmtemu.model.phv.FieldKind.METADATA, Gress.INGRESS, 0)), 8, 9,
                Gress.INGRESS, 0);
        TableState s = new TableState(t);
        s.addTernary(0, 0x50, 0, 0xFFFF, 10, 1, 7);
        s.addTernary(0, 0x00, 0, 0xFF00, 5, 1, 8);
        assertEquals(false, s.removeTernary(0, 0x50, 0, 0xFFFF, 11), "another priority is another entry");
        assertEquals(true, s.modifyTernary(0, 0x50, 0, 0xFFFF, 10, 2, 9));
        assertEquals(true, s.removeTernary(0, 0x00, 0, 0xFF00, 5));
        assertEquals(9, s.actionData(s.lookup(0, 0x50)));
        assertEquals(-1, s.lookup(0, 0x51));
        MatchTable l = new MatchTable(1, "lpm", MatchKind.LPM,
                java.util.List.of(new Field("k", 32, dev.rmtemu.model.phv.FieldKind.METADATA, Gress.INGRESS, 0)), 8, 9,
                Gress.INGRESS, 0);
        TableState ls = new TableState(l);
        ls.addLpm(0, 0x0A000000L, 8, 1, 1);
        ls.addLpm(0, 0x0A010000L, 16, 1, 2);
        assertEquals(true, ls.modifyLpm(0, 0x0A01FFFFL, 16, 1, 3), "the value's bits beyond the prefix do not matter");
        assertEquals(3, ls.actionData(ls.lookup(0, 0x0A010005L)));
        assertEquals(true, ls.removeLpm(0, 0x0A010000L, 16));
        assertEquals(1, ls.actionData(ls.lookup(0, 0x0A010005L)));
    }

    /** Three range fields, the middle one 64 bits wide and straddling the packed key's two words. */
    @Test
    void rangeEntriesMatchEveryFieldWithinItsBoundsAndTheLowerPriorityWins() {
        java.util.List<Field> key = java.util.List.of(
                new Field("k0", 16, dev.rmtemu.model.phv.FieldKind.METADATA, Gress.INGRESS, 0),
                new Field("k1", 64, dev.rmtemu.model.phv.FieldKind.METADATA, Gress.INGRESS, 1),
                new Field("k2", 16, dev.rmtemu.model.phv.FieldKind.METADATA, Gress.INGRESS, 2));
        MatchTable t = new MatchTable(0, "r", MatchKind.RANGE, key, 8, 9, Gress.INGRESS, 0);
        TableState s = new TableState(t);
        long top = 0x8000_0000_0000_0000L; // above every signed long: bounds compare unsigned
        s.addRange(new long[] {1000, 0, 0}, new long[] {2000, -1L, 0xFFFF}, 10, 1, 1);
        s.addRange(new long[] {1500, top, 0}, new long[] {1500, -1L, 10}, 5, 1, 2);
        assertEquals(2, data(s, t, 1500, top + 1, 5), "both match: priority 5 wins");
        assertEquals(1, data(s, t, 1500, 1, 5), "k1 = 1 is below the second entry's low end " + Long.toUnsignedString(top));
        assertEquals(1, data(s, t, 1500, -1L, 11), "k2 = 11 is above the second entry's high end");
        assertEquals(1, data(s, t, 1000, 0, 0), "bounds are inclusive");
        assertEquals(1, data(s, t, 2000, -1L, 0xFFFF));
        assertEquals(-1, data(s, t, 999, 0, 0));
        assertEquals(-1, data(s, t, 2001, 0, 0));
        assertEquals(false, s.removeRange(new long[] {1500, top, 0}, new long[] {1500, -1L, 10}, 6), "another priority is another entry");
        assertEquals(true, s.modifyRange(new long[] {1000, 0, 0}, new long[] {2000, -1L, 0xFFFF}, 10, 1, 3));
        assertEquals(true, s.removeRange(new long[] {1500, top, 0}, new long[] {1500, -1L, 10}, 5));
        assertEquals(3, data(s, t, 1500, top + 1, 5), "the first entry, modified, is the only one left");
        assertEquals(1, s.count());
        UserError empty = assertThrows(UserError.class, () -> s.addRange(new long[] {10, 0, 0}, new long[] {5, 0, 0}, 1, 1, 0));
        assertEquals("table r: range 10->5 of k0 is empty (low > high)", empty.getMessage());
        UserError wide = assertThrows(UserError.class, () -> s.addRange(new long[] {0, 0, 0}, new long[] {1, 0, 0x10000}, 1, 1, 0));
        assertEquals("table r: range 0->65536 exceeds k2's 16 bits", wide.getMessage());
        UserError kind = assertThrows(UserError.class, () -> s.addTernary(0, 0, 0, 0, 1, 1, 0));
        assertEquals("table r is RANGE, not TERNARY", kind.getMessage());
    }

    private static long data(TableState s, MatchTable t, long k0, long k1, long k2) {
        long[] phv = {k0, k1, k2};
        int e = s.lookup(t.keyHi(phv), t.keyLo(phv));
        return e < 0 ? -1 : s.actionData(e);
    }
}
