package dev.rmtemu.programs.lossradar.experiment;

import dev.rmtemu.programs.lossradar.control.AclCorruptionAnalyzer;

import dev.rmtemu.traces.gen.SplitMix64;

import java.util.ArrayList;
import java.util.List;

/**
 * A ClassBench-like ACL over LossRadar's ACL key (destination, protocol), generated
 * deterministically from a seed: destinations nest inside a few /16 blocks, prefix
 * lengths and protocols follow the shares below (after the acl1 seed's shape in
 * Taylor and Turner's ClassBench: mostly host and /24 rules, TCP first), a share of
 * the rules deny, and the first rule has the highest priority. Packets for it come
 * from the rules themselves (one key per rule, wildcard bits random), as ClassBench's
 * trace generator makes headers.
 */
public final class ClassBenchAcl {
    /** Destination prefix lengths and their shares. */
    static final int[] PREFIX_LENGTHS = {32, 24, 28, 16, 30, 8, 0};
    static final double[] PREFIX_SHARES = {0.45, 0.20, 0.10, 0.10, 0.05, 0.05, 0.05};
    /** Protocols (0: any) and their shares. */
    static final int[] PROTOCOLS = {6, 17, 0};
    static final double[] PROTOCOL_SHARES = {0.6, 0.3, 0.1};
    /** Share of deny rules. */
    static final double DENY_SHARE = 0.25;
    /** /16 blocks the destinations nest in. */
    static final int BLOCKS = 64;
    private static final int BLOCK_BASE = 0x0A000000;

    private ClassBenchAcl() {
    }

    /** {@code n} rules, priorities n down to 1. */
    public static List<AclCorruptionAnalyzer.Rule> generate(int n, long seed) {
        SplitMix64 rnd = new SplitMix64(seed);
        List<AclCorruptionAnalyzer.Rule> acl = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            int block = BLOCK_BASE + ((int) (rnd.nextDouble() * BLOCKS) << 16);
            int dst = block | (int) (rnd.nextLong() & 0xFFFF);
            int len = PREFIX_LENGTHS[pick(rnd.nextDouble(), PREFIX_SHARES)];
            int proto = PROTOCOLS[pick(rnd.nextDouble(), PROTOCOL_SHARES)];
            acl.add(AclCorruptionAnalyzer.Rule.of(dst, len, proto, n - i, rnd.nextDouble() < DENY_SHARE));
        }
        return acl;
    }

    /** One key inside each rule's match space, the wildcard bits random. */
    public static long[] keys(List<AclCorruptionAnalyzer.Rule> acl, long seed) {
        SplitMix64 rnd = new SplitMix64(seed);
        long all = (1L << AclCorruptionAnalyzer.KEY_BITS) - 1;
        long[] keys = new long[acl.size()];
        for (int i = 0; i < keys.length; i++) {
            AclCorruptionAnalyzer.Rule r = acl.get(i);
            keys[i] = (r.value() & r.mask()) | (rnd.nextLong() & ~r.mask() & all);
        }
        return keys;
    }

    private static int pick(double u, double[] shares) {
        double acc = 0;
        for (int i = 0; i < shares.length - 1; i++) {
            acc += shares[i];
            if (u < acc) {
                return i;
            }
        }
        return shares.length - 1;
    }
}
