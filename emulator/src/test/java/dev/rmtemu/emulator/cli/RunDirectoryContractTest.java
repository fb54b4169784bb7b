package dev.rmtemu.emulator.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.rmtemu.emulator.rundir.RunDirectory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The run-directory contract as a user meets it through {@code rmtemu replay}. */
class RunDirectoryContractTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String TRACE = "gen:isp?packets=3000&flows=200&seed=3";

    private static CliRunner replay(Path out, String... extra) {
        List<String> args = new ArrayList<>(List.of("replay", "--program", "counter", "--trace", TRACE, "--rate", "100G",
                "--no-progress", "--out", out.toString()));
        args.addAll(List.of(extra));
        return CliRunner.run(args.toArray(String[]::new));
    }

    private static Path impairedTopology(Path dir) throws Exception {
        Path topo = dir.resolve("t.yaml");
        dev.rmtemu.emulator.LineTopology.write(topo, false, "{loss: \"bernoulli:0.1\"}");
        return topo;
    }

    /** Every file under {@code dir} with its bytes, by relative path. */
    private static TreeMap<String, byte[]> snapshot(Path dir) throws Exception {
        TreeMap<String, byte[]> m = new TreeMap<>();
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.filter(Files::isRegularFile).toList()) {
                m.put(dir.relativize(p).toString(), Files.readAllBytes(p));
            }
        }
        return m;
    }

    private static void assertSameTree(TreeMap<String, byte[]> a, TreeMap<String, byte[]> b) {
        assertEquals(a.keySet(), b.keySet());
        for (String k : a.keySet()) {
            assertArrayEquals(a.get(k), b.get(k), k);
        }
    }

    @Test
    void everyInputIsCheckedBeforeTheRunDirectoryIsTouched(@TempDir Path tmp) throws Exception {
        Path out = tmp.resolve("run");
        assertEquals(0, replay(out).exit());
        TreeMap<String, byte[]> before = snapshot(out);
        String[][] bad = {
            {"replay", "--program", "counter", "--trace", tmp.resolve("missing.pcap").toString()},
            {"replay", "--program", "no-such-program", "--trace", TRACE},
            {"replay", "--program", "counter", "--target", "no-such-target", "--trace", TRACE},
            {"replay", "--program", "counter", "--param", "cells=-4", "--trace", TRACE},
            {"replay", "--program", "counter", "--control", tmp.resolve("missing.ctl").toString(), "--trace", TRACE},
            {"replay", "--topology", "builtin:no-such-topology", "--trace", TRACE},
            {"replay", "--program", "counter", "--trace", TRACE, "--timing", "warp:9"},
        };
        Files.writeString(tmp.resolve("bad.pcap"), "not a capture at all, just text");
        String[] badPcap = {"replay", "--program", "counter", "--trace", tmp.resolve("bad.pcap").toString()};
        List<String[]> all = new ArrayList<>(List.of(bad));
        all.add(badPcap);
        for (String[] args : all) {
            List<String> a = new ArrayList<>(List.of(args));
            a.addAll(List.of("--no-progress", "--out", out.toString()));
            CliRunner r = CliRunner.run(a.toArray(String[]::new));
            assertEquals(2, r.exit(), String.join(" ", args) + ": " + r.err());
            assertEquals(1, r.err().lines().count(), r.err());
            assertSameTree(before, snapshot(out));
        }
    }

    @Test
    void aRerunRemovesExactlyThePreviousRunsFilesAndNoUserFile(@TempDir Path tmp) throws Exception {
        Path out = tmp.resolve("run");
        CliRunner net = CliRunner.run("replay", "--topology", impairedTopology(tmp).toString(), "--trace", TRACE,
                "--rate", "10G", "--no-progress", "--out", out.toString());
        assertEquals(0, net.exit(), net.err());
        assertTrue(Files.isRegularFile(out.resolve("network-latency.hgrm")));
        assertTrue(Files.isRegularFile(out.resolve("ground-truth/link-1-ab.txt")));
        JsonNode netReport = JSON.readTree(out.resolve("report.json").toFile());
        assertTrue(netReport.get("complete").asBoolean());
        assertEquals("[\"ground-truth/link-1-ab.txt\",\"journal/\",\"network-latency.hgrm\",\"report.html\",\"report.json\"]",
                netReport.get("files").toString());
        Files.writeString(out.resolve("notes.txt"), "mine");
        Files.writeString(out.resolve("ground-truth/my-analysis.txt"), "mine too");

        CliRunner single = replay(out);
        assertEquals(0, single.exit(), single.err());
        assertFalse(Files.exists(out.resolve("network-latency.hgrm")), "the network run's histogram is gone");
        assertFalse(Files.exists(out.resolve("ground-truth/link-1-ab.txt")), "and its ground truth");
        assertEquals("mine", Files.readString(out.resolve("notes.txt")));
        assertEquals("mine too", Files.readString(out.resolve("ground-truth/my-analysis.txt")));
        JsonNode report = JSON.readTree(out.resolve("report.json").toFile());
        List<String> files = new ArrayList<>();
        // a file in a folder (registers/flow_count.bin.gz) stands for its top-level folder on disk
        report.get("files").forEach(f -> {
            String name = f.asText();
            String top = name.indexOf('/') < 0 ? name : name.substring(0, name.indexOf('/') + 1);
            if (!files.contains(top)) {
                files.add(top);
            }
        });
        assertTrue(report.get("files").toString().contains("\"registers/flow_count.bin.gz\""), report.get("files").toString());
        List<String> onDisk = new ArrayList<>();
        try (Stream<Path> s = Files.list(out)) {
            s.map(p -> p.getFileName().toString() + (Files.isDirectory(p) ? "/" : "")).sorted().forEach(onDisk::add);
        }
        onDisk.removeAll(List.of("notes.txt", "ground-truth/"));
        assertEquals(onDisk, files, "the manifest lists exactly what the run left");
        assertTrue(files.containsAll(List.of("journal/", "latency.hgrm", "report.html", "report.json", "resources.json")));
    }

    @Test
    void aDirectoryThatIsNotARunDirectoryIsRefusedUnlessForced(@TempDir Path tmp) throws Exception {
        Path out = tmp.resolve("mine");
        Files.createDirectories(out.resolve("journal"));
        Files.writeString(out.resolve("journal/diary.txt"), "dear diary");
        CliRunner r = replay(out);
        assertEquals(2, r.exit());
        assertEquals("rmtemu: run directory " + out + ": not empty and not a run directory (no report.json with a"
                + " 'files' manifest); choose another --out or add --force", r.err().strip());
        CliRunner forced = replay(out, "--force");
        assertEquals(2, forced.exit());
        assertEquals("rmtemu: run directory " + out + ": 'journal' exists and was not written by a run; move it away"
                + " (it is left as it is)", forced.err().strip());
        assertEquals("dear diary", Files.readString(out.resolve("journal/diary.txt")));
        assertFalse(Files.exists(out.resolve(RunDirectory.LOCK)), "a refused run leaves no lock");

        Path file = tmp.resolve("file");
        Files.createDirectories(file);
        Files.writeString(file.resolve("journal"), "a file named journal");
        Files.writeString(file.resolve("keep.txt"), "kept");
        assertEquals(2, replay(file).exit());
        assertEquals(2, replay(file, "--force").exit());
        assertEquals("a file named journal", Files.readString(file.resolve("journal")));

        Path other = tmp.resolve("other");
        Files.createDirectories(other);
        Files.writeString(other.resolve("keep.txt"), "kept");
        assertEquals(2, replay(other).exit());
        CliRunner ok = replay(other, "--force");
        assertEquals(0, ok.exit(), ok.err());
        assertEquals("kept", Files.readString(other.resolve("keep.txt")));
        // now a run directory: a later run needs no --force and still keeps the user's file
        assertEquals(0, replay(other).exit());
        assertEquals("kept", Files.readString(other.resolve("keep.txt")));
    }

    @Test
    void aLiveLockIsRefusedWithItsPidAndAStaleOneTakenOver(@TempDir Path tmp) throws Exception {
        Path out = tmp.resolve("run");
        assertEquals(0, replay(out).exit());
        assertFalse(Files.exists(out.resolve(RunDirectory.LOCK)), "the lock goes with the run");
        long self = ProcessHandle.current().pid();
        Files.writeString(out.resolve(RunDirectory.LOCK), self + "\n");
        TreeMap<String, byte[]> before = snapshot(out);
        CliRunner busy = replay(out);
        assertEquals(2, busy.exit());
        assertEquals("rmtemu: run directory " + out + ": in use by a running rmtemu process (pid " + self + ", "
                + out.resolve(RunDirectory.LOCK) + ")", busy.err().strip());
        assertSameTree(before, snapshot(out));

        Process gone = new ProcessBuilder("true").start();
        gone.waitFor();
        Files.writeString(out.resolve(RunDirectory.LOCK), gone.pid() + "\n");
        CliRunner taken = replay(out);
        assertEquals(0, taken.exit(), taken.err());
        assertFalse(Files.exists(out.resolve(RunDirectory.LOCK)));
        assertTrue(JSON.readTree(out.resolve("report.json").toFile()).get("complete").asBoolean());
    }

    /**
     * Issue 30.14: a lock naming a live process that is not the rmtemu that took it (pid 1, as
     * after kill -9 and pid reuse: its start time is not the lock's) is taken over.
     */
    @Test
    void aLockWhosePidNowBelongsToAnotherProcessIsTakenOver(@TempDir Path tmp) throws Exception {
        Path out = tmp.resolve("run");
        assertEquals(0, replay(out).exit());
        // a lock as older rmtemu wrote it (the pid alone): pid 1 is alive but not a JVM
        org.junit.jupiter.api.Assumptions.assumeFalse(RunDirectory.isJvm(1).orElse(true), "pid 1 may be a JVM here");
        Files.writeString(out.resolve(RunDirectory.LOCK), "1\n");
        CliRunner taken = replay(out);
        assertEquals(0, taken.exit(), taken.err());
        // a lock with a start time that is not pid 1's
        Files.writeString(out.resolve(RunDirectory.LOCK), "1 " + RunDirectory.class.getSimpleName() + "/0\n");
        taken = replay(out);
        assertEquals(0, taken.exit(), taken.err());
        assertFalse(Files.exists(out.resolve(RunDirectory.LOCK)));
        assertTrue(JSON.readTree(out.resolve("report.json").toFile()).get("complete").asBoolean());
    }

    /**
     * Issue 30.14: a start that meets a simultaneous start half-way (its lock taken, its first
     * report.json still under its temporary name) is told the pid, not that the directory is foreign.
     */
    @Test
    void aSimultaneousStartIsToldThePidOfTheWinner(@TempDir Path tmp) throws Exception {
        Path out = tmp.resolve("run");
        Files.createDirectories(out);
        long self = ProcessHandle.current().pid();
        Files.writeString(out.resolve(RunDirectory.LOCK), self + "\n");
        Files.writeString(out.resolve(".rmtemu-tmp.report.json"), "{\"complete\":");
        CliRunner loser = replay(out);
        assertEquals(2, loser.exit());
        assertEquals("rmtemu: run directory " + out + ": in use by a running rmtemu process (pid " + self + ", "
                + out.resolve(RunDirectory.LOCK) + ")", loser.err().strip());
    }

    /** A simultaneous start's lock under its temporary name is not content: the run goes ahead. */
    @Test
    void anotherStartsTemporaryLockDoesNotMakeTheDirectoryForeign(@TempDir Path tmp) throws Exception {
        Path out = tmp.resolve("run");
        Files.createDirectories(out);
        Files.writeString(out.resolve(".rmtemu-tmp.999999.run.lock"), "999999\n");
        CliRunner r = replay(out);
        assertEquals(0, r.exit(), r.err());
    }

    @Test
    void outputsAreRenamedIntoPlaceSoASymlinkIsReplacedNotFollowed(@TempDir Path tmp) throws Exception {
        Path out = tmp.resolve("run");
        assertEquals(0, replay(out).exit());
        Path elsewhere = tmp.resolve("precious.html");
        Files.writeString(elsewhere, "precious");
        Files.delete(out.resolve("report.html"));
        Files.createSymbolicLink(out.resolve("report.html"), elsewhere);
        assertEquals(0, replay(out).exit());
        assertEquals("precious", Files.readString(elsewhere));
        assertFalse(Files.isSymbolicLink(out.resolve("report.html")));
        assertTrue(Files.readString(out.resolve("report.html")).contains("<div class=\"chart\" id=\"latency\""));
        try (Stream<Path> s = Files.list(out)) {
            assertTrue(s.noneMatch(p -> p.getFileName().toString().startsWith(".rmtemu-tmp")), "no temporary left");
        }
    }
}
