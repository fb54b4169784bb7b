package dev.rmtemu.programs.hashpipe.program;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.rmtemu.emulator.cli.Main;
import dev.rmtemu.traces.PacketRecord;
import dev.rmtemu.traces.pcap.PcapWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code key=srcip} and {@code key=5tuple} hold IPv4 flows only: on a trace with IPv6
 * packets the switch folds each IPv6 address into a 32-bit word and counts it as if it were
 * an IPv4 flow. The replay must say so (a warning with the count, in report.json, exit 5
 * under --strict) and its top-k must not count the folded IPv6 packets as the IPv4 flow's.
 */
class HashPipeIpv6FoldTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** The IPv6 address's high half: its low 32 bits are what an IPv4-only key reads (10.0.0.N). */
    private static long v6Hi(int foldsTo) {
        return 0x20010db8_00000000L | foldsTo;
    }

    /**
     * 40 packets from 10.0.0.1, 20 from 10.0.0.2, 15 IPv6 packets that fold onto 10.0.0.2
     * and 25 that fold onto 10.0.0.9 (no IPv4 source has it), interleaved round-robin.
     */
    private static Path trace(Path dir) {
        Path pcap = dir.resolve("mixed.pcap");
        int[] left = {40, 20, 15, 25};
        long ts = 0;
        try (PcapWriter w = new PcapWriter(pcap)) {
            boolean any = true;
            while (any) {
                any = false;
                for (int i = 0; i < left.length; i++) {
                    if (left[i]-- <= 0) {
                        continue;
                    }
                    any = true;
                    ts += 1_000;
                    PacketRecord r = PacketRecord.allocate().timestampNs(ts).protocol(6).srcPort(1000 + i).dstPort(80)
                            .wireLength(100);
                    switch (i) {
                        case 0 -> r.ipVersion(4).srcIpv4(0x0A000001).dstIpv4(0x0B000001);
                        case 1 -> r.ipVersion(4).srcIpv4(0x0A000002).dstIpv4(0x0B000001);
                        case 2 -> r.ipVersion(6).srcIpv6(v6Hi(0x0A000002), 7).dstIpv6(v6Hi(0x0B000001), 8);
                        default -> r.ipVersion(6).srcIpv6(v6Hi(0x0A000009), 7).dstIpv6(v6Hi(0x0B000001), 8);
                    }
                    w.write(r);
                }
            }
        }
        return pcap;
    }

    private record Run(int code, String out, String err) {
    }

    private static Run replay(Path pcap, Path out, String key, String... extra) {
        List<String> args = new ArrayList<>(List.of("replay", "--program", "hashpipe", "--param", "key=" + key,
                "--param", "stages=2", "--param", "counters=64", "--param", "top=3", "--ports", "2",
                "--target", "unconstrained", "--trace", pcap.toString(), "--out", out.toString(), "--no-progress"));
        args.addAll(List.of(extra));
        StringWriter o = new StringWriter();
        StringWriter e = new StringWriter();
        int code = Main.run(args.toArray(String[]::new), new PrintWriter(o, true), new PrintWriter(e, true));
        return new Run(code, o.toString(), e.toString());
    }

    private static String warning(String key) {
        return "hashpipe: key=" + key + " holds IPv4 flows only, and 40 of 100 packets were IPv6: the switch counted"
                + " them under IPv4 keys folded from their addresses (top_k's true leaves them out, its ipv6_folded"
                + " counts them); use key=fingerprint, which keys IPv6 flows by their whole 5-tuple";
    }

    @Test
    void srcipOnIpv6PacketsWarnsAndKeepsFoldedPacketsOutOfTheTruth(@TempDir Path tmp) throws Exception {
        Path pcap = trace(tmp);
        Run r = replay(pcap, tmp.resolve("run"), "srcip");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.err().contains("rmtemu: warning: " + warning("srcip") + "\n"), r.err());

        JsonNode report = JSON.readTree(tmp.resolve("run/report.json").toFile());
        assertEquals(List.of(warning("srcip")), texts(report.path("warnings")));
        JsonNode hp = report.path("results").path("hashpipe");
        assertEquals(40, hp.path("ipv6_packets_folded").asLong(), hp.toString());
        JsonNode top = hp.path("top_k");
        // key, estimate (the switch counts the folded packets too), true (IPv4 packets only), ipv6_folded
        Object[][] want = {{"10.0.0.1", 40, 40, 0}, {"10.0.0.2", 35, 20, 15}, {"10.0.0.9", 25, 0, 25}};
        assertEquals(3, top.size(), top.toString());
        for (int i = 0; i < 3; i++) {
            JsonNode f = top.get(i);
            assertEquals(want[i][0], f.path("key").asText(), f.toString());
            assertEquals(((Integer) want[i][1]).longValue(), f.path("estimate").asLong(), f.toString());
            assertEquals(((Integer) want[i][2]).longValue(), f.path("true").asLong(), f.toString());
            assertEquals(((Integer) want[i][3]).longValue(), f.path("ipv6_folded").asLong(), f.toString());
        }
        assertEquals(0.75, top.get(1).path("error").asDouble(), 1e-12);
        assertTrue(top.get(2).path("error").isNull(), "no IPv4 packet has 10.0.0.9: no error to give");
        assertEquals("10.0.0.2 > 11.0.0.1 proto 6 1001>80", top.get(1).path("five_tuple").asText(),
                "the first IPv4 5-tuple with the key");
        assertEquals("2001:db8:a00:9::7 > 2001:db8:b00:1::8 proto 6 1003>80", top.get(2).path("five_tuple").asText(),
                "a key no IPv4 packet has shows the IPv6 flow folded into it");

        // the summary says which rows hold folded IPv6 packets
        String summary = r.out();
        assertTrue(summary.contains("v6 folded"), summary);
        assertTrue(Files.readString(tmp.resolve("run/results/hashpipe_top_k.csv"))
                .startsWith("rank,key,five_tuple,estimate,true,error,ipv6_folded\n1,10.0.0.1,"));

        Run strict = replay(pcap, tmp.resolve("strict"), "srcip", "--strict");
        assertEquals(5, strict.code(), strict.err());
    }

    @Test
    void fiveTupleOnIpv6PacketsWarnsToo(@TempDir Path tmp) throws Exception {
        Run r = replay(trace(tmp), tmp.resolve("run"), "5tuple");
        assertEquals(0, r.code(), r.err());
        JsonNode report = JSON.readTree(tmp.resolve("run/report.json").toFile());
        assertEquals(List.of(warning("5tuple")), texts(report.path("warnings")));
        assertEquals(40, report.path("results").path("hashpipe").path("ipv6_packets_folded").asLong());
    }

    @Test
    void fingerprintKeysIpv6AndDoesNotWarn(@TempDir Path tmp) throws Exception {
        Run r = replay(trace(tmp), tmp.resolve("run"), "fingerprint", "--strict");
        assertEquals(0, r.code(), r.err());
        JsonNode report = JSON.readTree(tmp.resolve("run/report.json").toFile());
        assertEquals(List.of(), texts(report.path("warnings")));
        JsonNode hp = report.path("results").path("hashpipe");
        assertEquals(0, hp.path("ipv6_packets_folded").asLong(), hp.toString());
        for (JsonNode f : hp.path("top_k")) {
            assertEquals(f.path("estimate").asLong(), f.path("true").asLong(), f.toString());
            assertEquals(0, f.path("ipv6_folded").asLong());
        }
    }

    private static List<String> texts(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }
}
