package dev.rmtemu.emulator.cli;

import dev.rmtemu.emulator.journal.ExportJournal;
import dev.rmtemu.emulator.journal.JournalKinds;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import java.nio.channels.FileChannel;
import java.nio.file.StandardOpenOption;
import dev.rmtemu.emulator.rundir.RunDirectory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CollectCommandTest {
    /** A queue file cut short inside its first page of messages. */
    private static final long TRUNCATED_BYTES = 1000;

    record Result(int exit, String out, String err) {
    }

    static Result run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = Main.run(args, new PrintWriter(out, true), new PrintWriter(err, true));
        return new Result(exit, out.toString(), err.toString());
    }

    /** A small run: two digests and a drop counter; wbmon.drops registered twice on purpose. */
    static ExportJournal writeRun(Path runDir, boolean close) {
        JournalKinds kinds = new JournalKinds();
        int digest = kinds.register("lossradar.digest");
        int drops = kinds.register("wbmon.drops");
        kinds.register("midst.report");
        UnsafeBuffer buf = new UnsafeBuffer(new byte[32]);
        for (int i = 0; i < 32; i++) {
            buf.putByte(i, (byte) (i * 17));
        }
        ExportJournal journal = ExportJournal.create(runDir, kinds);
        journal.append(digest, 1200, 0, 1, buf, 0, 20);
        journal.append(drops, 1500, 3, 0, buf, 4, 2);
        journal.append(digest, 2400, 0, 1, buf, 0, 0);
        if (close) {
            journal.close();
        }
        return journal;
    }

    @Test
    void aRunThatExportedNothingEndsAtItsLastEventNotAtCycleZero(@TempDir Path tmp) throws Exception {
        Path out = tmp.resolve("run");
        Result replay = run("replay", "--program", "counter", "--trace", "gen:isp?packets=500&flows=20&seed=1",
                "--out", out.toString(), "--no-progress", "--json");
        assertEquals(0, replay.exit(), replay.err());
        long last = new com.fasterxml.jackson.databind.ObjectMapper().readTree(replay.out()).findValue("last_event_cycle").asLong();
        assertTrue(last > 0, replay.out());
        Result r = run("collect", "--journal", out.resolve("journal").toString());
        assertEquals(0, r.exit(), r.err());
        assertEquals("end of run at cycle " + last + ": 0 messages", r.out().lines().reduce((a, b) -> b).orElse(""));
    }

    @Test
    void printsOneLinePerMessageAndASummary(@TempDir Path runDir) {
        writeRun(runDir, true);
        Result r = run("collect", "--journal", runDir.resolve("journal").toString());
        assertEquals(0, r.exit(), r.err());
        assertEquals(List.of(
                "cycle 1200 switch 0 pipe 1 kind lossradar.digest length 20 bytes 00112233445566778899aabbccddeeff...",
                "cycle 1500 switch 3 pipe 0 kind wbmon.drops length 2 bytes 4455",
                "cycle 2400 switch 0 pipe 1 kind lossradar.digest length 0",
                "summary lossradar.digest: 2 messages, 20 payload bytes, cycles 1200..2400",
                "summary wbmon.drops: 1 messages, 2 payload bytes, cycles 1500..1500",
                "summary midst.report: 0 messages, 0 payload bytes",
                "end of run at cycle 2400: 3 messages"), r.out().lines().toList());
        assertEquals("", r.err());
    }

    @Test
    void jsonLinesCarryTheWholePayload(@TempDir Path runDir) {
        writeRun(runDir, true);
        Result r = run("collect", "--journal", runDir.toString(), "--json", "--follow");
        assertEquals(0, r.exit(), r.err());
        List<String> lines = r.out().lines().toList();
        assertEquals("{\"cycle\":1200,\"switch\":0,\"pipe\":1,\"kind\":\"lossradar.digest\",\"length\":20,"
                + "\"payload\":\"00112233445566778899aabbccddeeff10213243\"}", lines.get(0));
        assertEquals("{\"summary\":\"wbmon.drops\",\"messages\":1,\"bytes\":2,\"first_cycle\":1500,\"last_cycle\":1500}",
                lines.get(4));
        assertEquals("{\"end\":true,\"messages\":3,\"end_cycle\":2400}", lines.get(lines.size() - 1));
    }

    @Test
    void aRunWhoseWriterIsGoneDidNotFinish(@TempDir Path runDir) {
        ExportJournal open = writeRun(runDir, false); // no end message, and no lock: nobody is writing
        Result r = run("collect", "--journal", runDir.toString(), "--hex-bytes", "0");
        open.close();
        assertEquals(6, r.exit(), r.err());
        List<String> lines = r.out().lines().toList();
        assertEquals("cycle 1200 switch 0 pipe 1 kind lossradar.digest length 20", lines.get(0));
        assertEquals("no end message: 3 messages (the writer is gone)", lines.get(lines.size() - 1));
        assertEquals(List.of("rmtemu: run did not finish: 3 messages"), r.err().lines().toList());
    }

    @Test
    void aRunStillWritingHasNotFinishedYet(@TempDir Path runDir) throws Exception {
        long self = ProcessHandle.current().pid();
        Files.writeString(runDir.resolve(RunDirectory.LOCK), self + "\n");
        ExportJournal open = writeRun(runDir, false);
        Result r = run("collect", "--journal", runDir.resolve("journal").toString(), "--hex-bytes", "0");
        open.close();
        assertEquals(6, r.exit(), r.err());
        assertTrue(r.out().lines().toList().contains("no end message yet: 3 messages so far (run still writing; use"
                + " --follow to wait for its end)"), r.out());
        assertEquals(List.of("rmtemu: run has not finished yet (pid " + self + " is writing): 3 messages so far;"
                + " use --follow to wait for its end"), r.err().lines().toList());
    }

    @Test
    void followEndsSoonAfterTheWriterIsGone(@TempDir Path runDir) throws Exception {
        Process gone = new ProcessBuilder("true").start();
        gone.waitFor();
        Files.writeString(runDir.resolve(RunDirectory.LOCK), gone.pid() + "\n");
        ExportJournal open = writeRun(runDir, false);
        long start = System.nanoTime();
        Result r = run("collect", "--journal", runDir.toString(), "--follow", "--json");
        long tookMs = (System.nanoTime() - start) / 1_000_000;
        open.close();
        assertEquals(6, r.exit(), r.err());
        assertTrue(tookMs < 5_000, "took " + tookMs + " ms");
        List<String> lines = r.out().lines().toList();
        assertEquals("{\"end\":false,\"messages\":3}", lines.get(lines.size() - 1));
        assertEquals(List.of("rmtemu: run did not finish: 3 messages"), r.err().lines().toList());
    }

    /**
     * Issue 30.14: a lock naming a live process that is not the writer (pid 1 here, as after pid
     * reuse following kill -9: its start time differs from the lock's) is a writer that is gone.
     */
    @Test
    void followEndsOnALockWhosePidWasReusedByAnotherProcess(@TempDir Path runDir) throws Exception {
        // as a lock from before start times were recorded, or one whose start was lost: pid 1 is alive, not a JVM
        org.junit.jupiter.api.Assumptions.assumeFalse(RunDirectory.isJvm(1).orElse(true), "pid 1 may be a JVM here");
        Files.writeString(runDir.resolve(RunDirectory.LOCK), "1\n");
        ExportJournal open = writeRun(runDir, false);
        Result r = org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(java.time.Duration.ofSeconds(30),
                () -> run("collect", "--journal", runDir.toString(), "--follow", "--json"));
        open.close();
        assertEquals(6, r.exit(), r.err());
        assertEquals(List.of("rmtemu: run did not finish: 3 messages"), r.err().lines().toList());
    }

    @Test
    void anAbortedRunDidNotFinish(@TempDir Path runDir) {
        writeRun(runDir, false).closeAborted();
        Result r = run("collect", "--journal", runDir.toString(), "--hex-bytes", "0");
        assertEquals(6, r.exit(), r.err());
        List<String> lines = r.out().lines().toList();
        assertEquals("run aborted at cycle 2400: 3 messages", lines.get(lines.size() - 1));
        assertEquals(List.of("rmtemu: run did not finish: 3 messages (stopped early: the end message is marked aborted)"),
                r.err().lines().toList());
    }

    @Test
    void aTruncatedQueueFileIsOneLineAndExitTwo(@TempDir Path runDir) throws Exception {
        writeRun(runDir, true);
        Path cq4;
        try (Stream<Path> s = Files.list(runDir.resolve("journal"))) {
            cq4 = s.filter(p -> p.toString().endsWith(".cq4")).findFirst().orElseThrow();
        }
        long size = Files.size(cq4);
        try (FileChannel ch = FileChannel.open(cq4, StandardOpenOption.WRITE)) {
            ch.truncate(TRUNCATED_BYTES);
        }
        Result r = run("collect", "--journal", runDir.toString());
        assertEquals(2, r.exit(), r.err());
        // found by the journal's manifest before Chronicle Queue maps the file
        assertEquals(List.of("rmtemu: journal " + runDir.resolve("journal") + ": damaged export journal: queue file "
                + cq4.getFileName() + " is " + TRUNCATED_BYTES + " bytes, rmtemu-journal.txt says " + size
                + " (truncated or replaced)"), r.err().lines().toList());
    }

    @Test
    void missingDirectoryExitsTwoWithOneLine(@TempDir Path tmp) {
        Path missing = tmp.resolve("no-such-run");
        Result r = run("collect", "--journal", missing.toString());
        assertEquals(2, r.exit());
        assertEquals("", r.out());
        assertEquals(List.of("rmtemu: journal " + missing + ": no such directory"), r.err().lines().toList());
    }

    @Test
    void directoryWithoutJournalExitsTwo(@TempDir Path tmp) throws Exception {
        Files.writeString(tmp.resolve("notes.txt"), "not a queue");
        Result r = run("collect", "--journal", tmp.toString());
        assertEquals(2, r.exit());
        assertEquals(1, r.err().lines().count(), r.err());
        assertTrue(r.err().contains("not an export journal"), r.err());
    }

    @Test
    void helpDescribesEveryOption() {
        Result r = run("collect", "--help");
        assertEquals(0, r.exit());
        for (String opt : List.of("--journal", "--follow", "--json", "--hex-bytes")) {
            assertTrue(r.out().contains(opt), opt + " missing from help:\n" + r.out());
        }
    }
}
