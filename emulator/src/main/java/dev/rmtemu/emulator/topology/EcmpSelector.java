package dev.rmtemu.emulator.topology;

import java.nio.charset.StandardCharsets;

/**
 * Picks one member of an ECMP group from a 64-bit flow hash. The hash is mixed
 * with a per-switch salt before reduction: with the raw hash, successive tiers
 * (edge then aggregation in a fat tree) would take the same bits and choose
 * correlated ports ("hash polarisation"), leaving half the cores idle. The salt
 * is a hash of the switch name, so it does not depend on node order.
 * Allocation-free and pure.
 */
public final class EcmpSelector {
    /** FNV-1a 64-bit offset basis and prime (Fowler–Noll–Vo, public domain constants). */
    private static final long FNV_OFFSET = 0xcbf29ce484222325L;
    private static final long FNV_PRIME = 0x100000001b3L;

    private EcmpSelector() {
    }

    /** The salt of a switch: FNV-1a 64 over the UTF-8 bytes of its name. */
    public static long salt(String switchName) {
        long h = FNV_OFFSET;
        for (byte b : switchName.getBytes(StandardCharsets.UTF_8)) {
            h ^= (b & 0xff);
            h *= FNV_PRIME;
        }
        return h;
    }

    /**
     * Index in {@code [0, size)} of the group member for this flow: the
     * murmur3 64-bit finaliser of {@code flowHash ^ salt}, its high 32 bits
     * scaled to {@code size} by a multiply-shift (no division, no modulo bias
     * beyond 2^-32).
     */
    public static int select(long flowHash, long salt, int size) {
        long x = flowHash ^ salt;
        x ^= x >>> 33;
        x *= 0xff51afd7ed558ccdL;
        x ^= x >>> 33;
        x *= 0xc4ceb9fe1a85ec53L;
        x ^= x >>> 33;
        return (int) (((x >>> 32) * size) >>> 32);
    }
}
