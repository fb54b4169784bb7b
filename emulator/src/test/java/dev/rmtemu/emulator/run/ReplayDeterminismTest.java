package dev.rmtemu.emulator.run;

import dev.rmtemu.emulator.output.RunOutputs;
import dev.rmtemu.emulator.spi.ReplayOptions;
import dev.rmtemu.emulator.spi.ReplayResult;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ReplayDeterminismTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static ReplayOptions options(String trace, String timing, double portGbps, Path out) {
        return new ReplayOptions("counter", Map.of(), "tofino1", trace, timing, 1, 0, portGbps, true, 0, out, false);
    }

    private static JsonNode withoutHost(Path dir) throws IOException {
        ObjectNode n = (ObjectNode) JSON.readTree(dir.resolve(RunOutputs.REPORT).toFile());
        assertTrue(n.has("host"));
        n.remove("host");
        return n;
    }

    private static List<Path> files(Path dir) throws IOException {
        try (Stream<Path> s = Files.walk(dir)) {
            return s.filter(Files::isRegularFile).map(dir::relativize).sorted().toList();
        }
    }

    @Test
    void twoReplaysOfAMillionPacketsGiveIdenticalOutputs(@TempDir Path tmp) throws IOException {
        String trace = "gen:isp?packets=1000000&flows=40000&seed=3";
        Path a = tmp.resolve("a");
        Path b = tmp.resolve("b");
        // 10 G egress ports under a 100 G input: queues build and drop, so the run exercises the TM
        ReplayResult ra = Replay.run(options(trace, "rate:100G", 10, a), null);
        Replay.run(options(trace, "rate:100G", 10, b), null);
        assertEquals(1_000_000, ra.packetsRead());
        assertTrue(ra.engine().counters().droppedTotal() > 0, "congested run drops");
        assertEquals(withoutHost(a), withoutHost(b));
        List<Path> fa = files(a);
        assertEquals(fa, files(b));
        for (Path f : fa) {
            if (f.toString().equals(RunOutputs.REPORT) || f.toString().endsWith("host-processing.hgrm")) {
                continue; // report.json differs only under "host" (checked above)
            }
            assertArrayEquals(Files.readAllBytes(a.resolve(f)), Files.readAllBytes(b.resolve(f)), f.toString());
        }
        assertTrue(fa.contains(Path.of("latency.hgrm")));
        assertTrue(fa.contains(Path.of(RunOutputs.RESOURCES)));
        assertTrue(fa.contains(Path.of(RunOutputs.HTML)));
        assertTrue(fa.stream().anyMatch(p -> p.startsWith("journal")));
    }

    @Test
    void aDifferentTraceGivesADifferentReport(@TempDir Path tmp) throws IOException {
        Replay.run(options("gen:isp?packets=20000&flows=2000&seed=3", "rate:100G", 100, tmp.resolve("a")), null);
        Replay.run(options("gen:isp?packets=20000&flows=2000&seed=4", "rate:100G", 100, tmp.resolve("b")), null);
        assertNotEquals(withoutHost(tmp.resolve("a")).get("registers"), withoutHost(tmp.resolve("b")).get("registers"));
    }

    @Test
    void tenMillionPacketsConserveEveryPacket() {
        // congested: 100 G in, 25 G out; no output directory so only the engine is exercised
        ReplayResult r = Replay.run(options("gen:isp?packets=10000000&flows=400000&seed=11", "rate:100G", 25, null), null);
        var c = r.engine().counters();
        assertEquals(10_000_000, r.packetsRead());
        assertEquals(10_000_000, c.packetsIn());
        assertEquals(c.packetsIn(), c.packetsOut() + c.droppedTotal() + r.engine().inFlight());
        assertEquals(0, r.engine().inFlight(), "drained at the end");
        assertTrue(c.droppedFor("tm_queue_limit") + c.droppedFor("tm_port_limit") + c.droppedFor("tm_buffer_full") > 0);
    }
}
