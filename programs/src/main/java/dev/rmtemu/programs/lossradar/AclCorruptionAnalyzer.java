package dev.rmtemu.programs.lossradar;

import java.util.ArrayList;
import java.util.List;

/**
 * Which single-bit corruption of an ACL explains a set of blackhole losses (LossRadar,
 * §5): given the ACL as the operator wrote it and the lost packets (destination and
 * protocol, the ACL's key), list every (rule, value or mask, bit) whose flip makes the
 * ACL deny all of the lost packets, and none of the packets known to have been
 * delivered. Rules are ternary over a 40-bit key (destination << 8 | protocol); the
 * highest-priority match decides; no match permits.
 */
public final class AclCorruptionAnalyzer {
    /** Key bits: IPv4 destination (32) and protocol (8). */
    public static final int KEY_BITS = 40;
    private static final int PROTO_BITS = 8;
    private static final long KEY_MASK = (1L << KEY_BITS) - 1;

    /** One ternary ACL entry. */
    public record Rule(long value, long mask, int priority, boolean deny) {
        public boolean matches(long key) {
            return (key & mask) == (value & mask);
        }

        /** A rule on destination prefix {@code dst/len} and protocol {@code proto} (0: any). */
        public static Rule of(int dst, int prefixLen, int proto, int priority, boolean deny) {
            long dstMask = prefixLen == 0 ? 0 : (0xFFFFFFFFL << (32 - prefixLen)) & 0xFFFFFFFFL;
            long protoMask = proto == 0 ? 0 : 0xFF;
            return new Rule(key(dst, proto) & ((dstMask << PROTO_BITS) | protoMask), (dstMask << PROTO_BITS) | protoMask, priority, deny);
        }
    }

    /** A corruption that explains the losses: {@code bit} of the rule's value or mask (0 = the protocol's lowest bit). */
    public record Candidate(int rule, boolean inMask, int bit) {
        public String describe() {
            String field = bit >= PROTO_BITS ? "dst bit " + (bit - PROTO_BITS) : "proto bit " + bit;
            return "rule " + rule + " " + (inMask ? "mask" : "value") + " " + field;
        }
    }

    private AclCorruptionAnalyzer() {
    }

    public static long key(int dst, int proto) {
        return ((dst & 0xFFFFFFFFL) << PROTO_BITS) | (proto & 0xFF);
    }

    /** True when the ACL denies {@code key}. */
    public static boolean denies(List<Rule> acl, long key) {
        Rule best = null;
        for (Rule r : acl) {
            if (r.matches(key) && (best == null || r.priority() > best.priority())) {
                best = r;
            }
        }
        return best != null && best.deny();
    }

    /** Every single-bit flip that makes the ACL deny all of {@code lost} and none of {@code delivered}, in rule, field, bit order. */
    public static List<Candidate> explain(List<Rule> acl, long[] lost, long[] delivered) {
        List<Candidate> out = new ArrayList<>();
        List<Rule> flipped = new ArrayList<>(acl);
        for (int i = 0; i < acl.size(); i++) {
            Rule r = acl.get(i);
            for (int m = 0; m < 2; m++) {
                for (int bit = 0; bit < KEY_BITS; bit++) {
                    long flip = 1L << bit;
                    Rule f = m == 0 ? new Rule((r.value() ^ flip) & KEY_MASK, r.mask(), r.priority(), r.deny())
                            : new Rule(r.value(), (r.mask() ^ flip) & KEY_MASK, r.priority(), r.deny());
                    flipped.set(i, f);
                    if (all(flipped, lost, true) && all(flipped, delivered, false)) {
                        out.add(new Candidate(i, m == 1, bit));
                    }
                }
            }
            flipped.set(i, r);
        }
        return out;
    }

    private static boolean all(List<Rule> acl, long[] keys, boolean denied) {
        for (long k : keys) {
            if (denies(acl, k) != denied) {
                return false;
            }
        }
        return true;
    }
}
