package dev.rmtemu.emulator.cli;

import dev.rmtemu.emulator.rundir.OutputPaths;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** Options that mean nothing are refused with exit 2 and one line naming the option and the cause. */
class InputOptionsTest {
    private static final String TRACE = "gen:isp?packets=20&flows=4&seed=1";

    private static CliRunner replay(Path out, String... more) {
        String[] base = {"replay", "--program", "counter", "--trace", TRACE, "--no-progress", "--out", out.toString()};
        String[] args = new String[base.length + more.length];
        System.arraycopy(base, 0, args, 0, base.length);
        System.arraycopy(more, 0, args, base.length, more.length);
        return CliRunner.run(args);
    }

    private static void refused(CliRunner r, String line) {
        assertEquals(2, r.exit(), r.err());
        assertEquals("rmtemu: " + line + System.lineSeparator(), r.err());
    }

    @Test
    void rangesThatMeanNothingAreRefused(@TempDir Path tmp) {
        Path out = tmp.resolve("run");
        refused(replay(out, "--ports", "0"), "--ports must be at least 1, got 0 (leave it out for every port of the target)");
        refused(replay(out, "--max-packets", "-1"), "--max-packets must be 0 (the whole trace) or positive, got -1");
        refused(replay(out, "--rate", "1e400G"), "timing 'rate:1e400G': rate must be at most 1000000G");
        refused(replay(out, "--rate", "0"), "timing 'rate:0': rate must be positive");
        refused(replay(out, "--rate", "-5G"), "timing 'rate:-5G': rate must be positive");
        refused(replay(out, "--port-gbps", "NaN"), "--port-gbps must be positive and finite, got NaN");
        refused(replay(out, "--pps", "1000000000000000"),
                "timing 'pps:1000000000000000': packets per second must be a whole number in 1..1000000000000");
        assertTrue(Files.notExists(out), "nothing written for a refused run");
    }

    @Test
    void outPathsAreCheckedAndNormalisedBeforeAnythingIsWritten(@TempDir Path tmp) throws Exception {
        refused(CliRunner.run("replay", "--program", "counter", "--trace", TRACE, "--no-progress", "--out", ""),
                "--out must not be empty");
        CliRunner ok = replay(tmp.resolve("x/a/../b/run"));
        assertEquals(0, ok.exit(), ok.err());
        assertTrue(Files.isRegularFile(tmp.resolve("x/b/run/report.json")));
        assertTrue(Files.notExists(tmp.resolve("x/a")), "the path was normalised, 'a' not created");
        assertTrue(ok.out().contains("run directory: " + tmp.resolve("x/b/run")), ok.out());

        Path file = Files.writeString(tmp.resolve("file"), "user data");
        refused(replay(file), "--out " + file + ": exists and is not a directory");
        refused(replay(file.resolve("run")), "--out " + file.resolve("run") + ": " + file + " exists and is not a directory");
        Path longName = tmp.resolve("n".repeat(300));
        refused(replay(longName), "--out " + longName + ": File name too long");
        assertEquals("user data", Files.readString(file));
    }

    @Test
    void ioFailuresAreNamedByTheirCause() {
        assertEquals("Permission denied", OutputPaths.cause(new AccessDeniedException("/x")));
        assertEquals("exists and is not a directory", OutputPaths.cause(new FileAlreadyExistsException("/x")));
        assertEquals("File name too long", OutputPaths.cause(new FileSystemException("/x", null, "File name too long")));
    }

    @Test
    void aPermissionDeniedParentIsNamed(@TempDir Path tmp) throws Exception {
        Path locked = Files.createDirectory(tmp.resolve("locked"));
        assumeTrue(locked.toFile().setWritable(false, false) && !Files.isWritable(locked), "running as root: modes not enforced");
        try {
            refused(replay(locked.resolve("run")), "--out " + locked.resolve("run") + ": " + locked + ": Permission denied");
        } finally {
            locked.toFile().setWritable(true, false);
        }
    }

    @Test
    void aDeviceOrFifoIsNotATrace(@TempDir Path tmp) throws Exception {
        Path out = tmp.resolve("run");
        CliRunner zero = CliRunner.run("replay", "--program", "counter", "--trace", "/dev/zero", "--no-progress",
                "--out", out.toString());
        refused(zero, "/dev/zero: not a regular file");
        Path fifo = tmp.resolve("fifo");
        Process p = new ProcessBuilder("mkfifo", fifo.toString()).start();
        assumeTrue(p.waitFor() == 0, "mkfifo available");
        refused(CliRunner.run("trace", "info", fifo.toString()), fifo + ": not a regular file");
    }

    @Test
    void topoRunsTheImpairmentChecksReplayRuns(@TempDir Path tmp) throws Exception {
        Path topo = tmp.resolve("t.yaml");
        Files.writeString(topo, String.join("\n",
                "nodes:",
                "  - {name: s1, type: switch, target: tofino1, ports: 2}",
                "  - {name: h1, type: host, address: 10.0.1.1/32, role: source}",
                "  - {name: h2, type: host, address: 10.0.2.1/32, role: sink}",
                "links:",
                "  - {a: h1:1, b: s1:1, latency_ns: 500, rate_gbps: 100}",
                "  - {a: s1:2, b: h2:1, latency_ns: 500, rate_gbps: 100, impair_ab: {loss: \"bernoulli:1.5\"}}",
                ""));
        CliRunner topoRun = CliRunner.run("topo", topo.toString());
        CliRunner replayRun = CliRunner.run("replay", "--topology", topo.toString(), "--trace", TRACE, "--no-progress",
                "--out", tmp.resolve("run").toString());
        assertEquals(2, topoRun.exit(), topoRun.out() + topoRun.err());
        assertEquals(2, replayRun.exit(), replayRun.err());
        assertEquals(replayRun.err(), topoRun.err());
        assertTrue(topoRun.err().startsWith("rmtemu: " + topo + ": link 1"), topoRun.err());
    }

    @Test
    void aTruncatedTraceStoreIsExit2WithOneLine(@TempDir Path tmp) throws Exception {
        Path store = tmp.resolve("s.cq");
        CliRunner conv = CliRunner.run("trace", "convert", TRACE, store.toString());
        assertEquals(0, conv.exit(), conv.err());
        Path cycle;
        try (var s = Files.list(store)) {
            cycle = s.filter(p -> p.toString().endsWith(".cq4")).findFirst().orElseThrow();
        }
        try (java.io.RandomAccessFile f = new java.io.RandomAccessFile(cycle.toFile(), "rw")) {
            f.setLength(4096);
        }
        for (CliRunner r : new CliRunner[] {CliRunner.run("trace", "info", store.toString()),
            CliRunner.run("replay", "--program", "counter", "--trace", store.toString(), "--no-progress",
                    "--out", tmp.resolve("run").toString())}) {
            assertEquals(2, r.exit(), r.err());
            assertTrue(r.err().startsWith("rmtemu: " + store + ": corrupt trace store: queue file " + cycle.getFileName()
                    + " is 4096 bytes"), r.err());
            assertEquals(1, r.err().lines().count(), r.err());
        }
    }
}
