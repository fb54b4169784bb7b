package dev.rmtemu.emulator.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class NetworkReplayCommandTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String TRACE = "gen:isp?packets=20000&flows=500";

    private static JsonNode replay(Path dir, String... extra) throws Exception {
        String[] base = {"replay", "--topology", "builtin:fattree?k=4", "--trace", TRACE, "--rate", "40G",
            "--seed", "5", "--no-progress", "--out", dir.toString()};
        String[] args = new String[base.length + extra.length];
        System.arraycopy(base, 0, args, 0, base.length);
        System.arraycopy(extra, 0, args, base.length, extra.length);
        CliRunner r = CliRunner.run(args);
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().contains("end-to-end latency ns"), r.out());
        return JSON.readTree(Files.readString(dir.resolve("report.json")));
    }

    @Test
    void fatTreeReplayDeliversEverythingAndIsDeterministicApartFromHost(@TempDir Path tmp) throws Exception {
        JsonNode a = replay(tmp.resolve("a"));
        JsonNode b = replay(tmp.resolve("b"));
        JsonNode totals = a.get("network").get("totals");
        assertEquals(20000, a.get("trace").get("packets").asLong());
        assertEquals(20000, totals.get("injected").asLong());
        assertEquals(20000, totals.get("delivered").asLong());
        assertEquals(0, totals.get("in_flight").asLong());
        assertEquals(20, a.get("network").get("switches").size());
        assertEquals(16, a.get("network").get("hosts").size());
        assertTrue(Files.exists(tmp.resolve("a").resolve("network-latency.hgrm")));
        ((ObjectNode) a).remove("host");
        ((ObjectNode) b).remove("host");
        assertEquals(a, b);
    }

    @Test
    void impairedTopologyFileWritesGroundTruthAndCountsLosses(@TempDir Path tmp) throws Exception {
        Path topo = tmp.resolve("t.yaml");
        dev.rmtemu.emulator.LineTopology.write(topo, false, "{loss: \"bernoulli:0.1\"}");
        CliRunner r = CliRunner.run("replay", "--topology", topo.toString(), "--trace", TRACE, "--rate", "10G",
                "--no-progress", "--json", "--out", tmp.resolve("run").toString());
        assertEquals(0, r.exit(), r.err());
        JsonNode rep = JSON.readTree(r.out());
        JsonNode link = rep.get("network").get("links").get(2);
        assertEquals("s1:2", link.get("from").asText());
        long lost = link.get("lost").asLong();
        assertTrue(lost > 1500 && lost < 2500, "lost " + lost);
        assertEquals(20000 - lost, rep.get("network").get("hosts").get("h2").get("delivered").asLong());
        Path gt = tmp.resolve("run").resolve("ground-truth").resolve("link-1-ab.txt");
        assertEquals(lost + 1, Files.readAllLines(gt).size());
    }

    @Test
    void programIsRequiredOnlyWithoutTopology() {
        CliRunner r = CliRunner.run("replay", "--trace", TRACE, "--no-progress");
        assertEquals(2, r.exit());
        assertTrue(r.err().contains("--program is required"), r.err());
        assertFalse(r.err().contains("Exception"), r.err());
    }

    @Test
    void theReadmeLineExampleEndsAsTypedWithItsWarnings(@TempDir Path tmp) throws Exception {
        CliRunner r = org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(java.time.Duration.ofSeconds(60),
                () -> CliRunner.run("replay", "--topology", "builtin:line", "--program", "counter",
                        "--trace", "gen:isp?packets=10", "--no-progress", "--out", tmp.resolve("run").toString()));
        assertEquals(0, r.exit(), r.err());
        assertEquals(List.of("rmtemu: warning: no packet was delivered: 10 injected; switch drops 0, link losses 0,"
                + " unlinked-port drops 0, hop-limit drops 10",
                "rmtemu: warning: forwarding loop: 10 packets dropped as hop_limit after 64 switch hops"
                + " (--max-hops); the loop goes through s1, s2"), r.err().lines().toList());
        JsonNode rep = JSON.readTree(Files.readString(tmp.resolve("run").resolve("report.json")));
        assertEquals(10, rep.get("network").get("totals").get("hop_limit_drops").asLong());
        assertEquals(2, rep.get("warnings").size());
        CliRunner refused = CliRunner.run("replay", "--topology", "builtin:line", "--program", "counter", "--param", "port=2",
                "--trace", "gen:isp?packets=10", "--no-progress", "--out", tmp.resolve("p").toString());
        assertEquals(2, refused.exit());
        assertTrue(refused.err().startsWith("rmtemu: --param port=2: switch s1 of builtin:line has program ports 0..1"),
                refused.err());
        assertEquals(0, CliRunner.run("replay", "--topology", "builtin:line", "--program", "counter", "--max-hops", "3",
                "--trace", "gen:isp?packets=10", "--no-progress", "--out", tmp.resolve("h").toString()).exit());
        CliRunner zero = CliRunner.run("replay", "--topology", "builtin:line", "--max-hops", "0",
                "--trace", "gen:isp?packets=10", "--no-progress", "--out", tmp.resolve("z").toString());
        assertEquals(2, zero.exit());
        assertEquals("rmtemu: --max-hops must be at least 1, got 0", zero.err().strip());
    }
}
