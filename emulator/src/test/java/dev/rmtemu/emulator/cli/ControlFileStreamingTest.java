package dev.rmtemu.emulator.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 30 point 15: a control file was read whole (its bytes, then every line as a
 * String), so a 70 MB file peaked at 2.7 GB RSS. It is streamed now, one line at a time.
 * Reproducer: {@code rmtemu replay --program counter --control BIG.ctl ...} in a JVM whose
 * heap (48 MB) is smaller than the file (64 MB): it ran out of memory before (exit 1), it
 * runs now (exit 0); a bad line near the end is still {@code FILE:LINE: ...}, exit 2,
 * --out not created.
 */
class ControlFileStreamingTest {
    private static final String SMALL_HEAP = "-Xmx48m";
    /** Larger than the heap: reading it whole cannot fit. */
    private static final long FILE_BYTES = 64L << 20;
    private static final String TRACE = "gen:isp?packets=200&flows=20&seed=2";

    /** Register writes (and a comment every 50 lines) until the file holds {@link #FILE_BYTES}; returns the line count. */
    private static int write(Path file, String lastLine) throws IOException {
        int lines = 0;
        long bytes = 0;
        try (BufferedWriter w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            while (bytes < FILE_BYTES) {
                String line = lines % 50 == 0 ? "# block " + lines / 50 + "\n"
                        : "register_write flow_count " + (lines * 7919L % 1024) + " " + lines + "\n";
                w.write(line);
                bytes += line.length();
                lines++;
            }
            if (lastLine != null) {
                w.write(lastLine + "\n");
                lines++;
            }
        }
        return lines;
    }

    private static String run(Path tmp, Path control, Path out, int expectedExit) throws Exception {
        Path log = tmp.resolve(out.getFileName() + ".log");
        Process p = ChildCli.start(log, List.of(SMALL_HEAP), "replay", "--program", "counter", "--param", "cells=1024",
                "--control", control.toString(), "--trace", TRACE, "--no-progress", "--out", out.toString());
        try {
            assertTrue(p.waitFor(120, TimeUnit.SECONDS), "child did not end");
            String said = Files.readString(log);
            assertEquals(expectedExit, p.exitValue(), said);
            return said;
        } finally {
            p.destroyForcibly();
        }
    }

    @Test
    void aControlFileLargerThanTheHeapIsStreamed(@TempDir Path tmp) throws Exception {
        Path control = tmp.resolve("big.ctl");
        write(control, null);
        Path out = tmp.resolve("run");
        String said = run(tmp, control, out, 0);
        assertFalse(said.contains("rmtemu:"), said); // no error, no warning
        assertTrue(said.startsWith("run "), said);
        assertTrue(Files.readString(out.resolve("report.json")).contains("\"complete\" : true"));
    }

    @Test
    void aBadLineAtTheEndOfALargeFileIsStillFileAndLine(@TempDir Path tmp) throws Exception {
        Path control = tmp.resolve("bad.ctl");
        int lines = write(control, "register_write no_such_array 1 2");
        Path out = tmp.resolve("run");
        String said = run(tmp, control, out, 2);
        List<String> err = said.lines().toList();
        assertEquals(1, err.size(), said);
        assertTrue(err.get(0).startsWith("rmtemu: " + control + ":" + lines + ": "), said);
        assertTrue(err.get(0).contains("no_such_array"), said);
        assertFalse(Files.exists(out), "--out was created");
    }
}
