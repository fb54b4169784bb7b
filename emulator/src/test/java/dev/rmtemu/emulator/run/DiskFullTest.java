package dev.rmtemu.emulator.run;

import dev.rmtemu.emulator.spi.ReplayOptions;
import dev.rmtemu.emulator.spi.ProgramControlPlane;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.rmtemu.emulator.cli.Main;
import dev.rmtemu.emulator.engine.SwitchEngine;
import dev.rmtemu.emulator.host.DiskFull;
import dev.rmtemu.emulator.journal.ExportJournal;
import dev.rmtemu.emulator.journal.JournalKinds;
import dev.rmtemu.emulator.journal.JournalReader;
import dev.rmtemu.emulator.rundir.RunDirectory;
import dev.rmtemu.emulator.rundir.StopRequest;
import dev.rmtemu.traces.PacketRecord;
import dev.rmtemu.traces.PacketSource;
import dev.rmtemu.traces.spec.TraceSpec;
import dev.rmtemu.traces.pcap.PcapWriter;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 30.12: a full file system is a user-facing condition. The run ends with one line naming
 * the file and "no space left on device", exit {@value DiskFull#EXIT_CODE}, no temporary file
 * left, report.json {@code complete: false} with the reason, and {@code collect} saying the run
 * did not finish (the journal's end marked aborted when the journal is what filled the disk).
 * The file systems are small tmpfs mounts (root only: the tests skip where mount is refused);
 * the first test injects the failure and always runs.
 */
class DiskFullTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String COUNTER_TRACE = "gen:isp?packets=3000&flows=200&seed=3";
    /** Room for the run's small files and its journal, not for its ~1 MB report.html. */
    private static final String OUTPUTS_DO_NOT_FIT = "1000k";
    /** Room for a few MiB of journal. */
    private static final String JOURNAL_DOES_NOT_FIT = "3m";

    record Cli(int exit, String out, String err) {
    }

    static Cli cli(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(args, new PrintWriter(out, true), new PrintWriter(err, true));
        return new Cli(code, out.toString(), err.toString());
    }

    /** Mounts a tmpfs of {@code size} at {@code dir}, or skips the test where that is not permitted. */
    private static void mountTmpfs(Path dir, String size) throws Exception {
        Files.createDirectories(dir);
        Process p;
        try {
            p = new ProcessBuilder("mount", "-t", "tmpfs", "-o", "size=" + size, "tmpfs", dir.toString())
                    .redirectErrorStream(true).start();
        } catch (IOException e) {
            Assumptions.abort("no mount command: " + e.getMessage());
            return;
        }
        p.getInputStream().readAllBytes();
        boolean done = p.waitFor(30, TimeUnit.SECONDS);
        Assumptions.assumeTrue(done && p.exitValue() == 0, "mounting a tmpfs is not permitted here");
    }

    private static void unmount(Path dir) throws Exception {
        // lazy: Chronicle's mappings may outlive the queue's close until they are collected
        new ProcessBuilder("umount", "-l", dir.toString()).redirectErrorStream(true).start().waitFor(30, TimeUnit.SECONDS);
    }

    private static List<String> temporaries(Path dir) throws IOException {
        try (Stream<Path> s = Files.walk(dir)) {
            return s.map(p -> p.getFileName().toString()).filter(n -> n.startsWith(".rmtemu-tmp")).toList();
        }
    }

    private static JsonNode report(Path out) throws IOException {
        return JSON.readTree(out.resolve(RunDirectory.REPORT).toFile());
    }

    @Test
    void aWriteThatFindsNoSpaceIsDiskFullAndLeavesNoTemporary(@TempDir Path tmp) throws Exception {
        Path dir = tmp.resolve("run");
        RunDirectory rd = RunDirectory.open(dir, false, JSON.createObjectNode());
        DiskFull e = assertThrows(DiskFull.class, () -> rd.write("big.bin", file -> {
            Files.write(file, new byte[100]);
            throw new IOException("No space left on device");
        }));
        assertEquals(dir.resolve("big.bin") + ": no space left on device", e.getMessage());
        assertEquals(DiskFull.EXIT_CODE, e.exitCode());
        assertEquals(7, DiskFull.EXIT_CODE);
        rd.failed(e);
        rd.close();
        assertEquals(List.of(), temporaries(dir));
        assertFalse(Files.exists(dir.resolve("big.bin")));
        JsonNode r = report(dir);
        assertFalse(r.get("complete").asBoolean());
        assertEquals(dir.resolve("big.bin") + ": no space left on device", r.get("interrupted_by").asText());
        assertEquals("[\"big.bin\",\"report.json\"]", r.get("files").toString());
    }

    @Test
    void outputsThatDoNotFitEndTheRunWithExitSevenAndAnHonestReport(@TempDir Path tmp) throws Exception {
        Path small = tmp.resolve("small");
        mountTmpfs(small, OUTPUTS_DO_NOT_FIT);
        try {
            Path out = small.resolve("run");
            Cli r = cli("replay", "--program", "counter", "--trace", COUNTER_TRACE, "--rate", "100G", "--no-progress",
                    "--out", out.toString());
            String line = out.resolve("report.html") + ": no space left on device";
            assertEquals(DiskFull.EXIT_CODE, r.exit(), r.err());
            assertEquals(List.of("rmtemu: " + line), r.err().lines().toList());
            assertEquals(List.of(), temporaries(out));
            assertFalse(Files.exists(out.resolve(RunDirectory.LOCK)));
            JsonNode report = report(out);
            assertFalse(report.get("complete").asBoolean());
            assertEquals(line, report.get("interrupted_by").asText());

            Cli c = cli("collect", "--journal", out.toString());
            assertEquals(6, c.exit(), c.err());
            assertEquals(List.of("rmtemu: run did not finish: 0 messages (the journal is whole, but report.json says: "
                    + line + ")"), c.err().lines().toList());
        } finally {
            unmount(small);
        }
    }

    /** Emulated cycles between two exports; bytes per export (the size of a small LDS sketch). */
    private static final long EXPORT_PERIOD = 1L << 20;
    private static final int EXPORT_BYTES = 16 * 1024;

    /** Exports a sketch every {@link #EXPORT_PERIOD} cycles while packets come, as LDS does. */
    private static final class SketchExport implements ProgramControlPlane {
        long exports;

        @Override
        public String program() {
            return "counter";
        }

        @Override
        public void registerKinds(JournalKinds kinds) {
            kinds.register("test.sketch");
        }

        @Override
        public Session start(SwitchEngine engine, ReplayOptions options, ExportJournal journal) {
            UnsafeBuffer sketch = new UnsafeBuffer(new byte[EXPORT_BYTES]);
            int kind = journal.kinds().id("test.sketch");
            boolean[] done = {false};
            schedule(engine, journal, sketch, kind, 0, done);
            return new Session() {
                @Override
                public void inputDone(long lastArrivalCycle) {
                    done[0] = true;
                }
            };
        }

        private void schedule(SwitchEngine engine, ExportJournal journal, UnsafeBuffer sketch, int kind, long at,
                              boolean[] done) {
            engine.scheduleControl(at, (state, cycle) -> {
                journal.append(kind, cycle, 0, 0, sketch, 0, sketch.capacity());
                exports++;
                if (!done[0]) {
                    schedule(engine, journal, sketch, kind, cycle + EXPORT_PERIOD, done);
                }
            });
        }
    }

    @Test
    void aCaptureThatFillsTheDiskEndsTheRunAndLeavesNoHalfFile(@TempDir Path tmp) throws Exception {
        Path small = tmp.resolve("small");
        mountTmpfs(small, OUTPUTS_DO_NOT_FIT);
        try {
            Path out = small.resolve("run");
            // ~140 bytes of pcapng per packet: 20,000 packets need ~2.8 MB, the file system has 1000 KiB
            Cli r = cli("replay", "--program", "counter", "--trace", "gen:isp?packets=20000&flows=200&seed=3",
                    "--rate", "10G", "--no-progress", "--capture", "--packet-log", "--out", out.toString());
            String line = out.resolve("capture/egress.pcapng") + ": no space left on device";
            assertEquals(DiskFull.EXIT_CODE, r.exit(), r.err());
            assertEquals(List.of("rmtemu: " + line), r.err().lines().toList());
            assertEquals(List.of(), temporaries(out));
            assertFalse(Files.exists(out.resolve("capture/egress.pcapng")));
            JsonNode report = report(out);
            assertFalse(report.get("complete").asBoolean());
            assertEquals(line, report.get("interrupted_by").asText());
        } finally {
            unmount(small);
        }
    }

    @Test
    void anExperimentWhoseOutputsDoNotFitSaysWhyInItsReport(@TempDir Path tmp) throws Exception {
        Path small = tmp.resolve("small");
        mountTmpfs(small, OUTPUTS_DO_NOT_FIT);
        try {
            Path out = small.resolve("exp");
            Cli r = cli("experiment", "fixture", "--opt", "pad=2000000", "--out", out.toString());
            String line = out.resolve("fixture.json") + ": no space left on device";
            assertEquals(DiskFull.EXIT_CODE, r.exit(), r.err());
            assertEquals(List.of("rmtemu: " + line), r.err().lines().toList());
            assertEquals(List.of(), temporaries(out));
            JsonNode report = report(out);
            assertFalse(report.get("complete").asBoolean());
            assertEquals(line, report.get("interrupted_by").asText());
        } finally {
            unmount(small);
        }
    }

    @Test
    void aJournalThatFillsTheDiskEndsTheRunWithAnAbortedEnd(@TempDir Path tmp) throws Exception {
        Path pcap = tmp.resolve("sparse.pcap");
        try (PacketSource gen = TraceSpec.open("gen:isp?packets=200&flows=2&seed=1"); PcapWriter w = new PcapWriter(pcap)) {
            PacketRecord r = PacketRecord.allocate();
            for (int i = 0; i < 2 && gen.next(r); i++) {
                r.timestampNs(i * 10_000_000_000L); // 10 s apart: ~11,600 exports, 190 MB of journal
                w.write(r);
            }
        }
        Path small = tmp.resolve("small");
        mountTmpfs(small, JOURNAL_DOES_NOT_FIT);
        try {
            Path out = small.resolve("run");
            SketchExport plane = new SketchExport();
            ReplayOptions o = new ReplayOptions("counter", Map.of(), "tofino1", pcap.toString(), "original", 1, 0, 100,
                    true, 0, out, false);
            DiskFull e = assertThrows(DiskFull.class, () -> Replay.run(o, null, List.of(plane), new StopRequest()));
            String line = out.resolve(RunDirectory.JOURNAL) + ": no space left on device";
            assertEquals(line, e.getMessage());
            assertEquals(DiskFull.EXIT_CODE, e.exitCode());
            assertEquals(List.of(), temporaries(out));
            JsonNode report = report(out);
            assertFalse(report.get("complete").asBoolean());
            assertEquals(line, report.get("interrupted_by").asText());
            try (JournalReader j = JournalReader.open(out)) {
                j.readHeaderIfPresent();
                j.poll((kind, cycle, sw, pipe, payload, offset, length) -> { }, Integer.MAX_VALUE);
                assertTrue(j.isEnded());
                assertTrue(j.isAborted());
                assertEquals(plane.exports, j.messagesRead(), "every export the journal took is readable");
                assertTrue(plane.exports > 10 && plane.exports < 1000, "stopped by the disk: " + plane.exports);
            }
            Cli c = cli("collect", "--journal", out.toString(), "--hex-bytes", "0");
            assertEquals(6, c.exit(), c.err());
            assertEquals(List.of("rmtemu: run did not finish: " + plane.exports
                    + " messages (stopped early: the end message is marked aborted)"), c.err().lines().toList());
        } finally {
            unmount(small);
        }
    }
}
