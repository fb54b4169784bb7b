package dev.rmtemu.emulator.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
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
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 30.9: no path below {@code --out} is followed through a symbolic link, neither to delete
 * the previous run's files nor to write the new run's. A link on the way is refused (exit 2, one
 * line) and whatever it points to stays as it was.
 */
class RunDirectoryLinksTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String TRACE = "gen:isp?packets=2000&flows=100&seed=3";

    private static CliRunner replay(Path out) {
        return CliRunner.run("replay", "--program", "counter", "--trace", TRACE, "--rate", "100G", "--no-progress",
                "--out", out.toString());
    }

    /** Every file below {@code dir} (links not followed) with its bytes. */
    private static TreeMap<String, byte[]> snapshot(Path dir) throws Exception {
        TreeMap<String, byte[]> m = new TreeMap<>();
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.filter(p -> Files.isRegularFile(p, java.nio.file.LinkOption.NOFOLLOW_LINKS)).toList()) {
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

    private static String refusal(Path out, String link, String name) {
        return "rmtemu: run directory " + out + ": " + link + " is a symbolic link and " + name
                + " lies below it; rmtemu follows no link inside a run directory: move the link away";
    }

    @Test
    void aManifestEntryBelowALinkedDirectoryIsNotDeletedThroughIt(@TempDir Path tmp) throws Exception {
        Path out = tmp.resolve("run");
        assertEquals(0, replay(out).exit());
        Path outside = tmp.resolve("outside");
        Files.createDirectories(outside.resolve("victim/deep"));
        Files.writeString(outside.resolve("victim/deep/thesis.tex"), "years of work");
        Files.createSymbolicLink(out.resolve("lnk"), outside);
        // a manifest naming lnk/victim/ (a damaged or forged report.json)
        ObjectNode report = (ObjectNode) JSON.readTree(out.resolve("report.json").toFile());
        ((ArrayNode) report.get("files")).add("lnk/victim/");
        Files.writeString(out.resolve("report.json"), JSON.writeValueAsString(report));
        TreeMap<String, byte[]> before = snapshot(out);

        CliRunner r = replay(out);
        assertEquals(2, r.exit(), r.err());
        assertEquals(refusal(out, "lnk", "lnk/victim/"), r.err().strip());
        assertEquals("years of work", Files.readString(outside.resolve("victim/deep/thesis.tex")));
        assertSameTree(before, snapshot(out));
        assertTrue(Files.isSymbolicLink(out.resolve("lnk")));
    }

    @Test
    void anArchivedRegistersDirectoryLeftAsALinkKeepsItsFiles(@TempDir Path tmp) throws Exception {
        Path out = tmp.resolve("run");
        assertEquals(0, replay(out).exit());
        Path archive = tmp.resolve("archive");
        Files.move(out.resolve("registers"), archive);
        Files.createSymbolicLink(out.resolve("registers"), archive);
        byte[] saved = Files.readAllBytes(archive.resolve("flow_count.bin.gz"));
        TreeMap<String, byte[]> before = snapshot(out);

        CliRunner r = replay(out);
        assertEquals(2, r.exit(), r.err());
        assertEquals(refusal(out, "registers", "registers/flow_count.bin.gz"), r.err().strip());
        assertArrayEquals(saved, Files.readAllBytes(archive.resolve("flow_count.bin.gz")));
        assertSameTree(before, snapshot(out));
    }

    @Test
    void aRunDoesNotWriteThroughALinkThePreviousRunDidNotWrite(@TempDir Path tmp) throws Exception {
        Path out = tmp.resolve("run");
        // a network run: no registers/ in its manifest
        Path topo = tmp.resolve("t.yaml");
        dev.rmtemu.emulator.LineTopology.write(topo, false, "{}");
        CliRunner net = CliRunner.run("replay", "--topology", topo.toString(), "--trace", TRACE, "--rate", "10G",
                "--no-progress", "--out", out.toString());
        assertEquals(0, net.exit(), net.err());
        assertTrue(!JSON.readTree(out.resolve("report.json").toFile()).get("files").toString().contains("registers"));
        Path elsewhere = tmp.resolve("elsewhere");
        Files.createDirectories(elsewhere);
        Files.createSymbolicLink(out.resolve("registers"), elsewhere);

        CliRunner r = replay(out);
        assertEquals(2, r.exit(), r.err());
        assertEquals(refusal(out, "registers", "registers/flow_count.bin.gz"), r.err().strip());
        try (Stream<Path> s = Files.list(elsewhere)) {
            assertEquals(List.of(), s.toList(), "nothing written outside --out");
        }
        // refused before any output was written: report.json says the run is incomplete
        assertEquals(false, JSON.readTree(out.resolve("report.json").toFile()).get("complete").asBoolean());
        List<String> temps = new ArrayList<>();
        try (Stream<Path> s = Files.list(out)) {
            s.map(p -> p.getFileName().toString()).filter(n -> n.startsWith(".rmtemu-tmp")).forEach(temps::add);
        }
        assertEquals(List.of(), temps);
    }
}
