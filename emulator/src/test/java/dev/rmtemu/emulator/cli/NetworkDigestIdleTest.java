package dev.rmtemu.emulator.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.rmtemu.emulator.LineTopology;
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

/**
 * Learning digests and the idle-time sweep in a network replay: both switches of the line
 * h1 - s1 - s2 - h2 run {@code p4/net_learn.p4} (a smac miss sends a digest; smac's entries have
 * an idle timeout; routing forwards). h1 sends from its own address 10.0.1.1 (MAC A) at 0, 1 and
 * 20 ms. s1 knows A, s2 knows B (never seen), each entry with a 10 ms TTL. s2 misses A each time:
 * three digests of switch 1, port 1 (its link to s1), at the cycle its ingress deparser sends
 * them. The sweep at 13 ms (cycle 15,860,000 at 1.22 GHz, every 6.5 ms) is the first to see each
 * entry idle 10 ms: s1's A, last hit by the 1 ms frame after the 500 ns link (1,000,500 ns), and
 * s2's B, never hit since it was installed at 0.
 */
class NetworkDigestIdleTest {
    private static final long MS = 1_000_000L;
    /** HostMac: IPv4 a.b.c.d sends from 02:00:a:b:c:d. */
    private static final long MAC_A = 0x02000A000101L;

    private static PacketRecord packet(long ns, int src) {
        return PacketRecord.allocate().timestampNs(ns).wireLength(100).ipVersion(4).protocol(17)
                .srcIpv4(src).dstIpv4(0x0A000201).srcPort(1000).dstPort(2000);
    }

    @Test
    void eachSwitchSendsItsDigestsAndAgedOutEntriesUnderItsOwnId(@TempDir Path tmp) throws Exception {
        Path program = tmp.resolve("net_learn.p4");
        try (InputStream in = NetworkDigestIdleTest.class.getResourceAsStream("p4/net_learn.p4")) {
            Files.write(program, in.readAllBytes());
        }
        Path topo = LineTopology.write(tmp.resolve("line.yaml"), true);
        Path pcap = tmp.resolve("t.pcap");
        try (PcapWriter w = new PcapWriter(pcap)) {
            w.write(packet(0, 0x0A000101));
            w.write(packet(MS, 0x0A000102));
            w.write(packet(20 * MS, 0x0A000101));
        }
        Path control = tmp.resolve("c.txt");
        Files.writeString(control, """
                on s1 table_add smac NoAction 02:00:0a:00:01:01 =>
                on s1 table_set_timeout smac 0 10
                on s2 table_add smac NoAction 02:00:0a:00:01:02 =>
                on s2 table_set_timeout smac 0 10
                """);
        Path out = tmp.resolve("run");
        CliRunner r = CliRunner.run("replay", "--topology", topo.toString(), "--program", program.toString(), "--trace",
                pcap.toString(), "--control", control.toString(), "--out", out.toString(), "--no-progress", "--threads", "2");
        assertEquals(0, r.exit(), r.err());

        CliRunner json = CliRunner.run("collect", "--journal", out.toString(), "--json");
        assertEquals(0, json.exit(), json.err());
        ObjectMapper m = new ObjectMapper();
        List<String> digests = new ArrayList<>();
        List<String> aged = new ArrayList<>();
        for (String line : json.out().split("\n")) {
            JsonNode n = m.readTree(line);
            String kind = n.path("kind").asText();
            if ("digest.learn".equals(kind)) {
                digests.add(n.path("switch").asInt() + " " + n.path("cycle").asLong() + " " + n.path("message"));
            } else if ("table.aged_out".equals(kind)) {
                aged.add(n.path("switch").asInt() + " " + n.path("cycle").asLong() + " " + n.path("message"));
            }
        }
        String learnA = " {\"src_mac\":" + MAC_A + ",\"port\":1}";
        assertEquals(List.of("1 3438" + learnA, "1 1223438" + learnA, "1 24403438" + learnA), digests, json.out());
        assertEquals(List.of(
                "0 15860000 {\"table\":\"smac\",\"handle\":0,\"last_hit_ns\":1000500,\"ttl_ns\":10000000}",
                "1 15860000 {\"table\":\"smac\",\"handle\":0,\"last_hit_ns\":0,\"ttl_ns\":10000000}"), aged, json.out());
    }

    /**
     * Digests are journal messages in event order, so a switch that sends them keeps the network on
     * one thread (with the same journal whatever --threads says), and the run says why.
     */
    @Test
    void aSwitchSendingDigestsKeepsTheNetworkOnOneThread(@TempDir Path tmp) throws Exception {
        String text;
        try (InputStream in = NetworkDigestIdleTest.class.getResourceAsStream("p4/net_learn.p4")) {
            text = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        }
        Path program = tmp.resolve("net_learn.p4");
        Files.writeString(program, text.replace("        idle_timeout = true;\n", ""));
        Path topo = LineTopology.write(tmp.resolve("line.yaml"), true);
        Path pcap = tmp.resolve("t.pcap");
        try (PcapWriter w = new PcapWriter(pcap)) {
            w.write(packet(0, 0x0A000101));
        }
        CliRunner r = CliRunner.run("replay", "--topology", topo.toString(), "--program", program.toString(), "--trace",
                pcap.toString(), "--out", tmp.resolve("run").toString(), "--no-progress", "--threads", "2");
        assertEquals(0, r.exit(), r.err());
        assertEquals("rmtemu: warning: --threads 2: switch s1 sends learning digests to the export journal, in event order;"
                + " running on one thread", r.err().strip());
        CliRunner json = CliRunner.run("collect", "--journal", tmp.resolve("run").toString(), "--json");
        assertEquals(true, json.out().contains("{\"summary\":\"digest.learn\",\"messages\":2,"), json.out());
    }
}
