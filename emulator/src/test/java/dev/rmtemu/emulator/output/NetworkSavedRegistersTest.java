package dev.rmtemu.emulator.output;

import dev.rmtemu.emulator.spi.ReplayResult;
import dev.rmtemu.emulator.run.NetworkReplay;
import dev.rmtemu.emulator.spi.ReplayOptions;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.rmtemu.model.runtime.PipelineState;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** A network replay saves each switch's register arrays in registers/SWITCH/. */
class NetworkSavedRegistersTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String TRACE = "gen:isp?packets=3000&flows=200&seed=3";

    /** h1 - s1 - s2 - h2, both switches programmable. */
    static Path topology(Path dir) throws Exception {
        Files.createDirectories(dir);
        Path topo = dir.resolve("line.yaml");
        dev.rmtemu.emulator.LineTopology.write(topo, true);
        return topo;
    }

    static ReplayOptions options(Path tmp, Path out) throws Exception {
        return new ReplayOptions("counter", Map.of("cells", "64", "port", "511"), "tofino1", TRACE, "rate:10G", 1, 0,
                100, true, 0, out, false, null, topology(tmp).toString());
    }

    @Test
    void eachSwitchsCellsEqualItsEngineState(@TempDir Path tmp) throws Exception {
        Path out = tmp.resolve("run");
        ReplayResult r = NetworkReplay.run(options(tmp, out), null);
        for (String sw : new String[] {"s1", "s2"}) {
            PipelineState st = r.network().switchEngine(sw).state();
            Path file = out.resolve(SavedRegisters.fileName(sw, "flow_count"));
            long total = 0;
            for (int pipe = 0; pipe < st.pipes(); pipe++) {
                long[] lo = SavedRegisters.read(file, "flow_count", pipe, null).lo();
                assertArrayEquals(st.snapshot(pipe, "flow_count"), lo, sw + " pipe " + pipe);
                for (long v : lo) {
                    total += v;
                }
            }
            assertEquals(3000, total, "every packet crosses " + sw);
        }
        JsonNode report = JSON.readTree(out.resolve(RunOutputs.REPORT).toFile());
        assertEquals("[\"flow_count\"]", report.at("/network/switches/s1/register_arrays").toString());
        assertEquals("registers/s2/flow_count.bin.gz", SavedRegisters.fileName("s2", "flow_count"));
        byte[] first = Files.readAllBytes(out.resolve(SavedRegisters.fileName("s1", "flow_count")));
        NetworkReplay.run(options(tmp, tmp.resolve("again")), null);
        assertArrayEquals(first, Files.readAllBytes(tmp.resolve("again").resolve(SavedRegisters.fileName("s1", "flow_count"))));
    }
}
