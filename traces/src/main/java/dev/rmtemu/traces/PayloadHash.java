package dev.rmtemu.traces;

import org.agrona.DirectBuffer;

import java.nio.ByteOrder;

/**
 * The 32-bit payload hash kept in each record: a hash of the captured bytes after the
 * L4 header (after the IP header for later fragments and protocols without a parsed L4
 * header), 0 when no payload byte was captured.
 *
 * <p>Definition, for payload bytes p[0..n): h = 0x811C9DC5 (the FNV offset basis);
 * for each 4-byte group w (big-endian, the last group zero-padded):
 * h = rotl(h ^ w, 13) * 5 + 0xE6546B64; finally h = fmix32(h ^ n) with MurmurHash3's
 * finaliser. Every step is a bijection of h, so for a 4-byte payload the hash is a
 * bijection of those 4 bytes: {@link #payloadFor} inverts it, which lets the writers
 * emit 4 payload bytes that reproduce any record's hash exactly.
 */
public final class PayloadHash {
    /** Number of payload bytes the writers emit to reproduce a non-zero hash. */
    public static final int SYNTHETIC_PAYLOAD_BYTES = 4;

    private static final int SEED = 0x811C9DC5;
    private static final int ADD = 0xE6546B64;
    private static final int INV_5 = 0xCCCCCCCD; // 5 * 0xCCCCCCCD == 1 mod 2^32

    private PayloadHash() {
    }

    /** Hash of {@code length} bytes of {@code buf} from {@code offset}; 0 when length is 0. */
    public static int hash(DirectBuffer buf, int offset, int length) {
        if (length <= 0) {
            return 0;
        }
        int h = SEED;
        int i = 0;
        for (; i + 4 <= length; i += 4) {
            // one big-endian read per group: a reader hashes every captured payload byte
            h = step(h, buf.getInt(offset + i, ByteOrder.BIG_ENDIAN));
        }
        if (i < length) {
            int w = 0;
            for (int k = 0; k < 4; k++) {
                w <<= 8;
                if (i + k < length) {
                    w |= buf.getByte(offset + i + k) & 0xFF;
                }
            }
            h = step(h, w);
        }
        return fmix32(h ^ length);
    }

    /** The 4-byte big-endian word that, as a whole payload, hashes to {@code hash}. */
    public static int payloadFor(int hash) {
        int h = unfmix32(hash) ^ SYNTHETIC_PAYLOAD_BYTES;
        h = (h - ADD) * INV_5;
        h = Integer.rotateRight(h, 13);
        return h ^ SEED;
    }

    /**
     * The big-endian word that, as the first 4 of {@code length} payload bytes whose rest are
     * zero, hashes to {@code hash} ({@code length} >= 4): the zero groups' steps are undone
     * from the end, then the first group's. {@code payloadFor(h) == leadingWordFor(h, 4)}.
     */
    public static int leadingWordFor(int hash, int length) {
        if (length < SYNTHETIC_PAYLOAD_BYTES) {
            throw new IllegalArgumentException("payload of " + length + " bytes has no room for a 4-byte word");
        }
        int h = unfmix32(hash) ^ length;
        for (int groups = (length + 3) / 4; groups > 1; groups--) {
            h = unstep(h); // a zero group (a partial last group is zero-padded, so zero too)
        }
        return unstep(h) ^ SEED;
    }

    /** h before a step whose word was 0: rotl(h, 13) * 5 + ADD undone. */
    private static int unstep(int h) {
        return Integer.rotateRight((h - ADD) * INV_5, 13);
    }

    private static int step(int h, int w) {
        return Integer.rotateLeft(h ^ w, 13) * 5 + ADD;
    }

    static int fmix32(int h) {
        h ^= h >>> 16;
        h *= 0x85EBCA6B;
        h ^= h >>> 13;
        h *= 0xC2B2AE35;
        h ^= h >>> 16;
        return h;
    }

    static int unfmix32(int h) {
        h ^= h >>> 16;
        h *= 0x7ED1B41D; // inverse of 0xC2B2AE35
        h ^= (h >>> 13) ^ (h >>> 26);
        h *= 0xA5CB9243; // inverse of 0x85EBCA6B
        h ^= h >>> 16;
        return h;
    }
}
