package dev.rmtemu.programs.common;

import dev.rmtemu.model.hash.HashAlgorithm;

/**
 * Hashing header fields as a stage's hash unit sees them: each field's bytes most significant
 * first, the fields in declaration order. The one copy the programs' plain-Java halves
 * (references, collectors, estimators) share, so their hashes equal the switch's.
 */
public final class FiveTupleHash {
    private FiveTupleHash() {
    }

    /** Folds the low {@code bytes} bytes of {@code value} into {@code state}, most significant first. */
    public static long feed(HashAlgorithm h, long state, long value, int bytes) {
        for (int shift = (bytes - 1) * 8; shift >= 0; shift -= 8) {
            state = h.update(state, (int) (value >>> shift) & 0xff);
        }
        return state;
    }

    /** {@code h} over an IPv4 5-tuple: source and destination (4 bytes), protocol (1), ports (2 each). */
    public static long ipv4(HashAlgorithm h, int src, int dst, int proto, int srcPort, int dstPort) {
        long s = h.init();
        s = feed(h, s, src, 4);
        s = feed(h, s, dst, 4);
        s = feed(h, s, proto, 1);
        s = feed(h, s, srcPort, 2);
        s = feed(h, s, dstPort, 2);
        return h.finish(s);
    }
}
