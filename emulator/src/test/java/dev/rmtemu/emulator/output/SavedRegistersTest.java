package dev.rmtemu.emulator.output;

import dev.rmtemu.emulator.run.Replay;
import dev.rmtemu.emulator.spi.ReplayOptions;
import dev.rmtemu.emulator.spi.ReplayResult;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.rmtemu.model.program.ProgramRegistry;
import dev.rmtemu.model.runtime.PipelineState;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The register arrays a replay leaves in its run directory. */
class SavedRegistersTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String TRACE = "gen:isp?packets=20000&flows=2000&seed=3";
    private static final String COUNTER_FILE = SavedRegisters.fileName("flow_count");

    private static ReplayOptions counter(String trace, Path out) {
        return new ReplayOptions("counter", Map.of(), "tofino1", trace, "rate:100G", 1, 0, 100, true, 0, out, false);
    }

    @Test
    void counterCellsEqualTheEngineStateInEveryPipe(@TempDir Path tmp) throws IOException {
        ReplayResult r = Replay.run(counter(TRACE, tmp), null);
        PipelineState st = r.engine().state();
        Path file = tmp.resolve(COUNTER_FILE);
        long total = 0;
        for (int pipe = 0; pipe < st.pipes(); pipe++) {
            SavedRegisters.Cells c = SavedRegisters.read(file, "flow_count", pipe, null);
            assertArrayEquals(st.snapshot(pipe, "flow_count"), c.lo(), "pipe " + pipe);
            assertNull(c.hi());
            for (long v : c.lo()) {
                total += v;
            }
        }
        // the counter counts every packet once, in its ingress pipe
        assertEquals(r.engine().counters().packetsIn(), total);
        assertEquals(20_000, total);
        SavedRegisters.Header h = SavedRegisters.header(file);
        assertEquals(new SavedRegisters.Header("flow_count", "ingress", 0, 32, false, 65536, 4), h);
        JsonNode report = JSON.readTree(tmp.resolve(RunOutputs.REPORT).toFile());
        assertTrue(report.get("complete").asBoolean());
        assertTrue(JSON.convertValue(report.get("files"), List.class).contains(COUNTER_FILE));
        assertEquals(COUNTER_FILE, report.at("/registers/flow_count/file").asText());
        // a range of one pipe: the same cells as the snapshot's slice
        SavedRegisters.Cells part = SavedRegisters.read(file, "flow_count", 2, new int[] {100, 164});
        assertArrayEquals(java.util.Arrays.copyOfRange(st.snapshot(2, "flow_count"), 100, 164), part.lo());
    }

    @Test
    void twoRunsWriteIdenticalBytes(@TempDir Path tmp) throws IOException {
        Replay.run(counter(TRACE, tmp.resolve("a")), null);
        Replay.run(counter(TRACE, tmp.resolve("b")), null);
        byte[] a = Files.readAllBytes(tmp.resolve("a").resolve(COUNTER_FILE));
        assertArrayEquals(a, Files.readAllBytes(tmp.resolve("b").resolve(COUNTER_FILE)));
        // compressed: 2 MiB of words, mostly small counts, in far less
        assertTrue(a.length < (1 << 20) / 4, a.length + " bytes");
    }

    @Test
    void aRerunReplacesTheFilesAndOneWithoutArraysRemovesThem(@TempDir Path tmp) throws IOException {
        Replay.run(counter(TRACE, tmp), null);
        byte[] first = Files.readAllBytes(tmp.resolve(COUNTER_FILE));
        ReplayResult second = Replay.run(counter("gen:isp?packets=5000&flows=500&seed=9", tmp), null);
        assertNotEquals(java.util.Arrays.toString(first), java.util.Arrays.toString(Files.readAllBytes(tmp.resolve(COUNTER_FILE))));
        assertArrayEquals(second.engine().state().snapshot(0, "flow_count"),
                SavedRegisters.read(tmp.resolve(COUNTER_FILE), "flow_count", 0, null).lo());
        // l2fwd has no register arrays: the rerun removes the counter's file and the emptied folder
        assertTrue(new ProgramRegistry().build("l2fwd", Map.of()).registers().isEmpty());
        Replay.run(new ReplayOptions("l2fwd", Map.of(), "tofino1", TRACE, "rate:100G", 1, 0, 100, true, 0, tmp, false), null);
        assertFalse(Files.exists(tmp.resolve(SavedRegisters.DIR)));
    }

    @Test
    void largeArraysAreSavedOnlyWhenAsked() {
        PipelineState st = new PipelineState(new ProgramRegistry().build("counter", Map.of()), 4);
        long bytes = SavedRegisters.uncompressedBytes(st);
        // 65,536 cells x 4 pipes x 8 bytes
        assertEquals(2L << 20, bytes);
        assertTrue(SavedRegisters.saves(bytes, false, 2L << 20));
        assertFalse(SavedRegisters.saves(bytes, false, (2L << 20) - 1));
        assertTrue(SavedRegisters.saves(bytes, true, 1L << 20));
        assertEquals("register arrays not saved: 2.0 MiB uncompressed is over 1 MiB; add --save-registers to keep them"
                        + " for 'rmtemu registers'",
                SavedRegisters.notSavedWarning(bytes, false, 1L << 20).orElseThrow());
        assertTrue(SavedRegisters.notSavedWarning(bytes, true, 1L << 20).isEmpty());
        assertTrue(SavedRegisters.notSavedWarning(bytes, false, SavedRegisters.ALWAYS_SAVE_BYTES).isEmpty());
    }
}
