package dev.rmtemu.programs.midst.program;

import dev.rmtemu.model.hash.Crc;
import dev.rmtemu.programs.common.FiveTupleHash;

/**
 * One hash function per sketch row. Tofino hash units compute CRCs with a chosen
 * polynomial; rows use four well-known 32-bit polynomials so their indices are
 * independent (the presets crc32_bzip2 and crc32_mpeg differ only in the final xor, so
 * their indices modulo a power of two would collide together; distinct polynomials do not).
 */
public final class MidstHashes {
    /** CRC-32 (IEEE), CRC-32C (Castagnoli), CRC-32K (Koopman), CRC-32Q (aviation): reflected, init and xorout all ones. */
    static final long[] POLYNOMIALS = {0x04C11DB7L, 0x1EDC6F41L, 0x741B8CD7L, 0x814141ABL};
    static final String[] NAMES = {"crc32", "crc32c", "crc32k", "crc32q"};
    private static final long ALL_ONES = 0xFFFFFFFFL;

    private MidstHashes() {
    }

    /** The hash of row {@code row}. */
    public static Crc row(int row) {
        return new Crc(NAMES[row], 32, POLYNOMIALS[row], ALL_ONES, true, true, ALL_ONES);
    }

    /**
     * The counter index {@code h} gives an IPv4 5-tuple in a row of {@code columns}: the CRC
     * over the fields in declaration order, big-endian, as the hash unit sees them.
     */
    public static int index(Crc h, int columns, int src, int dst, int proto, int srcPort, int dstPort) {
        // a mask of the hash bits when columns is a power of two
        return (int) (FiveTupleHash.ipv4(h, src, dst, proto & 0xFF, srcPort & 0xFFFF, dstPort & 0xFFFF) % columns);
    }
}
