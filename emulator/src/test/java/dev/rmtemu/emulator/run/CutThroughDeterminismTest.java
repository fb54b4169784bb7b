package dev.rmtemu.emulator.run;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rmtemu.emulator.capture.CaptureOptions;
import dev.rmtemu.emulator.output.RunOutputs;
import dev.rmtemu.emulator.spi.ProgramControlPlane;
import dev.rmtemu.emulator.spi.ReplayOptions;
import dev.rmtemu.emulator.spi.ReplayResult;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The traffic manager's cut-through (a packet that finds its port empty and idle is sent
 * without passing through its queue or the dequeue calendar) changes no output byte: the
 * same replay with it off and on writes the same files (report.json but for its host
 * section, every histogram but the host's, the journal, the timelines in report.html, the
 * captures and the packet log).
 */
class CutThroughDeterminismTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String TRACE = "gen:isp?packets=60000&flows=3000&seed=5&gbps=100&load=1";

    private static ReplayResult replay(String program, double portGbps, Path out, boolean cutThrough) {
        ReplayOptions o = new ReplayOptions(program, Map.of(), "tofino1", TRACE, ReplayOptions.DEFAULT_TIMING, 1, 0,
                portGbps, true, 0, out, false, null, null, false, 0, false,
                new CaptureOptions(true, CaptureOptions.DEFAULT_LIMIT, true));
        return Replay.run(o, null, ProgramControlPlane.forPrograms(List.of(program)), null, cutThrough);
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

    /**
     * A fully loaded 100 G link into a 100 G port (nearly every packet cuts through, most while the
     * port still serialises the one before) and into a 40 G and
     * a 10 G port (queues build and tail-drop: few do, and they interleave with queued ones).
     */
    @ParameterizedTest
    @CsvSource({"counter, 100", "counter, 40", "counter, 10"})
    void cutThroughOffAndOnWriteTheSameFiles(String program, double portGbps, @TempDir Path tmp) throws IOException {
        Path off = tmp.resolve("off");
        Path on = tmp.resolve("on");
        ReplayResult a = replay(program, portGbps, off, false);
        ReplayResult b = replay(program, portGbps, on, true);
        assertEquals(60_000, a.packetsRead());
        assertEquals(a.engine().counters().packetsOut(), b.engine().counters().packetsOut());
        assertEquals(0, a.engine().cutThroughPackets());
        assertTrue(b.engine().cutThroughPackets() > 0, "some packets found their port idle");
        assertTrue(b.engine().cutThroughPackets() < b.engine().counters().packetsOut(), "and some waited");
        if (portGbps == 100) {
            // back to back at line rate: each finds its port empty, the previous frame's last fraction of a cycle left
            assertTrue(b.engine().cutThroughPackets() > 59_900, b.engine().cutThroughPackets() + " cut through");
        }
        assertEquals(withoutHost(off), withoutHost(on));
        List<Path> names = files(off);
        assertEquals(names, files(on));
        assertTrue(names.contains(Path.of("capture", "egress.pcapng")), names.toString());
        assertTrue(names.stream().anyMatch(p -> p.startsWith("journal")), names.toString());
        for (Path f : names) {
            if (f.toString().equals(RunOutputs.REPORT) || f.toString().endsWith("host-processing.hgrm")) {
                continue; // host time (compared above without it)
            }
            assertArrayEquals(Files.readAllBytes(off.resolve(f)), Files.readAllBytes(on.resolve(f)), f.toString());
        }
    }
}
