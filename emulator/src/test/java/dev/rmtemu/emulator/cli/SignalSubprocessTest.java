package dev.rmtemu.emulator.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.rmtemu.emulator.journal.JournalReader;
import dev.rmtemu.emulator.rundir.RunDirectory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A replay in a child JVM, stopped by SIGTERM and, separately, by kill -9: what each leaves
 * in the run directory and what {@code rmtemu collect} then says.
 */
@EnabledOnOs({OS.LINUX, OS.MAC})
class SignalSubprocessTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** Far more packets than the child gets through before the signal: the run is always mid-trace. */
    private static final String LONG_TRACE = "gen:isp?packets=2000000000&flows=5000&seed=9";

    private static Process startReplay(Path out, Path log) throws Exception {
        return ChildCli.start(log, List.of("-Xmx256m"), "replay", "--program", "counter", "--trace", LONG_TRACE,
                "--timing", "back-to-back", "--no-progress", "--out", out.toString());
    }

    /** Waits (host time bounds only the test) until the child has taken its run directory. */
    private static void awaitRunning(Process p, Path out, Path log) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        // the lock, then the journal's queue file: the signal handlers are in place and the header written
        while (!(Files.exists(out.resolve(RunDirectory.LOCK)) && hasQueueFile(out.resolve("journal")))) {
            assertTrue(p.isAlive(), "replay died: " + Files.readString(log));
            assertTrue(System.nanoTime() < deadline, "replay did not start");
            Thread.sleep(20);
        }
        // a little time inside the packet loop (how many packets it gets through depends on the host)
        Thread.sleep(500);
    }

    private static boolean hasQueueFile(Path journal) throws Exception {
        if (!Files.isDirectory(journal)) {
            return false;
        }
        try (java.util.stream.Stream<Path> s = Files.list(journal)) {
            return s.anyMatch(p -> p.getFileName().toString().endsWith(".cq4"));
        }
    }

    @Test
    void sigtermEndsTheRunWithAFinalIncompleteReport(@TempDir Path tmp) throws Exception {
        Path out = tmp.resolve("run");
        Path log = tmp.resolve("child.log");
        Process p = startReplay(out, log);
        try {
            awaitRunning(p, out, log);
            CliRunner second = CliRunner.run("replay", "--program", "counter", "--trace", "gen:isp?packets=10",
                    "--no-progress", "--out", out.toString());
            assertEquals(2, second.exit(), "a second replay into a directory in use is refused");
            assertEquals("rmtemu: run directory " + out + ": in use by a running rmtemu process (pid " + p.pid() + ", "
                    + out.resolve(RunDirectory.LOCK) + ")", second.err().strip());
            p.destroy(); // SIGTERM
            assertTrue(p.waitFor(20, TimeUnit.SECONDS), "replay did not stop on SIGTERM");
            String said = Files.readString(log);
            assertEquals(143, p.exitValue(), said);
            List<String> lines = said.lines().filter(l -> l.startsWith("rmtemu:")).toList();
            assertEquals(1, lines.size(), said);
            assertTrue(lines.get(0).startsWith("rmtemu: replay interrupted by SIGTERM after "), said);
            JsonNode report = JSON.readTree(out.resolve("report.json").toFile());
            assertFalse(report.get("complete").asBoolean());
            assertEquals("SIGTERM", report.get("interrupted_by").asText());
            JsonNode c = report.get("counters");
            assertEquals(c.get("in").asLong(), c.get("out").asLong() + c.get("dropped").asLong() + c.get("in_flight").asLong());
            assertTrue(report.get("files").toString().contains("resources.json"), report.get("files").toString());
            assertFalse(Files.exists(out.resolve(RunDirectory.LOCK)), "the lock goes with the run");
            try (JournalReader j = JournalReader.open(out)) {
                j.readHeaderIfPresent();
                j.poll((kind, cycle, sw, pipe, payload, offset, length) -> { }, Integer.MAX_VALUE);
                assertTrue(j.isEnded() && j.isAborted());
            }
            CliRunner collect = CliRunner.run("collect", "--journal", out.toString());
            assertEquals(6, collect.exit(), collect.err());
            assertEquals("rmtemu: run did not finish: 0 messages (stopped early: the end message is marked aborted)",
                    collect.err().strip());
        } finally {
            p.destroyForcibly();
        }
    }

    @Test
    void killMinus9LeavesAnIncompleteReportAndAReadableJournal(@TempDir Path tmp) throws Exception {
        Path out = tmp.resolve("run");
        Path log = tmp.resolve("child.log");
        Process p = startReplay(out, log);
        try {
            awaitRunning(p, out, log);
            p.destroyForcibly(); // SIGKILL
            assertTrue(p.waitFor(20, TimeUnit.SECONDS));
            assertEquals(137, p.exitValue());
            JsonNode report = JSON.readTree(out.resolve("report.json").toFile());
            assertFalse(report.get("complete").asBoolean());
            assertEquals("counter", report.get("inputs").get("program").asText());
            assertEquals(java.util.Optional.of(p.pid()), RunDirectory.lockPid(out),
                    "the dead writer's lock stays, for collect to see");
            try (JournalReader j = JournalReader.open(out)) {
                assertTrue(j.readHeaderIfPresent(), "the header is readable");
                j.poll((kind, cycle, sw, pipe, payload, offset, length) -> { }, Integer.MAX_VALUE);
                assertFalse(j.isEnded());
            }
            CliRunner collect = CliRunner.run("collect", "--journal", out.toString());
            assertEquals(6, collect.exit(), collect.err());
            assertEquals("rmtemu: run did not finish: 0 messages", collect.err().strip());
            CliRunner follow = CliRunner.run("collect", "--journal", out.toString(), "--follow");
            assertEquals(6, follow.exit(), "--follow ends once the writer is gone: " + follow.err());
            // the next run takes the stale lock over and cleans the killed run's files
            CliRunner again = CliRunner.run("replay", "--program", "counter", "--trace", "gen:isp?packets=100",
                    "--no-progress", "--out", out.toString());
            assertEquals(0, again.exit(), again.err());
            assertTrue(JSON.readTree(out.resolve("report.json").toFile()).get("complete").asBoolean());
        } finally {
            p.destroyForcibly();
        }
    }
}
