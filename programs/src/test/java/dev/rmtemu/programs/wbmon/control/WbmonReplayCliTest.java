package dev.rmtemu.programs.wbmon.control;

import dev.rmtemu.programs.ReportCharts;
import dev.rmtemu.programs.wbmon.program.WbmonPipeline;

import dev.rmtemu.emulator.cli.Main;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code rmtemu experiment wbmon --opt control=...} writes the control plane of a topology, and
 * {@code rmtemu replay --topology ... --program wbmon --control ...} then reports per-vconn drops
 * equal to the links' ground truth.
 */
class WbmonReplayCliTest {
    /**
     * h1 – m1 – r1 – m2 – h2; the only losses are on the first link of each vconn (m1→r1: link 1,
     * m2→r1: link 2), so the packet index on that link is the vconn's sequence number.
     */
    static final String TOPOLOGY = """
            defaults: {latency_ns: 1000, rate_gbps: 100}
            nodes:
              - {name: m1, type: switch, target: tofino1, ports: 2}
              - {name: m2, type: switch, target: tofino1, ports: 2}
              - {name: r1, type: regular, ports: 2}
              - {name: h1, type: host, address: 10.0.1.0/24}
              - {name: h2, type: host, address: 10.0.2.0/24}
            links:
              - {a: h1:1, b: m1:1}
              - {a: m1:2, b: r1:1, impair_ab: {loss: "bernoulli:0.02"}}
              - {a: m2:2, b: r1:2, impair_ab: {loss: "bernoulli:0.05"}}
              - {a: h2:1, b: m2:1}
            """;

    record Run(int code, String out, String err) {
    }

    static Run cli(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(args, new PrintWriter(out, true), new PrintWriter(err, true));
        return new Run(code, out.toString(), err.toString());
    }

    /** One row of the WBMon section: numbered, received, drops, judged (by the vconn's upstream switch). */
    static Map<String, long[]> rows(String summary) {
        Map<String, long[]> rows = new TreeMap<>();
        boolean in = false;
        for (String line : summary.split("\n")) {
            if (line.startsWith("WBMon per vconn")) {
                in = true;
                continue;
            }
            String[] w = line.trim().split("\\s+");
            if (in && w.length >= 8 && w[2].equals("->")) {
                int n = w.length;
                rows.put(w[1].split(":")[0], new long[] {Long.parseLong(w[n - 5]), Long.parseLong(w[n - 4]),
                    Long.parseLong(w[n - 3]), Long.parseLong(w[n - 2])});
            }
        }
        return rows;
    }

    /** Dropped packet indices on a link direction, from the run's ground-truth log: all, and those below {@code below}. */
    static long[] groundTruthDrops(Path run, int link, long below) throws IOException {
        long all = 0;
        long judged = 0;
        for (String line : Files.readAllLines(run.resolve("ground-truth").resolve("link-" + link + "-ab.txt"))) {
            String[] w = line.split(" ");
            if (w[1].equals("drop")) {
                all++;
                if (Long.parseLong(w[0]) < below) {
                    judged++;
                }
            }
        }
        return new long[] {all, judged};
    }

    /** The own-bit table is const entries of the program: a control script that writes it is refused before the run. */
    @Test
    void controlScriptWritingAConstTableIsRefusedBeforeTheRun(@TempDir Path tmp) throws IOException {
        Path control = tmp.resolve("own.ctl");
        Files.writeString(control, "table_add wbmon_own_bit set 3 => 8\n");
        Path out = tmp.resolve("run");
        Run r = cli("replay", "--program", "wbmon", "--control", control.toString(), "--trace", "gen:isp?packets=100&seed=1",
                "--out", out.toString(), "--no-progress");
        assertEquals(2, r.code(), r.err());
        assertEquals("rmtemu: " + control + ":1: table wbmon_own_bit has const entries: the control plane cannot change it",
                r.err().strip());
        assertTrue(Files.notExists(out), "no run directory for a refused control script");
    }

