package dev.rmtemu.programs.midst.control;

import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The collector's (flow, epoch) table keeps per key the maxima (report) or sums (add) a sorted map keeps, across growth. */
class FlowEpochTableTest {
    /** Keys ordered as {@link FlowEpochTable#sortedSlots} orders them: key 1, then key 2, unsigned. */
    private record Key(long a, long b) implements Comparable<Key> {
        @Override
        public int compareTo(Key o) {
            int c = Long.compareUnsigned(a, o.a);
            return c != 0 ? c : Long.compareUnsigned(b, o.b);
        }
    }

    @Test
    void reportsKeepTheMaximaOfEveryKeyInKeyOrder() {
        FlowEpochTable t = new FlowEpochTable();
        Map<Key, long[]> ref = new TreeMap<>();
        Random r = new Random(5);
        for (int i = 0; i < 20_000; i++) {
            // few sources so keys repeat; the zero address, port and epoch among them
            long a = FlowEpochTable.key1(r.nextInt(3) == 0 ? 0 : r.nextInt(700) | 0x8000_0000L, r.nextInt(4));
            long b = FlowEpochTable.key2(r.nextInt(2) == 0 ? 6 : 17, r.nextInt(3) == 0 ? 0xFFFF : r.nextInt(5), 443,
                    r.nextInt(3));
            long loss = r.nextInt(1000);
            long burst = r.nextInt(1000);
            t.report(a, b, loss, burst);
            long[] v = ref.computeIfAbsent(new Key(a, b), k -> new long[2]);
            v[0] = Math.max(v[0], loss);
            v[1] = Math.max(v[1], burst);
        }
        assertEquals(ref.size(), t.size());
        int[] slots = t.sortedSlots();
        assertEquals(ref.size(), slots.length);
        int i = 0;
        for (Map.Entry<Key, long[]> e : ref.entrySet()) {
            int s = slots[i++];
            assertArrayEquals(new long[] {e.getKey().a(), e.getKey().b(), e.getValue()[0], e.getValue()[1]},
                    new long[] {t.k1(s), t.k2(s), t.loss(s), t.burst(s)}, "entry " + (i - 1));
        }
    }

    @Test
    void addSumsPerKeyAndTheZeroKeyIsAKey() {
        FlowEpochTable t = new FlowEpochTable();
        t.add(0, 0, 3);
        t.add(0, 0, 4);
        t.add(0, FlowEpochTable.key2(0, 0, 0, 1), 1);
        assertEquals(2, t.size());
        int[] s = t.sortedSlots();
        assertEquals(7, t.loss(s[0]));
        assertEquals(0, t.k2(s[0]));
        assertEquals(1, t.loss(s[1]));
        assertEquals(1, t.k2(s[1]));
        assertThrows(IllegalArgumentException.class, () -> t.add(0, Long.MIN_VALUE, 1));
    }
}
