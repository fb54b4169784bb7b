package dev.rmtemu.emulator.topology;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class FatTreeTest {
    private final Topology t = TopologySpec.parse("builtin:fattree?k=4");
    private final Routing r = Routing.of(t);

    private int node(String name) {
        return t.nodeIndex(name);
    }

    private int dest(String host) {
        return r.destinationOf(node(host));
    }

    @Test
    void k4HasTheStandardCounts() {
        assertEquals(20, t.switches().size());
        assertEquals(16, t.hosts().size());
        assertEquals(36, t.nodes().size());
        assertEquals(48, t.links().size());
        long hostLinks = t.links().stream()
                .filter(l -> t.node(l.a().node()).isHost() || t.node(l.b().node()).isHost()).count();
        assertEquals(16, hostLinks);
        assertEquals(32, t.links().size() - hostLinks);
        for (Node s : t.switches()) {
            assertEquals(4, s.ports(), s.name());
            for (int p = 1; p <= 4; p++) {
                assertTrue(t.linkAt(s.index(), p) >= 0, s.name() + ":" + p + " unused");
            }
        }
    }

    @Test
    void portNumberingAndAddressesFollowAlFares() {
        // Host x of edge i in pod p: edge port x+1, address 10.p.i.(x+2).
        assertEquals(new Endpoint(node("h2_1_1"), "h2_1_1", 1), t.peer(node("edge2_1"), 2));
        assertEquals("10.2.1.3/32", t.node("h2_1_1").address().toString());
        // Edge up-ports k/2+1.. go to aggregation j at its port i+1.
        assertEquals(new Endpoint(node("agg2_1"), "agg2_1", 2), t.peer(node("edge2_1"), 4));
        // Aggregation j up-port k/2+1+c goes to core j*(k/2)+c at port pod+1.
        assertEquals(new Endpoint(node("core3"), "core3", 3), t.peer(node("agg2_1"), 4));
        assertEquals(new Endpoint(node("agg3_0"), "agg3_0", 4), t.peer(node("core1"), 4));
    }

    @Test
    void ecmpGroupSizesPerLayer() {
        int e = node("edge0_0");
        assertEquals(2, r.groupSize(e, dest("h1_0_0")));            // up, other pod: both aggs
        assertEquals(2, r.groupSize(e, dest("h0_1_0")));            // same pod, other edge: both aggs
        assertEquals(1, r.groupSize(e, dest("h0_0_1")));            // own host
        assertEquals(List.of(3, 4), List.of(r.groupPort(e, dest("h1_0_0"), 0), r.groupPort(e, dest("h1_0_0"), 1)));
        int a = node("agg0_1");
        assertEquals(2, r.groupSize(a, dest("h3_1_1")));            // agg to other pod: both cores
        assertEquals(1, r.groupSize(a, dest("h0_1_1")));            // agg down to own pod
        assertEquals(2, r.egressPort(a, dest("h0_1_1")));           // edge0_1 is on port 2
        for (int c = 0; c < 4; c++) {
            for (Node h : t.hosts()) {
                assertEquals(1, r.groupSize(node("core" + c), r.destinationOf(h.index())));
            }
        }
        assertEquals(4, r.egressPort(node("core2"), dest("h3_0_0")));  // core port pod+1
        assertEquals(0, r.groupSize(node("h0_0_0"), dest("h0_0_0")));
        assertEquals(Routing.NO_ROUTE, r.egressPort(node("h0_0_0"), dest("h0_0_0"), 7L));
    }

    @Test
    void everyHostReachesEveryOtherWithExactPathLengths() {
        for (Node s : t.hosts()) {
            for (Node d : t.hosts()) {
                if (s == d) {
                    continue;
                }
                String[] sp = s.name().substring(1).split("_");
                String[] dp = d.name().substring(1).split("_");
                int expected = !sp[0].equals(dp[0]) ? 6 : !sp[1].equals(dp[1]) ? 4 : 2;
                for (long hash = 0; hash < 8; hash++) {
                    FlowPath p = r.path(s.index(), d.index(), hash * 0x9E3779B97F4A7C15L);
                    assertNotNull(p, s + "->" + d);
                    assertEquals(expected, p.length(), s + "->" + d + " " + p);
                    assertEquals(expected, r.distance(s.index(), r.destinationOf(d.index())));
                    assertEquals(d.index(), p.hops().get(p.hops().size() - 1).node());
                    assertEquals(expected, new TreeSet<>(p.linkIds()).size(), "a link repeats in " + p);
                }
            }
        }
    }

    @Test
    void ecmpSpreadsAcrossAllCoresAndPathsAreExactHops() {
        TreeSet<String> cores = new TreeSet<>();
        for (long hash = 0; hash < 256; hash++) {
            FlowPath p = r.path("h0_0_0", "h1_0_0", hash * 0x9E3779B97F4A7C15L + 1);
            cores.add(p.hops().get(3).name());
        }
        assertEquals(new TreeSet<>(List.of("core0", "core1", "core2", "core3")), cores);
        // Without a choice, the path is fixed and its hops exact.
        FlowPath same = r.path("h0_0_0", "h0_0_1", 12345L);
        assertEquals("h0_0_0>1 - 1>edge0_0>2 - 1>h0_0_1", same.toString());
        assertEquals(List.of(0, 1), same.linkIds());
    }

    @Test
    void deterministicPathTakesLowestPorts() {
        int src = node("h0_0_0");
        int d = dest("h3_1_1");
        int n = src;
        StringBuilder visited = new StringBuilder();
        while (n != node("h3_1_1")) {
            int port = r.egressPort(n, d);
            visited.append(t.node(n).name()).append(':').append(port).append(' ');
            n = t.sendsTo(n, port).node();
        }
        assertEquals("h0_0_0:1 edge0_0:3 agg0_0:3 core0:4 agg3_0:2 edge3_1:2 ", visited.toString());
    }

    @Test
    void routingIsIdenticalAcrossBuilds() {
        Routing again = Routing.of(TopologySpec.parse("builtin:fattree?k=4"));
        assertEquals(r, again);
        for (Node n : t.nodes()) {
            assertEquals(r.describe(n.index()), again.describe(n.index()));
        }
        assertEquals("10.0.0.3/32 h0_0_1 dist=1 ports=[2]\n",
                r.describe(node("edge0_0")).lines().filter(l -> l.contains("h0_0_1")).findFirst().orElseThrow() + "\n");
        for (long h = 0; h < 100; h++) {
            assertEquals(r.path("h0_0_0", "h2_1_0", h), again.path("h0_0_0", "h2_1_0", h));
        }
    }

    @Test
    void lookupMapsHostAddressesAndRejectsOthers() {
        assertEquals(dest("h1_0_1"), r.lookup(0x0A010003));
        assertEquals(Routing.NO_ROUTE, r.lookup(0x0A010009));
        assertEquals(Routing.NO_ROUTE, r.lookup(0xC0A80001));
        assertEquals(r.egressPort(node("agg0_0"), dest("h1_0_1"), 99L), r.route(node("agg0_0"), 0x0A010003, 99L));
    }

    @Test
    void allProgrammableGivesOneVconnPerLinkDirection() {
        List<VConn> v = VConns.vconns(t);
        assertEquals(64, v.size());
        for (VConn c : v) {
            assertEquals(1, c.links().size());
        }
        assertTrue(VConns.neighborhoods(t).isEmpty());
    }

    @Test
    void edgeOnlyProgrammableVconnsCrossTheRegularCore() {
        Topology e = TopologySpec.parse("builtin:fattree?k=4&programmable=edge");
        assertEquals(8, e.programmableSwitches().size());
        assertEquals(12, e.switches().size() - e.programmableSwitches().size());
        List<VConn> v = VConns.vconns(e);
        // Same pod: 8 ordered edge pairs x 2 aggs; other pod: 48 pairs x 2 aggs x 2 cores.
        assertEquals(8 * 2 + 48 * 4, v.size());
        int from = e.nodeIndex("edge0_0");
        int to = e.nodeIndex("edge1_0");
        List<VConn> pair = v.stream().filter(c -> c.from() == from && c.to() == to).toList();
        assertEquals(4, pair.size());
        for (VConn c : pair) {
            assertEquals(4, c.links().size());
            assertEquals(5, c.nodes().size());
            assertTrue(c.fromPort() == 3 || c.fromPort() == 4);
            assertEquals(c.fromPort(), e.link(c.links().get(0)).a().port());
        }
        assertFalse(pair.get(0).links().equals(pair.get(1).links()));
        // A flow's path splits into exactly one of these vconns.
        Routing re = Routing.of(e);
        for (long h = 0; h < 32; h++) {
            FlowPath fp = re.path("h0_0_1", "h1_0_0", h);
            List<VConn> seg = VConns.segments(e, fp);
            assertEquals(1, seg.size());
            assertTrue(pair.contains(seg.get(0)), seg.toString());
            assertEquals(fp.linkIds().subList(1, 5), seg.get(0).links());
        }
        List<Neighborhood> nb = VConns.neighborhoods(e);
        // Aggregation j and cores j*(k/2).. form one plane per j: two components of 2 cores + 4 aggs.
        assertEquals(2, nb.size());
        assertEquals(List.of(e.nodeIndex("core0"), e.nodeIndex("core1"), e.nodeIndex("agg0_0"), e.nodeIndex("agg1_0"),
                e.nodeIndex("agg2_0"), e.nodeIndex("agg3_0")), nb.get(0).switches());
        for (Neighborhood n : nb) {
            assertEquals(6, n.switches().size());
            assertEquals(8, n.programmable().size());
            assertEquals(16, n.links().size());
            assertTrue(n.hosts().isEmpty());
        }
    }
}
