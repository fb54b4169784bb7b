package dev.rmtemu.model.parse;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Big-endian bit reads: the eight-byte load a field takes when eight bytes follow its first
 * byte, and the byte-wise gather near the end of the array, give the bits one at a time would.
 */
class BitsTest {
    /** The field read bit by bit, most significant first. */
    private static long slow(byte[] buf, long pos, int bits) {
        long v = 0;
        for (int i = 0; i < bits; i++) {
            long p = pos + i;
            v = (v << 1) | ((buf[(int) (p >>> 3)] >>> (7 - (int) (p & 7))) & 1);
        }
        return v;
    }

    @Test
    void everyOffsetAndWidthReadsTheBitsOfTheField() {
        byte[] buf = new byte[24];
        long x = 0x9E3779B97F4A7C15L;
        for (int i = 0; i < buf.length; i++) {
            x = x * 6364136223846793005L + 1442695040888963407L;
            buf[i] = (byte) (x >>> 56);
        }
        for (int bits = 1; bits <= Long.SIZE; bits++) {
            for (long pos = 0; pos + bits <= buf.length * 8L; pos++) {
                assertEquals(slow(buf, pos, bits), Bits.read(buf, pos, bits), "bit " + pos + ", width " + bits);
            }
        }
    }

    @Test
    void aFieldEndingAtTheLastByteIsRead() {
        byte[] buf = {0x12, 0x34, 0x56};
        assertEquals(0x3456, Bits.read(buf, 8, 16));
        assertEquals(0x6, Bits.read(buf, 20, 4));
        assertEquals(0x123456, Bits.read(buf, 0, 24));
    }

    /** The field written bit by bit, most significant first (the reference for {@link Bits#write}). */
    private static void slowWrite(byte[] buf, long pos, int bits, long value) {
        for (int i = 0; i < bits; i++) {
            long p = pos + i;
            int bit = (int) (value >>> (bits - 1 - i)) & 1;
            int at = (int) (p >>> 3);
            int shift = 7 - (int) (p & 7);
            buf[at] = (byte) ((buf[at] & ~(1 << shift)) | (bit << shift));
        }
    }

    @Test
    void everyOffsetAndWidthWritesOnlyTheBitsOfTheField() {
        byte[] base = new byte[20];
        long x = 0x2545F4914F6CDD1DL;
        for (int i = 0; i < base.length; i++) {
            x = x * 6364136223846793005L + 1442695040888963407L;
            base[i] = (byte) (x >>> 56);
        }
        for (int bits = 1; bits <= Long.SIZE; bits++) {
            for (long pos = 0; pos + bits <= base.length * 8L; pos++) {
                x = x * 6364136223846793005L + 1442695040888963407L;
                byte[] fast = base.clone();
                byte[] slow = base.clone();
                Bits.write(fast, pos, bits, x); // bits above the width are ignored
                slowWrite(slow, pos, bits, x);
                org.junit.jupiter.api.Assertions.assertArrayEquals(slow, fast, "bit " + pos + ", width " + bits);
            }
        }
    }
}
