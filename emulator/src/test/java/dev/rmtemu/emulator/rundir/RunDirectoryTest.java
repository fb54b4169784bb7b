package dev.rmtemu.emulator.rundir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rmtemu.emulator.journal.JournalKinds;
import dev.rmtemu.model.UserError;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RunDirectoryTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static ObjectNode inputs() {
        ObjectNode in = JSON.createObjectNode();
        in.put("program", "counter");
        in.put("trace", "gen:isp?packets=10");
        return in;
    }

    @Test
    void reportSaysIncompleteFromTheStartAndCompleteAtTheEnd(@TempDir Path tmp) throws Exception {
        Path dir = tmp.resolve("run");
        try (RunDirectory rd = RunDirectory.open(dir, false, inputs())) {
            long self = ProcessHandle.current().pid();
            assertEquals(self + " " + RunDirectory.processStart(self).orElseThrow(),
                    Files.readString(dir.resolve(RunDirectory.LOCK)).strip());
            JsonNode start = JSON.readTree(dir.resolve("report.json").toFile());
            assertEquals("{\"schema_version\":" + dev.rmtemu.emulator.json.Json.SCHEMA_VERSION + ",\"complete\":false,\"inputs\":{\"program\":\"counter\",\"trace\":\"gen:isp?packets=10\"},"
                    + "\"files\":[\"report.json\"]}", start.toString());
            rd.createJournal(new JournalKinds()).close();
            rd.plan(List.of("a.txt", "sub/b.txt"));
            assertEquals("[\"a.txt\",\"journal/\",\"report.json\",\"sub/b.txt\"]",
                    JSON.readTree(dir.resolve("report.json").toFile()).get("files").toString(), "planned before written");
            rd.writeString("a.txt", "A");
            rd.writeString("sub/b.txt", "B");
            ObjectNode end = JSON.createObjectNode();
            end.put("counters", 7);
            rd.finish(end, false, "SIGTERM");
        }
        assertEquals("{\"schema_version\":" + dev.rmtemu.emulator.json.Json.SCHEMA_VERSION
                        + ",\"complete\":false,\"interrupted_by\":\"SIGTERM\",\"counters\":7,"
                        + "\"files\":[\"a.txt\",\"journal/\",\"report.json\",\"sub/b.txt\"]}",
                JSON.readTree(dir.resolve("report.json").toFile()).toString());
        assertFalse(Files.exists(dir.resolve(RunDirectory.LOCK)));

        Files.writeString(dir.resolve("sub/user.txt"), "U");
        try (RunDirectory rd = RunDirectory.open(dir, false, inputs())) {
            assertEquals(List.of("report.json"), rd.files());
        }
        assertFalse(Files.exists(dir.resolve("a.txt")));
        assertFalse(Files.exists(dir.resolve("sub/b.txt")));
        assertFalse(Files.exists(dir.resolve("journal")));
        assertEquals("U", Files.readString(dir.resolve("sub/user.txt")));
    }

    @Test
    void aManifestCannotReachOutsideTheDirectory(@TempDir Path tmp) throws Exception {
        Path dir = tmp.resolve("run");
        Files.createDirectories(dir);
        Files.writeString(tmp.resolve("victim.txt"), "safe");
        Files.writeString(dir.resolve("report.json"), "{\"files\":[\"../victim.txt\"]}");
        UserError e = assertThrows(UserError.class, () -> RunDirectory.open(dir, false, inputs()));
        assertTrue(e.getMessage().startsWith("run directory " + dir + ": not empty and not a run directory"), e.getMessage());
        assertEquals("safe", Files.readString(tmp.resolve("victim.txt")));
        try (RunDirectory rd = RunDirectory.open(dir, true, inputs())) {
            assertEquals(List.of("report.json"), rd.files());
        }
        assertEquals("safe", Files.readString(tmp.resolve("victim.txt")));
    }

    @Test
    void theEmptyPathIsRefusedEvenWithForce(@TempDir Path tmp) throws Exception {
        // Path.of("") is the working directory (a module's source tree under surefire): a run once landed there
        UserError e = assertThrows(UserError.class, () -> RunDirectory.open(Path.of(""), true, inputs()));
        assertEquals("run directory must not be empty (it would be the working directory)", e.getMessage());
        try (RunDirectory rd = RunDirectory.open(tmp.resolve("run"), true, inputs())) {
            assertEquals(List.of("report.json"), rd.files());
        }
    }

    /** Issue 30.14: the lock names its writer by pid and start time, so a reused pid is not the writer. */
    @Test
    void theLockHolderIsThePidThatStartedWhenTheLockSays(@TempDir Path dir) throws Exception {
        long self = ProcessHandle.current().pid();
        String start = RunDirectory.processStart(self).orElseThrow();
        assertEquals(start, RunDirectory.processStart(self).orElseThrow(), "the same process, the same start");
        assertFalse(start.equals(RunDirectory.processStart(1).orElseThrow()), "pid 1 started at another time");
        Files.writeString(dir.resolve(RunDirectory.LOCK), self + " " + start + "\n");
        assertEquals(java.util.Optional.of(self), RunDirectory.liveLockHolder(dir));
        Files.writeString(dir.resolve(RunDirectory.LOCK), "1 " + start + "\n");
        assertEquals(java.util.Optional.empty(), RunDirectory.liveLockHolder(dir), "pid 1 is alive but not the writer");
        assertEquals(java.util.Optional.of(1L), RunDirectory.lockPid(dir));
        // a lock without a start (an older rmtemu's): a live pid that is not a JVM is not the writer
        org.junit.jupiter.api.Assumptions.assumeFalse(RunDirectory.isJvm(1).orElse(true), "pid 1 is not known to be other than a JVM");
        Files.writeString(dir.resolve(RunDirectory.LOCK), "1\n");
        assertEquals(java.util.Optional.empty(), RunDirectory.liveLockHolder(dir));
        Files.writeString(dir.resolve(RunDirectory.LOCK), self + "\n");
        assertEquals(java.util.Optional.of(self), RunDirectory.liveLockHolder(dir), "this test runs in a JVM");
    }

    /**
     * Issue 30.14: of simultaneous starts exactly one takes the directory and every other is told
     * the pid, never that the directory is not a run directory.
     */
    @Test
    void everyLoserOfSimultaneousStartsIsToldThePid(@TempDir Path tmp) throws Exception {
        int starters = 6;
        for (int round = 0; round < 12; round++) {
            Path dir = tmp.resolve("run" + round);
            java.util.concurrent.CyclicBarrier go = new java.util.concurrent.CyclicBarrier(starters);
            java.util.concurrent.CountDownLatch tried = new java.util.concurrent.CountDownLatch(starters);
            List<String> refusals = java.util.Collections.synchronizedList(new java.util.ArrayList<>());
            List<RunDirectory> winners = java.util.Collections.synchronizedList(new java.util.ArrayList<>());
            List<Thread> threads = new java.util.ArrayList<>();
            for (int t = 0; t < starters; t++) {
                Thread th = new Thread(() -> {
                    try {
                        go.await();
                        winners.add(RunDirectory.open(dir, false, inputs()));
                    } catch (UserError e) {
                        refusals.add(e.getMessage());
                    } catch (Exception e) {
                        refusals.add(e.toString());
                    } finally {
                        tried.countDown();
                    }
                });
                th.start();
                threads.add(th);
            }
            tried.await();
            for (Thread th : threads) {
                th.join();
            }
            assertEquals(1, winners.size(), "round " + round + ": " + refusals);
            String expected = "run directory " + dir + ": in use by a running rmtemu process (pid "
                    + ProcessHandle.current().pid() + ", " + dir.resolve(RunDirectory.LOCK) + ")";
            for (String r : refusals) {
                assertEquals(expected, r, "round " + round);
            }
            winners.get(0).close();
        }
    }
}