    @Test
    void generatedControlScriptMakesANetworkReplayReportTheLinksDrops(@TempDir Path tmp) throws IOException {
        Path topo = tmp.resolve("chain.yaml");
        Files.writeString(topo, TOPOLOGY);
        Path control = tmp.resolve("wbmon.ctl");
        Run gen = cli("experiment", "wbmon", "--opt", "control=" + control, "--opt", "topology=" + topo,
                "--opt", "vconns=4", "--opt", "bits=16");
        assertEquals(0, gen.code(), gen.err());
        assertTrue(gen.out().contains("vconn 0: m1:2 -> m2:2 via r1"), gen.out());
        assertTrue(gen.out().contains("vconn 1: m2:2 -> m1:2 via r1"), gen.out());
        // 2 outgoing + 2 incoming ports; the popcount and own-bit tables are const entries of the program
        long lines = Files.readAllLines(control).stream().filter(l -> l.startsWith("on ")).count();
        assertEquals(4, lines);

        Path run = tmp.resolve("run");
        Run replay = cli("replay", "--topology", topo.toString(), "--program", "wbmon", "--param", "vconns=4",
                "--param", "bits=16", "--control", control.toString(), "--trace", "gen:isp?packets=30000&flows=500&seed=3",
                "--rate", "10G", "--out", run.toString(), "--no-progress");
        assertEquals(0, replay.code(), replay.err());
        Map<String, long[]> rows = rows(replay.out());
        assertEquals(2, rows.size(), replay.out());
        Map<String, Integer> firstLink = Map.of("m1", 1, "m2", 2);
        for (Map.Entry<String, long[]> e : rows.entrySet()) {
            long[] r = e.getValue();
            long numbered = r[0];
            long received = r[1];
            long drops = r[2];
            long judged = r[3];
            long[] truth = groundTruthDrops(run, firstLink.get(e.getKey()), judged);
            assertTrue(numbered > 5000, e.getKey() + " numbered " + numbered);
            assertEquals(numbered, received + truth[0], "every numbered packet arrived or was lost on the link");
            assertTrue(judged > numbered - 4 * 16 && judged <= numbered, "judged " + judged + " of " + numbered);
            assertTrue(truth[1] > 50, "losses " + truth[1]);
            assertEquals(truth[1], drops, "vconn from " + e.getKey() + ": drops among the judged sequence numbers");
        }
        // the analyser's results: each vconn crosses its own pair of directed links (one lossy), so each
        // pair is one indistinguishable set, blamed, with the lossy link's ground truth
        com.fasterxml.jackson.databind.JsonNode sets = new com.fasterxml.jackson.databind.ObjectMapper()
                .readTree(run.resolve("report.json").toFile()).path("results").path("wbmon").path("link_sets");
        assertEquals(2, sets.size(), sets.toString());
        String[] upstream = {"m1", "m2"};
        List<String> csv = Files.readAllLines(run.resolve("results/wbmon_link_sets.csv"));
        assertEquals("links,vconns,min_success,blamed,true_carried,true_lost,true_min_success", csv.get(0));
        for (int v = 0; v < 2; v++) {
            com.fasterxml.jackson.databind.JsonNode set = sets.get(v);
            assertEquals(v, set.path("vconns").get(0).asInt(), set.toString());
            assertTrue(set.path("blamed").asBoolean(), set.toString());
            assertEquals(groundTruthDrops(run, firstLink.get(upstream[v]), Long.MAX_VALUE)[0], set.path("true_lost").asLong(),
                    set.toString());
            assertTrue(set.path("min_success").asDouble() < WbmonAnalyser.Params.DEFAULT_BLAME_BELOW, set.toString());
            // the truth min_success estimates: the lossy link's (carried - lost) / carried, the other link's is 1
            assertTrue(set.path("true_min_success").asDouble() < 1.0, set.toString());
            assertEquals(set.path("true_min_success").asDouble(), set.path("min_success").asDouble(), 0.001, set.toString());
            assertTrue(csv.get(v + 1).startsWith(set.path("links").get(0).asText() + " " + set.path("links").get(1).asText() + ","
                    + v + ","), csv.get(v + 1));
        }
        // report.html: each set's inferred least success rate against its true one
        assertEquals(2, ReportCharts.assertEstimateVsTruth(run, 0, "wbmon: link sets: inferred least success rate against true",
                "true least success rate of the set's links", "estimated least success rate of the set's links", sets,
                "true_min_success", "links", false, "min_success"));
    }

    @Test
    void withoutTheControlScriptNothingIsNumberedAndTheReportSaysHowToGetIt(@TempDir Path tmp) throws IOException {
        Path topo = tmp.resolve("chain.yaml");
        Files.writeString(topo, TOPOLOGY);
        Run replay = cli("replay", "--topology", topo.toString(), "--program", "wbmon", "--trace", "gen:isp?packets=500",
                "--out", tmp.resolve("run").toString(), "--no-progress");
        assertEquals(0, replay.code(), replay.err());
        assertTrue(replay.out().contains("nothing numbered: the port tables are empty"), replay.out());
        rows(replay.out()).values().forEach(r -> assertEquals(0, r[0]));
    }

    @Test
    void aSingleSwitchReplayPointsToTheNetworkReplay(@TempDir Path tmp) {
        Run replay = cli("replay", "--program", "wbmon", "--trace", "gen:isp?packets=200", "--out", tmp.resolve("run").toString(),
                "--no-progress");
        assertEquals(0, replay.code(), replay.err());
        assertTrue(replay.out().contains("WBMon: a single switch has no vconns"), replay.out());
    }

