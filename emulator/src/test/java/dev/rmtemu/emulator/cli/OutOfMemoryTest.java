package dev.rmtemu.emulator.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** An Error reaching the CLI is one line and exit 1; the stack trace only with --debug. */
class OutOfMemoryTest {
    /** A heap far too small for the generator's 50 M flow table (about 200 MB). */
    private static final String SMALL_HEAP = "-Xmx64m";
    /** dist=zipf: that flow model holds every flow's state, so 50 M flows exhaust a small heap. */
    private static final String HUGE_TRACE = "gen:isp?packets=50000000&flows=50000000&dist=zipf";

    private static String run(Path tmp, String name, String... extra) throws Exception {
        Path log = tmp.resolve(name + ".log");
        List<String> args = new java.util.ArrayList<>(List.of("replay", "--program", "counter", "--trace", HUGE_TRACE,
                "--no-progress", "--out", tmp.resolve(name).toString()));
        args.addAll(List.of(extra));
        Process p = ChildCli.start(log, List.of(SMALL_HEAP), args.toArray(String[]::new));
        try {
            assertTrue(p.waitFor(60, TimeUnit.SECONDS), "child did not end");
            assertEquals(1, p.exitValue(), Files.readString(log));
            return Files.readString(log);
        } finally {
            p.destroyForcibly();
        }
    }

    @Test
    void outOfMemoryIsOneLineNamingTheHeapOption(@TempDir Path tmp) throws Exception {
        String said = run(tmp, "plain");
        List<String> lines = said.lines().toList();
        assertEquals(1, lines.size(), said);
        assertTrue(lines.get(0).matches("rmtemu: out of memory \\(Java heap space, this JVM may use \\d+ MB\\); give it"
                + " more, e.g\\. RMTEMU_JAVA_OPTS=-Xmx1g \\(--debug shows the stack trace\\)"), said);
        assertFalse(Files.exists(tmp.resolve("plain")), "the run directory was never touched");
        String debug = run(tmp, "debug", "--debug");
        assertTrue(debug.startsWith("rmtemu: out of memory (Java heap space"), debug);
        assertTrue(debug.contains("java.lang.OutOfMemoryError: Java heap space") && debug.contains("\tat "), debug);
    }

    @Test
    void anyOtherErrorIsOneLineToo() {
        assertEquals("internal error: java.lang.InternalError: a fault occurred", Main.errorLine(
                new InternalError("a fault occurred")));
    }

    @Test
    void aNetworkThatCannotFitIsRefusedBeforeTheRunWithTheHeapOption(@TempDir Path tmp) throws Exception {
        Path log = tmp.resolve("net.log");
        Process p = ChildCli.start(log, List.of(SMALL_HEAP), "replay", "--topology", "builtin:fattree?k=24",
                "--trace", "gen:isp?packets=10", "--no-progress", "--out", tmp.resolve("net").toString());
        try {
            assertTrue(p.waitFor(60, TimeUnit.SECONDS), "child did not end");
            String said = Files.readString(log);
            assertEquals(2, p.exitValue(), said);
            assertEquals(1, said.lines().count(), said);
            assertTrue(said.matches("rmtemu: topology builtin:fattree\\?k=24 needs about \\d+ MB before its first packet"
                    + " \\(.*\\), more than the \\d+ MB it may take: half of this JVM's \\d+ MB heap \\(the other half"
                    + " is for packets in flight, the ring and the report\\); run with RMTEMU_JAVA_OPTS=-Xmx1g\\s*"), said);
        } finally {
            p.destroyForcibly();
        }
    }
}
