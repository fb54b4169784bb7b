package dev.rmtemu.emulator.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.rmtemu.traces.PacketRecord;
import dev.rmtemu.traces.pcap.PcapWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Idle timeout through a P4 program ({@code p4/idle_routes.p4}: an LPM table with
 * {@code idle_timeout = true} laid out as an Alpm) on tofino1 (1.22 GHz; the idle-time sweep
 * every 6.5 ms = 7,930,000 cycles, mau.idleSweepIntervalNs): two routes get a TTL of 10 ms
 * ({@code table_set_timeout}) before the run. 10.0.2.0/24 is hit once, at 2 ms: the sweep at
 * 13 ms (cycle 15,860,000) is the first that sees it idle for 10 ms, and reports it once.
 * 10.0.1.0/24 is hit every 5 ms until 30 ms and is never reported; the sweep at 32.5 ms comes
 * after the run's last event and does not run (nor stretch the run, nor warn).
 */
class IdleTimeoutTest {
    private static final long MS = 1_000_000L;

    private static PacketRecord packet(long ns, int dst) {
        return PacketRecord.allocate().timestampNs(ns).wireLength(100).ipVersion(4).protocol(17)
                .srcIpv4(0x0A000001).dstIpv4(dst).srcPort(1000).dstPort(2000);
    }

    @Test
    void anEntryAgesOutAtTheSweepThatSeesItsTtlAndHitsKeepAnotherAlive(@TempDir Path tmp) throws Exception {
        Path program = tmp.resolve("idle_routes.p4");
        try (InputStream in = IdleTimeoutTest.class.getResourceAsStream("p4/idle_routes.p4")) {
            Files.write(program, in.readAllBytes());
        }
        Path pcap = tmp.resolve("t.pcap");
        try (PcapWriter w = new PcapWriter(pcap)) {
            for (long t = 0; t <= 30; t += 5) {
                w.write(packet(t * MS, 0x0A000105));       // 10.0.1.5
                if (t == 0) {
                    w.write(packet(2 * MS, 0x0A000205));   // 10.0.2.5, once
                }
            }
        }
        Path control = tmp.resolve("c.txt");
        Files.writeString(control, """
                table_add routes set_port 10.0.1.0/24 => 1
                table_add routes set_port 10.0.2.0/24 => 2
                table_set_timeout routes 0 10
                table_set_timeout routes 1 10
                """);
        Path out = tmp.resolve("run");
        CliRunner r = CliRunner.run("replay", "--program", program.toString(), "--target", "tofino1", "--trace", pcap.toString(),
                "--control", control.toString(), "--out", out.toString(), "--no-progress");
        assertEquals(0, r.exit(), r.err());
        assertEquals("", r.err(), "no warning about the sweep that came after the run");

        CliRunner json = CliRunner.run("collect", "--journal", out.toString(), "--json");
        assertEquals(0, json.exit(), json.err());
        ObjectMapper m = new ObjectMapper();
        List<JsonNode> aged = new ArrayList<>();
        for (String line : json.out().split("\n")) {
            JsonNode n = m.readTree(line);
            if ("table.aged_out".equals(n.path("kind").asText())) {
                aged.add(n);
            }
        }
        assertEquals(1, aged.size(), json.out());
        assertEquals(15_860_000L, aged.get(0).path("cycle").asLong());
        assertEquals("{\"table\":\"routes\",\"handle\":1,\"last_hit_ns\":2000000,\"ttl_ns\":10000000}",
                aged.get(0).path("message").toString());
        assertTrue(json.out().contains("{\"summary\":\"table.aged_out\",\"messages\":1,"), json.out());
    }

    /**
     * The P4 table's resources: a pre-classifier of 1024 x 2 entries (4 TCAMs, 1 indirection RAM for
     * the 10-bit index), the ATCAM (entry 2 x 32 + 4 + 9 b of port = 77 b: 3 a row in 2 RAMs, ceil(8 / 3)
     * = 3 deep: 6 RAMs) and its 3-bit idle time over 3 x 3 x 1024 entries, 2 a word: 5 map RAMs.
     */
    @Test
    void theAlpmAndItsIdleTimeAreInTheResources(@TempDir Path tmp) throws Exception {
        Path program = tmp.resolve("idle_routes.p4");
        try (InputStream in = IdleTimeoutTest.class.getResourceAsStream("p4/idle_routes.p4")) {
            Files.write(program, in.readAllBytes());
        }
        CliRunner r = CliRunner.run("resources", "-p", program.toString(), "-t", "tofino1", "--json");
        assertEquals(0, r.exit(), r.err());
        List<String> rows = new ArrayList<>();
        for (JsonNode t : new ObjectMapper().readTree(r.out()).at("/resources/mau/tables")) {
            rows.add(t.path("name").asText() + " " + t.path("kind").asText() + " rams " + t.at("/rams/total").asLong()
                    + " tcams " + t.path("tcams").asLong());
        }
        assertEquals(List.of("routes__alpm_preclassifier alpm_preclassifier rams 1 tcams 4", "routes alpm rams 6 tcams 0",
                "routes idletime rams 5 tcams 0"), rows);
        CliRunner text = CliRunner.run("resources", "-p", program.toString(), "-t", "tofino1");
        assertTrue(text.out().contains("Per pipe: 7 RAMs and 4 TCAMs;"), text.out()); // idle time is in map RAMs
    }

    @Test
    void aTtlNeedsATableWithAnIdleTimeoutAndAnEntryTheScriptAdded(@TempDir Path tmp) throws Exception {
        Path program = tmp.resolve("idle_routes.p4");
        try (InputStream in = IdleTimeoutTest.class.getResourceAsStream("p4/idle_routes.p4")) {
            Files.write(program, in.readAllBytes());
        }
        Path control = tmp.resolve("c.txt");
        Files.writeString(control, "table_add routes set_port 10.0.1.0/24 => 1\ntable_set_timeout routes 3 10\n");
        CliRunner r = CliRunner.run("replay", "--program", program.toString(), "--target", "tofino1", "--trace",
                "gen:isp?packets=10&seed=1", "--control", control.toString(), "--out", tmp.resolve("run").toString(),
                "--no-progress");
        assertEquals(2, r.exit());
        assertEquals("rmtemu: " + control + ":2: table routes has no entry with handle 3 (handles: 0)\n", r.err());
        Files.writeString(control, "table_add routes set_port 10.0.1.0/24 => 1\ntable_set_timeout routes 0 0\n");
        r = CliRunner.run("replay", "--program", program.toString(), "--target", "tofino1", "--trace",
                "gen:isp?packets=10&seed=1", "--control", control.toString(), "--out", tmp.resolve("run").toString(),
                "--no-progress");
        assertEquals(2, r.exit());
        assertEquals("rmtemu: " + control + ":2: TTL '0' is not a number of milliseconds (1..4294967295)\n", r.err());
    }
}