    @Test
    void controlNeedsATopologyAndAnEcmpTopologyItsFlows(@TempDir Path tmp) {
        Run noTopo = cli("experiment", "wbmon", "--opt", "control=" + tmp.resolve("x.ctl"));
        assertEquals(2, noTopo.code());
        assertTrue(noTopo.err().contains("option control needs topology=SPEC"), noTopo.err());
        Run ecmp = cli("experiment", "wbmon", "--opt", "control=" + tmp.resolve("x.ctl"), "--opt",
                "topology=builtin:fattree?k=4&programmable=edge");
        assertEquals(2, ecmp.code());
        assertTrue(ecmp.err().contains("(ECMP); give flows=TRACE"), ecmp.err());
        Run withFlows = cli("experiment", "wbmon", "--opt", "control=" + tmp.resolve("y.ctl"), "--opt",
                "topology=builtin:fattree?k=4&programmable=edge", "--opt", "flows=gen:isp?packets=2000&flows=100&seed=1");
        assertEquals(0, withFlows.code(), withFlows.err());
    }

    /** h1 – m1 – r1 – {r2, r3} – r4 – m2 – h2, 4 % loss on r2→r4: r1 and r4 split each m-switch's traffic over two vconns. */
    static final String DIAMOND = """
            defaults: {latency_ns: 1000, rate_gbps: 100}
            nodes:
              - {name: m1, type: switch, target: tofino1, ports: 2}
              - {name: m2, type: switch, target: tofino1, ports: 2}
              - {name: r1, type: regular, ports: 3}
              - {name: r2, type: regular, ports: 2}
              - {name: r3, type: regular, ports: 2}
              - {name: r4, type: regular, ports: 3}
              - {name: h1, type: host, address: 10.0.1.0/24}
              - {name: h2, type: host, address: 10.0.2.0/24}
            links:
              - {a: h1:1, b: m1:1}
              - {a: m1:2, b: r1:1}
              - {a: r1:2, b: r2:1}
              - {a: r1:3, b: r3:1}
              - {a: r2:2, b: r4:1, impair_ab: {loss: "bernoulli:0.04"}}
              - {a: r3:2, b: r4:2}
              - {a: r4:3, b: m2:1}
              - {a: h2:1, b: m2:2}
            """;

    /**
     * ECMP vconns from the CLI (issue 19): the control plane of a topology whose regular switches
     * split a port's traffic needs the trace's flows (refused without them, one line); with them
     * the replay numbers each path apart: drops only on the vconn through the lossy link.
     */
    @Test
    void ecmpTopologyGetsFlowEntriesFromTheTraceAndTheReplayCountsDropsPerPath(@TempDir Path tmp) throws IOException {
        Path topo = tmp.resolve("diamond.yaml");
        Files.writeString(topo, DIAMOND);
        Path control = tmp.resolve("wbmon.ctl");
        String trace = "gen:isp?packets=20000&flows=300&seed=3";
        Run refused = cli("experiment", "wbmon", "--opt", "control=" + control, "--opt", "topology=" + topo, "--opt", "vconns=4");
        assertEquals(2, refused.code());
        assertEquals("rmtemu: experiment wbmon: " + topo + ": regular switches split some ports' traffic over several vconns"
                + " (ECMP); give flows=TRACE, the trace you will replay, so that each flow's vconn is listed\n", refused.err());
        Run gen = cli("experiment", "wbmon", "--opt", "control=" + control, "--opt", "topology=" + topo, "--opt", "vconns=4",
                "--opt", "flows=" + trace);
        assertEquals(0, gen.code(), gen.err());
        List<String> lines = Files.readAllLines(control);
        assertTrue(lines.stream().anyMatch(l -> l.startsWith("on m1 table_add " + WbmonPipeline.FLOWS_OUT + " set_vconn 1 ")), gen.out());
        assertTrue(lines.stream().anyMatch(l -> l.startsWith("on m2 table_add " + WbmonPipeline.FLOWS_OUT + " set_vconn 0 ")), gen.out());

        Run replay = cli("replay", "--topology", topo.toString(), "--program", "wbmon", "--param", "vconns=4",
                "--control", control.toString(), "--trace", trace, "--rate", "10G", "--out", tmp.resolve("run").toString(),
                "--no-progress");
        assertEquals(0, replay.code(), replay.err());
        int rows = 0;
        boolean in = false;
        for (String line : replay.out().split("\n")) {
            if (line.startsWith("WBMon per vconn")) {
                in = true;
                continue;
            }
            String[] w = line.trim().split("\\s+");
            if (in && w.length >= 8 && w[2].equals("->")) {
                int n = w.length;
                long numbered = Long.parseLong(w[n - 5]);
                long received = Long.parseLong(w[n - 4]);
                long drops = Long.parseLong(w[n - 3]);
                assertTrue(numbered > 1_000, line);
                if (w[1].startsWith("m1") && line.contains("r2")) {
                    assertTrue(drops > 50 && drops <= numbered - received, line);
                } else {
                    assertEquals(numbered, received, line);
                    assertEquals(0, drops, line);
                }
                rows++;
            }
        }
        assertEquals(4, rows, replay.out());
    }
}
