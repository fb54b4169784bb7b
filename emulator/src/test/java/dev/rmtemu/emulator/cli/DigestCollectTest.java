package dev.rmtemu.emulator.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.rmtemu.traces.PacketRecord;
import dev.rmtemu.traces.pcap.PcapWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A P4 program's learning digest ({@code p4/mac_learn.p4}: {@code ig_dprsr_md.digest_type = 1}
 * selects {@code Digest<learn_t>.pack({src_mac, port})} in the ingress deparser) reaches the
 * export journal once per frame whose source MAC the smac table misses, and {@code collect}
 * and {@code collect --json} decode it by T's field names.
 */
class DigestCollectTest {
    /** HostMac: IPv4 a.b.c.d sends from 02:00:a:b:c:d. */
    private static final long MAC_1 = 0x02000A000001L;
    private static final long MAC_3 = 0x02000A000003L;

    private static PacketRecord packet(long ns, int src) {
        return PacketRecord.allocate().timestampNs(ns).wireLength(100).ipVersion(4).protocol(17)
                .srcIpv4(src).dstIpv4(0x0A000009).srcPort(1000).dstPort(2000);
    }

    @Test
    void eachMissSendsADigestCollectDecodesItsFieldsByName(@TempDir Path tmp) throws Exception {
        Path program = tmp.resolve("mac_learn.p4");
        try (InputStream in = DigestCollectTest.class.getResourceAsStream("p4/mac_learn.p4")) {
            Files.write(program, in.readAllBytes());
        }
        Path pcap = tmp.resolve("t.pcap");
        try (PcapWriter w = new PcapWriter(pcap)) {
            w.write(packet(0, 0x0A000001));
            w.write(packet(1_000, 0x0A000002)); // a known source: no digest
            w.write(packet(2_000, 0x0A000003));
        }
        Path control = tmp.resolve("c.txt");
        Files.writeString(control, "table_add smac NoAction 02:00:0a:00:00:02 =>\n");
        Path out = tmp.resolve("run");
        CliRunner r = CliRunner.run("replay", "--program", program.toString(), "--target", "tofino1", "--trace", pcap.toString(),
                "--control", control.toString(), "--out", out.toString(), "--no-progress");
        assertEquals(0, r.exit(), r.err());

        CliRunner json = CliRunner.run("collect", "--journal", out.toString(), "--json");
        assertEquals(0, json.exit(), json.err());
        ObjectMapper m = new ObjectMapper();
        List<JsonNode> digests = new ArrayList<>();
        for (String line : json.out().split("\n")) {
            JsonNode n = m.readTree(line);
            if ("digest.learn".equals(n.path("kind").asText())) {
                digests.add(n);
            }
        }
        assertEquals(2, digests.size(), json.out());
        assertEquals("{\"src_mac\":" + MAC_1 + ",\"port\":0}", digests.get(0).path("message").toString());
        assertEquals("{\"src_mac\":" + MAC_3 + ",\"port\":0}", digests.get(1).path("message").toString());
        // 1 count byte, (1 + 7 + 1) for src_mac, (1 + 4 + 1) for port, then two 8-byte values
        assertEquals(32, digests.get(0).path("length").asInt());
        assertEquals(0, digests.get(0).path("switch").asInt());
        assertEquals(true, digests.get(0).path("cycle").asLong() < digests.get(1).path("cycle").asLong());
        assertEquals(true, json.out().contains("{\"summary\":\"digest.learn\",\"messages\":2,\"bytes\":64,"), json.out());

        CliRunner text = CliRunner.run("collect", "--journal", out.toString());
        assertEquals(0, text.exit(), text.err());
        List<String> lines = text.out().lines().filter(l -> l.contains("kind digest.learn")).toList();
        assertEquals(2, lines.size(), text.out());
        assertEquals(true, lines.get(1).endsWith(" kind digest.learn length 32 fields src_mac=" + MAC_3 + " port=0"), lines.get(1));
    }

    static String resource(String name) throws IOException {
        try (InputStream in = DigestCollectTest.class.getResourceAsStream(name)) {
            return new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        }
    }
}
