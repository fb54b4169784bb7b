package dev.rmtemu.emulator.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.rmtemu.traces.pcap.PcapWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** No silent failures: each condition prints one warning line, lands in report.json, and --strict makes it exit 5. */
class ReplayWarningsTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String PREFIX = "rmtemu: warning: ";

    private static CliRunner replay(Path out, String... extra) {
        List<String> args = new ArrayList<>(List.of("replay", "--no-progress", "--out", out.toString()));
        args.addAll(List.of(extra));
        return CliRunner.run(args.toArray(String[]::new));
    }

    private static List<String> warningsIn(Path run) throws Exception {
        JsonNode rep = JSON.readTree(Files.readString(run.resolve("report.json")));
        assertTrue(rep.get("complete").asBoolean());
        List<String> w = new ArrayList<>();
        rep.get("warnings").forEach(n -> w.add(n.asText()));
        return w;
    }

    private static List<String> warningLines(CliRunner r) {
        return r.err().lines().filter(l -> l.startsWith(PREFIX)).map(l -> l.substring(PREFIX.length())).toList();
    }

    @Test
    void emptyPcapWarnsAndStrictExitsFive(@TempDir Path tmp) throws Exception {
        Path pcap = tmp.resolve("empty.pcap");
        new PcapWriter(pcap).close();
        String expected = "empty trace: " + pcap + " gave no packets";
        CliRunner lax = replay(tmp.resolve("a"), "--program", "counter", "--trace", pcap.toString());
        assertEquals(0, lax.exit(), lax.err());
        assertEquals(List.of(PREFIX + expected), lax.err().lines().toList());
        assertEquals(List.of(expected), warningsIn(tmp.resolve("a")));

        CliRunner strict = replay(tmp.resolve("b"), "--program", "counter", "--trace", pcap.toString(), "--strict");
        assertEquals(5, strict.exit(), strict.err());
        assertEquals(List.of(expected), warningLines(strict));
        assertTrue(strict.err().contains("rmtemu: --strict: 1 warning(s), exit 5"), strict.err());
        assertEquals(List.of(expected), warningsIn(tmp.resolve("b")));
    }

    @Test
    void emptyGeneratorWarnsInANetworkReplayToo(@TempDir Path tmp) throws Exception {
        CliRunner r = replay(tmp.resolve("n"), "--topology", "builtin:line", "--trace", "gen:isp?packets=0");
        assertEquals(0, r.exit(), r.err());
        List<String> expected = List.of("empty trace: gen:isp?packets=0 gave no packets");
        assertEquals(expected, warningLines(r));
        assertEquals(expected, warningsIn(tmp.resolve("n")));
    }

    @Test
    void everyPacketDroppedAtAPortTheSwitchLacksWarnsNamingTheCause(@TempDir Path tmp) throws Exception {
        CliRunner r = replay(tmp.resolve("d"), "--program", "counter", "--param", "port=100", "--ports", "8",
                "--trace", "gen:isp?packets=500&flows=20", "--json");
        assertEquals(0, r.exit(), r.err());
        String expected = "every packet was dropped: 500 of 500 (no_egress_port 500); no_egress_port: the program chose"
                + " no egress port or one this switch does not have (front-panel ports 0..7, --ports; check"
                + " --param port=N)";
        assertEquals(List.of(expected), warningLines(r));
        assertEquals(expected, JSON.readTree(r.out()).get("warnings").get(0).asText());
        assertEquals(5, replay(tmp.resolve("s"), "--program", "counter", "--param", "port=100", "--ports", "8",
                "--trace", "gen:isp?packets=500&flows=20", "--strict").exit());
    }

    @Test
    void aHealthyRunHasNoWarningsAndStrictExitsZero(@TempDir Path tmp) throws Exception {
        CliRunner r = replay(tmp.resolve("ok"), "--program", "counter", "--param", "port=3", "--ports", "8",
                "--trace", "gen:isp?packets=500&flows=20", "--strict");
        assertEquals(0, r.exit(), r.err());
        assertEquals("", r.err());
        assertEquals(List.of(), warningsIn(tmp.resolve("ok")));
    }

    @Test
    void packetsSentOutOfAnUnlinkedTopologyPortWarnNamingSwitchAndPort(@TempDir Path tmp) throws Exception {
        Path topo = tmp.resolve("t.yaml");
        Files.writeString(topo, String.join("\n",
                "nodes:",
                "  - {name: s1, type: switch, target: tofino1, ports: 4}",
                "  - {name: h1, type: host, address: 10.0.1.1/32, role: source}",
                "  - {name: h2, type: host, address: 10.0.2.1/32, role: sink}",
                "links:",
                "  - {a: h1:1, b: s1:1, latency_ns: 500, rate_gbps: 100}",
                "  - {a: s1:2, b: h2:1, latency_ns: 500, rate_gbps: 100}",
                ""));
        // program port 3 exists on s1 (4 ports), so it is accepted, but topology port 4 has no link
        CliRunner r = replay(tmp.resolve("u"), "--topology", topo.toString(), "--program", "counter",
                "--param", "port=3", "--trace", "gen:isp?packets=300&flows=10", "--rate", "10G");
        assertEquals(0, r.exit(), r.err());
        List<String> expected = List.of(
                "no packet was delivered: 300 injected; switch drops 0, link losses 0, unlinked-port drops 300,"
                        + " hop-limit drops 0",
                "switch s1 sent 300 packets out of topology ports with no link, which lost them: port 4 (300)"
                        + " (program port = topology port - 1)");
        assertEquals(expected, warningLines(r));
        assertEquals(expected, warningsIn(tmp.resolve("u")));
        CliRunner strict = replay(tmp.resolve("v"), "--topology", topo.toString(), "--program", "counter",
                "--param", "port=3", "--trace", "gen:isp?packets=300&flows=10", "--rate", "10G", "--strict");
        assertEquals(5, strict.exit(), strict.err());
        // port 1 of the program is topology port 2, linked to h2: everything arrives, no warning
        CliRunner fine = replay(tmp.resolve("w"), "--topology", topo.toString(), "--program", "counter",
                "--param", "port=1", "--trace", "gen:isp?packets=300&flows=10", "--rate", "10G", "--strict");
        assertEquals(0, fine.exit(), fine.err());
        assertEquals(List.of(), warningsIn(tmp.resolve("w")));
    }
}
