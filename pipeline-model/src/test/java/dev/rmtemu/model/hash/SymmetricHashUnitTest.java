package dev.rmtemu.model.hash;

import dev.rmtemu.model.phv.Field;
import dev.rmtemu.model.phv.FieldKind;
import dev.rmtemu.model.phv.Gress;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * A hash unit with symmetric pairs hashes each field of a pair as {@code a ^ b} (bf-utils
 * dynamic_hash.c, update_symmetric_bits: each field's hash-matrix rows become the XOR of the
 * pair's rows), so swapping the pair's values leaves the hash unchanged.
 */
class SymmetricHashUnitTest {
    private static final Field A = new Field("src", 32, FieldKind.METADATA, Gress.INGRESS, 3);
    private static final Field B = new Field("dst", 32, FieldKind.METADATA, Gress.INGRESS, 0);
    private static final Field C = new Field("proto", 8, FieldKind.METADATA, Gress.INGRESS, 2);
    private static final Field D = new Field("sport", 16, FieldKind.METADATA, Gress.INGRESS, 1);
    private static final Field E = new Field("dport", 16, FieldKind.METADATA, Gress.INGRESS, 4);
    private static final List<Field> FIVE = List.of(A, B, C, D, E);
    private static final int[] PAIRS = {1, 0, -1, 4, 3};

    /** The message the unit must hash: big-endian bytes of (a^b, a^b, proto, sp^dp, sp^dp). */
    private static byte[] folded(long a, long b, long proto, long sp, long dp) {
        long[] v = {a ^ b, a ^ b, proto, sp ^ dp, sp ^ dp};
        int[] bytes = {4, 4, 1, 2, 2};
        byte[] m = new byte[13];
        int at = 0;
        for (int i = 0; i < v.length; i++) {
            for (int k = bytes[i] - 1; k >= 0; k--) {
                m[at++] = (byte) (v[i] >>> (8 * k));
            }
        }
        return m;
    }

    @Test
    void bothDirectionsHashAlikeOnTheGeneratedKernelAndTheGenericPath() {
        SplittableRandom rnd = new SplittableRandom(32);
        for (String name : new String[] {"crc32", "crc16", "crc8", "identity"}) {
            HashAlgorithm algo = HashAlgorithm.byName(name);
            HashUnit sym = new HashUnit(0, "sym", algo, FIVE, 16, Gress.INGRESS, 0, PAIRS);
            assertEquals(algo instanceof Crc, sym.kernel() != null, name + ": a CRC runs as generated code");
            for (int t = 0; t < 200; t++) {
                long a = rnd.nextLong() & 0xFFFFFFFFL;
                long b = rnd.nextLong() & 0xFFFFFFFFL;
                long proto = rnd.nextInt(256);
                long sp = rnd.nextInt(65536);
                long dp = rnd.nextInt(65536);
                long[] forward = new long[5];
                forward[A.slot()] = a;
                forward[B.slot()] = b;
                forward[C.slot()] = proto;
                forward[D.slot()] = sp;
                forward[E.slot()] = dp;
                long[] reverse = forward.clone();
                reverse[A.slot()] = b;
                reverse[B.slot()] = a;
                reverse[D.slot()] = dp;
                reverse[E.slot()] = sp;
                long expected = algo.hash(folded(a, b, proto, sp, dp)) & 0xFFFF;
                assertEquals(expected, sym.compute(forward), name);
                assertEquals(expected, sym.compute(reverse), name);
            }
        }
    }

    @Test
    void placingKeepsThePairs() {
        HashUnit sym = new HashUnit(4, "sym", HashAlgorithm.byName("crc32"), FIVE, 32, Gress.INGRESS, -1, PAIRS);
        HashUnit placed = sym.inStage(3);
        assertEquals(3, placed.stage());
        assertEquals(4, placed.id());
        assertArrayEquals(PAIRS, placed.partners());
        assertNotNull(placed.kernel());
        HashUnit plain = new HashUnit(0, "plain", HashAlgorithm.byName("crc32"), FIVE, 32, Gress.INGRESS, 0);
        assertArrayEquals(new int[] {-1, -1, -1, -1, -1}, plain.partners());
        assertNull(new HashUnit(0, "id", HashAlgorithm.identity(), FIVE, 32, Gress.INGRESS, 0).kernel());
    }

    @Test
    void aPairMustBeTwoInputsOfOneWidthPairedBothWays() {
        IllegalArgumentException widths = assertThrows(IllegalArgumentException.class,
                () -> new HashUnit(0, "h", HashAlgorithm.byName("crc32"), FIVE, 32, Gress.INGRESS, 0, new int[] {2, -1, 0, -1, -1}));
        assertEquals("hash h: input 0 and 2 are not a symmetric pair (two distinct inputs of one width, partners of each other)",
                widths.getMessage());
        assertThrows(IllegalArgumentException.class,
                () -> new HashUnit(0, "h", HashAlgorithm.byName("crc32"), FIVE, 32, Gress.INGRESS, 0, new int[] {1, -1, -1, -1, -1}));
        assertThrows(IllegalArgumentException.class,
                () -> new HashUnit(0, "h", HashAlgorithm.byName("crc32"), FIVE, 32, Gress.INGRESS, 0, new int[] {1, 0}));
    }
}
