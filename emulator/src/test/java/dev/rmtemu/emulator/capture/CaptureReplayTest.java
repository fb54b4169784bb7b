package dev.rmtemu.emulator.capture;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.rmtemu.emulator.capture.CaptureFilesReader.Capture;
import dev.rmtemu.emulator.capture.CaptureFilesReader.Frame;
import dev.rmtemu.emulator.run.Replay;
import dev.rmtemu.emulator.spi.ReplayOptions;
import dev.rmtemu.emulator.spi.ReplayResult;
import dev.rmtemu.traces.PacketRecord;
import dev.rmtemu.traces.PacketSource;
import dev.rmtemu.traces.pcap.CaptureFiles;
import dev.rmtemu.traces.pcap.CaptureWriter;
import dev.rmtemu.traces.pcap.FrameSynthesizer;
import dev.rmtemu.traces.spec.TraceSpec;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVParser;
import org.apache.commons.csv.CSVRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.zip.GZIPInputStream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * {@code replay --capture} and {@code --packet-log} through one switch: what leaves each port is
 * what came in, drops carry their cause, the limit is honoured and said, the log's rows are exact,
 * and two runs write the same bytes.
 */
class CaptureReplayTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String GEN = "gen:isp?packets=2000&flows=200&seed=3";

    @TempDir
    Path dir;

    /** Writes {@code spec} as a pcapng whose frames are the records' headers and payload word. */
    private Path inputCapture(String spec) {
        Path f = dir.resolve("in.pcapng");
        try (PacketSource src = TraceSpec.open(spec);
             CaptureWriter w = CaptureWriter.create(f, CaptureFiles.Format.PCAPNG, FrameSynthesizer.MAX_MIN_FRAME)) {
            PacketRecord r = PacketRecord.allocate();
            while (src.next(r)) {
                w.write(r);
            }
        }
        return f;
    }

    private static ReplayOptions options(String program, Map<String, String> params, String trace, String timing,
                                         double portGbps, Path out, Path control, CaptureOptions capture) {
        return new ReplayOptions(program, params, "tofino1", trace, timing, 1, 0, portGbps, true, 0, out, false, control,
                null, false, 8, false, capture);
    }

    private static List<CSVRecord> log(Path file) throws IOException {
        try (Reader in = new InputStreamReader(new GZIPInputStream(Files.newInputStream(file)), StandardCharsets.US_ASCII);
             CSVParser p = CSVFormat.DEFAULT.builder().setHeader().setSkipHeaderRecord(true).get().parse(in)) {
            assertEquals(List.of(PacketLog.COLUMNS), p.getHeaderNames());
            return p.getRecords();
        }
    }

    @Test
    void everyFrameLeavesByteIdenticalToTheFrameThatCameIn() throws Exception {
        Path in = inputCapture(GEN);
        Capture input = CaptureFilesReader.read(in);
        Path out = dir.resolve("run");
        // 10 Gb/s of packets into 100 Gb/s ports: nothing queues long, nothing drops, one port out: FIFO
        ReplayResult r = Replay.run(options("counter", Map.of(), in.toString(), "rate:10G", 100, out, null,
                new CaptureOptions(true, CaptureOptions.DEFAULT_LIMIT, true)), null);
        assertEquals(2000, r.engine().counters().packetsOut());
        Capture egress = CaptureFilesReader.read(out.resolve("capture/egress.pcapng"));
        assertEquals(List.of("port0", "port1"), egress.interfaceNames(), "counter sends every packet to port 1");
        assertEquals(2000, egress.frames().size());
        List<CSVRecord> rows = log(out.resolve("packets.csv.gz"));
        assertEquals(2000, rows.size());
        for (int i = 0; i < 2000; i++) {
            Frame a = input.frames().get(i);
            Frame b = egress.frames().get(i);
            assertArrayEquals(a.bytes(), b.bytes(), "frame " + i);
            assertEquals(a.wire(), b.wire(), "original length = wire length, frame " + i);
            assertEquals(1, b.port());
            assertNull(b.comment());
            // its timestamp is its emulated departure, as the packet log says
            assertEquals(Long.parseLong(rows.get(i).get("egress_time_ns")), b.ns(), "frame " + i);
            assertEquals("1", rows.get(i).get("egress_port"));
            assertEquals("", rows.get(i).get("drop_cause"));
        }
        Capture drops = CaptureFilesReader.read(out.resolve("capture/drops.pcapng"));
        assertEquals(0, drops.frames().size());
        JsonNode files = JSON.readTree(out.resolve("report.json").toFile()).get("files");
        List<String> listed = new ArrayList<>();
        files.forEach(f -> listed.add(f.asText()));
        assertTrue(listed.containsAll(List.of("capture/drops.pcapng", "capture/egress.pcapng", "packets.csv.gz")),
                listed.toString());

        String tshark = CaptureFilesReader.tshark();
        assumeTrue(tshark != null, "tshark is not installed");
        List<String[]> t = CaptureFilesReader.tsharkFields(tshark, out.resolve("capture/egress.pcapng"),
                "frame.interface_name", "frame.len", "frame.cap_len", "frame.time_epoch");
        assertEquals(2000, t.size());
        for (int i = 0; i < 2000; i++) {
            assertEquals("port1", t.get(i)[0]);
            assertEquals(Integer.toString(input.frames().get(i).wire()), t.get(i)[1]);
            assertEquals(Integer.toString(input.frames().get(i).bytes().length), t.get(i)[2]);
            long ns = egress.frames().get(i).ns();
            assertEquals(String.format("%d.%09d", ns / 1_000_000_000L, ns % 1_000_000_000L), t.get(i)[3]);
        }
        assertEquals(0, CaptureFilesReader.tsharkFields(tshark, out.resolve("capture/drops.pcapng"),
                "frame.number").size());
    }

    @Test
    void droppedPacketsCarryTheirCauseOnTheirIngressPort() throws Exception {
        Path out = dir.resolve("run");
        // 100 Gb/s in, 10 Gb/s ports: the queue fills and the traffic manager drops
        ReplayResult r = Replay.run(options("counter", Map.of(), "gen:isp?packets=20000&flows=2000&seed=3&ports=4",
                "rate:100G", 10, out, null, new CaptureOptions(true, CaptureOptions.DEFAULT_LIMIT, false)), null);
        long dropped = r.engine().counters().droppedTotal();
        assertTrue(dropped > 0, "the congested run drops");
        Capture drops = CaptureFilesReader.read(out.resolve("capture/drops.pcapng"));
        assertEquals(dropped, drops.frames().size());
        Map<String, Long> byComment = new TreeMap<>();
        for (Frame f : drops.frames()) {
            byComment.merge(f.comment(), 1L, Long::sum);
        }
        Map<String, Long> byCause = new TreeMap<>(r.engine().counters().droppedByCause());
        byCause.values().removeIf(n -> n == 0);
        assertEquals(byCause, byComment);
        // interfaces are the ingress ports: the trace's four
        assertEquals(List.of("port0", "port1", "port2", "port3"), drops.interfaceNames());
        long[] perPort = new long[4];
        drops.frames().forEach(f -> perPort[f.port()]++);
        for (long n : perPort) {
            assertTrue(n > 0, "drops from every ingress port");
        }
        Capture egress = CaptureFilesReader.read(out.resolve("capture/egress.pcapng"));
        assertEquals(r.engine().counters().packetsOut(), egress.frames().size());

        String tshark = CaptureFilesReader.tshark();
        assumeTrue(tshark != null, "tshark is not installed");
        List<String[]> t = CaptureFilesReader.tsharkFields(tshark, out.resolve("capture/drops.pcapng"),
                "frame.comment", "frame.interface_name");
        assertEquals(dropped, t.size());
        for (int i = 0; i < t.size(); i++) {
            assertEquals(drops.frames().get(i).comment(), t.get(i)[0]);
            assertEquals("port" + drops.frames().get(i).port(), t.get(i)[1]);
        }
    }

    @Test
    void aCaptureFileStopsAtItsLimitAndTheRunSaysHowManyItLeftOut() throws Exception {
        Path out = dir.resolve("run");
        ReplayResult r = Replay.run(options("counter", Map.of(), GEN, "rate:10G", 100, out, null,
                new CaptureOptions(true, 150, false)), null);
        String warning = "capture/egress.pcapng: capture limit of 150 packets reached; 1850 more were not written"
                + " (--capture-limit)";
        assertEquals(List.of(warning), r.warnings());
        assertEquals(150, CaptureFilesReader.read(out.resolve("capture/egress.pcapng")).frames().size());
        JsonNode report = JSON.readTree(out.resolve("report.json").toFile());
        assertEquals(warning, report.get("warnings").get(0).asText());
        assertTrue(report.get("complete").asBoolean());
    }

    @Test
    void thePacketLogOfAThreePacketTraceIsExact() throws Exception {
        Path in = dir.resolve("three.pcapng");
        try (CaptureWriter w = CaptureWriter.create(in, CaptureFiles.Format.PCAPNG)) {
            PacketRecord r = PacketRecord.allocate();
            int[] dst = {0x0a000002, 0x0a000009, 0x0a000002};
            for (int i = 0; i < 3; i++) {
                r.clear().timestampNs(1_000_000L + 1000L * i).wireLength(100).ingressPort(2).ipVersion(4)
                        .protocol(PacketRecord.PROTO_UDP).ttl(64).srcPort(1000 + i).dstPort(53);
                r.srcIpv4(0x0a000001).dstIpv4(dst[i]);
                w.write(r);
            }
        }
        Path control = dir.resolve("fwd.txt");
        Files.writeString(control, "table_add l2_fwd forward 02:00:0a:00:00:02 => 3\n");
        Path out = dir.resolve("run");
        Replay.run(options("l2fwd", Map.of(), in.toString(), "original", 100, out, control,
                new CaptureOptions(false, CaptureOptions.DEFAULT_LIMIT, true)), null);
        List<String> rows = new ArrayList<>();
        for (CSVRecord rec : log(out.resolve("packets.csv.gz"))) {
            rows.add(String.join(",", rec.toList()));
        }
        // packet 0: in at 0 ns on port 2, out of port 3 at 275 ns (the pipeline, the traffic manager and
        // the 100-byte frame's serialisation at 100 Gb/s), queue 0; packet 1 misses the table and is
        // dropped by ingress at its arrival (no port, no queue, no latency); packet 2 is packet 0 again
        assertEquals(List.of(
                "0,2,0,3,275,275,0,",
                "1,2,1000,,1000,,,ingress_drop_ctl",
                "2,2,2000,3,2275,275,0,"), rows);
    }
}
