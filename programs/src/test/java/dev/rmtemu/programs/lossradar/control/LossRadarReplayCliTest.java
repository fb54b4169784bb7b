package dev.rmtemu.programs.lossradar.control;

import dev.rmtemu.emulator.cli.Main;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code rmtemu replay --topology LINE --program lossradar}: the control plane installs the
 * routes and closes batches during the run, the report decodes the journal's digests, and the
 * decoded losses of each link direction equal the link's ground truth.
 */
class LossRadarReplayCliTest {
    /** h1 – s1 – s2 – h2, both switches metering; the s1–s2 link drops 1% one way, 0.5% the other. */
    static final String TOPOLOGY = """
            defaults: {latency_ns: 1000, rate_gbps: 100}
            nodes:
              - {name: s1, type: switch, target: tofino1, ports: 2}
              - {name: s2, type: switch, target: tofino1, ports: 2}
              - {name: h1, type: host, address: 10.0.0.1/32}
              - {name: h2, type: host, address: 10.0.0.2/32}
            links:
              - {a: h1:1, b: s1:1}
              - {a: s1:2, b: s2:1, impair_ab: {loss: "bernoulli:0.01"}, impair_ba: {loss: "bernoulli:0.005"}}
              - {a: s2:2, b: h2:1}
            """;

    static final String[] PARAMS = {"--param", "route=1", "--param", "ports=2", "--param", "batch_shift=20", "--param", "timeout_us=200"};

    record Run(int code, String out, String err) {
    }

    static Run cli(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(args, new PrintWriter(out, true), new PrintWriter(err, true));
        return new Run(code, out.toString(), err.toString());
    }

    static Run replay(Path topo, Path run, String... extra) {
        List<String> args = new ArrayList<>(List.of("replay", "--topology", topo.toString(), "--program", "lossradar",
                "--trace", "gen:isp?packets=20000&flows=300&seed=5", "--rate", "10G", "--out", run.toString(), "--no-progress"));
        args.addAll(List.of(PARAMS));
        args.addAll(List.of(extra));
        return cli(args.toArray(String[]::new));
    }

    /** The LossRadar section of a summary, up to the run directory line. */
    static String section(String summary) {
        int from = summary.indexOf("LossRadar per link direction");
        int to = summary.indexOf("run directory:");
        assertTrue(from >= 0 && to > from, summary);
        return summary.substring(from, to);
    }

    /** Per link direction: batches, complete, counted, decoded, link lost, queue drops, truth. */
    static Map<String, long[]> rows(String section) {
        Map<String, long[]> rows = new TreeMap<>();
        for (String line : section.split("\n")) {
            String[] w = line.trim().split("\\s+");
            if (w.length == 8 && w[0].contains("->")) {
                long[] v = new long[7];
                for (int i = 0; i < 7; i++) {
                    v[i] = Long.parseLong(w[i + 1]);
                }
                rows.put(w[0], v);
            }
        }
        return rows;
    }

    /** Drops in a ground-truth log of the run. */
    static long groundTruthDrops(Path run, String file) throws IOException {
        long n = 0;
        for (String line : Files.readAllLines(run.resolve("ground-truth").resolve(file))) {
            n += line.split(" ")[1].equals("drop") ? 1 : 0;
        }
        return n;
    }

    @Test
    void aLineReplayDecodesEveryLossOfTheLinkAndTheJournalHoldsTheDigests(@TempDir Path tmp) throws IOException {
        Path topo = tmp.resolve("line.yaml");
        Files.writeString(topo, TOPOLOGY);
        Path run = tmp.resolve("run");
        Run r = replay(topo, run);
        assertEquals(0, r.code(), r.err());
        String section = section(r.out());
        Map<String, long[]> rows = rows(section);
        assertEquals(List.of("s1:2->s2:1", "s2:1->s1:2"), new ArrayList<>(rows.keySet()), section);
        Map<String, String> truthFile = Map.of("s1:2->s2:1", "link-1-ab.txt", "s2:1->s1:2", "link-1-ba.txt");
        for (Map.Entry<String, long[]> e : rows.entrySet()) {
            long[] v = e.getValue();
            long truth = groundTruthDrops(run, truthFile.get(e.getKey()));
            assertEquals(truth, v[4], e.getKey() + ": the report's link losses are the ground-truth log's");
            assertEquals(0, v[5], e.getKey() + ": no queue drops at 10G");
            assertTrue(v[0] >= 5, e.getKey() + ": batches of 1 ms through the run, got " + v[0]);
            assertTrue(truth >= 30, e.getKey() + ": losses " + truth);
            assertEquals(truth, v[2], e.getKey() + ": UM - DM counts every loss");
            assertEquals(v[0], v[1], e.getKey() + ": every batch peels at this load");
            assertEquals(truth, v[3], e.getKey() + ": decoded = ground truth");
        }
        // decoded signatures are the direction's packets (h1's hosts to h2's and back)
        assertTrue(section.contains("    lost 10.0.0.1:"), section);
        for (String line : section.split("\n")) {
            if (line.startsWith("    lost ")) {
                assertTrue(line.matches("    lost 10\\.0\\.0\\.[12]:\\d+>10\\.0\\.0\\.[12]:\\d+/\\d+ id=\\d+"), line);
            }
        }

        Run collect = cli("collect", "--journal", run.resolve("journal").toString());
        assertEquals(0, collect.code(), collect.err());
        long digestLines = collect.out().lines().filter(l -> l.contains("lossradar.digest")).count();
        assertTrue(digestLines >= 4 * rows.get("s1:2->s2:1")[0], collect.out());

        // the same run again: the same section, byte for byte
        Run again = replay(topo, tmp.resolve("run2"));
        assertEquals(0, again.code(), again.err());
        assertEquals(section, section(again.out()));
        // and the same results: report.json's results object and every results/*.csv
        com.fasterxml.jackson.databind.ObjectMapper json = new com.fasterxml.jackson.databind.ObjectMapper();
        assertEquals(json.readTree(run.resolve("report.json").toFile()).path("results").toString(),
                json.readTree(tmp.resolve("run2").resolve("report.json").toFile()).path("results").toString());
        for (String csv : List.of("lossradar_links.csv", "lossradar_losses.csv")) {
            assertEquals(-1L, Files.mismatch(run.resolve("results").resolve(csv), tmp.resolve("run2").resolve("results").resolve(csv)),
                    csv);
        }
    }

