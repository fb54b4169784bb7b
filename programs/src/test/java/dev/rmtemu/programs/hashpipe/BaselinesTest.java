package dev.rmtemu.programs.hashpipe;

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
        HeavyHitters cm = new CountMinCache(4096, KEY);
        KeyCountMap truth = feed(1, 30, 5000, ss, snh, cm);
        assertExact(ss, truth);
        assertExact(snh, truth);
        // the cache holds every flow; its estimates may exceed the truth only through sketch collisions
        for (FlowCount f : cm.report()) {
            assertTrue(f.count() >= truth.get(f.keyLo(), f.keyHi()));
        }
        assertEquals(truth.size(), cm.report().size());
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
    void hashPipeAndSampleAndHoldNeverOvercount() {
        for (long seed = 1; seed <= 10; seed++) {
            HashPipeReference hp = new HashPipeReference(HashPipeConfig.of(4, 80, KEY, HashPipeConfig.FAMILY_CRC32, false));
            SampleAndHold snh = new SampleAndHold(60, 0.01, seed);
            HashParallel par = new HashParallel(80, HashPipeConfig.of(4, 80, KEY, HashPipeConfig.FAMILY_CRC32, false));
            KeyCountMap truth = feed(seed, 2000, 20000, hp, snh, par);
            for (HeavyHitters a : new HeavyHitters[] {hp, snh, par}) {
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
}
