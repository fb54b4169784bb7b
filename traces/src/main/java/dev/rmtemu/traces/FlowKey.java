package dev.rmtemu.traces;

/**
 * The 5-tuple of a record (IP version, addresses, protocol, ports) as a deterministic
 * 64-bit hash and an equality test, without allocation. The hash is a fixed function
 * of the record bytes (SplitMix64-style mixing, constants from Steele et al.), so it is
 * the same on every JVM and run; it is meant for tables keyed by flow, with
 * {@link #sameFlow} to resolve collisions.
 */
public final class FlowKey {
    private static final long GOLDEN = 0x9E3779B97F4A7C15L;

    private FlowKey() {
    }

    /** 64-bit hash of the record's 5-tuple (version, src/dst address, protocol, src/dst port). */
    public static long hash(PacketRecord r) {
        long h = mix(GOLDEN ^ r.ipVersion() ^ ((long) r.protocol() << 8)
                ^ ((long) r.srcPort() << 16) ^ ((long) r.dstPort() << 32));
        h = mix(h ^ r.srcIpv6Hi());
        h = mix(h + GOLDEN ^ r.srcIpv6Lo());
        h = mix(h + GOLDEN ^ r.dstIpv6Hi());
        h = mix(h + GOLDEN ^ r.dstIpv6Lo());
        return h;
    }

    /** True when both records have the same 5-tuple. */
    public static boolean sameFlow(PacketRecord a, PacketRecord b) {
        return a.ipVersion() == b.ipVersion() && a.protocol() == b.protocol()
                && a.srcPort() == b.srcPort() && a.dstPort() == b.dstPort()
                && a.srcIpv6Hi() == b.srcIpv6Hi() && a.srcIpv6Lo() == b.srcIpv6Lo()
                && a.dstIpv6Hi() == b.dstIpv6Hi() && a.dstIpv6Lo() == b.dstIpv6Lo();
    }

    /** Copies only the 5-tuple fields of {@code from} into {@code to} (other fields zeroed). */
    public static void copyKey(PacketRecord from, PacketRecord to) {
        to.clear();
        to.ipVersion(from.ipVersion()).protocol(from.protocol()).srcPort(from.srcPort()).dstPort(from.dstPort())
                .srcIpv6(from.srcIpv6Hi(), from.srcIpv6Lo()).dstIpv6(from.dstIpv6Hi(), from.dstIpv6Lo());
    }

    /** The SplitMix64 finaliser (a bijection on 64-bit values). */
    public static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
