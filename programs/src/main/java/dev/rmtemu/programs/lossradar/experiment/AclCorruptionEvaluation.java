package dev.rmtemu.programs.lossradar.experiment;

import dev.rmtemu.programs.lossradar.control.AclCorruptionAnalyzer;

import java.util.Arrays;
import java.util.Comparator;
import java.util.function.IntPredicate;
import dev.rmtemu.traces.gen.SplitMix64;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/**
 * The paper's §7.5 rule-corruption experiment on a ClassBench-like ACL: each trial flips
 * one random bit (a value or mask bit of a rule's match field, or an accept rule's
 * action) that blackholes some of the ACL's own traffic; the packets the corrupted ACL
 * denies but the correct one permits are the losses (intended drops excluded, as the
 * paper's analyzer does), the packets it permits the delivered ones. The analyzer is
 * given the correct ACL and both sets; a trial counts whether the corrupted rule (and
 * the exact flip) is among the candidates and how many candidate rules there are.
 */
public final class AclCorruptionEvaluation {
    /** Random flips tried per trial before giving up on finding one that loses traffic. */
    static final int MAX_DRAWS = 10_000;

    /**
     * @param trials          trials run (a flip that blackholes some traffic was found)
     * @param ruleFound       trials whose corrupted rule is a candidate rule
     * @param flipFound       trials whose exact flip is a candidate
     * @param candidateRules  distinct candidate rules, summed over trials
     * @param candidateFlips  candidate flips, summed over trials
     * @param precisionSum    sum over trials of (corrupted rule found ? 1 / candidate rules : 0)
     */
    public record Result(int rules, int trials, int ruleFound, int flipFound, long candidateRules, long candidateFlips,
                         double precisionSum) {
        public double recall() {
            return trials == 0 ? 0 : (double) ruleFound / trials;
        }

        public double precision() {
            return trials == 0 ? 0 : precisionSum / trials;
        }

        public double meanCandidateRules() {
            return trials == 0 ? 0 : (double) candidateRules / trials;
        }
    }

    private AclCorruptionEvaluation() {
    }

    public static Result run(int rules, int trials, long seed) {
        List<AclCorruptionAnalyzer.Rule> acl = ClassBenchAcl.generate(rules, seed);
        long[] keys = ClassBenchAcl.keys(acl, SplitMix64.derive(seed, 1));
        AclCorruptionAnalyzer.Matches matches = new AclCorruptionAnalyzer.Matches(acl, keys);
        boolean[] denied = new boolean[keys.length];
        for (int k = 0; k < keys.length; k++) {
            denied[k] = matches.denied(k);
        }
        KeyRanges byKey = new KeyRanges(keys);
        SplitMix64 rnd = new SplitMix64(SplitMix64.derive(seed, 2));
        int done = 0;
        int ruleFound = 0;
        int flipFound = 0;
        long candRules = 0;
        long candFlips = 0;
        double precision = 0;
        for (int t = 0; t < trials; t++) {
            for (int draw = 0; draw < MAX_DRAWS; draw++) {
                int i = (int) (rnd.nextDouble() * rules);
                AclCorruptionAnalyzer.Rule r = acl.get(i);
                int field = (int) (rnd.nextDouble() * 3);
                int bit = (int) (rnd.nextDouble() * AclCorruptionAnalyzer.KEY_BITS);
                if (field == 2 && r.deny()) {
                    continue; // a deny rule's action flipping to accept loses nothing
                }
                long flip = 1L << bit;
                AclCorruptionAnalyzer.Rule f = switch (field) {
                    case 0 -> new AclCorruptionAnalyzer.Rule(r.value() ^ flip, r.mask(), r.priority(), r.deny());
                    case 1 -> new AclCorruptionAnalyzer.Rule(r.value(), r.mask() ^ flip, r.priority(), r.deny());
                    default -> new AclCorruptionAnalyzer.Rule(r.value(), r.mask(), r.priority(), true);
                };
                if (!losesTraffic(matches, denied, byKey, i, r, f)) {
                    continue;
                }
                List<Long> lost = new ArrayList<>();
                List<Long> delivered = new ArrayList<>();
                for (int k = 0; k < keys.length; k++) {
                    boolean now = matches.denies(k, i, f);
                    if (now && !denied[k]) {
                        lost.add(keys[k]);
                    } else if (!now) {
                        delivered.add(keys[k]);
                    }
                }
                if (lost.isEmpty()) {
                    continue;
                }
                AclCorruptionAnalyzer.Candidate truth = switch (field) {
                    case 0 -> AclCorruptionAnalyzer.Candidate.value(i, bit);
                    case 1 -> AclCorruptionAnalyzer.Candidate.mask(i, bit);
                    default -> AclCorruptionAnalyzer.Candidate.action(i);
                };
                List<AclCorruptionAnalyzer.Candidate> cands = AclCorruptionAnalyzer.explain(acl, toArray(lost), toArray(delivered));
                TreeSet<Integer> candRuleSet = new TreeSet<>();
                for (AclCorruptionAnalyzer.Candidate c : cands) {
                    candRuleSet.add(c.rule());
                }
                done++;
                candRules += candRuleSet.size();
                candFlips += cands.size();
                if (candRuleSet.contains(i)) {
                    ruleFound++;
                    precision += 1.0 / candRuleSet.size();
                }
                flipFound += cands.contains(truth) ? 1 : 0;
                break;
            }
        }
        return new Result(rules, done, ruleFound, flipFound, candRules, candFlips, precision);
    }

