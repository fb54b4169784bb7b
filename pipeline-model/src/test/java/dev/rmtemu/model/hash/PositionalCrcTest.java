package dev.rmtemu.model.hash;

import dev.rmtemu.model.phv.Field;
import dev.rmtemu.model.phv.FieldKind;
import dev.rmtemu.model.phv.Gress;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** One lookup per byte position gives exactly the byte-wise CRC, for every orientation and width. */
class PositionalCrcTest {
    private static List<Crc> crcs(SplittableRandom rnd) {
        List<Crc> crcs = new ArrayList<>();
        for (String n : Crc.NAMES) {
            crcs.add(Crc.named(n));
        }
        for (int i = 0; i < 20; i++) {
            int w = 8 + rnd.nextInt(25);
            crcs.add(new Crc("r" + i, w, rnd.nextLong(), rnd.nextLong(), rnd.nextBoolean(), rnd.nextBoolean(),
                    rnd.nextLong()));
        }
        return crcs;
    }

    private static long bytewise(Crc crc, long[] values, int[] bytes) {
        long s = crc.init();
        for (int k = 0; k < values.length; k++) {
            for (int shift = (bytes[k] - 1) * 8; shift >= 0; shift -= 8) {
                s = crc.update(s, (int) (values[k] >>> shift) & 0xff);
            }
        }
        return crc.finish(s);
    }

    @Test
    void equalsBytewiseCrcOnRandomLayoutsAndValues() {
        SplittableRandom rnd = new SplittableRandom(91);
        for (Crc crc : crcs(rnd)) {
            for (int trial = 0; trial < 100; trial++) {
                int n = 1 + rnd.nextInt(7);
                int[] bytes = new int[n];
                long[] values = new long[n + 3];
                int[] slots = new int[n];
                long[] fieldValues = new long[n];
                for (int k = 0; k < n; k++) {
                    bytes[k] = 1 + rnd.nextInt(8);
                    slots[k] = n + 2 - k; // not in order: the slots array decides
                    fieldValues[k] = bytes[k] == 8 ? rnd.nextLong() : rnd.nextLong() & ((1L << (8 * bytes[k])) - 1);
                    values[slots[k]] = fieldValues[k];
                }
                PositionalCrc p = new PositionalCrc(crc, bytes);
                long expected = bytewise(crc, fieldValues, bytes);
                assertEquals(expected, p.hash(values, slots), crc.describe());
                assertEquals(expected, p.kernel(slots, -1L).hash(values), crc.describe());
                assertEquals(expected & 0x3FF, p.kernel(slots, 0x3FF).hash(values), crc.describe());
                int shares = 0;
                for (int k = 0; k < n; k++) {
                    shares ^= p.field(k, fieldValues[k]);
                }
                assertEquals(expected, p.finish(shares));
            }
        }
    }

    @Test
    void knownCheckValueAndTwoFieldForm() {
        // "123456789" as fields of 4, 4 and 1 bytes: CRC-32 check value 0xCBF43926
        PositionalCrc p = new PositionalCrc(Crc.named("crc32"), 4, 4, 1);
        long[] v = {0x31323334L, 0x35363738L, 0x39L};
        assertEquals(0xCBF43926L, p.hash(v, new int[] {0, 1, 2}));
        PositionalCrc two = new PositionalCrc(Crc.named("crc32c"), 8, 1);
        assertEquals(0xE3069283L, two.hash(0x3132333435363738L, 0x39L));
        PositionalCrc one = new PositionalCrc(Crc.named("crc16_ccitt"), 1);
        assertEquals(bytewise(Crc.named("crc16_ccitt"), new long[] {0xA5}, new int[] {1}), one.hash(0xA5));
    }

    @Test
    void hashUnitUsesTheSameValueAsTheBytewiseFeed() {
        SplittableRandom rnd = new SplittableRandom(5);
        int[] widths = {1, 3, 8, 12, 16, 24, 32, 48, 64};
        for (Crc crc : crcs(rnd)) {
            for (int trial = 0; trial < 50; trial++) {
                int n = 1 + rnd.nextInt(5);
                List<Field> fields = new ArrayList<>();
                long[] phv = new long[n];
                long[] fieldValues = new long[n];
                int[] bytes = new int[n];
                for (int k = 0; k < n; k++) {
                    int w = widths[rnd.nextInt(widths.length)];
                    int slot = n - 1 - k; // fields in reverse slot order: the unit reads each from its own slot
                    fields.add(new Field("f" + k, w, FieldKind.METADATA, Gress.INGRESS, slot));
                    phv[slot] = w == 64 ? rnd.nextLong() : rnd.nextLong() & ((1L << w) - 1);
                    fieldValues[k] = phv[slot];
                    bytes[k] = (w + 7) / 8;
                }
                int out = 1 + rnd.nextInt(32);
                HashUnit h = new HashUnit(0, "h", crc, fields, out, Gress.INGRESS, 0);
                assertEquals(bytewise(crc, fieldValues, bytes) & ((1L << out) - 1), h.compute(phv));
            }
        }
    }

    @Test
    void rejectsLayoutsNoHashUnitHas() {
        Crc c = Crc.named("crc32");
        assertThrows(IllegalArgumentException.class, () -> new PositionalCrc(c));
        assertThrows(IllegalArgumentException.class, () -> new PositionalCrc(c, 9));
        assertThrows(IllegalArgumentException.class, () -> new PositionalCrc(c, 0));
        int[] big = new int[9];
        java.util.Arrays.fill(big, 8);
        assertThrows(IllegalArgumentException.class, () -> new PositionalCrc(c, big));
    }
}
