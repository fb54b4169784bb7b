package dev.rmtemu.programs.hashpipe.control;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rmtemu.emulator.cli.Main;
import dev.rmtemu.programs.ReportCharts;
import dev.rmtemu.traces.PacketRecord;
import dev.rmtemu.traces.pcap.PcapWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * HashPipe's results as data: a hand-built trace with known per-source counts through
 * {@code rmtemu replay}, read back from report.json ({@code results.hashpipe.top_k}),
 * results/hashpipe_top_k.csv and the summary, which must all say the same thing; and a
 * second run gives the same bytes.
 */
class HashPipeResultsTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** Packets per source 10.0.0.N (N = index + 1), interleaved round-robin so no source comes in one burst. */
    private static final int[] COUNTS = {50, 30, 20, 5};

    private record Run(int code, String out, String err) {
    }

    private static Run cli(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(args, new PrintWriter(out, true), new PrintWriter(err, true));
        return new Run(code, out.toString(), err.toString());
    }

    private static Path trace(Path dir) {
        Path pcap = dir.resolve("hand.pcap");
        int[] left = COUNTS.clone();
        long ts = 0;
        try (PcapWriter w = new PcapWriter(pcap)) {
            boolean any = true;
            while (any) {
                any = false;
                for (int i = 0; i < left.length; i++) {
                    if (left[i]-- > 0) {
                        any = true;
                        ts += 1_000;
                        w.write(PacketRecord.allocate().timestampNs(ts).ipVersion(4).srcIpv4(0x0A000001 + i).dstIpv4(0x0B000001)
                                .protocol(6).srcPort(1000 + i).dstPort(80).wireLength(100));
                    }
                }
            }
        }
        return pcap;
    }

    private static Run replay(Path pcap, Path out) {
        return cli("replay", "--program", "hashpipe", "--param", "key=srcip", "--param", "stages=2", "--param", "counters=64",
                "--param", "top=3", "--ports", "1", "--trace", pcap.toString(), "--out", out.toString(), "--no-progress");
    }

    @Test
    void topKOfAHandBuiltTraceIsTheSameInReportJsonCsvAndSummary(@TempDir Path tmp) throws Exception {
        Path pcap = trace(tmp);
        Path run = tmp.resolve("run");
        Run r = replay(pcap, run);
        assertEquals(0, r.code(), r.err());

        JsonNode report = JSON.readTree(run.resolve("report.json").toFile());
        JsonNode results = report.path("results").path("hashpipe");
        String html = Files.readString(run.resolve("report.html"));
        assertTrue(html.contains("<h2>Program results</h2>"), "results section");
        assertEquals(3, results.path("k").asInt());
        assertEquals("srcip", results.path("key_kind").asText());
        assertEquals("packets", results.path("counts").asText());
        JsonNode top = results.path("top_k");
        assertEquals(3, top.size(), results.toString());
        // the HTML report plots the same table as HashPipeReport.Results#plots says: each estimate against its
        // true count (on y = x in this exact run), and the relative error (0 on every row)
        assertEquals(3, ReportCharts.assertEstimateVsTruth(run, 0, "hashpipe: top-k flows: estimate against true count",
                "true flow size (packets)", "estimated flow size (packets)", top, "true", "key", true, "estimate"));
        String[] keys = {"10.0.0.1", "10.0.0.2", "10.0.0.3"};
        for (int i = 0; i < 3; i++) {
            JsonNode f = top.get(i);
            assertEquals(List.of("rank", "key", "five_tuple", "estimate", "true", "error", "ipv6_folded"), fieldNames(f));
            assertEquals(i + 1, f.path("rank").asInt());
            assertEquals(keys[i], f.path("key").asText());
            assertEquals(keys[i] + " > 11.0.0.1 proto 6 " + (1000 + i) + ">80", f.path("five_tuple").asText());
            assertEquals(COUNTS[i], f.path("estimate").asLong(), "the switch counts every packet of the 4 sources");
            assertTrue(f.path("true").isIntegralNumber() && f.path("estimate").isIntegralNumber(), "numbers as numbers");
            assertEquals(COUNTS[i], f.path("true").asLong());
            assertEquals(0.0, f.path("error").asDouble());
        }

        String csv = Files.readString(run.resolve("results/hashpipe_top_k.csv"));
        assertEquals("rank,key,five_tuple,estimate,true,error,ipv6_folded\n"
                + "1,10.0.0.1,10.0.0.1 > 11.0.0.1 proto 6 1000>80,50,50,0,0\n"
                + "2,10.0.0.2,10.0.0.2 > 11.0.0.1 proto 6 1001>80,30,30,0,0\n"
                + "3,10.0.0.3,10.0.0.3 > 11.0.0.1 proto 6 1002>80,20,20,0,0\n", csv);
        assertTrue(containsText(report.path("files"), "results/hashpipe_top_k.csv"),
                "the CSV is in the run's manifest: " + report.path("files"));

        // the summary's rows are the data's rows, value for value
        List<String> lines = r.out().lines().toList();
        int head = lines.indexOf(lines.stream().filter(l -> l.startsWith("HashPipe top 3")).findFirst().orElseThrow());
        assertEquals("HashPipe top 3 (d=2, 32 slots per stage, key srcip, packets; tables of 4 pipe(s) merged)", lines.get(head));
        for (int i = 0; i < 3; i++) {
            String[] w = lines.get(head + 2 + i).trim().split("\\s+", 6);
            JsonNode f = top.get(i);
            assertEquals(f.path("rank").asText(), w[0]);
            assertEquals(f.path("key").asText(), w[1]);
            assertEquals(f.path("estimate").asText(), w[2]);
            assertEquals(f.path("true").asText(), w[3]);
            assertEquals(String.format(java.util.Locale.ROOT, "%.2f", 100 * f.path("error").asDouble()), w[4]);
            assertEquals(f.path("five_tuple").asText(), w[5]);
        }
        assertEquals(head + 5, lines.size() - 1, "the table ends before the run directory line: " + r.out());

        // a second run: the same bytes, report.json apart from the host measurements
        byte[] firstCsv = Files.readAllBytes(run.resolve("results/hashpipe_top_k.csv"));
        ObjectNode firstReport = (ObjectNode) report;
        firstReport.remove("host");
        Run again = replay(pcap, run);
        assertEquals(0, again.code(), again.err());
        assertArrayEquals(firstCsv, Files.readAllBytes(run.resolve("results/hashpipe_top_k.csv")));
        ObjectNode second = (ObjectNode) JSON.readTree(run.resolve("report.json").toFile());
        second.remove("host");
        assertEquals(JSON.writeValueAsString(firstReport), JSON.writeValueAsString(second));
        assertEquals(r.out().replaceAll("host .*\\n", ""), again.out().replaceAll("host .*\\n", ""));
    }

    private static List<String> fieldNames(JsonNode n) {
        List<String> names = new java.util.ArrayList<>();
        n.fieldNames().forEachRemaining(names::add);
        return names;
    }

    private static boolean containsText(JsonNode array, String text) {
        for (JsonNode e : array) {
            if (e.asText().equals(text)) {
                return true;
            }
        }
        return false;
    }
}
