package dev.rmtemu.programs.lossradar.control;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;

/**
 * Which single-bit corruption of an ACL explains a set of blackhole losses (LossRadar,
 * §5.2): given the ACL as the operator wrote it and the lost packets (destination and
 * protocol, the ACL's key), list every corruption that makes the ACL deny all of the lost
 * packets and none of the packets known to have been delivered. The paper's three cases:
 * (a) a deny rule's match field and (b) an accept rule's match field with one bit of its
 * value or mask flipped, and (c) an accept rule's action flipped to deny. Rules are
 * ternary over a 40-bit key (destination << 8 | protocol); the highest-priority match
 * decides; no match permits.
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

    /** What a single-bit corruption changed in a rule. */
    public enum Corruption { VALUE, MASK, ACTION }

    /**
     * A corruption that explains the losses: {@code bit} of the rule's value or mask (0 = the
     * protocol's lowest bit), or its action bit (accept became deny; {@code bit} is {@link #ACTION_BIT}).
     */
    public record Candidate(int rule, Corruption field, int bit) {
        public static final int ACTION_BIT = -1;

        public static Candidate value(int rule, int bit) {
            return new Candidate(rule, Corruption.VALUE, bit);
        }

        public static Candidate mask(int rule, int bit) {
            return new Candidate(rule, Corruption.MASK, bit);
        }

        public static Candidate action(int rule) {
            return new Candidate(rule, Corruption.ACTION, ACTION_BIT);
        }

        public String describe() {
            if (field == Corruption.ACTION) {
                return "rule " + rule + " action accept -> deny";
            }
            String f = bit >= PROTO_BITS ? "dst bit " + (bit - PROTO_BITS) : "proto bit " + bit;
            return "rule " + rule + " " + (field == Corruption.MASK ? "mask" : "value") + " " + f;
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

    /**
     * Every single-bit corruption that makes the ACL deny all of {@code lost} and none of
     * {@code delivered}, in rule order; within a rule value bits, mask bits, then the action.
     * Each key's best and second-best matching rules of the correct ACL are found once
     * ({@link RuleIndex}), so a flipped rule is checked against a key in constant time
     * (ClassBench-scale ACLs).
     */
    public static List<Candidate> explain(List<Rule> acl, long[] lost, long[] delivered) {
        RuleIndex index = new RuleIndex(acl);
        Matches lostM = new Matches(index, lost);
        Matches deliveredM = new Matches(index, delivered);
        List<Candidate> out = new ArrayList<>();
        for (int i = 0; i < acl.size(); i++) {
            Rule r = acl.get(i);
            for (int m = 0; m < 2; m++) {
                for (int bit = 0; bit < KEY_BITS; bit++) {
                    long flip = 1L << bit;
                    Rule f = m == 0 ? new Rule((r.value() ^ flip) & KEY_MASK, r.mask(), r.priority(), r.deny())
                            : new Rule(r.value(), (r.mask() ^ flip) & KEY_MASK, r.priority(), r.deny());
                    if (lostM.all(i, f, true) && deliveredM.all(i, f, false)) {
                        out.add(m == 0 ? Candidate.value(i, bit) : Candidate.mask(i, bit));
                    }
                }
            }
            if (!r.deny()) {
                // case (c): the accept rule's action bit flipped to deny
                Rule f = new Rule(r.value(), r.mask(), r.priority(), true);
                if (lostM.all(i, f, true) && deliveredM.all(i, f, false)) {
                    out.add(Candidate.action(i));
                }
            }
        }
        return out;
    }

    /** True when rule {@code a} wins over rule {@code b} (higher priority; the earlier rule on a tie, as {@link #denies}). */
    private static boolean beats(List<Rule> acl, int a, int b) {
        int pa = acl.get(a).priority();
        int pb = acl.get(b).priority();
        return pa > pb || pa == pb && a < b;
    }

    /**
     * The ACL's rules grouped by mask (tuple-space search): per distinct mask, the best two
     * rules of each masked value. A key's best and second-best matching rules are then one
     * lookup per distinct mask instead of a scan of every rule, which makes the paper's
     * ClassBench scale (50K-200K rules, a handful of prefix lengths and protocol masks)
     * linear in keys rather than keys x rules. Exact for any masks: with one mask per rule
     * it degrades to the scan. Groups are kept in first-seen order and only looked up, so
     * no hash order reaches a result.
     */
    static final class RuleIndex {
        private final List<Rule> acl;
        private final List<Long> masks = new ArrayList<>();
        private final List<HashMap<Long, int[]>> bestTwo = new ArrayList<>();

        RuleIndex(List<Rule> acl) {
            this.acl = acl;
            HashMap<Long, Integer> group = new HashMap<>();
            for (int i = 0; i < acl.size(); i++) {
                Rule r = acl.get(i);
                Integer g = group.get(r.mask());
                if (g == null) {
                    g = masks.size();
                    group.put(r.mask(), g);
                    masks.add(r.mask());
                    bestTwo.add(new HashMap<>());
                }
                int[] top = bestTwo.get(g).computeIfAbsent(r.value() & r.mask(), v -> new int[] {-1, -1});
                insert(top, i);
            }
        }

        /** Puts rule {@code i} into {@code top} = {best, second} if it beats either. */
        private void insert(int[] top, int i) {
            if (top[0] < 0 || beats(acl, i, top[0])) {
                top[1] = top[0];
                top[0] = i;
            } else if (top[1] < 0 || beats(acl, i, top[1])) {
                top[1] = i;
            }
        }

        /** The best and second-best rules matching {@code key} into {@code out} (-1: none). */
        void match(long key, int[] out) {
            out[0] = -1;
            out[1] = -1;
            for (int g = 0; g < masks.size(); g++) {
                int[] top = bestTwo.get(g).get(key & masks.get(g));
                if (top != null) {
                    insert(out, top[0]);
                    if (top[1] >= 0) {
                        insert(out, top[1]);
                    }
                }
            }
        }
    }

    /** For each key, the best and second-best matching rules of the correct ACL (-1: none). */
    public static final class Matches {
        private final List<Rule> acl;
        private final long[] keys;
        private final int[] best;
        private final int[] second;

        public Matches(List<Rule> acl, long[] keys) {
            this(new RuleIndex(acl), keys);
        }

        public Matches(RuleIndex index, long[] keys) {
            this.acl = index.acl;
            this.keys = keys;
            this.best = new int[keys.length];
            this.second = new int[keys.length];
            int[] top = new int[2];
            for (int k = 0; k < keys.length; k++) {
                index.match(keys[k], top);
                best[k] = top[0];
                second[k] = top[1];
            }
        }

        /** Whether the correct ACL denies key {@code k}. */
        public boolean denied(int k) {
            return best[k] >= 0 && acl.get(best[k]).deny();
        }

        /** True when, with rule {@code i} replaced by {@code f}, every key is denied ({@code denied}) or every key permitted. */
        boolean all(int i, Rule f, boolean denied) {
            for (int k = 0; k < keys.length; k++) {
                if (denies(k, i, f) != denied) {
                    return false;
                }
            }
            return true;
        }

        /** Whether key {@code k} is denied when rule {@code i} is replaced by {@code f}. */
        public boolean denies(int k, int i, Rule f) {
            int other = best[k] != i ? best[k] : second[k];
            return f.matches(keys[k]) && (other < 0 || beats(acl, i, other)) ? f.deny() : other >= 0 && acl.get(other).deny();
        }
    }
}
