package dev.rmtemu.programs.hashpipe.reference;

import dev.rmtemu.programs.hashpipe.control.FlowCount;
import dev.rmtemu.programs.hashpipe.control.KeyCountMap;
import dev.rmtemu.programs.hashpipe.program.HashPipeConfig;
import dev.rmtemu.programs.hashpipe.program.KeyKind;

import dev.rmtemu.traces.gen.SplitMix64;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The baselines' defining properties on random skewed streams. */
class BaselinesTest {
    private static final KeyKind KEY = KeyKind.FINGERPRINT;

    /** Feeds a zipf-ish stream of {@code flows} keys and returns the true counts. */
    private static KeyCountMap feed(long seed, int flows, int packets, HeavyHitters... algos) {
        SplitMix64 rnd = new SplitMix64(seed);
        KeyCountMap truth = new KeyCountMap(flows);
        for (int i = 0; i < packets; i++) {
            double u = rnd.nextDouble();
            long key = 1 + (long) (u * u * u * flows) * 2654435761L % 0xFFFFFFFFL;
            long inc = 1 + rnd.nextInt(3);
            truth.add(key, 0, inc);
            for (HeavyHitters a : algos) {
                a.update(key, 0, inc);
            }
        }
        return truth;
    }

    private static void assertExact(HeavyHitters a, KeyCountMap truth) {
        List<FlowCount> r = a.report();
        assertEquals(FlowCount.sorted(truth), r, a.name() + " exact when every flow fits");
    }

    @Test
    void exactWhenFlowsFitTheTable() {
        HeavyHitters ss = new SpaceSaving(64);
        HeavyHitters snh = new SampleAndHold(64, 1.0, 3);
        HeavyHitters cm = new CountMinCache(4096, KEY, 1);
        KeyCountMap truth = feed(1, 30, 5000, ss, snh, cm);
        assertExact(ss, truth);
        assertExact(snh, truth);
        // threshold 1: every key is heavy from its first packet, so the cache counts it exactly
        assertExact(cm, truth);
    }

    @Test
    void spaceSavingNeverUndercountsAndKeepsTheExactMinimum() {
        for (long seed = 1; seed <= 10; seed++) {
            SpaceSaving ss = new SpaceSaving(50);
            KeyCountMap truth = feed(seed, 2000, 20000, ss);
            List<FlowCount> r = ss.report();
            assertEquals(50, r.size());
            long total = 0;
            for (FlowCount f : r) {
                assertTrue(f.count() >= truth.get(f.keyLo(), f.keyHi()), "space saving undercounted " + f);
                total += f.count();
            }
            long stream = 0;
            for (int i = 0; i < truth.capacity(); i++) {
                stream += truth.occupied(i) ? truth.value(i) : 0;
            }
            // space saving's counts always sum to the stream length
            assertEquals(stream, total);
        }
    }

    @Test
    void hashPipeSampleAndHoldAndCountMinCacheNeverOvercount() {
        for (long seed = 1; seed <= 10; seed++) {
            HashPipeReference hp = new HashPipeReference(HashPipeConfig.of(4, 80, KEY, HashPipeConfig.FAMILY_CRC32, false));
            SampleAndHold snh = new SampleAndHold(60, 0.01, seed);
            CountMinCache cm = new CountMinCache(80, KEY, 50);
            KeyCountMap truth = feed(seed, 2000, 20000, hp, snh, cm);
            for (HeavyHitters a : new HeavyHitters[] {hp, snh, cm}) {
                for (FlowCount f : a.report()) {
                    assertTrue(f.count() <= truth.get(f.keyLo(), f.keyHi()), a.name() + " overcounted " + f);
                }
            }
            assertTrue(hp.duplicateShare() >= 0 && hp.duplicateShare() < 1);
        }
    }

    @Test
    void heaviestFlowsAreFoundBySkewedStream() {
        HashPipeReference hp = new HashPipeReference(HashPipeConfig.of(6, 600, KEY, HashPipeConfig.FAMILY_CRC32, false));
        HashParallel par = new HashParallel(600, HashPipeConfig.of(6, 600, KEY, HashPipeConfig.FAMILY_CRC32, false));
        SpaceSaving ss = new SpaceSaving(600);
        KeyCountMap truth = feed(5, 20000, 100000, hp, par, ss);
        List<FlowCount> top = FlowCount.top(FlowCount.sorted(truth), 10);
        for (HeavyHitters a : new HeavyHitters[] {hp, par, ss}) {
            List<FlowCount> rep = FlowCount.top(a.report(), 10);
            int found = 0;
            for (FlowCount t : top) {
                for (FlowCount f : rep) {
                    found += f.keyLo() == t.keyLo() ? 1 : 0;
                }
            }
            assertEquals(10, found, a.name() + " finds the 10 heaviest of a skewed stream");
        }
    }

    @Test
    void keyCountMapMatchesTreeMapUnderRandomOps() {
        KeyCountMap m = new KeyCountMap(4);
        Map<Long, Long> ref = new TreeMap<>();
        SplitMix64 rnd = new SplitMix64(9);
        for (int i = 0; i < 20000; i++) {
            long k = 1 + rnd.nextInt(300);
            if (rnd.nextInt(3) == 0) {
                m.remove(k, k * 7);
                ref.remove(k);
            } else {
                m.add(k, k * 7, 5);
                ref.merge(k, 5L, Long::sum);
            }
        }
        assertEquals(ref.size(), m.size());
        for (Map.Entry<Long, Long> e : ref.entrySet()) {
            assertEquals(e.getValue(), m.get(e.getKey(), e.getKey() * 7));
        }
    }

