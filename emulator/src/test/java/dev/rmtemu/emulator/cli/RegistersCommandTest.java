package dev.rmtemu.emulator.cli;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rmtemu.emulator.output.SavedRegisters;
import dev.rmtemu.emulator.rundir.RunDirectory;
import dev.rmtemu.model.phv.Gress;
import dev.rmtemu.model.program.ProgramBuilder;
import dev.rmtemu.model.program.StageProgram;
import dev.rmtemu.model.register.RegisterArray;
import dev.rmtemu.model.runtime.PipelineState;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** {@code rmtemu registers}: exact output on a known run directory, and every refusal. */
class RegistersCommandTest {
    /** Two pipes of a 6-cell 32-bit array and a 4-cell pair array of 16-bit words, with known cells. */
    private static Path knownRun(Path dir) {
        return knownRun(dir, null);
    }

    /** As {@link #knownRun(Path)}, stopped by signal {@code interruptedBy} when not null. */
    private static Path knownRun(Path dir, String interruptedBy) {
        ProgramBuilder b = ProgramBuilder.create("known", "two arrays with known cells");
        b.stage(Gress.INGRESS, 0).register("counts", 32, 6);
        b.stage(Gress.EGRESS, 1).register("pairs", 16, true, 4);
        StageProgram program = b.build();
        PipelineState st = new PipelineState(program, 2);
        st.writeRegister(0, "counts", 0, 11, 0);
        st.writeRegister(1, "counts", 2, 7, 0);
        st.writeRegister(1, "counts", 4, 4_294_967_295L, 0);
        st.writeRegister(1, "pairs", 1, 3, 65_535);
        st.writeRegister(1, "pairs", 3, 9, 1);
        try (RunDirectory rd = RunDirectory.open(dir, false, JsonNodeFactory.instance.objectNode())) {
            rd.plan(SavedRegisters.names(st, null));
            SavedRegisters.write(st, null, rd);
            ObjectNode report = JsonNodeFactory.instance.objectNode();
            ObjectNode regs = report.putObject("registers");
            for (RegisterArray a : program.registers()) {
                regs.putObject(a.name()).put("file", SavedRegisters.fileName(a.name()));
            }
            rd.finish(report, interruptedBy == null, interruptedBy);
        }
        return dir;
    }

    private static void assertRefused(String line, String... args) {
        CliRunner r = CliRunner.run(args);
        assertEquals(2, r.exit(), r.err());
        assertEquals("", r.out());
        assertEquals("rmtemu: " + line + "\n", r.err());
    }

    @Test
    void printsTheCellsOfOnePipeAndRange(@TempDir Path tmp) {
        String dir = knownRun(tmp.resolve("run")).toString();
        CliRunner r = CliRunner.run("registers", dir, "counts", "--pipe", "1", "--range", "2:5");
        assertEquals(0, r.exit(), r.err());
        assertEquals("2 7\n3 0\n4 4294967295\n", r.out());
        r = CliRunner.run("registers", dir, "counts");
        assertEquals("0 11\n1 0\n2 0\n3 0\n4 0\n5 0\n", r.out());
        r = CliRunner.run("registers", dir, "pairs", "--pipe", "1", "--csv");
        assertEquals(0, r.exit(), r.err());
        assertEquals("index,lo,hi\n0,0,0\n1,3,65535\n2,0,0\n3,9,1\n", r.out());
        r = CliRunner.run("registers", dir, "counts", "--pipe", "1", "--range", "4:6", "--csv");
        assertEquals("index,lo\n4,4294967295\n5,0\n", r.out());
        r = CliRunner.run("registers", dir, "pairs", "--pipe", "1", "--range", "1:2");
        assertEquals("1 3 65535\n", r.out());
    }

