package dev.rmtemu.emulator.capture;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.rmtemu.emulator.LineTopology;
import dev.rmtemu.emulator.capture.CaptureFilesReader.Capture;
import dev.rmtemu.emulator.capture.CaptureFilesReader.Frame;
import dev.rmtemu.emulator.run.NetworkReplay;
import dev.rmtemu.emulator.run.Replay;
import dev.rmtemu.emulator.rundir.StopRequest;
import dev.rmtemu.emulator.spi.ReplayOptions;
import dev.rmtemu.emulator.spi.ReplayResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Captures in the run directory: the same bytes twice, per switch in a network, whole after a stop. */
class CaptureRunDirectoryTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final CaptureOptions ALL = new CaptureOptions(true, CaptureOptions.DEFAULT_LIMIT, true);

    @TempDir
    Path dir;

    private static ReplayOptions congested(Path out, String topology) {
        return new ReplayOptions(topology == null ? "counter" : null, Map.of(), "tofino1",
                "gen:isp?packets=20000&flows=2000&seed=3&ports=2", "rate:100G", 1, 0, 10, true, 0, out, false, null,
                topology, false, 8, false, ALL);
    }

    private static List<String> files(Path out) throws Exception {
        List<String> listed = new ArrayList<>();
        JSON.readTree(out.resolve("report.json").toFile()).get("files").forEach(f -> listed.add(f.asText()));
        return listed;
    }

    @Test
    void twoRunsWriteTheSameCaptureAndLogBytesAndTheLogHasNoTimeInItsGzipHeader() throws Exception {
        Path a = dir.resolve("a");
        Path b = dir.resolve("b");
        ReplayResult r = Replay.run(congested(a, null), null);
        Replay.run(congested(b, null), null);
        assertTrue(r.engine().counters().droppedTotal() > 0, "the run drops: both captures have frames");
        for (String f : List.of("capture/egress.pcapng", "capture/drops.pcapng", "packets.csv.gz")) {
            byte[] x = Files.readAllBytes(a.resolve(f));
            assertTrue(x.length > 1000, f);
            assertArrayEquals(x, Files.readAllBytes(b.resolve(f)), f);
        }
        byte[] gz = Files.readAllBytes(a.resolve("packets.csv.gz"));
        assertEquals(0x1f, gz[0] & 0xff);
        assertEquals(0x8b, gz[1] & 0xff);
        assertEquals(0, gz[3], "no flags: no file name, no comment");
        assertArrayEquals(new byte[4], new byte[] {gz[4], gz[5], gz[6], gz[7]}, "modification time 0");
    }

    @Test
    void aNetworkReplayCapturesEachSwitchInItsOwnDirectory() throws Exception {
        Path topo = LineTopology.write(dir.resolve("line.yaml"), true);
        Path out = dir.resolve("net");
        ReplayOptions o = new ReplayOptions("counter", Map.of("port", "511"), "tofino1",
                "gen:isp?packets=3000&flows=200&seed=3", "rate:10G", 1, 0, 100, true, 0, out, false, null,
                topo.toString(), false, 8, false, ALL);
        ReplayResult r = NetworkReplay.run(o, null);
        List<String> listed = files(out);
        for (String sw : List.of("s1", "s2")) {
            long sent = r.network().switchEngine(sw).counters().packetsOut();
            assertEquals(3000, sent, sw + " forwards every packet");
            Capture egress = CaptureFilesReader.read(out.resolve("capture/" + sw + "/egress.pcapng"));
            assertEquals(sent, egress.frames().size(), sw);
            // s1 sends to s2 on its port 1 (topology port 2), s2 to h2 on its port 0
            int port = sw.equals("s1") ? 1 : 0;
            for (Frame f : egress.frames()) {
                assertEquals(port, f.port(), sw);
            }
            assertEquals("port" + port, egress.interfaceNames().get(port));
            assertTrue(listed.contains("capture/" + sw + "/egress.pcapng"), listed.toString());
            assertTrue(listed.contains("packets/" + sw + ".csv.gz"), listed.toString());
            // no drops: no drops file for the switch (files open on their first packet in a network)
            assertFalse(Files.exists(out.resolve("capture/" + sw + "/drops.pcapng")), sw);
        }
        // the frame s1 sent is the frame s2 received and sent on
        Capture s1 = CaptureFilesReader.read(out.resolve("capture/s1/egress.pcapng"));
        Capture s2 = CaptureFilesReader.read(out.resolve("capture/s2/egress.pcapng"));
        assertArrayEquals(s1.frames().get(0).bytes(), s2.frames().get(0).bytes());
    }

    @Test
    void aStoppedRunLeavesWholeReadableCaptures() throws Exception {
        StopRequest stop = new StopRequest();
        Path out = dir.resolve("stopped");
        ReplayOptions o = new ReplayOptions("counter", Map.of(), "tofino1", "gen:isp?packets=400000&flows=2000&seed=5",
                "topspeed", 1, 0, 100, true, 0, out, false, null, null, false, 8, false, ALL);
        ReplayResult r = Replay.run(o, new Replay.Progress() {
            @Override
            public void update(long packets) {
                stop.request("SIGINT", 130);
            }

            @Override
            public void done(long packets) {
            }
        }, stop);
        assertEquals("SIGINT", r.interruptedBy());
        JsonNode report = JSON.readTree(out.resolve("report.json").toFile());
        assertFalse(report.get("complete").asBoolean());
        // read strictly: a cut block would fail; every packet that left before the stop is in it
        Capture egress = CaptureFilesReader.read(out.resolve("capture/egress.pcapng"));
        assertEquals(r.engine().counters().packetsOut(), egress.frames().size());
        assertTrue(egress.frames().size() > 0);
        assertTrue(files(out).containsAll(List.of("capture/egress.pcapng", "capture/drops.pcapng", "packets.csv.gz")));
        try (var lines = new java.io.BufferedReader(new java.io.InputStreamReader(new java.util.zip.GZIPInputStream(
                Files.newInputStream(out.resolve("packets.csv.gz")))))) {
            long rows = lines.lines().count() - 1;
            assertEquals(r.engine().counters().packetsOut() + r.engine().counters().droppedTotal(), rows);
        }
    }
}
