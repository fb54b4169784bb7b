package dev.rmtemu.emulator.topology;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class AbileneTest {
    @Test
    void backboneHas11PopsAnd14Links() {
        Topology bare = TopologySpec.parse("builtin:abilene?hosts=0");
        assertEquals(11, bare.nodes().size());
        assertEquals(14, bare.links().size());
        assertEquals(Abilene.popCodes(), bare.nodes().stream().map(Node::name).toList());
        int degreeSum = 0;
        for (Node n : bare.nodes()) {
            degreeSum += n.ports();
        }
        assertEquals(28, degreeSum);
        assertEquals(3, bare.node("KSCY").ports());   // DNVR, HSTN, IPLS
        assertEquals(2, bare.node("NYCM").ports());   // CHIN, WASH
    }

    @Test
    void latenciesApproximateCityDistancesInFibre() {
        // Great-circle distances (km): NY-Washington ~330, LA-Sunnyvale ~500, Seattle-Denver ~1640.
        assertInRange(Abilene.distanceKm("NYCM", "WASH"), 320, 340);
        assertInRange(Abilene.distanceKm("LOSA", "SNVA"), 490, 515);
        assertInRange(Abilene.distanceKm("STTL", "DNVR"), 1620, 1660);
        Topology t = TopologySpec.parse("builtin:abilene?hosts=0");
        for (Link l : t.links()) {
            assertEquals(Abilene.latencyNs(l.a().name(), l.b().name()), l.latencyNs());
            assertEquals(10.0, l.rateGbps());
            assertTrue(l.latencyNs() > 1_000_000 && l.latencyNs() < 12_000_000, l.toString());
        }
        assertInRange(Abilene.distanceKm("HSTN", "LOSA"), 2150, 2250); // the longest link, ~11 ms
        // Same numbers on every build (StrictMath).
        assertEquals(t, TopologySpec.parse("builtin:abilene?hosts=0"));
    }

    private static void assertInRange(double v, double lo, double hi) {
        assertTrue(v >= lo && v <= hi, v + " not in [" + lo + ", " + hi + "]");
    }

    @Test
    void routingUsesHopCountAndEcmpOnEqualHops() {
        Topology t = TopologySpec.parse("builtin:abilene");
        assertEquals(22, t.nodes().size());
        assertEquals(25, t.links().size());
        assertEquals("10.9.1.0/24", t.node("hSNVA1").address().toString());
        Routing r = Routing.of(t);
        // Seattle to New York: STTL-DNVR-KSCY-IPLS-CHIN-NYCM plus two access links.
        FlowPath p = r.path("hSTTL1", "hNYCM1", 0L);
        assertEquals(7, p.length());
        assertEquals(List.of("hSTTL1", "STTL", "DNVR", "KSCY", "IPLS", "CHIN", "NYCM", "hNYCM1"),
                p.hops().stream().map(Hop::name).toList());
        // Houston to Indianapolis: via Kansas City or Atlanta, both two hops.
        int hstn = t.nodeIndex("HSTN");
        int ipls = r.destinationOf(t.nodeIndex("hIPLS1"));
        assertEquals(2, r.groupSize(hstn, ipls));
        TreeSet<String> via = new TreeSet<>();
        for (long h = 0; h < 64; h++) {
            via.add(r.path("hHSTN1", "hIPLS1", h).hops().get(2).name());
        }
        assertEquals(new TreeSet<>(List.of("ATLA", "KSCY")), via);
        for (Node a : t.hosts()) {
            for (Node b : t.hosts()) {
                assertNotNull(r.path(a.index(), b.index(), 42L));
            }
        }
        assertEquals(r.destinationOf(t.nodeIndex("hWASH1")), r.lookup(0x0A0B01FE));
    }

    @Test
    void programmablePopsSplitTheBackboneIntoNeighbourhoods() {
        Topology t = TopologySpec.parse("builtin:abilene?programmable=KSCY,IPLS");
        assertEquals(2, t.programmableSwitches().size());
        List<Neighborhood> nb = VConns.neighborhoods(t);
        // Removing KSCY and IPLS leaves west (STTL SNVA LOSA DNVR HSTN ATLA WASH NYCM CHIN) connected via HSTN-ATLA.
        assertEquals(1, nb.size());
        assertEquals(9, nb.get(0).switches().size());
        assertEquals(9, nb.get(0).hosts().size());
        List<VConn> v = VConns.vconns(t);
        assertTrue(v.stream().anyMatch(c -> c.from() == t.nodeIndex("KSCY") && c.to() == t.nodeIndex("IPLS")
                && c.links().size() == 1));
        for (VConn c : v) {
            for (int i = 1; i < c.nodes().size() - 1; i++) {
                assertTrue(t.node(c.nodes().get(i)).isRegular());
            }
        }
    }
}