    @Test
    void refusesEachBadInputInOneLine(@TempDir Path tmp) throws IOException {
        Path run = knownRun(tmp.resolve("run"));
        String dir = run.toString();
        assertRefused("registers: run directory " + tmp.resolve("none") + " does not exist",
                "registers", tmp.resolve("none").toString(), "counts");
        Files.writeString(tmp.resolve("file"), "x");
        assertRefused("registers: " + tmp.resolve("file") + " is not a directory",
                "registers", tmp.resolve("file").toString(), "counts");
        Files.createDirectories(tmp.resolve("plain"));
        assertRefused("registers: " + tmp.resolve("plain") + " is not a run directory (no report.json with a 'files' manifest)",
                "registers", tmp.resolve("plain").toString(), "counts");
        assertRefused("registers: no register array 'count' in run " + dir + "; its arrays: counts, pairs",
                "registers", dir, "count");
        assertRefused("registers: --pipe 2 is out of range: array 'counts' has 2 pipes (0 to 1)",
                "registers", dir, "counts", "--pipe", "2");
        assertRefused("registers: --pipe must be zero or more, got -1", "registers", dir, "counts", "--pipe", "-1");
        assertRefused("registers: --range 0:7 is out of range: array 'counts' has 6 cells (ranges are half-open, at most 0:6)",
                "registers", dir, "counts", "--range", "0:7");
        assertRefused("registers: --range 3:3 is empty or reversed: A must be less than B (cells A inclusive to B exclusive)",
                "registers", dir, "counts", "--range", "3:3");
        assertRefused("registers: --range '2-4' is not A:B (cells A inclusive to B exclusive, e.g. 0:16)",
                "registers", dir, "counts", "--range", "2-4");
    }

    @Test
    void refusesARunStillRunningOrKilled(@TempDir Path tmp) {
        Path dir = tmp.resolve("run");
        // opened and never finished: report.json says complete: false, as after kill -9
        RunDirectory.open(dir, false, JsonNodeFactory.instance.objectNode()).close();
        assertRefused("registers: run " + dir + " is not complete (report.json says complete: false; still running or killed)",
                "registers", dir.toString(), "counts");
    }

    @Test
    void readsAnInterruptedRunWithAWarning(@TempDir Path tmp) {
        String stopped = knownRun(tmp.resolve("stopped"), "SIGINT").toString();
        CliRunner r = CliRunner.run("registers", stopped, "counts", "--pipe", "1", "--range", "2:3");
        assertEquals(0, r.exit(), r.err());
        assertEquals("2 7\n", r.out());
        assertEquals("warning: run " + stopped + " was interrupted by SIGINT: the registers are as they were when it "
                + "stopped, not after the whole trace\n", r.err());
    }

