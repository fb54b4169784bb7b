package dev.rmtemu.programs.lossradar.program;

import dev.rmtemu.model.hash.Crc;

/**
 * The k index hashes of a digest: CRC-32 with a different polynomial each, over the
 * signature's 32-bit words (big-endian bytes, as a Tofino hash unit reads its input
 * fields). The stage program's hash units and the plain-Java meters use the same
 * {@link Crc} objects, so the same signature lands in the same cells.
 */
public final class SignatureHash {
    /** CRC-32 (IEEE), CRC-32C, CRC-32K, CRC-32Q: reflected, init and xorout all ones. */
    static final long[] POLYNOMIALS = {0x04C11DB7L, 0x1EDC6F41L, 0x741B8CD7L, 0x814141ABL};
    private static final String[] NAMES = {"crc32", "crc32c", "crc32k", "crc32q"};
    private static final long ALL_ONES = 0xFFFFFFFFL;
    private static final Crc[] CRCS = new Crc[POLYNOMIALS.length];

    static {
        for (int i = 0; i < CRCS.length; i++) {
            CRCS[i] = new Crc(NAMES[i], Integer.SIZE, POLYNOMIALS[i], ALL_ONES, true, true, ALL_ONES);
        }
    }

    private SignatureHash() {
    }

    /** The hash of partition {@code j}. */
    public static Crc crc(int j) {
        return CRCS[j];
    }

    /** Hash {@code j} of the first {@code words} words of {@code sig}, as a 32-bit unsigned value. */
    public static long hash(int j, int[] sig, int words) {
        Crc c = CRCS[j];
        long s = c.init();
        for (int w = 0; w < words; w++) {
            int v = sig[w];
            s = c.update(s, (v >>> 24) & 0xff);
            s = c.update(s, (v >>> 16) & 0xff);
            s = c.update(s, (v >>> 8) & 0xff);
            s = c.update(s, v & 0xff);
        }
        return c.finish(s) & ALL_ONES;
    }
}
