package dev.rmtemu.emulator.network;

import dev.rmtemu.emulator.engine.SwitchEngine;
import dev.rmtemu.emulator.topology.HostRole;
import dev.rmtemu.emulator.topology.Ipv4Prefix;
import dev.rmtemu.emulator.topology.KeyValues;
import dev.rmtemu.emulator.topology.Node;
import dev.rmtemu.emulator.topology.Topology;
import dev.rmtemu.emulator.topology.TopologyBuilder;
import dev.rmtemu.emulator.topology.TopologySpec;
import dev.rmtemu.model.UserError;
import dev.rmtemu.traces.PacketRecord;
import dev.rmtemu.traces.gen.SplitMix64;
import dev.rmtemu.traces.impair.BernoulliLoss;
import dev.rmtemu.traces.impair.GroundTruthLog;
import dev.rmtemu.traces.impair.ImpairmentDecision;
import dev.rmtemu.traces.impair.Reordering;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class NetworkEngineTest {
    private static final long LINK_NS = 1_000;

    /** h1 (source) – s1 – s2 – h2 (sink); the s1–s2 link at {@code coreGbps} with impairments s1→s2. */
    static Topology line(double coreGbps, Map<String, String> coreImpair) {
        TopologyBuilder b = new TopologyBuilder("test:line");
        b.programmableSwitch("s1", "tofino1", 2, null, KeyValues.EMPTY);
        b.programmableSwitch("s2", "tofino1", 2, null, KeyValues.EMPTY);
        b.host("h1", Ipv4Prefix.parse("10.0.1.1/32"), HostRole.SOURCE);
        b.host("h2", Ipv4Prefix.parse("10.0.2.1/32"), HostRole.SINK);
        b.link("h1", 1, "s1", 1, true, LINK_NS, 100, KeyValues.EMPTY, KeyValues.EMPTY);
        b.link("s1", 2, "s2", 2, true, LINK_NS, coreGbps, KeyValues.of(coreImpair), KeyValues.EMPTY);
        b.link("s2", 1, "h2", 1, true, LINK_NS, 100, KeyValues.EMPTY, KeyValues.EMPTY);
        return b.build();
    }

    static PacketRecord packet(long i, int bytes) {
        SplitMix64 rnd = new SplitMix64(i * 7919 + 1);
        return PacketRecord.allocate().wireLength(bytes).ipVersion(4).protocol(17)
                .srcIpv4((int) rnd.nextLong()).dstIpv4((int) rnd.nextLong())
                .srcPort(rnd.nextInt(65536)).dstPort(rnd.nextInt(65536)).ipId((int) (i & 0xFFFF)).tcpSeq((int) i);
    }

    record Delivery(int host, long cycle, int seq) {
    }

    static List<Delivery> record(NetworkEngine net) {
        List<Delivery> out = new ArrayList<>();
        net.onDelivery((h, c, r) -> out.add(new Delivery(h, c, r.tcpSeq())));
        return out;
    }

    @Test
    void onePacketTakesHostLinkPipelineSerialisationAndLinkLatencyAtEachHop() {
        NetworkEngine net = NetworkEngine.build(line(10, Map.of()), NetworkOptions.of(1));
        List<Delivery> d = record(net);
        SwitchEngine s1 = net.switchEngine("s1");
        // tofino1, no stages: parser 16 + ingress 0 + deparser 16 + TM 80; egress parser 16 + minimum 160 + deparser 16
        assertEquals(112, s1.ingressToTmCycles());
        assertEquals(192, s1.egressToWireCycles());
        long link = 1220;               // 1000 ns at 1.22 GHz
        long ser100 = 12;               // (100 + 20) * 8 bits at 100 Gb/s = 11.712 cycles, rounded up
        long ser10 = 118;               // at 10 Gb/s = 117.12 cycles, rounded up
        long inject = 500;
        long atS1 = inject + link;
        long leavesS1 = atS1 + 112 + ser10 + 192;   // s1's port 2 runs at its link's 10 Gb/s
        long atS2 = leavesS1 + link;
        long leavesS2 = atS2 + 112 + ser100 + 192;
        long atH2 = leavesS2 + link;
        assertEquals(4898, atH2);
        net.inject(inject, packet(0, 100));
        net.drain();
        int h2 = net.topology().nodeIndex("h2");
        assertEquals(List.of(new Delivery(h2, atH2, 0)), d);
        assertEquals(net.clock().cyclesToNs(atH2) - net.clock().cyclesToNs(inject), net.latency().max());
        assertEquals(1, net.delivered(h2));
        assertEquals(0, net.misdelivered(h2));
        net.checkConservation();
    }

    @Test
    void fatTreeDeliversEveryPacketToItsDestinationHost() {
        Topology t = TopologySpec.parse("builtin:fattree?k=4");
        NetworkEngine net = NetworkEngine.build(t, NetworkOptions.of(3));
        List<Delivery> d = record(net);
        int n = 20_000;
        for (int i = 0; i < n; i++) {
            net.inject(200L * i, packet(i, 64 + (i * 37) % 1400));
        }
        net.drain();
        net.checkConservation();
        NetworkEngine.NetworkTotals tot = net.totals();
        assertEquals(n, tot.injected());
        assertEquals(n, tot.delivered());
        assertEquals(0, tot.misdelivered());
        assertEquals(0, tot.switchDropped() + tot.linkLost() + tot.unlinkedPortDrops() + tot.inFlight());
        assertEquals(n, d.size());
        TreeSet<Integer> seqs = new TreeSet<>();
        long hostsReached = 0;
        for (Node h : t.hosts()) {
            hostsReached += net.delivered(h.index()) > 0 ? 1 : 0;
        }
        for (Delivery x : d) {
            seqs.add(x.seq());
        }
        assertEquals(n, seqs.size());
        assertEquals(16, hostsReached);
        // every switch forwarded something, and ECMP used more than one core
        int coresUsed = 0;
        for (int s = 0; s < net.switchCount(); s++) {
            long out = net.switchEngine(s).counters().packetsOut();
            if (net.switchNode(s).name().startsWith("core") && out > 0) {
                coresUsed++;
            }
        }
        assertEquals(4, coresUsed);
        // shortest possible path: host link + edge + host link, two link latencies
        assertTrue(net.latency().summary().p50() >= 2 * LINK_NS);
    }

    @Test
    void arrivalListenerSeesEveryPacketALinkHandsToASwitchExceptTheLost() {
        NetworkEngine net = NetworkEngine.build(line(100, Map.of("loss", "bernoulli:0.3")), NetworkOptions.of(5));
        List<long[]> seen = new ArrayList<>();
        net.onArrival((node, port, cycle, r) -> seen.add(new long[] {node, port, cycle, r.tcpSeq()}));
        List<Delivery> d = record(net);
        int n = 500;
        for (int i = 0; i < n; i++) {
            net.inject(300L * i, packet(i, 200));
        }
        net.drain();
        int s1 = net.topology().nodeIndex("s1");
        int s2 = net.topology().nodeIndex("s2");
        long atS1 = seen.stream().filter(a -> a[0] == s1).count();
        List<Long> atS2 = seen.stream().filter(a -> a[0] == s2).map(a -> a[3]).toList();
        assertEquals(n, atS1);
        assertEquals(n - net.lost(1, 0), atS2.size());
        assertEquals(d.stream().map(x -> (long) x.seq()).toList(), atS2, "s2 forwards what reaches it, in order");
        assertTrue(seen.stream().filter(a -> a[0] == s2).allMatch(a -> a[1] == 2), "s2 hears them on port 2");
    }

    @Test
    void bernoulliLossOnOneLinkDropsExactlyThePacketsTheGroundTruthNames() {
        long seed = 11;
        NetworkEngine net = NetworkEngine.build(line(100, Map.of("loss", "bernoulli:0.2")), NetworkOptions.of(seed));
        List<Delivery> d = record(net);
        int n = 2_000;
        for (int i = 0; i < n; i++) {
            net.inject(300L * i, packet(i, 200));
        }
        net.drain();
        net.checkConservation();
        // independent oracle: the same Bernoulli stream, seeded as the network documents
        BernoulliLoss oracle = new BernoulliLoss(0.2, NetworkEngine.impairmentSeed(seed, 1, 0, 0));
        ImpairmentDecision dec = new ImpairmentDecision();
        TreeSet<Integer> expectedLost = new TreeSet<>();
        for (int i = 0; i < n; i++) {
            dec.reset();
            oracle.decide(PacketRecord.allocate(), i, dec);
            if (dec.dropped()) {
                expectedLost.add(i);
            }
        }
        assertTrue(expectedLost.size() > 300 && expectedLost.size() < 500, "lost " + expectedLost.size());
        GroundTruthLog log = net.groundTruth(1, 0);
        TreeSet<Integer> logged = new TreeSet<>();
        for (int e = 0; e < log.size(); e++) {
            assertEquals(GroundTruthLog.DROP, log.kind(e));
            logged.add((int) log.packetIndex(e));
        }
        assertEquals(expectedLost, logged);
        TreeSet<Integer> deliveredSeqs = new TreeSet<>();
        for (Delivery x : d) {
            deliveredSeqs.add(x.seq());
        }
        for (int i = 0; i < n; i++) {
            assertEquals(!expectedLost.contains(i), deliveredSeqs.contains(i), "packet " + i);
        }
        assertEquals(expectedLost.size(), net.lost(1, 0));
        assertEquals(expectedLost.size(), net.lostBy(1, 0, 0));
        assertEquals(n, net.carried(1, 0));
        assertEquals(0, net.lost(1, 1));
        assertEquals(expectedLost.size(), net.totals().linkLost());
    }

    @Test
    void blackholeDropsExactlyOneDestinationsPackets() {
        TopologyBuilder b = new TopologyBuilder("test:bh");
        b.programmableSwitch("s1", "tofino1", 3, null, KeyValues.EMPTY);
        b.regularSwitch("s2", 3);
        b.host("a1", Ipv4Prefix.parse("10.0.1.1/32"), HostRole.SOURCE);
        b.host("a2", Ipv4Prefix.parse("10.0.1.2/32"), HostRole.SOURCE);
        b.host("b1", Ipv4Prefix.parse("10.0.2.1/32"), HostRole.SINK);
        b.host("b2", Ipv4Prefix.parse("10.0.2.2/32"), HostRole.SINK);
        b.link("a1", 1, "s1", 1, true, LINK_NS, 100, KeyValues.EMPTY, KeyValues.EMPTY);
        b.link("a2", 1, "s1", 2, true, LINK_NS, 100, KeyValues.EMPTY, KeyValues.EMPTY);
        b.link("s1", 3, "s2", 3, true, LINK_NS, 100, KeyValues.of(Map.of("blackhole", "dst=10.0.2.1/32")), KeyValues.EMPTY);
        b.link("s2", 1, "b1", 1, true, LINK_NS, 100, KeyValues.EMPTY, KeyValues.EMPTY);
        b.link("s2", 2, "b2", 1, true, LINK_NS, 100, KeyValues.EMPTY, KeyValues.EMPTY);
        Topology t = b.build();
        NetworkEngine net = NetworkEngine.build(t, NetworkOptions.of(5));
        HostMap map = new HostMap(t);
        int n = 3_000;
        int toB1 = 0;
        for (int i = 0; i < n; i++) {
            PacketRecord p = packet(i, 300);
            PacketRecord copy = PacketRecord.allocate().copyFrom(p);
            map.assign(copy);
            toB1 += copy.dstIpv4() == Ipv4Prefix.parse("10.0.2.1/32").address() ? 1 : 0;
            net.inject(100L * i, p);
        }
        net.drain();
        net.checkConservation();
        assertTrue(toB1 > n / 4 && toB1 < 3 * n / 4, "to b1: " + toB1);
        assertEquals(0, net.delivered(t.nodeIndex("b1")));
        assertEquals(n - toB1, net.delivered(t.nodeIndex("b2")));
        assertEquals(toB1, net.lost(2, 0));
        assertEquals("plain_forwarding", net.switchProgram(1));
    }

    @Test
    void sameSeedSameRunDifferentSeedDifferentLosses() {
        Map<String, String> imp = new LinkedHashMap<>();
        imp.put("loss", "gilbert:p=0.02,r=0.3");
        imp.put("delay", "normal:mean=2us,sigma=1us");
        imp.put("dup", "0.05");
        List<Object> a = run(imp, 7);
        List<Object> b = run(imp, 7);
        List<Object> c = run(imp, 8);
        assertEquals(a, b);
        assertNotEquals(a.get(0), c.get(0));
    }

    private static List<Object> run(Map<String, String> imp, long seed) {
        NetworkEngine net = NetworkEngine.build(line(100, imp), NetworkOptions.of(seed));
        List<Delivery> d = record(net);
        for (int i = 0; i < 3_000; i++) {
            net.inject(150L * i, packet(i, 64 + i % 1000));
        }
        net.drain();
        net.checkConservation();
        NetworkEngine.NetworkTotals t = net.totals();
        assertTrue(t.linkLost() > 0 && t.linkDuplicates() > 0, t.toString());
        assertEquals(t.injected() + t.linkDuplicates() - t.linkLost(), t.delivered());
        return List.of(d, t, net.latency().summary());
    }

    @Test
    void reorderHoldsExactlyTheDecidedPacketsBehindThatManyLaterOnes() {
        long seed = 21;
        NetworkEngine net = NetworkEngine.build(line(100, Map.of("reorder", "p=0.05,sigma=3,max=8")), NetworkOptions.of(seed));
        List<Delivery> d = record(net);
        int n = 3_000;
        for (int i = 0; i < n; i++) {
            net.inject(400L * i, packet(i, 128));
        }
        net.drain();
        net.checkConservation();
        Reordering oracle = new Reordering(0.05, 3, 8, NetworkEngine.impairmentSeed(seed, 1, 0, 0));
        ImpairmentDecision dec = new ImpairmentDecision();
        Map<Integer, Integer> holds = new LinkedHashMap<>();
        for (int i = 0; i < n; i++) {
            dec.reset();
            oracle.decide(PacketRecord.allocate(), i, dec);
            if (dec.holdPackets() > 0) {
                holds.put(i, dec.holdPackets());
            }
        }
        assertEquals(0, net.holdsRefused(1, 0));
        assertTrue(holds.size() > 100, "holds " + holds.size());
        GroundTruthLog log = net.groundTruth(1, 0);
        Map<Integer, Integer> logged = new LinkedHashMap<>();
        for (int e = 0; e < log.size(); e++) {
            assertEquals(GroundTruthLog.REORDER, log.kind(e));
            logged.put((int) log.packetIndex(e), (int) log.value(e));
        }
        assertEquals(new TreeSet<>(holds.keySet()), new TreeSet<>(logged.keySet()));
        assertEquals(holds.size(), net.reordered(1, 0));
        assertEquals(n, d.size());
        // position of each packet in delivery order; in-order packets keep their order,
        // a held packet arrives behind at least the overtakes it asked for
        int[] pos = new int[n];
        for (int i = 0; i < n; i++) {
            pos[d.get(i).seq()] = i;
        }
        int lastInOrder = -1;
        for (int k = 0; k < n; k++) {
            if (!holds.containsKey(k)) {
                assertTrue(pos[k] > lastInOrder, "packet " + k + " out of order");
                lastInOrder = pos[k];
                continue;
            }
            int overtakers = 0;
            for (int j = k + 1; j < n; j++) {
                overtakers += pos[j] < pos[k] ? 1 : 0;
            }
            assertTrue(overtakers >= Math.min(logged.get(k), n - 1 - k), "packet " + k + " overtaken by " + overtakers);
            if (k < n - 20) {
                assertEquals(holds.get(k), logged.get(k), "packet " + k);
            }
        }
    }

    @Test
    void mixedClocksAndBadImpairmentsAreRefused() {
        TopologyBuilder b = new TopologyBuilder("test:clocks");
        b.programmableSwitch("s1", "tofino1", 2, null, KeyValues.EMPTY);
        b.programmableSwitch("s2", "rmt", 2, null, KeyValues.EMPTY);
        b.host("h1", Ipv4Prefix.parse("10.0.1.1/32"), HostRole.BOTH);
        b.host("h2", Ipv4Prefix.parse("10.0.2.1/32"), HostRole.BOTH);
        b.link("h1", 1, "s1", 1, true, LINK_NS, 100, KeyValues.EMPTY, KeyValues.EMPTY);
        b.link("s1", 2, "s2", 2, true, LINK_NS, 100, KeyValues.EMPTY, KeyValues.EMPTY);
        b.link("s2", 1, "h2", 1, true, LINK_NS, 100, KeyValues.EMPTY, KeyValues.EMPTY);
        UserError e = assertThrows(UserError.class, () -> NetworkEngine.build(b.build(), NetworkOptions.of(1)));
        assertTrue(e.getMessage().contains("one network needs one clock"), e.getMessage());
        UserError bad = assertThrows(UserError.class,
                () -> NetworkEngine.build(line(100, Map.of("loss", "bernoulli:2")), NetworkOptions.of(1)));
        assertTrue(bad.getMessage().startsWith("link 1 s1:2 <-> s2:2: impairment loss"), bad.getMessage());
    }
}
