package dev.rmtemu.emulator.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rmtemu.emulator.output.RunOutputs;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * One trace replayed with outputs from the generator, from a pcap of it (frames cut at the
 * parser window) and from a trace store of it: each source is checked whole before the run
 * (a store read once for that and rewound, its records then read by the packet ring's thread)
 * and the three runs write the same switch results (registers, counters, histograms).
 */
class ReplaySourcesTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String TRACE = "gen:isp?packets=30000&flows=2000&seed=8&gbps=100&load=1";

    private static JsonNode results(Path run) throws IOException {
        ObjectNode n = (ObjectNode) JSON.readTree(run.resolve(RunOutputs.REPORT).toFile());
        assertTrue(n.get("complete").asBoolean(), n.toString());
        // what differs by source: where the packets came from and how long the host took
        n.remove("host");
        n.remove("inputs");
        return n;
    }

    private static Path replay(Path tmp, String name, String trace) {
        Path out = tmp.resolve(name);
        CliRunner r = CliRunner.run("replay", "--program", "counter", "--trace", trace, "--no-progress",
                "--out", out.toString());
        assertEquals(0, r.exit(), r.err());
        return out;
    }

    @Test
    void generatorPcapAndStoreGiveTheSameRun(@TempDir Path tmp) throws IOException {
        Path pcap = tmp.resolve("isp.pcap");
        Path store = tmp.resolve("isp.cq");
        assertEquals(0, CliRunner.run("trace", "convert", TRACE, pcap.toString(), "--snaplen", "256").exit());
        assertEquals(0, CliRunner.run("trace", "convert", TRACE, store.toString()).exit());
        JsonNode gen = results(replay(tmp, "gen", TRACE));
        assertEquals(30_000, gen.at("/counters/in").asLong(), gen.toString());
        assertEquals(gen, results(replay(tmp, "pcap", pcap.toString())));
        assertEquals(gen, results(replay(tmp, "store", store.toString())));
        for (String name : new String[] {"gen", "pcap", "store"}) {
            assertEquals(Files.readString(tmp.resolve("gen").resolve("latency.hgrm")),
                    Files.readString(tmp.resolve(name).resolve("latency.hgrm")), name);
        }
    }
}
