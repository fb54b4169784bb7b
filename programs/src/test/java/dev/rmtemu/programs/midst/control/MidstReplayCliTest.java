package dev.rmtemu.programs.midst.control;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.rmtemu.programs.ReportCharts;
import dev.rmtemu.programs.midst.program.MidstConfig;
import dev.rmtemu.programs.midst.program.MidstPipeline;
import dev.rmtemu.programs.midst.program.MidstProgram;

import dev.rmtemu.emulator.cli.Main;
import dev.rmtemu.traces.PacketRecord;
import dev.rmtemu.traces.PacketSource;
import dev.rmtemu.traces.spec.TraceSpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code rmtemu replay --program midst} with no control script: the control plane's probes
 * start reactive monitoring on the congested port, the collector's per-packet reports land
 * in the journal, and the flows they flag are true losers (arrivals in the trace minus
 * departures from the port, which add up to the traffic manager's drops).
 */
class MidstReplayCliTest {
    /** A 10 Gb/s port fed by the ISP mix at its own spacing: one long congestion. */
    static final String TRACE = "gen:isp?packets=50000&flows=500&seed=7&dist=zipf&gbps=100&load=0.5";

    record Run(int code, String out, String err) {
    }

    static Run cli(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(args, new PrintWriter(out, true), new PrintWriter(err, true));
        return new Run(code, out.toString(), err.toString());
    }

    static Run replay(Path run, String... extra) {
        List<String> args = new java.util.ArrayList<>(List.of("replay", "--program", "midst", "--trace", TRACE,
                "--port-gbps", "10", "--out", run.toString(), "--no-progress"));
        args.addAll(List.of(extra));
        Run r = cli(args.toArray(String[]::new));
        assertEquals(0, r.code(), r.err());
        return r;
    }

    static long number(String text, String regex) {
        Matcher m = Pattern.compile(regex).matcher(text);
        assertTrue(m.find(), regex + " in\n" + text);
        return Long.parseLong(m.group(1).replace(",", ""));
    }

    /** The summary without host timing and the run directory's path. */
    static String stable(String summary, Path run) {
        return summary.replaceAll("(?m)^host .*$", "").replace(run.toString(), "RUN");
    }

    @Test
    void probesStartMonitoringAndTheFlaggedFlowsAreTrueLosers(@TempDir Path dir) {
        Path run = dir.resolve("run");
        Run r = replay(run);
        long epochs = number(r.out(), "(\\d+) monitoring epochs");
        assertTrue(epochs > 0, r.out());
        long drops = number(r.out(), "port 1 dropped (\\d+) packets");
        assertTrue(drops > 1_000, r.out());

        Run collect = cli("collect", "--journal", run.resolve("journal").toString());
        assertEquals(0, collect.code(), collect.err());
        assertTrue(collect.out().lines().anyMatch(l -> l.contains("kind midst.flow_report")), collect.out());
        assertTrue(collect.out().lines().anyMatch(l -> l.contains("kind midst.event")), collect.out());

        // ground truth: arrivals per flow from the trace, departures from the port
        Map<MidstLossQuery.FlowKey, Long> arrivals = new HashMap<>();
        PacketRecord p = PacketRecord.allocate();
        try (PacketSource src = TraceSpec.open(TRACE)) {
            while (src.next(p)) {
                arrivals.merge(new MidstLossQuery.FlowKey(p.srcIpv4(), p.dstIpv4(), p.protocol(), p.srcPort(), p.dstPort()),
                        1L, Long::sum);
            }
        }
        MidstJournal.Readout j = MidstJournal.read(run.resolve("journal"));
        assertEquals(MidstProgram.DEFAULT_PROBE_NS, j.probeNs());
        assertTrue(r.out().contains("MIDST monitoring (probe every 2000 ns on pipe 0"), r.out());
        assertEquals(epochs, j.epochs());
        assertEquals(MidstPipeline.KIND_MONITOR_ON, j.events().get(0).kind(), "the first event starts monitoring");
        long lost = 0;
        MidstLossQuery.FlowKey worst = null;
        for (Map.Entry<MidstLossQuery.FlowKey, Long> e : arrivals.entrySet()) {
            long l = e.getValue() - j.departed().getOrDefault(e.getKey(), 0L);
            assertTrue(l >= 0, "flow departs more than it arrives: " + e.getKey());
            lost += l;
            if (worst == null || l > arrivals.get(worst) - j.departed().getOrDefault(worst, 0L)) {
                worst = e.getKey();
            }
        }
        assertEquals(drops, lost, "arrivals minus departures per flow add up to the port's drops");

        Map<MidstLossQuery.FlowKey, Long> flagged = j.lossByFlow();
        flagged.values().removeIf(v -> v == 0);
        assertTrue(flagged.size() > 10, "heavy losers flagged: " + flagged.size());
        long truePositives = 0;
        MidstLossQuery.FlowKey topReported = null;
        for (Map.Entry<MidstLossQuery.FlowKey, Long> e : flagged.entrySet()) {
            long truth = arrivals.getOrDefault(e.getKey(), 0L) - j.departed().getOrDefault(e.getKey(), 0L);
            truePositives += truth >= MidstConfig.defaults().lossThreshold() ? 1 : 0;
            if (topReported == null || e.getValue() > flagged.get(topReported)) {
                topReported = e.getKey();
            }
        }
        assertTrue(truePositives >= flagged.size() * 99 / 100, "precision " + truePositives + " / " + flagged.size());
        assertEquals(worst, topReported, "the largest reported loss is the flow that lost most");
        assertTrue(r.out().contains("precision"), r.out());

        // report.html: the flagged flows' estimates against their true loss, the bursty flows' S_in against their arrivals
        JsonNode results = readJson(run.resolve("report.json")).path("results").path("midst");
        assertTrue(ReportCharts.assertEstimateVsTruth(run, 0, "midst: flagged heavy losers: reported loss and S_loss against true loss",
                "true loss (packets)", "estimated loss (packets)", results.path("flagged"), "true_loss", "five_tuple", false,
                "reported", "s_loss") > 0, "flagged flows drawn");
        assertTrue(ReportCharts.assertEstimateVsTruth(run, 2, "midst: bursty flows: S_in against true arrivals",
                "true arrivals (packets)", "estimated arrivals (packets)", results.path("bursty_flows"), "arrivals", "five_tuple",
                true, "s_in") > 0, "bursty flows drawn");
    }

    private static JsonNode readJson(Path file) {
        try {
            return new ObjectMapper().readTree(file.toFile());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** h1 and c at 10 Gb/s, h2 behind a 1 Gb/s link: s1's port towards h2 (port 1) congests; the collector is c (port 2). */
    static final String LINE = """
            defaults: {latency_ns: 1000, rate_gbps: 10}
            nodes:
              - {name: s1, type: switch, target: tofino1, ports: 3}
              - {name: h1, type: host, address: 10.0.0.1/32}
              - {name: h2, type: host, address: 10.0.0.2/32}
              - {name: c, type: host, address: 10.0.0.3/32}
            links:
              - {a: h1:1, b: s1:1}
              - {a: s1:2, b: h2:1, rate_gbps: 1}
              - {a: s1:3, b: c:1}
            """;

    @Test
    void inANetworkReplayTheSwitchRunningMidstIsProbedToo(@TempDir Path dir) throws IOException {
        // s1 is the only switch: its journal messages carry switch id 0
        Path topo = dir.resolve("line.yaml");
        Files.writeString(topo, LINE);
        Path run = dir.resolve("run");
        String trace = "gen:isp?packets=20000&flows=300&seed=5&dist=zipf&gbps=100&load=0.5";
        Run r = cli("replay", "--topology", topo.toString(), "--program", "midst", "--trace", trace, "--rate", "10G",
                "--out", run.toString(), "--no-progress");
        assertEquals(0, r.code(), r.err());
        long drops = number(r.out(), "MIDST on switch s1 \\(port 1, topology port 2\\): the port dropped (\\d+) packets");
        assertTrue(drops > 1_000, r.out());
        MidstJournal.Readout j = MidstJournal.read(run.resolve("journal"), 0);
        assertEquals(MidstProgram.DEFAULT_PROBE_NS, j.probeNs());
        assertTrue(j.epochs() > 0, r.out());
        assertEquals(j.epochs(), number(r.out(), "probe every 2000 ns\\): (\\d+) epochs"));
        // the network maps the trace onto its hosts' addresses, so the switch's flows are not the trace's:
        // check the totals (every injected packet reaches s1, and MIDST sends every data packet to port 1)
        long departed = 0;
        for (long v : j.departed().values()) {
            departed += v;
        }
        assertEquals(20_000, departed + drops, "departures plus drops at port 1 are the injected packets");
        long flagged = 0;
        long reported = 0;
        for (Map.Entry<MidstLossQuery.FlowKey, Long> e : j.lossByFlow().entrySet()) {
            if (e.getValue() > 0) {
                flagged++;
                reported += e.getValue();
                assertTrue(j.departed().containsKey(e.getKey()), "a flagged flow left the port: " + e.getKey());
            }
        }
        assertTrue(reported <= drops, "one epoch, no collisions among 300 flows: reports " + reported + " <= drops " + drops);
        assertTrue(flagged > 10, "flagged " + flagged);
    }

    @Test
    void twoRunsGiveTheSameSummaryAndJournal(@TempDir Path dir) throws IOException {
        Path a = dir.resolve("a");
        Path b = dir.resolve("b");
        String first = stable(replay(a).out(), a);
        String second = stable(replay(b).out(), b);
        assertEquals(first, second);
        assertEquals(cli("collect", "--journal", a.resolve("journal").toString()).out(),
                cli("collect", "--journal", b.resolve("journal").toString()).out());
        assertTrue(Files.size(a.resolve("report.json")) > 0);
        // the results: the same object and CSV bytes in both runs, and the summary's rows are the data's
        com.fasterxml.jackson.databind.ObjectMapper json = new com.fasterxml.jackson.databind.ObjectMapper();
        com.fasterxml.jackson.databind.JsonNode ra = json.readTree(a.resolve("report.json").toFile()).path("results").path("midst");
        assertEquals(ra.toString(), json.readTree(b.resolve("report.json").toFile()).path("results").path("midst").toString());
        List<String> tables = List.of("flagged", "heavy_losers", "bursty_flows");
        for (String t : tables) {
            assertTrue(ra.path(t).size() > 0, t + " in " + ra);
            assertEquals(-1L, Files.mismatch(a.resolve("results/midst_" + t + ".csv"), b.resolve("results/midst_" + t + ".csv")), t);
            assertEquals(ra.path(t).size() + 1, Files.readAllLines(a.resolve("results/midst_" + t + ".csv")).size(), t);
        }
        for (com.fasterxml.jackson.databind.JsonNode f : ra.path("flagged")) {
            String row = String.format(java.util.Locale.ROOT, "  %4d  %-52s %10d %10d %10d %10d", f.path("rank").asInt(),
                    f.path("five_tuple").asText(), f.path("reported").asLong(), f.path("s_loss").asLong(),
                    f.path("arrivals").asLong(), f.path("true_loss").asLong());
            assertTrue(first.contains(row + "\n"), row + " in\n" + first);
        }
        assertTrue(first.contains(String.format(java.util.Locale.ROOT, "precision %.3f)", ra.path("monitoring").path("precision")
                .asDouble())), first);
    }

    @Test
    void aControlScriptHoldingMonitoringOnOverridesTheProbes(@TempDir Path dir) throws IOException {
        Path control = dir.resolve("hold.ctl");
        Files.writeString(control, "register_write midst_monitor 0 1\n");
        Path run = dir.resolve("run");
        Run r = replay(run, "--control", control.toString());
        assertEquals(0, number(r.out(), "recirculated\\s+([\\d,]+)\\s"), r.out());
        assertEquals(0, number(r.out(), "(\\d+) monitoring epochs"), "held on from the start: no probe turns it on");
        MidstJournal.Readout j = MidstJournal.read(run.resolve("journal"));
        assertTrue(j.events().isEmpty());
        assertTrue(j.held());
        assertTrue(r.out().contains("MIDST monitoring (held on by the control script, no probes)"), r.out());
        assertTrue(j.reports().size() > 10, "the collector still reports: " + j.reports().size());
    }

    @Test
    void noProbesNoMonitoring(@TempDir Path dir) {
        Run r = replay(dir.resolve("run"), "--param", "probe_ns=0");
        assertEquals(0, number(r.out(), "(\\d+) monitoring epochs"), r.out());
        assertTrue(r.out().contains("nothing was counted"), r.out());
        assertTrue(r.out().contains("MIDST monitoring (no probes (probe_ns=0))"), r.out());
    }

    @Test
    void severalPipesOrQueuesAreRefusedByReplayWithTheExperimentToRun(@TempDir Path dir) {
        Run r = cli("replay", "--program", "midst", "--trace", TRACE, "--port-gbps", "10", "--out", dir.resolve("run").toString(),
                "--no-progress", "--param", "queues=2");
        assertEquals(2, r.code(), r.err());
        assertTrue(r.err().contains("midst: replay runs pipes=1 queues=1; pipes=1 queues=2 run in"
                + " `rmtemu experiment midst --opt part=e`"), r.err());
        // refused before the run directory is touched
        assertTrue(Files.notExists(dir.resolve("run")), "no run directory for a refused replay");
    }

    @Test
    void aCollectorOutsideTheDataPortsPipeIsRefusedBeforeTheRunDirectory(@TempDir Path dir) {
        Run r = cli("replay", "--program", "midst", "--trace", TRACE, "--port-gbps", "10", "--out", dir.resolve("run").toString(),
                "--no-progress", "--param", "collector=40");
        assertEquals(2, r.code(), r.err());
        assertEquals("rmtemu: midst: collector port 40 is not in the pipe of port 1", r.err().strip());
        assertTrue(Files.notExists(dir.resolve("run")), "no run directory for a refused replay");
    }
}
