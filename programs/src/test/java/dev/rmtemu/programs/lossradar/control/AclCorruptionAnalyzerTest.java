package dev.rmtemu.programs.lossradar.control;

import dev.rmtemu.programs.lossradar.experiment.AclCorruptionEvaluation;
import dev.rmtemu.programs.lossradar.experiment.ClassBenchAcl;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class AclCorruptionAnalyzerTest {
    private static final int NET_5 = 0x0A000500;   // 10.0.5.0
    private static final int NET_4 = 0x0A000400;   // 10.0.4.0
    private static final int NET_9 = 0x0A000900;   // 10.0.9.0

    private static List<AclCorruptionAnalyzer.Rule> acl() {
        return List.of(
                AclCorruptionAnalyzer.Rule.of(NET_5, 24, 0, 10, true),     // deny 10.0.5.0/24
                AclCorruptionAnalyzer.Rule.of(NET_9, 24, 17, 20, true),    // deny UDP to 10.0.9.0/24
                AclCorruptionAnalyzer.Rule.of(0, 0, 0, 1, false));         // permit the rest
    }

    @Test
    void theAclItselfDeniesWhatItShould() {
        assertTrue(AclCorruptionAnalyzer.denies(acl(), AclCorruptionAnalyzer.key(NET_5 + 7, 6)));
        assertFalse(AclCorruptionAnalyzer.denies(acl(), AclCorruptionAnalyzer.key(NET_4 + 7, 6)));
        assertTrue(AclCorruptionAnalyzer.denies(acl(), AclCorruptionAnalyzer.key(NET_9 + 1, 17)));
        assertFalse(AclCorruptionAnalyzer.denies(acl(), AclCorruptionAnalyzer.key(NET_9 + 1, 6)));
    }

    @Test
    void aFlippedPrefixBitIsFound() {
        // rule 0's value had destination bit 8 flipped: 10.0.4.0/24 is blackholed instead of (and not as well as) 10.0.5.0/24
        long[] lost = {AclCorruptionAnalyzer.key(NET_4 + 1, 6), AclCorruptionAnalyzer.key(NET_4 + 200, 17)};
        long[] delivered = {AclCorruptionAnalyzer.key(NET_5 + 3, 6), AclCorruptionAnalyzer.key(0x0A000A01, 6)};
        List<AclCorruptionAnalyzer.Candidate> c = AclCorruptionAnalyzer.explain(acl(), lost, delivered);
        assertEquals(List.of(AclCorruptionAnalyzer.Candidate.value(0, 8 + 8)), c);
        assertEquals("rule 0 value dst bit 8", c.get(0).describe());
    }

    @Test
    void withoutDeliveredPacketsTheMaskFlipAlsoExplains() {
        long[] lost = {AclCorruptionAnalyzer.key(NET_4 + 1, 6)};
        List<AclCorruptionAnalyzer.Candidate> c = AclCorruptionAnalyzer.explain(acl(), lost, new long[0]);
        assertTrue(c.contains(AclCorruptionAnalyzer.Candidate.value(0, 16)));
        assertTrue(c.contains(AclCorruptionAnalyzer.Candidate.mask(0, 16)), "mask bit 8 cleared: 10.0.4/24 and 10.0.5/24 both match");
        for (AclCorruptionAnalyzer.Candidate x : c) {
            List<AclCorruptionAnalyzer.Rule> f = new java.util.ArrayList<>(acl());
            AclCorruptionAnalyzer.Rule r = f.get(x.rule());
            long bit = 1L << x.bit();
            f.set(x.rule(), switch (x.field()) {
                case MASK -> new AclCorruptionAnalyzer.Rule(r.value(), r.mask() ^ bit, r.priority(), r.deny());
                case VALUE -> new AclCorruptionAnalyzer.Rule(r.value() ^ bit, r.mask(), r.priority(), r.deny());
                case ACTION -> new AclCorruptionAnalyzer.Rule(r.value(), r.mask(), r.priority(), true);
            });
            assertTrue(AclCorruptionAnalyzer.denies(f, lost[0]), x.describe() + " really denies the lost packet");
        }
    }

    @Test
    void lossesNoSingleFlipExplainsGiveNoCandidate() {
        long[] lost = {AclCorruptionAnalyzer.key(0x0B000001, 6), AclCorruptionAnalyzer.key(0xC0A80001, 17)};
        long[] delivered = {AclCorruptionAnalyzer.key(0x0A000A01, 6)};
        assertTrue(AclCorruptionAnalyzer.explain(acl(), lost, delivered).isEmpty());
    }

    /**
     * LossRadar (CoNEXT 2016) Section 5.2, case (c): an accept rule's action changes to deny. The
     * ACL permits UDP to 10.0.4.0/24 above the catch-all; that rule's action bit flips, so exactly its
     * packets are lost while TCP to the same net and everything else still gets through.
     */
    @Test
    void anAcceptRuleFlippedToDenyIsFound() {
        List<AclCorruptionAnalyzer.Rule> acl = List.of(
                AclCorruptionAnalyzer.Rule.of(NET_5, 24, 0, 10, true),     // deny 10.0.5.0/24
                AclCorruptionAnalyzer.Rule.of(NET_4, 24, 17, 20, false),   // permit UDP to 10.0.4.0/24
                AclCorruptionAnalyzer.Rule.of(NET_4, 24, 0, 5, false),     // permit the rest of 10.0.4.0/24
                AclCorruptionAnalyzer.Rule.of(0, 0, 0, 1, false));         // permit the rest
        long[] lost = {AclCorruptionAnalyzer.key(NET_4 + 1, 17), AclCorruptionAnalyzer.key(NET_4 + 99, 17),
            AclCorruptionAnalyzer.key(NET_4 + 250, 17)};
        long[] delivered = {AclCorruptionAnalyzer.key(NET_4 + 1, 6), AclCorruptionAnalyzer.key(NET_4 + 99, 6),
            AclCorruptionAnalyzer.key(0x0A000A01, 17), AclCorruptionAnalyzer.key(0x0A000A01, 6)};
        List<AclCorruptionAnalyzer.Candidate> c = AclCorruptionAnalyzer.explain(acl, lost, delivered);
        assertEquals(List.of(AclCorruptionAnalyzer.Candidate.action(1)), c);
        assertEquals("rule 1 action accept -> deny", c.get(0).describe());
    }

    /** The analyzer's single-pass matching equals flipping each rule and re-running the ACL on every key, on ClassBench-like ACLs. */
    @Test
    void fastExplainEqualsTheBruteForceOnGeneratedAcls() {
        for (long seed = 1; seed <= 6; seed++) {
            List<AclCorruptionAnalyzer.Rule> acl = ClassBenchAcl.generate(40, seed);
            long[] keys = ClassBenchAcl.keys(acl, seed + 100);
            // the truth: rule (seed * 7 mod 40)'s value bit (seed * 5 mod 40) flipped, or its mask bit
            int rule = (int) (seed * 7 % 40);
            long flip = 1L << (seed * 5 % AclCorruptionAnalyzer.KEY_BITS);
            AclCorruptionAnalyzer.Rule r = acl.get(rule);
            List<AclCorruptionAnalyzer.Rule> bad = new java.util.ArrayList<>(acl);
            bad.set(rule, seed % 2 == 0 ? new AclCorruptionAnalyzer.Rule(r.value() ^ flip, r.mask(), r.priority(), r.deny())
                    : new AclCorruptionAnalyzer.Rule(r.value(), r.mask() ^ flip, r.priority(), r.deny()));
            java.util.List<Long> lost = new java.util.ArrayList<>();
            java.util.List<Long> delivered = new java.util.ArrayList<>();
            for (long k : keys) {
                boolean now = AclCorruptionAnalyzer.denies(bad, k);
                if (now && !AclCorruptionAnalyzer.denies(acl, k)) {
                    lost.add(k);
                } else if (!now) {
                    delivered.add(k);
                }
            }
            long[] l = lost.stream().mapToLong(Long::longValue).toArray();
            long[] d = delivered.stream().mapToLong(Long::longValue).toArray();
            assertEquals(bruteForce(acl, l, d), AclCorruptionAnalyzer.explain(acl, l, d), "seed " + seed);
        }
    }

    private static List<AclCorruptionAnalyzer.Candidate> bruteForce(List<AclCorruptionAnalyzer.Rule> acl, long[] lost, long[] delivered) {
        List<AclCorruptionAnalyzer.Candidate> out = new java.util.ArrayList<>();
        long keyMask = (1L << AclCorruptionAnalyzer.KEY_BITS) - 1;
        for (int i = 0; i < acl.size(); i++) {
            AclCorruptionAnalyzer.Rule r = acl.get(i);
            List<AclCorruptionAnalyzer.Rule> f = new java.util.ArrayList<>(acl);
            for (int m = 0; m < 3; m++) {
                for (int bit = 0; bit < (m == 2 ? 1 : AclCorruptionAnalyzer.KEY_BITS); bit++) {
                    if (m == 2 && r.deny()) {
                        continue;
                    }
                    long flip = 1L << bit;
                    f.set(i, m == 0 ? new AclCorruptionAnalyzer.Rule((r.value() ^ flip) & keyMask, r.mask(), r.priority(), r.deny())
                            : m == 1 ? new AclCorruptionAnalyzer.Rule(r.value(), (r.mask() ^ flip) & keyMask, r.priority(), r.deny())
                            : new AclCorruptionAnalyzer.Rule(r.value(), r.mask(), r.priority(), true));
                    boolean ok = true;
                    for (long k : lost) {
                        ok &= AclCorruptionAnalyzer.denies(f, k);
                    }
                    for (long k : delivered) {
                        ok &= !AclCorruptionAnalyzer.denies(f, k);
                    }
                    if (ok) {
                        out.add(m == 0 ? AclCorruptionAnalyzer.Candidate.value(i, bit) : m == 1
                                ? AclCorruptionAnalyzer.Candidate.mask(i, bit) : AclCorruptionAnalyzer.Candidate.action(i));
                    }
                }
            }
        }
        return out;
    }

    /**
     * §7.5 at a small scale: the corrupted rule and its exact flip are always among the
     * candidates (the paper: zero false negatives), and a run is repeatable.
     */
    @Test
    void classBenchTrialsAlwaysFindTheCorruptedRule() {
        AclCorruptionEvaluation.Result r = AclCorruptionEvaluation.run(300, 20, 3);
        assertEquals(20, r.trials());
        assertEquals(20, r.ruleFound());
        assertEquals(20, r.flipFound());
        assertTrue(r.meanCandidateRules() >= 1, r.toString());
        assertTrue(r.precision() > 0 && r.precision() <= 1, r.toString());
        assertEquals(r, AclCorruptionEvaluation.run(300, 20, 3));
    }

    /**
     * The rule index (rules grouped by mask) finds the same winning rule as a scan of every
     * rule, for arbitrary ternary masks and tied priorities (where the earlier rule wins), and
     * so does a flipped rule checked against it.
     */
    @Test
    void ruleIndexAgreesWithAScanForArbitraryMasksAndTies() {
        dev.rmtemu.traces.gen.SplitMix64 rnd = new dev.rmtemu.traces.gen.SplitMix64(11);
        long all = (1L << AclCorruptionAnalyzer.KEY_BITS) - 1;
        for (int round = 0; round < 4; round++) {
            List<AclCorruptionAnalyzer.Rule> acl = new java.util.ArrayList<>();
            for (int i = 0; i < 60; i++) {
                // few distinct masks in some rounds (the index's case), one per rule in others (its worst case)
                long mask = round % 2 == 0 ? (all << (int) (rnd.nextDouble() * 4) * 8) & all : rnd.nextLong() & all;
                acl.add(new AclCorruptionAnalyzer.Rule(rnd.nextLong() & all & mask | 0x0A00000000L & mask, mask,
                        (int) (rnd.nextDouble() * 10), rnd.nextDouble() < 0.5));
            }
            long[] keys = new long[200];
            for (int k = 0; k < keys.length; k++) {
                AclCorruptionAnalyzer.Rule r = acl.get(k % acl.size());
                keys[k] = k % 3 == 0 ? rnd.nextLong() & all : (r.value() & r.mask()) | (rnd.nextLong() & ~r.mask() & all);
            }
            AclCorruptionAnalyzer.Matches m = new AclCorruptionAnalyzer.Matches(acl, keys);
            for (int k = 0; k < keys.length; k++) {
                assertEquals(AclCorruptionAnalyzer.denies(acl, keys[k]), m.denied(k), "round " + round + " key " + k);
                int i = (int) (rnd.nextDouble() * acl.size());
                AclCorruptionAnalyzer.Rule r = acl.get(i);
                AclCorruptionAnalyzer.Rule f = new AclCorruptionAnalyzer.Rule(r.value() ^ (1L << (k % 40)), r.mask(),
                        r.priority(), r.deny());
                List<AclCorruptionAnalyzer.Rule> flipped = new java.util.ArrayList<>(acl);
                flipped.set(i, f);
                assertEquals(AclCorruptionAnalyzer.denies(flipped, keys[k]), m.denies(k, i, f), "round " + round + " key " + k);
            }
        }
    }

    /** The evaluation's numbers at a small scale, exactly (the draws skip flips that cannot lose traffic; the numbers do not move). */
    @Test
    void classBenchEvaluationNumbersAreExact() {
        assertEquals(new AclCorruptionEvaluation.Result(300, 20, 20, 20, 20, 601, 20.0), AclCorruptionEvaluation.run(300, 20, 3));
    }
}
