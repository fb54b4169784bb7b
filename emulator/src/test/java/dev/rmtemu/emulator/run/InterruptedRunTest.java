package dev.rmtemu.emulator.run;

import dev.rmtemu.emulator.spi.ProgramControlPlane;
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
        ReplayOptions o = new ReplayOptions("counter", Map.of(), "tofino1", TRACE, "back-to-back", 1, 0, 100, true, 0,
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
        ReplayOptions o = new ReplayOptions(null, Map.of(), "tofino1", TRACE, "back-to-back", 1, 0, 100, true, 0,
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
        ReplayOptions o = new ReplayOptions("counter", Map.of(), "tofino1", "gen:isp?packets=1000&flows=20", "back-to-back",
                1, 0, 100, true, 0, out, false);
        ReplayResult r = Replay.run(o, null, new StopRequest());
        assertEquals(null, r.interruptedBy());
        JsonNode report = JSON.readTree(out.resolve("report.json").toFile());
        assertTrue(report.get("complete").asBoolean());
        assertFalse(report.has("interrupted_by"));
        assertEquals(0, report.get("counters").get("in_flight").asLong());
    }

    /** Emulated cycles between two exports of {@link PeriodicExport}: 2^20, as LDS's interval_shift=20 closes intervals. */
    private static final long EXPORT_PERIOD = 1L << 20;
    /** Seconds between the two packets of the sparse trace. */
    private static final long SPARSE_GAP_S = 60;
    /** The export during which the stop arrives. */
    private static final int STOP_AT_EXPORT = 100;

    /**
     * A control plane like LDS's: an export to the journal every {@link #EXPORT_PERIOD} cycles
     * while packets come; the stop request arrives during export {@link #STOP_AT_EXPORT}.
     */
    private static final class PeriodicExport implements ProgramControlPlane {
        final StopRequest stop;
        int exports;
        int exportsAfterStop;
        boolean inputDone;

        PeriodicExport(StopRequest stop) {
            this.stop = stop;
        }

        @Override
        public String program() {
            return "counter";
        }

        @Override
        public void registerKinds(dev.rmtemu.emulator.journal.JournalKinds kinds) {
            kinds.register("test.sketch");
        }

        @Override
        public Session start(dev.rmtemu.emulator.engine.SwitchEngine engine, ReplayOptions options,
                             dev.rmtemu.emulator.journal.ExportJournal journal) {
            return session(engine, journal);
        }

        @Override
        public Session startNetwork(dev.rmtemu.emulator.network.NetworkEngine network, ReplayOptions options,
                                    dev.rmtemu.emulator.journal.ExportJournal journal) {
            return session(network.switchEngine(0), journal);
        }

        private Session session(dev.rmtemu.emulator.engine.SwitchEngine engine,
                                dev.rmtemu.emulator.journal.ExportJournal journal) {
            org.agrona.concurrent.UnsafeBuffer sketch = new org.agrona.concurrent.UnsafeBuffer(new byte[64]);
            int kind = journal.kinds().id("test.sketch");
            schedule(engine, journal, sketch, kind, 0);
            return new Session() {
                @Override
                public void inputDone(long lastArrivalCycle) {
                    inputDone = true;
                }
            };
        }

        private void schedule(dev.rmtemu.emulator.engine.SwitchEngine engine, dev.rmtemu.emulator.journal.ExportJournal journal,
                              org.agrona.concurrent.UnsafeBuffer sketch, int kind, long at) {
            engine.scheduleControl(at, (state, cycle) -> {
                if (stop.requested()) {
                    exportsAfterStop++;
                }
                journal.append(kind, cycle, 0, 0, sketch, 0, sketch.capacity());
                exports++;
                if (exports == STOP_AT_EXPORT) {
                    stop.request("SIGTERM", 143); // the signal arrives while the batch is exporting
                }
                if (!inputDone) {
                    schedule(engine, journal, sketch, kind, cycle + EXPORT_PERIOD);
                }
            });
        }
    }

    /** Two packets {@link #SPARSE_GAP_S} s apart: one ring batch holds both, and ~70,000 exports lie between them. */
    private static Path sparseTrace(Path tmp) {
        Path pcap = tmp.resolve("sparse.pcap");
        try (dev.rmtemu.traces.PacketSource gen = dev.rmtemu.traces.spec.TraceSpec.open("gen:isp?packets=200&flows=2&seed=1");
             dev.rmtemu.traces.pcap.PcapWriter w = new dev.rmtemu.traces.pcap.PcapWriter(pcap)) {
            dev.rmtemu.traces.PacketRecord r = dev.rmtemu.traces.PacketRecord.allocate();
            for (int i = 0; i < 2 && gen.next(r); i++) {
                r.timestampNs(i * SPARSE_GAP_S * 1_000_000_000L);
                w.write(r);
            }
        }
        return pcap;
    }

    private static void assertStoppedInsideTheBatch(PeriodicExport plane, Path out, long packetsRead) throws Exception {
        assertEquals(STOP_AT_EXPORT, plane.exports, "no export after the one the stop arrived in");
        assertEquals(0, plane.exportsAfterStop);
        assertTrue(packetsRead < 2, "the second packet, after the exports, is not read: " + packetsRead);
        JsonNode report = JSON.readTree(out.resolve("report.json").toFile());
        assertFalse(report.get("complete").asBoolean());
        assertEquals("SIGTERM", report.get("interrupted_by").asText());
        try (JournalReader j = JournalReader.open(out)) {
            j.readHeaderIfPresent();
            j.poll((kind, cycle, sw, pipe, payload, offset, length) -> { }, Integer.MAX_VALUE);
            assertTrue(j.isEnded());
            assertTrue(j.isAborted());
            assertEquals(STOP_AT_EXPORT, j.messagesRead());
        }
    }

    /**
     * Issue 30.8: a stop that arrives while one ring batch spends a long stretch of emulated
     * time in control operations (LDS exporting sketches on a sparse trace) is honoured at the
     * next event, not after the batch.
     */
    @Test
    void aStopInsideALongBatchIsHonouredAtTheNextEvent(@TempDir Path tmp) throws Exception {
        StopRequest stop = new StopRequest();
        PeriodicExport plane = new PeriodicExport(stop);
        Path out = tmp.resolve("run");
        ReplayOptions o = new ReplayOptions("counter", Map.of(), "tofino1", sparseTrace(tmp).toString(), "original", 1, 0,
                100, true, 0, out, false);
        ReplayResult r = Replay.run(o, null, java.util.List.of(plane), stop);
        assertEquals("SIGTERM", r.interruptedBy());
        assertStoppedInsideTheBatch(plane, out, r.packetsRead());
        JsonNode c = JSON.readTree(out.resolve("report.json").toFile()).get("counters");
        assertEquals(c.get("in").asLong(), c.get("out").asLong() + c.get("dropped").asLong() + c.get("in_flight").asLong());
    }

    @Test
    void aStopInsideALongBatchEndsANetworkRunAtTheNextEvent(@TempDir Path tmp) throws Exception {
        StopRequest stop = new StopRequest();
        PeriodicExport plane = new PeriodicExport(stop);
        Path out = tmp.resolve("run");
        ReplayOptions o = new ReplayOptions(null, Map.of(), "tofino1", sparseTrace(tmp).toString(), "original", 1, 0,
                100, true, 0, out, false, null, "builtin:fattree?k=4");
        ReplayResult r = NetworkReplay.run(o, null, java.util.List.of(plane), stop);
        assertEquals("SIGTERM", r.interruptedBy());
        assertStoppedInsideTheBatch(plane, out, r.packetsRead());
    }
}