    @Test
    void refusesDamagedFiles(@TempDir Path tmp) throws IOException {
        Path run = knownRun(tmp.resolve("run"));
        Path counts = run.resolve(SavedRegisters.fileName("counts"));
        Path pairs = run.resolve(SavedRegisters.fileName("pairs"));
        byte[] good = Files.readAllBytes(counts);
        Files.write(counts, Arrays.copyOf(good, good.length / 2));
        assertRefused("registers: " + counts + ": corrupt: truncated", "registers", run.toString(), "counts");
        Files.writeString(counts, "not gzip at all");
        assertRefused("registers: " + counts + ": corrupt: not GZIP data or damaged (Not in GZIP format)",
                "registers", run.toString(), "counts");
        // another array's (valid) file under this array's name
        Files.copy(pairs, counts, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        assertRefused("registers: " + counts + ": corrupt: holds array 'pairs', not 'counts'",
                "registers", run.toString(), "counts");
        Files.delete(pairs);
        assertRefused("registers: " + pairs + " is listed in the run's manifest but missing",
                "registers", run.toString(), "pairs");
    }

    @Test
    void readsOneSwitchOfANetworkRunAndTheCliReplaysSaveThem(@TempDir Path tmp) throws Exception {
        Path topo = tmp.resolve("line.yaml");
        dev.rmtemu.emulator.LineTopology.write(topo);
        String run = tmp.resolve("net").toString();
        CliRunner r = CliRunner.run("replay", "--topology", topo.toString(), "--program", "counter", "--param", "cells=8",
                "--trace", "gen:isp?packets=500&flows=50&seed=3", "--rate", "10G", "--no-progress", "--save-registers",
                "--out", run);
        assertEquals(0, r.exit(), r.err());
        assertEquals("", r.err());
        r = CliRunner.run("registers", run, "flow_count", "--switch", "s1", "--csv");
        assertEquals(0, r.exit(), r.err());
        java.util.List<String> rows = r.out().lines().toList();
        assertEquals(9, rows.size());
        assertEquals("index,lo", rows.get(0));
        long total = 0;
        for (int i = 1; i < rows.size(); i++) {
            String[] f = rows.get(i).split(",");
            assertEquals(String.valueOf(i - 1), f[0]);
            total += Long.parseLong(f[1]);
        }
        assertEquals(500, total, "s1 counts every packet in pipe 0");
        assertRefused("registers: run " + run + " is a network replay: name the switch with --switch (switches with arrays: s1)",
                "registers", run, "flow_count");
        assertRefused("registers: no switch 's9' in run " + run + "; switches with arrays: s1",
                "registers", run, "flow_count", "--switch", "s9");
        assertRefused("registers: no register array 'x' of switch s2 in run " + run + " (its program has none)",
                "registers", run, "x", "--switch", "s2");
        Path single = knownRun(tmp.resolve("single"));
        assertRefused("registers: --switch s1: run " + single + " is a single-switch replay (--switch is for network replays)",
                "registers", single.toString(), "counts", "--switch", "s1");
    }

    @Test
    void arraysOverTheLimitAreSavedOnlyWithSaveRegisters(@TempDir Path tmp) throws IOException {
        // 2^23 + 2^20 cells of one pipe on 'unconstrained': 72 MiB of words, over the 64 MiB limit
        String[] replay = {"replay", "--program", "counter", "--target", "unconstrained", "--param", "cells=9437184",
                "--trace", "gen:isp?packets=200&flows=20&seed=3", "--rate", "10G", "--no-progress"};
        String plain = tmp.resolve("plain").toString();
        CliRunner r = CliRunner.run(concat(replay, "--out", plain));
        assertEquals(0, r.exit(), r.err());
        assertEquals("rmtemu: warning: register arrays not saved: 72.0 MiB uncompressed is over 64 MiB; add"
                + " --save-registers to keep them for 'rmtemu registers'\n", r.err());
        assertEquals(false, Files.exists(tmp.resolve("plain").resolve(SavedRegisters.DIR)));
        assertRefused("registers: run " + plain + " did not save its register arrays (over 64 MiB uncompressed);"
                + " replay again with --save-registers", "registers", plain, "flow_count");
        String saved = tmp.resolve("saved").toString();
        r = CliRunner.run(concat(replay, "--out", saved, "--save-registers"));
        assertEquals(0, r.exit(), r.err());
        assertEquals("", r.err());
        r = CliRunner.run("registers", saved, "flow_count", "--range", "9437180:9437184");
        assertEquals(0, r.exit(), r.err());
        assertEquals(4, r.out().lines().count());
        assertEquals("9437180 ", r.out().lines().findFirst().orElseThrow().substring(0, 8));
    }

    @Test
    void anArrayNameThatIsNoPathStaysInsideTheFolder(@TempDir Path tmp) {
        ProgramBuilder b = ProgramBuilder.create("odd", "array names that are not file names");
        b.stage(Gress.INGRESS, 0).register("../up and/over", 8, 2);
        b.stage(Gress.INGRESS, 1).register("..", 8, 2);
        PipelineState st = new PipelineState(b.build(), 1);
        st.writeRegister(0, "../up and/over", 1, 200, 0);
        st.writeRegister(0, "..", 0, 5, 0);
        Path dir = tmp.resolve("run");
        try (RunDirectory rd = RunDirectory.open(dir, false, JsonNodeFactory.instance.objectNode())) {
            rd.plan(SavedRegisters.names(st, null));
            SavedRegisters.write(st, null, rd);
            rd.finish(JsonNodeFactory.instance.objectNode(), true, null);
        }
        assertEquals("registers/..%2Fup%20and%2Fover.bin.gz", SavedRegisters.fileName("../up and/over"));
        assertEquals("registers/%2E%2E.bin.gz", SavedRegisters.fileName(".."));
        assertEquals("0 0\n1 200\n", CliRunner.run("registers", dir.toString(), "../up and/over").out());
        assertEquals("0 5\n1 0\n", CliRunner.run("registers", dir.toString(), "..").out());
        assertRefused("registers: no register array 'x' in run " + dir + "; its arrays: .., ../up and/over",
                "registers", dir.toString(), "x");
    }

    private static String[] concat(String[] a, String... b) {
        String[] all = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, all, a.length, b.length);
        return all;
    }
}
