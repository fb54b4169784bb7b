package dev.rmtemu.traces.impair;

import dev.rmtemu.traces.PacketRecord;
import dev.rmtemu.traces.gen.GeneratorKind;
import dev.rmtemu.traces.gen.SyntheticSource;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static dev.rmtemu.traces.TraceTestSupport.gen;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ImpairmentTest {
    private static final PacketRecord ANY = PacketRecord.allocate().ipVersion(4);

    @Test
    void bernoulliRateWithinTolerance() {
        BernoulliLoss loss = new BernoulliLoss(0.02, 42);
        ImpairmentDecision d = new ImpairmentDecision();
        int n = 200_000;
        int dropped = 0;
        for (int i = 0; i < n; i++) {
            d.reset();
            loss.decide(ANY, i, d);
            dropped += d.dropped() ? 1 : 0;
        }
        // 4000 expected, sd ≈ 63: ±300 is ~5 sd.
        assertEquals(4000, dropped, 300);
    }

    @Test
    void gilbertElliottGivesBurstsOfMeanLengthOneOverR() {
        double p = 0.01;
        double r = 0.25;
        GilbertElliottLoss ge = new GilbertElliottLoss(p, r, 0.0, 1.0, 7);
        ImpairmentDecision d = new ImpairmentDecision();
        int n = 400_000;
        long lost = 0;
        long bursts = 0;
        boolean prev = false;
        for (int i = 0; i < n; i++) {
            d.reset();
            ge.decide(ANY, i, d);
            if (d.dropped()) {
                lost++;
                if (!prev) {
                    bursts++;
                }
            }
            prev = d.dropped();
        }
        double meanBurst = (double) lost / bursts;
        assertEquals(1 / r, meanBurst, 0.25, "mean loss burst length");
        assertEquals(p / (p + r), (double) lost / n, 0.004, "stationary loss rate");
        // Bernoulli loss at the same rate would give bursts of about 1 / (1 - rate) ≈ 1.04.
        assertTrue(meanBurst > 3);
    }

    @Test
    void blackholeDropsExactlyTheMatchingPackets() {
        SyntheticSource src = gen(GeneratorKind.ISP, "packets", "50000", "flows", "2000", "seed", "3", "ipv6", "0.3");
        Blackhole v4 = Blackhole.of("100.0.0.0/6", PacketRecord.PROTO_TCP, Blackhole.ANY, Long.MIN_VALUE, Long.MAX_VALUE);
        Blackhole v6 = Blackhole.of("2001:db8:1::/48", Blackhole.ANY, 443, Long.MIN_VALUE, Long.MAX_VALUE);
        ImpairmentChain chain = new ImpairmentChain(v4, v6);
        ImpairmentDecision d = new ImpairmentDecision();
        PacketRecord rec = PacketRecord.allocate();
        int matched = 0;
        int v6matched = 0;
        long i = 0;
        while (src.next(rec)) {
            chain.decide(rec, i++, d);
            boolean expectV4 = rec.ipVersion() == 4 && rec.protocol() == 6 && (rec.dstIpv4() >>> 26) == (0x64000000 >>> 26);
            boolean expectV6 = rec.ipVersion() == 6 && rec.dstPort() == 443
                    && (rec.dstIpv6Hi() >>> 16) == (0x20010DB800010000L >>> 16);
            assertEquals(expectV4 || expectV6, d.dropped(), rec.toString());
            if (d.dropped()) {
                assertEquals(expectV4 ? 0 : 1, d.dropCause());
            }
            matched += expectV4 ? 1 : 0;
            v6matched += expectV6 ? 1 : 0;
        }
        assertTrue(matched > 500 && v6matched > 100, matched + " / " + v6matched);
    }

    @Test
    void transientBlackholeOnlyInsideItsWindow() {
        Blackhole bh = Blackhole.of("10.0.0.0/8", Blackhole.ANY, Blackhole.ANY, 1000, 2000);
        ImpairmentDecision d = new ImpairmentDecision();
        PacketRecord r = PacketRecord.allocate().ipVersion(4).dstIpv4(0x0A010203);
        long[] ts = {999, 1000, 1999, 2000};
        boolean[] expect = {false, true, true, false};
        for (int i = 0; i < ts.length; i++) {
            d.reset();
            bh.decide(r.timestampNs(ts[i]), i, d);
            assertEquals(expect[i], d.dropped(), "ts " + ts[i]);
        }
        d.reset();
        bh.decide(r.timestampNs(1500).dstIpv4(0x0B000000), 9, d);
        assertFalse(d.dropped());
    }

    @Test
    void groundTruthLogIsConsistentWithTheOutput() {
        int n = 20_000;
        ImpairmentChain chain = new ImpairmentChain(
                new BernoulliLoss(0.01, 1),
                new GilbertElliottLoss(0.002, 0.3, 0, 1, 2),
                new Duplication(0.01, 3),
                new Reordering(0.02, 4.0, 16, 4),
                DelayJitter.mixture(0.9, 1_000, 100, 50_000, 5_000, 5));
        GroundTruthLog log = new GroundTruthLog();
        // Input packet i is identified by its IP ID and TCP sequence (unique in this trace).
        SyntheticSource input = gen(GeneratorKind.UNIFORM, "packets", Integer.toString(n), "flows", "1", "tcp", "0",
                "udp", "1", "seed", "6");
        List<long[]> inputs = new ArrayList<>();
        ImpairedSource out = new ImpairedSource(gen(GeneratorKind.UNIFORM, "packets", Integer.toString(n), "flows",
                "1", "tcp", "0", "udp", "1", "seed", "6"), chain, log, PacketRecord.DEFAULT_FRAME_CAPACITY);
        PacketRecord r = PacketRecord.allocate();
        while (input.next(r)) {
            inputs.add(new long[] {r.timestampNs(), r.payloadHash()});
        }
        List<Long> order = new ArrayList<>();
        Map<Long, Integer> copiesSeen = new HashMap<>();
        while (out.next(r)) {
            long idx = out.currentInputIndex();
            assertEquals(inputs.get((int) idx)[1], r.payloadHash(), "output names its input packet");
            order.add(idx);
            if (out.currentIsCopy()) {
                copiesSeen.merge(idx, 1, Integer::sum);
            }
        }
        Map<Long, Long> dropped = new HashMap<>();
        Map<Long, Long> duplicated = new HashMap<>();
        Map<Long, Long> reordered = new HashMap<>();
        Map<Long, Long> delayed = new HashMap<>();
        for (int e = 0; e < log.size(); e++) {
            Map<Long, Long> m = switch (log.kind(e)) {
                case GroundTruthLog.DROP -> dropped;
                case GroundTruthLog.DUPLICATE -> duplicated;
                case GroundTruthLog.REORDER -> reordered;
                default -> delayed;
            };
            assertTrue(m.put(log.packetIndex(e), log.value(e)) == null, "one event of a kind per packet");
        }
        // Every input is either dropped or appears once plus its copies.
        assertEquals(n - dropped.size() + duplicated.values().stream().mapToLong(Long::longValue).sum(), order.size());
        assertTrue(dropped.size() > 150 && duplicated.size() > 100 && reordered.size() > 200,
                dropped.size() + " " + duplicated.size() + " " + reordered.size());
        for (Map.Entry<Long, Long> e : duplicated.entrySet()) {
            assertEquals(e.getValue().intValue(), copiesSeen.getOrDefault(e.getKey(), 0));
        }
        // Reordering: the number of later inputs that left before packet i is exactly its logged displacement.
        java.util.Set<Long> seen = new java.util.HashSet<>();
        int[] overtakenBy = new int[n];
        for (int k = 0; k < order.size(); k++) {
            long idx = order.get(k);
            if (seen.add(idx)) {
                overtakenBy[(int) idx] = 0;
                for (int j = 0; j < k; j++) {
                    if (order.get(j) > idx) {
                        overtakenBy[(int) idx]++;
                    }
                }
                if (overtakenBy[(int) idx] > 0 || reordered.containsKey(idx)) {
                    assertEquals(reordered.getOrDefault(idx, 0L).intValue(), overtakenBy[(int) idx], "packet " + idx);
                }
            }
        }
        for (long idx : dropped.keySet()) {
            assertFalse(seen.contains(idx));
        }
        // Delay: the mixture's two modes both occur, and the logged delay is what was added.
        long slow = delayed.values().stream().filter(v -> v > 20_000).count();
        assertEquals(0.1, (double) slow / delayed.size(), 0.02);
    }

    @Test
    void sameSeedSameDecisions() {
        DelayJitter a = DelayJitter.constantPlusExponential(500, 2000, 9);
        DelayJitter b = DelayJitter.constantPlusExponential(500, 2000, 9);
        DelayJitter c = DelayJitter.constantPlusExponential(500, 2000, 10);
        double sum = 0;
        boolean differs = false;
        for (int i = 0; i < 50_000; i++) {
            assertEquals(a.delayNs(i), b.delayNs(i));
            differs |= a.delayNs(i) != c.delayNs(i);
            assertTrue(a.delayNs(i) >= 500);
            sum += a.delayNs(i);
        }
        assertTrue(differs);
        assertEquals(2500, sum / 50_000, 50);
    }
}
