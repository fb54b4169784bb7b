package dev.rmtemu.emulator.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rmtemu.emulator.journal.JournalReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeMap;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A network replay writes the same bytes with one thread and with two: every file of the run
 * directory (captures, packet logs, histograms, ground truth, saved counters and registers,
 * report.html) byte for byte, report.json apart from its {@code host} key, and the export
 * journal's messages. Each topology of the network tests, then random topologies with random
 * link latencies and impairments (seeded). The two-thread run must really use two threads: a
 * network that falls back to one says so on stderr, and the test requires stderr to be empty.
 */
class NetworkThreadsReplayTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String TRACE = "gen:isp?packets=4000&flows=300&seed=3";

    @ParameterizedTest
    @ValueSource(strings = {"builtin:fattree?k=4", "builtin:chain?m=2&regular=3", "builtin:abilene", "builtin:line",
        "builtin:chain?m=3&regular=2&latency_ns=20", "builtin:single"})
    void builtinTopologyGivesTheSameFilesOnTwoThreads(String topology, @TempDir Path tmp) throws IOException {
        sameOnOneAndTwoThreads(topology, tmp, "--rate", "40G");
    }

    @Test
    void countersProgramOnEverySwitchGivesTheSameFiles(@TempDir Path tmp) throws IOException {
        sameOnOneAndTwoThreads("builtin:fattree?k=4", tmp, "--program", "counter", "--rate", "100G");
    }

    @Test
    void impairedLinksGiveTheSameFilesAndGroundTruth(@TempDir Path tmp) throws IOException {
        Path topo = tmp.resolve("impaired.yaml");
        Files.writeString(topo, String.join("\n",
                "nodes:",
                "  - {name: s1, type: switch, target: tofino1, ports: 3}",
                "  - {name: s2, type: regular, ports: 3}",
                "  - {name: s3, type: regular, ports: 3}",
                "  - {name: h1, type: host, address: 10.0.1.1/32, role: source}",
                "  - {name: h2, type: host, address: 10.0.2.1/32, role: both}",
                "  - {name: h3, type: host, address: 10.0.3.1/32, role: sink}",
                "links:",
                "  - {a: h1:1, b: s1:1, latency_ns: 500, rate_gbps: 100}",
                "  - {a: s1:2, b: s2:2, latency_ns: 700, rate_gbps: 40, impair_ab: {loss: \"gilbert:p=0.02,r=0.3\","
                        + " reorder: \"p=0.1,sigma=0.75\", dup: \"0.05\"}, impair_ba: {delay: \"normal:mean=2us,sigma=1us\"}}",
                "  - {a: s1:3, b: s3:2, latency_ns: 300, rate_gbps: 100, impair: {loss: \"bernoulli:0.05\"}}",
                "  - {a: s2:1, b: h2:1, latency_ns: 500, rate_gbps: 100}",
                "  - {a: s2:3, b: s3:1, latency_ns: 900, rate_gbps: 10}",
                "  - {a: s3:3, b: h3:1, latency_ns: 400, rate_gbps: 100}",
                ""));
        sameOnOneAndTwoThreads(topo.toString(), tmp, "--rate", "40G");
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5})
    void randomTopologyWithRandomDelaysGivesTheSameFiles(long seed, @TempDir Path tmp) throws IOException {
        Path topo = dev.rmtemu.emulator.RandomTopology.write(tmp.resolve("random-" + seed + ".yaml"), seed);
        sameOnOneAndTwoThreads(topo.toString(), tmp, "--rate", "100G");
    }

    @Test
    void zeroDelayLinkRunsOnOneThreadWithAWarningAndTheSameFiles(@TempDir Path tmp) throws IOException {
        String topology = "builtin:chain?m=2&regular=1&latency_ns=0";
        Path one = tmp.resolve("one");
        Path two = tmp.resolve("two");
        CliRunner a = replay(topology, one, "1", "--rate", "40G");
        CliRunner b = replay(topology, two, "2", "--rate", "40G");
        assertEquals(0, a.exit(), a.err());
        assertEquals(0, b.exit(), b.err());
        assertEquals("", a.err());
        assertEquals("rmtemu: warning: --threads 2: " + topology + ": links[1] (m1 - r1_1) has latency_ns 0, which"
                + " leaves the switches no lookahead to run ahead of each other; running on one thread", b.err().strip());
        assertSameRun(one, two);
    }

    @Test
    void threadsBelowOneAreRefused(@TempDir Path tmp) {
        CliRunner r = CliRunner.run("replay", "--topology", "builtin:line", "--trace", TRACE, "--threads", "0",
                "--no-progress", "--out", tmp.resolve("z").toString());
        assertEquals(2, r.exit());
        assertEquals("rmtemu: --threads must be at least 1, got 0", r.err().strip());
    }

    private static CliRunner replay(String topology, Path dir, String threads, String... extra) {
        List<String> args = new ArrayList<>(List.of("replay", "--topology", topology, "--trace", TRACE, "--seed", "5",
                "--capture", "--packet-log", "--no-progress", "--threads", threads, "--out", dir.toString()));
        args.addAll(Arrays.asList(extra));
        return CliRunner.run(args.toArray(String[]::new));
    }

    private static void sameOnOneAndTwoThreads(String topology, Path tmp, String... extra) throws IOException {
        Path one = tmp.resolve("one");
        Path two = tmp.resolve("two");
        CliRunner a = replay(topology, one, "1", extra);
        CliRunner b = replay(topology, two, "2", extra);
        assertEquals(0, a.exit(), a.err());
        assertEquals(0, b.exit(), b.err());
        assertEquals(a.err(), b.err(), "the two-thread run fell back to one thread, or warned differently");
        assertEquals(summary(a.out()), summary(b.out()));
        JsonNode report = JSON.readTree(one.resolve("report.json").toFile());
        assertTrue(report.get("network").get("totals").get("injected").asLong() > 0, topology);
        assertSameRun(one, two);
    }

    /** The summary a replay prints, without its host line (wall time) and run directory. */
    private static List<String> summary(String out) {
        return out.lines().filter(l -> !l.startsWith("host ") && !l.startsWith("run directory:")).toList();
    }

    /** Every file byte for byte (report.json without its host key, the journal by its messages). */
    static void assertSameRun(Path one, Path two) throws IOException {
        TreeMap<String, Path> a = files(one);
        TreeMap<String, Path> b = files(two);
        assertEquals(a.keySet(), b.keySet());
        assertTrue(a.keySet().stream().anyMatch(n -> n.endsWith("egress.pcapng")), a.keySet().toString());
        for (String name : a.keySet()) {
            if (name.startsWith("journal/")) {
                continue;
            }
            if (name.equals("report.json")) {
                ObjectNode ra = (ObjectNode) JSON.readTree(a.get(name).toFile());
                ObjectNode rb = (ObjectNode) JSON.readTree(b.get(name).toFile());
                ra.remove("host");
                rb.remove("host");
                assertEquals(ra, rb);
                continue;
            }
            byte[] x = Files.readAllBytes(a.get(name));
            byte[] y = Files.readAllBytes(b.get(name));
            assertEquals(-1, Arrays.mismatch(x, y), name + " differs");
        }
        assertEquals(journal(one), journal(two));
    }

    /** The export journal's messages, one line each: kind, cycle, switch, pipe, payload bytes. */
    private static List<String> journal(Path run) {
        List<String> lines = new ArrayList<>();
        try (JournalReader reader = JournalReader.open(run.resolve("journal"))) {
            reader.tail((kind, cycle, switchId, pipe, payload, offset, length) -> {
                byte[] bytes = new byte[length];
                payload.getBytes(offset, bytes);
                lines.add(kind + " " + cycle + " " + switchId + " " + pipe + " " + Arrays.toString(bytes));
            });
        }
        return lines;
    }

    private static TreeMap<String, Path> files(Path dir) throws IOException {
        TreeMap<String, Path> m = new TreeMap<>();
        try (Stream<Path> s = Files.walk(dir)) {
            s.filter(Files::isRegularFile).forEach(p -> m.put(dir.relativize(p).toString().replace('\\', '/'), p));
        }
        return m;
    }
}
