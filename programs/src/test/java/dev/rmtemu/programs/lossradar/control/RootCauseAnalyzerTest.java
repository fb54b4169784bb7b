package dev.rmtemu.programs.lossradar.control;

import dev.rmtemu.programs.lossradar.program.Signature;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

class RootCauseAnalyzerTest {
    private static final long US = 1000;
    private static final long MS = 1_000_000;
    private final RootCauseAnalyzer analyzer = new RootCauseAnalyzer(RootCauseAnalyzer.Params.defaults());

    private static RootCauseAnalyzer.Loss loss(int flow, int ipId, long timeNs) {
        return loss(flow, ipId, false, timeNs);
    }

    private static RootCauseAnalyzer.Loss loss(int flow, int ipId, boolean syn, long timeNs) {
        return new RootCauseAnalyzer.Loss(0x0A000000L + flow, 6L << 32 | 80, ipId, syn, timeNs >>> 23, timeNs);
    }

    private static RootCause[] all(int n, RootCause c) {
        RootCause[] r = new RootCause[n];
        java.util.Arrays.fill(r, c);
        return r;
    }

    @Test
    void burstWithGapsInAFlowIsCongestion() {
        List<RootCauseAnalyzer.Loss> l = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            // three flows, every other IP ID of each lost
            l.add(loss(i % 3, 100 + 2 * (i / 3), 10 * MS + i * US));
        }
        assertArrayEquals(all(12, RootCause.CONGESTION), analyzer.classify(l));
    }

    @Test
    void longConsecutiveRunInABurstIsABlackholeShortOnesCongestion() {
        List<RootCauseAnalyzer.Loss> l = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            l.add(loss(1, 1000 + i, 5 * MS + 2 * i * US));
        }
        for (int i = 0; i < 3; i++) {
            l.add(loss(2, 7 + i, 5 * MS + (2 * i + 1) * US));
        }
        RootCause[] r = analyzer.classify(l);
        for (int i = 0; i < 40; i++) {
            assertEquals(RootCause.BLACKHOLE, r[i], "loss " + i);
        }
        for (int i = 40; i < 43; i++) {
            assertEquals(RootCause.CONGESTION, r[i], "loss " + i);
        }
    }

    @Test
    void consecutiveIdsAcrossTheWrapAroundAreARun() {
        List<RootCauseAnalyzer.Loss> l = new ArrayList<>();
        for (int i = 0; i < 35; i++) {
            l.add(loss(4, (65520 + i) & 0xFFFF, MS + i * US));
        }
        assertArrayEquals(all(35, RootCause.BLACKHOLE), analyzer.classify(l));
    }

    @Test
    void sparseConsecutiveRunIsABlackhole() {
        List<RootCauseAnalyzer.Loss> l = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            l.add(loss(9, 500 + i, 3 * MS + i * MS));
        }
        l.add(loss(10, 42, 50 * MS));
        RootCause[] r = analyzer.classify(l);
        for (int i = 0; i < 6; i++) {
            assertEquals(RootCause.BLACKHOLE, r[i]);
        }
        assertEquals(RootCause.RANDOM, r[6], "a single loss fills its one bin");
    }

    /**
     * LossRadar (CoNEXT 2016) Section 5.1, Algorithm 2 lines 8-14: when more than p_syn of the
     * remaining losses are SYNs, the SYN losses are blackholes and leave the rest; the rest still
     * goes through the time-distribution test. Before, every remaining loss, SYN or not, was
     * marked blackhole.
     */
    @Test
    void mostlySynLossesAreABlackholeAndOnlyTheSyns() {
        List<RootCauseAnalyzer.Loss> l = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            l.add(loss(20 + i, 1, true, i * 5 * MS));
        }
        assertArrayEquals(all(10, RootCause.BLACKHOLE), analyzer.classify(l));
        l.add(loss(40, 9, false, 60 * MS)); // 10 of 11 SYN = 0.909 > 0.9: the SYNs are blackholes
        RootCause[] r = analyzer.classify(l);
        assertArrayEquals(all(10, RootCause.BLACKHOLE), java.util.Arrays.copyOf(r, 10));
        assertEquals(RootCause.RANDOM, r[10], "the non-SYN loss alone fills its one bin: random, not blackhole");
        l.add(loss(41, 9, false, 61 * MS)); // 10 of 12 = 0.83: not a SYN blackhole, spread: random
        assertArrayEquals(all(12, RootCause.RANDOM), analyzer.classify(l));
    }

    @Test
    void theNonSynRestOfASynBlackholeIsTestedForSpread() {
        List<RootCauseAnalyzer.Loss> l = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            l.add(loss(200 + i, 1, true, i * 3 * MS + 11 * US)); // 30 SYN losses over 90 ms
        }
        // two non-SYN losses 40 µs apart (gaps above t_gap, no burst) in the same 50 ms half of the interval
        l.add(loss(300, 5, false, 20 * MS + 3 * US));
        l.add(loss(301, 8, false, 20 * MS + 43 * US));
        RootCause[] r = analyzer.classify(l); // 30 of 32 SYN = 0.94 > 0.9
        assertArrayEquals(all(30, RootCause.BLACKHOLE), java.util.Arrays.copyOf(r, 30));
        assertEquals(RootCause.UNCLASSIFIED, r[30], "2 losses in 1 of 2 bins: not spread");
        assertEquals(RootCause.UNCLASSIFIED, r[31]);
    }

    @Test
    void spreadLossesAreRandomClusteredOnesUnclassified() {
        List<RootCauseAnalyzer.Loss> spread = new ArrayList<>();
        List<RootCauseAnalyzer.Loss> clustered = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            spread.add(loss(100 + i, i, i * 5 * MS + 7 * US));
            clustered.add(loss(100 + i, i, 200 * MS + i * 30 * US)); // gaps 30 µs > t_gap: not a burst
        }
        assertArrayEquals(all(20, RootCause.RANDOM), analyzer.classify(spread));
        assertArrayEquals(all(20, RootCause.UNCLASSIFIED), analyzer.classify(clustered));
    }

    @Test
    void fourCloseLossesAreNoBurst() {
        List<RootCauseAnalyzer.Loss> l = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            l.add(loss(i, 2 * i, 7 * MS + i * US));
        }
        // not a burst (n_burst = 5); long term: all in one of 4 bins of 25 ms
        assertArrayEquals(all(4, RootCause.UNCLASSIFIED), analyzer.classify(l));
        l.add(loss(9, 77, 7 * MS + 4 * US));
        assertArrayEquals(all(5, RootCause.CONGESTION), analyzer.classify(l));
    }

    @Test
    void timestampsUnwrapFromTheBatchStart() {
        // timestamps count 1,024 ns units (a shift of the ingress time): 97,656 units, 97,656 mod 16,384 = 15,736
        long unit = 1024;
        long start = 97_656 * unit;
        assertEquals(start, RootCauseAnalyzer.unwrapNs(15_736, start));
        assertEquals(start + 5 * unit, RootCauseAnalyzer.unwrapNs(15_741, start));
        assertEquals(start + (16_384 - 15_736 + 3) * unit, RootCauseAnalyzer.unwrapNs(3, start), "wrapped once");
        assertEquals(Signature.timestamp(start + 7 * unit), 15_743, "the signature's timestamp word of an instant");
    }
}
