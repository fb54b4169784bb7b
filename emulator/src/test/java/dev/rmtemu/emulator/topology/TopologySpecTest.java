package dev.rmtemu.emulator.topology;

import dev.rmtemu.model.UserError;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TopologySpecTest {
    private static String error(String spec) {
        return assertThrows(UserError.class, () -> TopologySpec.parse(spec)).getMessage();
    }

    @Test
    void singleSwitchWithHosts() {
        Topology t = TopologySpec.parse("builtin:single?hosts=3&target=tofino2&program=hashpipe&latency_ns=250&rate_gbps=40");
        assertEquals(List.of("s1", "h1", "h2", "h3"), t.nodes().stream().map(Node::name).toList());
        assertEquals("tofino2", t.node("s1").target());
        assertEquals("hashpipe", t.node("s1").program());
        assertEquals(3, t.node("s1").ports());
        assertEquals("10.0.0.3/32", t.node("h3").address().toString());
        assertEquals(250, t.link(2).latencyNs());
        assertEquals(40.0, t.link(2).rateGbps());
        assertEquals(4, TopologySpec.parse("builtin:single").hosts().size());
        assertNull(TopologySpec.parse("builtin:single").node("s1").program());
    }

    @Test
    void lineHasHostsPerSide() {
        Topology t = TopologySpec.parse("builtin:line");
        assertEquals(List.of("s1", "s2", "h1", "h2"), t.nodes().stream().map(Node::name).toList());
        assertEquals("h1>1 - 1>s1>2 - 2>s2>1 - 1>h2", Routing.of(t).path("h1", "h2", 0L).toString());
        Topology t3 = TopologySpec.parse("builtin:line?hosts=3");
        assertEquals(8, t3.nodes().size());
        assertEquals(7, t3.links().size());
        assertEquals("10.0.2.3/32", t3.node("h6").address().toString());
    }

    @Test
    void builtinErrorsAreOneLine() {
        assertEquals("builtin:torus: unknown built-in topology 'torus' (known: abilene, chain, fattree, line, single)",
                error("builtin:torus"));
        assertEquals("builtin:fattree?k=5: k=5 must be even", error("builtin:fattree?k=5"));
        assertEquals("builtin:fattree?k=26: k=26 not in 2..24", error("builtin:fattree?k=26"));
        assertEquals("builtin:fattree?k=four: bad number 'four' for 'k'", error("builtin:fattree?k=four"));
        assertEquals("builtin:fattree?pods=4: unknown parameter 'pods' (allowed: k, latency_ns, program, "
                + "programmable, rate_gbps, target)", error("builtin:fattree?pods=4"));
        assertEquals("builtin:fattree?programmable=edge,spine: bad value 'spine' in programmable "
                + "(allowed: agg, core, edge, none)", error("builtin:fattree?programmable=edge,spine"));
        assertEquals("builtin:chain?regular=2&regular=3: parameter 'regular' given twice",
                error("builtin:chain?regular=2&regular=3"));
        assertEquals("builtin:single?rate_gbps=0: rate_gbps=0 must be a positive number",
                error("builtin:single?rate_gbps=0"));
        assertEquals("builtin:single?hosts: bad parameter 'hosts' (expected key=value)", error("builtin:single?hosts"));
        assertEquals("builtin:abilene?programmable=all,KSCY: programmable=all or none cannot be combined with PoP names",
                error("builtin:abilene?programmable=all,KSCY"));
        assertTrue(error("").startsWith("empty topology spec"));
    }

    @Test
    void fatTreeLayersCanBeRegular() {
        Topology t = TopologySpec.parse("builtin:fattree?k=4&programmable=edge,core");
        assertTrue(t.node("edge1_1").isProgrammable());
        assertTrue(t.node("core2").isProgrammable());
        assertTrue(t.node("agg1_1").isRegular());
        assertEquals(0, TopologySpec.parse("builtin:fattree?programmable=none").programmableSwitches().size());
        Topology k8 = TopologySpec.parse("builtin:fattree?k=8");
        assertEquals(80, k8.switches().size());
        assertEquals(128, k8.hosts().size());
        assertEquals(128 + 128 + 128, k8.links().size());
    }
}
