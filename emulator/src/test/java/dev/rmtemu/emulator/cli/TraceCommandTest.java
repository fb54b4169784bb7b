package dev.rmtemu.emulator.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TraceCommandTest {
    @TempDir
    Path dir;

    private record Result(int code, String out, String err) {
    }

    private static Result run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(args, new PrintWriter(out, true), new PrintWriter(err, true));
        return new Result(code, out.toString(), err.toString());
    }

    @Test
    void genIsDeterministicAndInfoReportsIt() throws Exception {
        Path a = dir.resolve("a.pcapng");
        Path b = dir.resolve("b.pcapng");
        for (Path p : new Path[] {a, b}) {
            Result r = run("trace", "gen", "--kind", "tcp", "--seed", "5", "--packets", "3000", "--flows", "40",
                    "--param", "ports=2", "--out", p.toString());
            assertEquals(0, r.code(), r.err());
            assertTrue(r.out().startsWith("wrote 3000 packets to "), r.out());
        }
        assertArrayEquals(Files.readAllBytes(a), Files.readAllBytes(b));
        Result info = run("trace", "info", a.toString(), "--json", "--top", "3");
        assertEquals(0, info.code(), info.err());
        com.fasterxml.jackson.databind.JsonNode j = new com.fasterxml.jackson.databind.ObjectMapper().readTree(info.out());
        assertEquals(3000, j.get("packets").asLong(), info.out());
        assertEquals(40, j.get("flows").asLong(), info.out());
        assertEquals("{\"tcp\":3000}", j.get("protocols").toString());
        assertEquals(3, j.get("top_flows").size());
        assertEquals(3, info.out().split("\"ip_version\"").length - 1);
        Result again = run("trace", "info", a.toString(), "--json", "--top", "3");
        assertEquals(info.out(), again.out());
    }

    @Test
    void infoReportsTheFlowStatisticsOfABackboneTrace() {
        Result json = run("trace", "info", "gen:isp?packets=100000&seed=3", "--json", "--top", "1");
        assertEquals(0, json.code(), json.err());
        String o = json.out();
        com.fasterxml.jackson.databind.JsonNode j;
        try {
            j = new com.fasterxml.jackson.databind.ObjectMapper().readTree(o);
        } catch (java.io.IOException e) {
            throw new AssertionError(o, e);
        }
        assertEquals(100000, j.get("packets").asLong(), o);
        assertTrue(j.get("top_flow_packet_share").get("1").asDouble() > 0, o);
        assertEquals(1, j.get("flow_size_ccdf").get(0).get("packets_at_least").asLong(), o);
        assertTrue(j.get("flow_size_ccdf").get(0).get("flows").isIntegralNumber(), o);
        assertTrue(j.get("new_flows_per_interval").isArray(), o);
        assertTrue(j.get("mean_packet_bytes").isNumber(), o);
        // one flow arrival per 25 packets: about 4,000 flows, not one per packet
        long flows = j.get("flows").asLong();
        assertTrue(flows > 3_000 && flows < 5_000, "flows " + flows);
        Result table = run("trace", "info", "gen:isp?packets=100000&seed=3", "--top", "1");
        assertEquals(0, table.code(), table.err());
        assertTrue(table.out().contains("top flows  top 1 "), table.out());
        assertTrue(table.out().contains("flow CCDF  >=1 "), table.out());
        assertTrue(table.out().contains("new flows  per "), table.out());
        assertEquals(table.out(), run("trace", "info", "gen:isp?packets=100000&seed=3", "--top", "1").out());
    }

    @Test
    void infoSaysHowManyGeneratedPacketsQueuedOnTheirLink() throws Exception {
        String spec = "gen:isp?packets=20000&seed=3&gbps=10";
        Result table = run("trace", "info", spec, "--top", "0");
        assertEquals(0, table.code(), table.err());
        assertTrue(table.out().contains("\nlink queue 2,915 packets delayed to fit 10 Gb/s per link: 1,156,350 ns in total, "
                + "2,671 ns at most\n"), table.out());
        com.fasterxml.jackson.databind.JsonNode q = new com.fasterxml.jackson.databind.ObjectMapper()
                .readTree(run("trace", "info", spec, "--json", "--top", "0").out()).get("link_queueing");
        assertEquals(10.0, q.get("gbps").asDouble());
        assertEquals(1, q.get("links").asInt());
        assertEquals(20_000, q.get("packets").asLong());
        assertEquals(2_915, q.get("delayed").asLong());
        assertEquals(1_156_350, q.get("total_delay_ns").asLong());
        assertEquals(2_671, q.get("max_delay_ns").asLong());
        // a capture claims no link rate: no queueing to report
        Path pcap = dir.resolve("q.pcap");
        assertEquals(0, run("trace", "convert", spec, pcap.toString()).code());
        assertTrue(new com.fasterxml.jackson.databind.ObjectMapper().readTree(run("trace", "info", pcap.toString(), "--json").out())
                .get("link_queueing").isNull());
        assertFalse(run("trace", "info", pcap.toString()).out().contains("link queue"));
    }

    @Test
    void snaplenCutsTheFramesNotThePackets() throws Exception {
        String spec = "gen:dc?packets=2000&seed=2&flows=50";
        Path whole = dir.resolve("whole.pcapng");
        Path cut = dir.resolve("cut.pcapng");
        assertEquals(0, run("trace", "convert", spec, whole.toString()).code());
        Result r = run("trace", "convert", spec, cut.toString(), "--snaplen", "96");
        assertEquals(0, r.code(), r.err());
        assertTrue(java.nio.file.Files.size(cut) < java.nio.file.Files.size(whole) / 4,
                java.nio.file.Files.size(cut) + " vs " + java.nio.file.Files.size(whole));
        String a = run("trace", "info", whole.toString(), "--json").out();
        String b = run("trace", "info", cut.toString(), "--json").out();
        assertEquals(a.substring(a.indexOf("\"packets\"")), b.substring(b.indexOf("\"packets\"")));
        r = run("trace", "gen", "--kind", "dc", "--seed", "1", "--snaplen", "0", "--out", dir.resolve("z.pcap").toString());
        assertEquals(2, r.code());
        assertEquals("rmtemu: --snaplen 0: must be in [1, 65535]", r.err().strip());
        r = run("trace", "convert", spec, dir.resolve("big.pcap").toString(), "--snaplen", "65536");
        assertEquals(2, r.code());
        assertEquals("rmtemu: --snaplen 65536: must be in [1, 65535]", r.err().strip());
        // a trace store keeps the frames' first bytes too, and says how many in its manifest
        r = run("trace", "convert", spec, dir.resolve("s.cq").toString(), "--snaplen", "100");
        assertEquals(0, r.code(), r.err());
        assertTrue(java.nio.file.Files.readString(dir.resolve("s.cq").resolve("rmtemu-trace-store.txt"))
                .contains("\nsnap_length=100\n"));
    }

    @Test
    void convertToStoreAndBackKeepsTheSummary() {
        Path pcap = dir.resolve("x.pcap");
        Path store = dir.resolve("x.cq");
        Path back = dir.resolve("y.pcapng");
        assertEquals(0, run("trace", "gen", "--kind", "dc", "--seed", "1", "--packets", "5000", "--flows", "200",
                "--out", pcap.toString()).code());
        Result c1 = run("trace", "convert", pcap.toString(), store.toString());
        assertEquals(0, c1.code(), c1.err());
        Result c2 = run("trace", "convert", store.toString(), back.toString());
        assertEquals(0, c2.code(), c2.err());
        String i1 = run("trace", "info", pcap.toString(), "--json").out();
        String i3 = run("trace", "info", back.toString(), "--json").out();
        // Same numbers; only the "source" line differs.
        assertEquals(i1.substring(i1.indexOf("\"packets\"")), i3.substring(i3.indexOf("\"packets\"")));
        Result table = run("trace", "info", store.toString());
        assertTrue(table.out().contains("packets    5,000"), table.out());
    }

    @Test
    void userErrorsExitTwoWithOneLine() throws Exception {
        Result r = run("trace", "gen", "--kind", "bogus", "--seed", "1", "--out", dir.resolve("z.pcap").toString());
        assertEquals(2, r.code());
        assertTrue(r.err().contains("valid: isp, dc, incast, tcp, uniform"), r.err());
        r = run("trace", "info", "gen:isp?bad=1");
        assertEquals(2, r.code());
        assertTrue(r.err().contains("unknown generator key 'bad'"), r.err());
        Path pcap = dir.resolve("t.pcap");
        assertEquals(0, run("trace", "gen", "--kind", "uniform", "--seed", "1", "--packets", "100", "--flows", "5",
                "--out", pcap.toString()).code());
        byte[] bytes = Files.readAllBytes(pcap);
        Path cut = dir.resolve("cut.pcap");
        Files.write(cut, Arrays.copyOf(bytes, bytes.length - 7));
        r = run("trace", "info", cut.toString());
        assertEquals(2, r.code());
        assertTrue(r.err().startsWith("rmtemu: " + cut + ": truncated packet data"), r.err());
        assertTrue(r.err().contains("at byte offset"), r.err());
        r = run("trace", "convert", cut.toString(), dir.resolve("ok.pcap").toString(), "--lenient");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().startsWith("wrote 99 packets"), r.out());
        assertTrue(r.err().contains("stopped early after 99 packets"), r.err());
        r = run("trace", "convert", pcap.toString(), dir.resolve("noext").toString());
        assertEquals(2, r.code());
        assertTrue(r.err().contains("cannot tell the output format"), r.err());
    }

    @Test
    void convertWithImpairmentsWritesTheGroundTruth() throws Exception {
        Path out = dir.resolve("imp.pcap");
        Path truth = dir.resolve("truth.txt");
        Result r = run("trace", "convert", "gen:uniform?packets=10000&flows=20", out.toString(), "--impair",
                "loss=bernoulli:0.05", "--impair", "dup=0.02", "--impair", "reorder=p=0.01,sigma=2,max=8",
                "--impair-seed", "3", "--truth",
                truth.toString());
        assertEquals(0, r.code(), r.err());
        java.util.List<String> lines = Files.readAllLines(truth);
        assertEquals("packet_index kind value", lines.get(0));
        long drops = lines.stream().filter(l -> l.contains(" drop ")).count();
        long dups = lines.stream().filter(l -> l.contains(" duplicate ")).count();
        assertEquals(500, drops, 80);
        assertTrue(r.out().contains("dropped " + drops + ", duplicated " + dups), r.out());
        String info = run("trace", "info", out.toString(), "--json").out();
        assertEquals(10000 - drops + dups, new com.fasterxml.jackson.databind.ObjectMapper().readTree(info)
                .get("packets").asLong(), info);
        r = run("trace", "convert", "gen:uniform?packets=10", out.toString(), "--impair", "wobble=1");
        assertEquals(2, r.code());
        assertTrue(r.err().contains("unknown impairment 'wobble' (known: loss, blackhole, delay, dup, reorder)"), r.err());
    }

    @Test
    void everySubcommandHasHelp() {
        for (String sub : new String[] {"gen", "info", "convert"}) {
            Result r = run("trace", sub, "--help");
            assertEquals(0, r.code());
            assertTrue(r.out().contains("Usage: rmtemu trace " + sub), r.out());
        }
    }
}
