package dev.rmtemu.emulator.topology;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ChainTest {
    @Test
    void defaultChainHasTwoProgrammableEndsAndThreeRegulars() {
        Topology t = TopologySpec.parse("builtin:chain");
        assertEquals(List.of("m1", "r1_1", "r1_2", "r1_3", "m2", "h1_1", "h2_1"),
                t.nodes().stream().map(Node::name).toList());
        assertEquals(6, t.links().size());
        assertTrue(t.node("m1").isProgrammable());
        assertTrue(t.node("r1_2").isRegular());
        assertEquals("tofino1", t.node("m2").target());
        Routing r = Routing.of(t);
        FlowPath p = r.path("h1_1", "h2_1", 0L);
        assertEquals("h1_1>1 - 1>m1>3 - 1>r1_1>2 - 1>r1_2>2 - 1>r1_3>2 - 2>m2>1 - 1>h2_1", p.toString());
        assertEquals(List.of(0, 1, 2, 3, 4, 5), p.linkIds());
    }

    @Test
    void vconnsRunBothWaysThroughTheRegularSwitches() {
        Topology t = TopologySpec.parse("builtin:chain?regular=3");
        List<VConn> v = VConns.vconns(t);
        assertEquals(2, v.size());
        int m1 = t.nodeIndex("m1");
        int m2 = t.nodeIndex("m2");
        assertEquals(new VConn(m1, m2, 3, 2, List.of(m1, 1, 2, 3, m2), List.of(1, 2, 3, 4)), v.get(0));
        assertEquals(new VConn(m2, m1, 2, 3, List.of(m2, 3, 2, 1, m1), List.of(4, 3, 2, 1)), v.get(1));
        List<Neighborhood> nb = VConns.neighborhoods(t);
        assertEquals(List.of(new Neighborhood(0, List.of(1, 2, 3), List.of(m1, m2), List.of(), List.of(1, 2, 3, 4))), nb);
    }

    @Test
    void longerChainStopsVconnsAtEachProgrammableSwitch() {
        Topology t = TopologySpec.parse("builtin:chain?m=3&regular=2&hosts=2");
        List<String> names = VConns.vconns(t).stream()
                .map(c -> t.node(c.from()).name() + ">" + t.node(c.to()).name() + c.links()).toList();
        // m1 (ports 1,2 hosts; 3 left; 4 right); links: 2 host links, 3 chain links, 2 host links, 3 chain links, 2 host links.
        assertEquals(List.of("m1>m2[2, 3, 4]", "m2>m1[4, 3, 2]", "m2>m3[7, 8, 9]", "m3>m2[9, 8, 7]"), names);
        List<Neighborhood> nb = VConns.neighborhoods(t);
        assertEquals(2, nb.size());
        assertEquals(List.of(t.nodeIndex("m2"), t.nodeIndex("m3")), nb.get(1).programmable());
        // h1_1 - m1 - r1_1 - r1_2 - m2 - r2_1 - r2_2 - m3 - h3_2
        FlowPath fp = Routing.of(t).path("h1_1", "h3_2", 5L);
        assertEquals(8, fp.length());
        assertEquals(List.of("m1>m2[2, 3, 4]", "m2>m3[7, 8, 9]"), VConns.segments(t, fp).stream()
                .map(c -> t.node(c.from()).name() + ">" + t.node(c.to()).name() + c.links()).toList());
        Link l3 = t.link(3);
        assertEquals(0, l3.directionFrom(t.nodeIndex("r1_1"), 2));
        assertEquals(1, l3.directionFrom(t.nodeIndex("r1_2"), 1));
    }

    @Test
    void noRegularSwitchesGivesDirectVconns() {
        Topology t = TopologySpec.parse("builtin:chain?regular=0");
        List<VConn> v = VConns.vconns(t);
        assertEquals(2, v.size());
        assertEquals(List.of(1), v.get(0).links());
        assertTrue(VConns.neighborhoods(t).isEmpty());
    }

    @Test
    void sinkOnlyAndSourceOnlyHostsLimitVconnsToTheUsedDirection() {
        String yaml = """
                nodes:
                  - {name: a, type: switch, target: tofino1, ports: 2}
                  - {name: r, type: regular, ports: 2}
                  - {name: b, type: switch, target: tofino1, ports: 2}
                  - {name: src, type: host, address: 10.0.0.1, role: source}
                  - {name: dst, type: host, address: 10.0.0.2, role: sink}
                defaults: {latency_ns: 10, rate_gbps: 10}
                links:
                  - {a: src:1, b: a:1}
                  - {a: a:2, b: r:1}
                  - {a: r:2, b: b:2}
                  - {a: dst:1, b: b:1}
                """;
        Topology t = TopologyFile.parse(yaml, "t.yaml", TopologyFile.Format.YAML);
        List<VConn> v = VConns.vconns(t);
        assertEquals(1, v.size());
        assertEquals(t.nodeIndex("a"), v.get(0).from());
        assertFalse(v.get(0).links().isEmpty());
    }
}