    /**
     * HashParallel (HashPipe paper, SOSR 2017, Section 3.2, Algorithm 2) is space saving over d
     * sampled slots: a new key takes an empty slot with count 1, or the minimum of its d slots with
     * that minimum plus 1. One slot, so every key's d hashes land on it.
     */
    @Test
    void hashParallelReplacesTheMinimumWithMinPlusOne() {
        HashParallel par = new HashParallel(1, HashPipeConfig.of(2, 2, KEY, HashPipeConfig.FAMILY_CRC32, false));
        long a = 11;
        long b = 22;
        long c = 33;
        for (long key : new long[] {a, a, a}) {
            par.update(key, 0, 1);
        }
        assertEquals(List.of(new FlowCount(a, 0, 3)), par.report(), "empty slot, then hits");
        par.update(b, 0, 1);
        assertEquals(List.of(new FlowCount(b, 0, 4)), par.report(), "b evicts a and inherits its 3, plus 1");
        par.update(c, 0, 5);
        assertEquals(List.of(new FlowCount(c, 0, 9)), par.report(), "byte counts: the minimum 4 plus the packet's 5");
        par.update(c, 0, 1);
        assertEquals(List.of(new FlowCount(c, 0, 10)), par.report());
    }

    /** Two slots of a 2-way table: placements read from the stage hashes, then exact contents. */
    @Test
    void hashParallelTableAfterAKnownSequence() {
        HashPipeConfig cfg = HashPipeConfig.of(2, 4, KEY, HashPipeConfig.FAMILY_CRC32, false);
        int slots = 4;
        // find three keys whose two slots are both {0, 1} in either order: they compete for the same two slots
        KeyHash h0 = new KeyHash(cfg.stageHash(0), KEY);
        KeyHash h1 = new KeyHash(cfg.stageHash(1), KEY);
        long[] keys = new long[3];
        int found = 0;
        for (long key = 1; found < 3; key++) {
            int s0 = h0.index(key, 0, slots);
            int s1 = h1.index(key, 0, slots);
            if (Math.min(s0, s1) == 0 && Math.max(s0, s1) == 1) {
                keys[found++] = key;
            }
        }
        HashParallel par = new HashParallel(slots, cfg);
        long x = keys[0];
        long y = keys[1];
        long z = keys[2];
        long[] stream = {x, x, x, x, y, y, z, y, z, z};
        for (long key : stream) {
            par.update(key, 0, 1);
        }
        // x 4 and y 2 fill the two slots; z replaces y (the minimum) with 2 + 1; y comes back over
        // the minimum z 3 < x 4 with 3 + 1 = 4; z then replaces the first of the equal minima in its
        // own hash order (x's slot for these keys) with 4 + 1, then counts 6.
        List<FlowCount> want = new java.util.ArrayList<>(List.of(new FlowCount(z, 0, 6), new FlowCount(y, 0, 4)));
        assertEquals(want, par.report());
    }

    /**
     * Count-min sketch with a heavy-flow cache as the HashPipe paper simulates it (SOSR 2017, Section
     * 5.3, baseline 2): keys whose sketch estimate reaches the threshold enter a hash-table cache and
     * are counted exactly from that packet on; a colliding key never evicts the cached one. Memory 2:
     * one sketch counter per row (every estimate is the packet total) and one cache slot.
     */
    @Test
    void countMinCacheCountsFromTheThresholdAndKeepsThePreExistingKey() {
        CountMinCache cm = new CountMinCache(2, KEY, 3);
        long a = 11;
        long b = 22;
        long c = 33;
        cm.update(a, 0, 1); // estimate 1
        cm.update(b, 0, 1); // 2
        assertEquals(List.of(), cm.report(), "nothing heavy yet");
        cm.update(a, 0, 1); // 3: a is heavy and enters with this packet
        assertEquals(List.of(new FlowCount(a, 0, 1)), cm.report());
        cm.update(b, 0, 1); // 4: heavy, but the slot holds a
        cm.update(a, 0, 1);
        cm.update(c, 0, 1); // heavy, collides, dropped
        assertEquals(List.of(new FlowCount(a, 0, 2)), cm.report());
        cm.reset();
        assertEquals(List.of(), cm.report());
    }

    /** A sketch wide enough that three keys do not collide: each is cached at its threshold-th packet. */
    @Test
    void countMinCacheExactCountsSinceEntry() {
        CountMinCache cm = new CountMinCache(6_000, KEY, 15);
        long[] keys = {101, 202, 303};
        int[] sizes = {10, 20, 30};
        for (int i = 0; i < keys.length; i++) {
            for (int p = 0; p < sizes[i]; p++) {
                cm.update(keys[i], 0, 1);
            }
        }
        assertEquals(List.of(new FlowCount(303, 0, 16), new FlowCount(202, 0, 6)), cm.report(),
                "20 − 14 and 30 − 14 packets from the 15th on; the 10-packet flow never gets heavy");
    }
}