    @Test
    void theMetersMustCoverEveryPort(@TempDir Path tmp) throws IOException {
        Path ok = tmp.resolve("line.yaml");
        Files.writeString(ok, TOPOLOGY);
        Run narrow = replay(ok, tmp.resolve("run2"), "--param", "ports=1");
        assertEquals(2, narrow.code(), narrow.out());
        assertTrue(narrow.err().contains("switch s1 has 2 ports but the meters cover ports=1"), narrow.err());
    }

    /**
     * Hosts whose prefixes split the address space route by prefix (lr_route is ternary) and
     * replay the trace with its own addresses: every loss is decoded, and the decoded packets
     * carry the trace's 5-tuples, from many addresses, not two host addresses.
     */
    @Test
    void wideHostPrefixesKeepTheTracesAddresses(@TempDir Path tmp) throws IOException {
        Path topo = tmp.resolve("wide.yaml");
        Files.writeString(topo, TOPOLOGY.replace("10.0.0.1/32", "0.0.0.0/1").replace("10.0.0.2/32", "128.0.0.0/1"));
        Path run = tmp.resolve("run");
        Run r = replay(topo, run);
        assertEquals(0, r.code(), r.err());
        String section = section(r.out());
        Map<String, long[]> rows = rows(section);
        assertEquals(List.of("s1:2->s2:1", "s2:1->s1:2"), new ArrayList<>(rows.keySet()), section);
        for (Map.Entry<String, long[]> e : rows.entrySet()) {
            long[] v = e.getValue();
            assertTrue(v[6] >= 10, e.getKey() + ": losses " + v[6]);
            assertEquals(v[6], v[2], e.getKey() + ": counted = ground truth");
            assertEquals(v[6], v[3], e.getKey() + ": decoded = ground truth");
        }
        java.util.Set<String> traceAddresses = new java.util.TreeSet<>();
        try (dev.rmtemu.traces.PacketSource src = dev.rmtemu.traces.spec.TraceSpec.open("gen:isp?packets=20000&flows=300&seed=5")) {
            dev.rmtemu.traces.PacketRecord p = dev.rmtemu.traces.PacketRecord.allocate();
            while (src.next(p)) {
                traceAddresses.add(dev.rmtemu.traces.Addresses.ipv4(p.srcIpv4()));
                traceAddresses.add(dev.rmtemu.traces.Addresses.ipv4(p.dstIpv4()));
            }
        }
        java.util.Set<String> seen = new java.util.TreeSet<>();
        java.util.regex.Pattern lost = java.util.regex.Pattern.compile("    lost ([0-9.]+):\\d+>([0-9.]+):\\d+/\\d+ id=\\d+");
        for (String line : section.split("\n")) {
            java.util.regex.Matcher m = lost.matcher(line);
            if (m.matches()) {
                assertTrue(traceAddresses.contains(m.group(1)) && traceAddresses.contains(m.group(2)), line);
                seen.add(m.group(1));
            }
        }
        assertTrue(seen.size() > 2, "decoded packets from the trace's sources: " + seen);
    }

    @Test
    void aSingleSwitchReplayPointsToTheNetworkReplay(@TempDir Path tmp) {
        Run r = cli("replay", "--program", "lossradar", "--trace", "gen:isp?packets=200", "--out", tmp.resolve("run").toString(),
                "--no-progress");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("LossRadar: a single switch has no link between meters"), r.out());
    }
}