    /**
     * Whether replacing rule {@code i} ({@code r}) by {@code f} makes the ACL deny a key it
     * permitted. Only keys whose best rule is {@code i} or that {@code f} matches can change,
     * so only those are checked: at the paper's 50K-200K rules most random flips lose nothing,
     * and scanning every key for each of them was what made that scale slow.
     */
    private static boolean losesTraffic(AclCorruptionAnalyzer.Matches m, boolean[] denied, KeyRanges byKey, int i,
                                        AclCorruptionAnalyzer.Rule r, AclCorruptionAnalyzer.Rule f) {
        return byKey.any(r, k -> m.denies(k, i, f) && !denied[k]) || byKey.any(f, k -> m.denies(k, i, f) && !denied[k]);
    }

    /** The keys sorted, so the keys a ternary rule matches are found in the range of its leading exact bits. */
    static final class KeyRanges {
        private final long[] sorted;
        private final int[] index;

        KeyRanges(long[] keys) {
            Integer[] order = new Integer[keys.length];
            for (int k = 0; k < keys.length; k++) {
                order[k] = k;
            }
            Arrays.sort(order, Comparator.comparingLong((Integer k) -> keys[k]).thenComparingInt(k -> k));
            sorted = new long[keys.length];
            index = new int[keys.length];
            for (int n = 0; n < keys.length; n++) {
                index[n] = order[n];
                sorted[n] = keys[order[n]];
            }
        }

        /** True when {@code test} holds for some key (its index) that {@code rule} matches. */
        boolean any(AclCorruptionAnalyzer.Rule rule, IntPredicate test) {
            // the mask's leading run of ones fixes the key's top bits: a contiguous range of the sorted keys
            int lead = Long.numberOfLeadingZeros(~(rule.mask() << (Long.SIZE - AclCorruptionAnalyzer.KEY_BITS)));
            lead = Math.min(lead, AclCorruptionAnalyzer.KEY_BITS);
            long prefixMask = lead == 0 ? 0 : (-1L << (AclCorruptionAnalyzer.KEY_BITS - lead))
                    & ((1L << AclCorruptionAnalyzer.KEY_BITS) - 1);
            long lo = rule.value() & prefixMask;
            long hi = lo | (~prefixMask & ((1L << AclCorruptionAnalyzer.KEY_BITS) - 1));
            for (int n = lowerBound(lo); n < sorted.length && sorted[n] <= hi; n++) {
                if (rule.matches(sorted[n]) && test.test(index[n])) {
                    return true;
                }
            }
            return false;
        }

        private int lowerBound(long v) {
            int a = 0;
            int b = sorted.length;
            while (a < b) {
                int mid = (a + b) >>> 1;
                if (sorted[mid] < v) {
                    a = mid + 1;
                } else {
                    b = mid;
                }
            }
            return a;
        }
    }

    private static long[] toArray(List<Long> l) {
        long[] a = new long[l.size()];
        for (int i = 0; i < a.length; i++) {
            a[i] = l.get(i);
        }
        return a;
    }
}
