package dev.rmtemu.emulator.run;

import dev.rmtemu.emulator.spi.ReplayOptions;
import dev.rmtemu.emulator.spi.ReplayResult;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.rmtemu.emulator.journal.JournalReader;
import dev.rmtemu.emulator.rundir.StopRequest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A stop request (what SIGINT/SIGTERM become) ends a run at the next chunk with an honest report. */
class InterruptedRunTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final long TRACE_PACKETS = 400_000;
    private static final String TRACE = "gen:isp?packets=" + TRACE_PACKETS + "&flows=2000&seed=5";

    /** Asks to stop once the first progress chunk has been delivered. */
    private static Replay.Progress stopAfterFirstChunk(StopRequest stop) {
        return new Replay.Progress() {
            @Override
            public void update(long packets) {
                stop.request("SIGTERM", 143);
            }

            @Override
            public void done(long packets) {
            }
        };
    }

    private static void assertStoppedAtTheChunk(long packets) {
        // the ring is drained in batches; the stop is seen before the next one
        assertTrue(packets >= Replay.PROGRESS_EVERY && packets < Replay.PROGRESS_EVERY + dev.rmtemu.emulator.ring.RingConfig.DEFAULT_DRAIN_BATCH,
                "stopped after " + packets);
    }

    @Test
    void singleSwitchRunStopsWithAnIncompleteReportAndAnAbortedJournal(@TempDir Path tmp) throws Exception {
        StopRequest stop = new StopRequest();
        Path out = tmp.resolve("run");
        ReplayOptions o = new ReplayOptions("counter", Map.of(), "tofino1", TRACE, "topspeed", 1, 0, 100, true, 0,
                out, false);
        ReplayResult r = Replay.run(o, stopAfterFirstChunk(stop), stop);
        assertEquals("SIGTERM", r.interruptedBy());
        assertStoppedAtTheChunk(r.packetsRead());
        JsonNode report = JSON.readTree(out.resolve("report.json").toFile());
        assertFalse(report.get("complete").asBoolean());
        assertEquals("SIGTERM", report.get("interrupted_by").asText());
        JsonNode c = report.get("counters");
        assertEquals(r.packetsRead(), c.get("in").asLong());
        assertTrue(c.get("in_flight").asLong() > 0, "not drained: " + c);
        assertEquals(c.get("in").asLong(), c.get("out").asLong() + c.get("dropped").asLong() + c.get("in_flight").asLong());
        assertTrue(Files.isRegularFile(out.resolve("latency.hgrm")));
        try (JournalReader j = JournalReader.open(out)) {
            j.readHeaderIfPresent();
            j.poll((kind, cycle, sw, pipe, payload, offset, length) -> { }, Integer.MAX_VALUE);
            assertTrue(j.isEnded());
            assertTrue(j.isAborted());
        }
    }

    @Test
    void networkRunStopsWithAnIncompleteReport(@TempDir Path tmp) throws Exception {
        StopRequest stop = new StopRequest();
        Path out = tmp.resolve("run");
        ReplayOptions o = new ReplayOptions(null, Map.of(), "tofino1", TRACE, "topspeed", 1, 0, 100, true, 0,
                out, false, null, "builtin:fattree?k=4");
        ReplayResult r = NetworkReplay.run(o, stopAfterFirstChunk(stop), stop);
        assertEquals("SIGTERM", r.interruptedBy());
        assertStoppedAtTheChunk(r.packetsRead());
        JsonNode report = JSON.readTree(out.resolve("report.json").toFile());
        assertFalse(report.get("complete").asBoolean());
        assertEquals("SIGTERM", report.get("interrupted_by").asText());
        JsonNode t = report.get("network").get("totals");
        assertEquals(r.packetsRead(), t.get("injected").asLong());
        assertTrue(t.get("in_flight").asLong() > 0, "not drained: " + t);
        try (JournalReader j = JournalReader.open(out)) {
            j.readHeaderIfPresent();
            j.poll((kind, cycle, sw, pipe, payload, offset, length) -> { }, Integer.MAX_VALUE);
            assertTrue(j.isAborted());
        }
    }

    @Test
    void withoutAStopTheSameRunIsComplete(@TempDir Path tmp) throws Exception {
        Path out = tmp.resolve("run");
        ReplayOptions o = new ReplayOptions("counter", Map.of(), "tofino1", "gen:isp?packets=1000&flows=20", "topspeed",
                1, 0, 100, true, 0, out, false);
        ReplayResult r = Replay.run(o, null, new StopRequest());
        assertEquals(null, r.interruptedBy());
        JsonNode report = JSON.readTree(out.resolve("report.json").toFile());
        assertTrue(report.get("complete").asBoolean());
        assertFalse(report.has("interrupted_by"));
        assertEquals(0, report.get("counters").get("in_flight").asLong());
    }
}
