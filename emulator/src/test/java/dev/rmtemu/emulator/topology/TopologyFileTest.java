package dev.rmtemu.emulator.topology;

import dev.rmtemu.model.UserError;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TopologyFileTest {
    static final String YAML = """
            defaults:
              latency_ns: 500
            nodes:
              - name: s1
                type: switch
                target: tofino1
                ports: 8
                program: wbmon
                params: {window: 1024, mode: fast}
              - name: r1
                type: regular
                ports: 4
              - {name: h1, type: host, address: 10.0.1.2/32}
              - {name: h2, type: host, address: 10.0.2.0/24, role: sink}
            links:
              - {a: "h1:1", b: "s1:1", rate_gbps: 100}
              - a: s1:2
                b: r1:1
                latency_ns: 2000
                rate_gbps: 40
                impair_ab: {loss: "gilbert:p=0.01,r=0.3", blackhole: "dst=10.0.2.0/24,from=1ms,to=5ms"}
                impair_ba: {dup: "0.001"}
              - {a: r1:2, b: h2:1, rate_gbps: 10, impair: {reorder: "p=0.1,sigma=0.75"}}
              - {a: r1:3, b: s1:3, rate_gbps: 2.5, directed: true, impair: {dup: "0.01"}}
            """;

    static final String JSON = """
            {"nodes": [
              {"name": "s1", "type": "switch", "target": "tofino1", "ports": 8, "program": "wbmon",
               "params": {"window": "1024", "mode": "fast"}},
              {"name": "r1", "type": "regular", "ports": 4},
              {"name": "h1", "type": "host", "address": "10.0.1.2", "role": "both"},
              {"name": "h2", "type": "host", "address": "10.0.2.0/24", "role": "sink"}],
             "links": [
              {"a": "h1:1", "b": "s1:1", "latency_ns": 500, "rate_gbps": 100.0},
              {"a": "s1:2", "b": "r1:1", "latency_ns": "2000", "rate_gbps": 40,
               "impair_ab": {"loss": "gilbert:p=0.01,r=0.3", "blackhole": "dst=10.0.2.0/24,from=1ms,to=5ms"},
               "impair_ba": {"dup": "0.001"}},
              {"a": "r1:2", "b": "h2:1", "latency_ns": 500, "rate_gbps": 10,
               "impair_ab": {"reorder": "p=0.1,sigma=0.75"}, "impair_ba": {"reorder": "p=0.1,sigma=0.75"}},
              {"a": "r1:3", "b": "s1:3", "latency_ns": 500, "rate_gbps": 2.5, "directed": true,
               "impair": {"dup": "0.01"}}]}
            """;

    private static Topology yaml(String text) {
        return TopologyFile.parse(text, "topo.yaml", TopologyFile.Format.YAML);
    }

    private static String yamlError(String text) {
        return assertThrows(UserError.class, () -> yaml(text)).getMessage();
    }

    @Test
    void yamlAndJsonGiveEqualModels() {
        Topology y = yaml(YAML);
        Topology j = TopologyFile.parse(JSON, "topo.json", TopologyFile.Format.JSON);
        assertEquals(y, j);
        assertEquals("topo.yaml", y.source());
        Link l1 = y.link(1);
        assertEquals(2000, l1.latencyNs());
        assertEquals(40.0, l1.rateGbps());
        assertEquals(List.of("loss", "blackhole"), List.copyOf(l1.impairAtoB().asMap().keySet()));
        assertEquals("dst=10.0.2.0/24,from=1ms,to=5ms", l1.impairAtoB().get("blackhole"));
        assertEquals("0.001", l1.impairmentsFrom(y.nodeIndex("r1"), 1).get("dup"));
        Link l2 = y.link(2);
        assertTrue(l2.bidirectional());
        assertEquals(l2.impairAtoB(), l2.impairBtoA());
        assertEquals(500, l2.latencyNs());
        Link l3 = y.link(3);
        assertFalse(l3.bidirectional());
        assertEquals("0.01", l3.impairAtoB().get("dup"));
        assertTrue(l3.impairBtoA().isEmpty());
        assertEquals(2.5, l3.rateGbps());
        Node s1 = y.node("s1");
        assertEquals("wbmon", s1.program());
        assertEquals("1024", s1.params().get("window"));
        assertEquals(HostRole.SINK, y.node("h2").role());
        assertEquals(HostRole.BOTH, y.node("h1").role());
    }

    @Test
    void impairmentOrderIsPartOfEquality() {
        Topology swapped = yaml(YAML.replace(
                "{loss: \"gilbert:p=0.01,r=0.3\", blackhole: \"dst=10.0.2.0/24,from=1ms,to=5ms\"}",
                "{blackhole: \"dst=10.0.2.0/24,from=1ms,to=5ms\", loss: \"gilbert:p=0.01,r=0.3\"}"));
        assertFalse(swapped.equals(yaml(YAML)));
    }

    @Test
    void unidirectionalLinksRouteOneWay() {
        Topology t = yaml(YAML);
        Routing r = Routing.of(t);
        int h1 = r.destinationOf(t.nodeIndex("h1"));
        int h2 = r.destinationOf(t.nodeIndex("h2"));
        // s1:3 only receives (r1:3 -> s1:3), so s1 has one way to h2 and r1 two ways to h1.
        assertEquals(2, r.egressPort(t.nodeIndex("s1"), h2));
        assertEquals(1, r.groupSize(t.nodeIndex("s1"), h2));
        assertEquals("[1, 3]", java.util.Arrays.toString(r.group(t.nodeIndex("r1"), h1)));
        java.util.TreeSet<String> back = new java.util.TreeSet<>();
        for (long hash = 0; hash < 64; hash++) {
            assertEquals("h1>1 - 1>s1>2 - 1>r1>2 - 1>h2", r.path("h1", "h2", hash).toString());
            back.add(r.path("h2", "h1", hash).toString());
        }
        assertEquals(java.util.Set.of("h2>1 - 2>r1>1 - 2>s1>1 - 1>h1", "h2>1 - 2>r1>3 - 3>s1>1 - 1>h1"), back);
    }

    @Test
    void writtenFilesReadBackEqual() {
        for (String spec : List.of("builtin:fattree?k=4&programmable=edge,core", "builtin:abilene", "builtin:chain")) {
            Topology t = TopologySpec.parse(spec);
            for (TopologyFile.Format f : TopologyFile.Format.values()) {
                String text = TopologyFile.write(t, f);
                assertEquals(t, TopologyFile.parse(text, "x", f), spec + " " + f);
                assertEquals(text, TopologyFile.write(TopologyFile.parse(text, "x", f), f));
            }
        }
        Topology y = yaml(YAML);
        assertEquals(y, TopologyFile.parse(TopologyFile.write(y, TopologyFile.Format.JSON), "x", TopologyFile.Format.JSON));
    }

    @Test
    void readsFilesByExtension(@TempDir Path dir) throws IOException {
        Path y = dir.resolve("net.yml");
        Files.writeString(y, YAML);
        Path j = dir.resolve("net.json");
        Files.writeString(j, JSON);
        assertEquals(TopologySpec.parse(y.toString()), TopologySpec.parse(j.toString()));
        Path bad = dir.resolve("net.txt");
        Files.writeString(bad, YAML);
        assertEquals(bad + ": unknown topology file extension (use .json, .yaml or .yml)",
                assertThrows(UserError.class, () -> TopologySpec.parse(bad.toString())).getMessage());
        Path missing = dir.resolve("none.yaml");
        String msg = assertThrows(UserError.class, () -> TopologySpec.parse(missing.toString())).getMessage();
        assertTrue(msg.startsWith(missing + ": cannot read topology file (NoSuchFileException"), msg);
        Files.writeString(y, YAML.replace("r1:3", "r1:9"));
        assertEquals(y + ": links[3]: port r1:9 out of range (r1 has 4 ports)",
                assertThrows(UserError.class, () -> TopologySpec.parse(y.toString())).getMessage());
    }

    @Test
    void semanticErrorsNameFileAndElement() {
        assertEquals("topo.yaml: links[0]: port s1:9 out of range (s1 has 8 ports)",
                yamlError(YAML.replace("b: \"s1:1\"", "b: \"s1:9\"")));
        assertEquals("topo.yaml: links[1]: unknown node 'rx' in endpoint rx:1",
                yamlError(YAML.replace("b: r1:1", "b: rx:1")));
        assertEquals("topo.yaml: links[1]: port s1:1 already used by links[0]",
                yamlError(YAML.replace("a: s1:2", "a: s1:1")));
        assertEquals("topo.yaml: nodes[1]: duplicate node name 's1' (also nodes[0])",
                yamlError(YAML.replace("name: r1", "name: s1")));
        assertEquals("topo.yaml: nodes[4]: host h3 is not connected to any link",
                yamlError(YAML.replace("links:", "  - {name: h3, type: host, address: 10.0.3.1}\nlinks:")));
        assertEquals("topo.yaml: nodes[1]: ports 0 of r1 not in 1..1024",
                yamlError(YAML.replace("ports: 4", "ports: 0")));
        assertEquals("topo.yaml: nodes[3]: address 10.0.1.2/32 of h2 already owned by host h1",
                yamlError(YAML.replace("10.0.2.0/24", "10.0.1.2")));
        assertEquals("topo.yaml: links[2]: links host h1 to host h2 (hosts attach to switches)",
                yamlError(YAML.replace("{a: r1:2, b: h2:1", "{a: h1:1, b: h2:1")));
        assertEquals("topo.yaml: links[3]: unidirectional link r1:3 -> s1:3 has impairments for s1:3 -> r1:3",
                yamlError(YAML.replace("directed: true, impair:", "directed: true, impair_ba:")));
        String island = """
                nodes:
                  - {name: s1, type: regular, ports: 1}
                  - {name: s2, type: regular, ports: 1}
                  - {name: h1, type: host, address: 10.0.0.1}
                  - {name: h2, type: host, address: 10.0.0.2}
                links:
                  - {a: h1:1, b: s1:1, latency_ns: 1, rate_gbps: 1}
                  - {a: h2:1, b: s2:1, latency_ns: 1, rate_gbps: 1}
                """;
        assertEquals("topo.yaml: nodes[3]: host h2 cannot reach host h1 (the topology is disconnected)",
                yamlError(island));
    }

    @Test
    void shapeErrorsNameFileAndElement() {
        assertEquals("topo.yaml: nodes[1]: missing field 'ports'", yamlError(YAML.replace("    ports: 4\n", "")));
        assertEquals("topo.yaml: nodes[0]: missing field 'target'",
                yamlError(YAML.replace("    target: tofino1\n", "")));
        assertEquals("topo.yaml: links[0]: bad number 'fast' for 'rate_gbps'",
                yamlError(YAML.replace("rate_gbps: 100}", "rate_gbps: fast}")));
        assertEquals("topo.yaml: links[1]: bad number '2e3x' for 'latency_ns' (expected an integer)",
                yamlError(YAML.replace("latency_ns: 2000", "latency_ns: 2e3x")));
        assertEquals("topo.yaml: links[1]: bad number '2.5' for 'latency_ns' (expected an integer)",
                yamlError(YAML.replace("latency_ns: 2000", "latency_ns: 2.5")));
        assertEquals("topo.yaml: links[0]: missing field 'latency_ns' (and no defaults.latency_ns)",
                yamlError(YAML.replace("defaults:\n  latency_ns: 500\n", "")));
        assertEquals("topo.yaml: links[0]: unknown field 'rate' (allowed: a, b, directed, impair, impair_ab, "
                + "impair_ba, latency_ns, rate_gbps)", yamlError(YAML.replace("rate_gbps: 100}", "rate: 100}")));
        assertEquals("topo.yaml: nodes[2]: unknown type 'server' (use switch, regular or host)",
                yamlError(YAML.replace("{name: h1, type: host", "{name: h1, type: server")));
        assertEquals("topo.yaml: nodes[2]: bad address: '10.0.1.2/24' has host bits set (network is 10.0.1.0/24)",
                yamlError(YAML.replace("10.0.1.2/32", "10.0.1.2/24")));
        assertEquals("topo.yaml: links[0]: bad endpoint 'h1' in 'a' (expected node:port)",
                yamlError(YAML.replace("a: \"h1:1\"", "a: h1")));
        assertEquals("topo.yaml: missing field 'links'", yamlError(YAML.substring(0, YAML.indexOf("links:"))));
        assertEquals("topo.yaml: links[2]: bad impairment key '1loss'",
                yamlError(YAML.replace("impair: {reorder:", "impair: {1loss:")));
        assertEquals("topo.yaml: links[1]: rate_gbps 0.0 must be a positive finite number",
                yamlError(YAML.replace("rate_gbps: 40", "rate_gbps: 0")));
    }

    @Test
    void syntaxErrorsAreOneLineWithPosition() {
        String msg = assertThrows(UserError.class,
                () -> TopologyFile.parse("{\"nodes\": [}", "t.json", TopologyFile.Format.JSON)).getMessage();
        assertTrue(msg.startsWith("t.json: line 1, column 12: syntax error: "), msg);
        assertFalse(msg.contains("\n"), msg);
        String dup = assertThrows(UserError.class, () -> yaml(YAML.replace("{dup: \"0.001\"}",
                "{dup: \"0.001\", dup: \"0.002\"}"))).getMessage();
        assertTrue(dup.startsWith("topo.yaml: line ") && dup.contains("Duplicate field 'dup'"), dup);
        assertEquals("topo.yaml: empty topology file", yamlError(""));
    }
}
