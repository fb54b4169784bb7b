package dev.rmtemu.emulator.output;

import java.util.Set;
import java.util.TreeSet;
import dev.rmtemu.emulator.spi.ReplayOptions;
import dev.rmtemu.emulator.spi.ReplayResult;
import dev.rmtemu.emulator.engine.QueueDepthTimeline;
import dev.rmtemu.emulator.engine.SwitchEngine;
import dev.rmtemu.emulator.network.NetworkEngine;
import dev.rmtemu.emulator.topology.Link;
import dev.rmtemu.model.check.ResourceReport;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rmtemu.emulator.spi.CsvTables;
import dev.rmtemu.emulator.metrics.LatencyHistogram;
import dev.rmtemu.emulator.spi.RunResults;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A self-contained HTML report: tables, and charts drawn by Apache ECharts (bundled in the page,
 * see {@link Charts}): the latency percentile distribution, drops by cause, queue depth over time
 * per egress port (a network: per busiest switch) and per-stage resource bars, with named axes,
 * ticks and units. Deterministic: it shows no host measurements.
 */
final class HtmlReport {
    private static final String STYLE = "<style>body{font-family:sans-serif;margin:2em;color:#222}"
            + "table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:2px 8px;text-align:right}"
            + "td:first-child{text-align:left}div.chart{margin:1em 0}</style>";

    private HtmlReport() {
    }

    static String render(ReplayResult r) {
        SwitchEngine e = r.engine();
        StringBuilder sb = new StringBuilder();
        sb.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>rmtemu run: ")
                .append(esc(r.options().program())).append("</title>\n").append(STYLE).append("</head><body>\n");
        sb.append("<h1>rmtemu replay: ").append(esc(r.options().program())).append(" on ")
                .append(esc(e.config().profile().name())).append("</h1>\n");
        sb.append("<p>Trace <code>").append(esc(r.options().trace())).append("</code>, timing <code>")
                .append(esc(r.options().timing())).append("</code>, ").append(e.config().frontPanelPorts())
                .append(" ports at ").append(r.options().portGbps()).append(" Gb/s.</p>\n");
        sb.append("<table><tr><th>in</th><th>out</th><th>dropped</th><th>recirculated</th></tr><tr><td>")
                .append(e.counters().packetsIn()).append("</td><td>").append(e.counters().packetsOut()).append("</td><td>")
                .append(e.counters().droppedTotal()).append("</td><td>").append(e.counters().recirculations())
                .append("</td></tr></table>\n");
        sb.append("<h2>Latency percentile distribution</h2>\n");
        sb.append(latency("latency", "arrival to departure", e.metrics().latency()));
        sb.append("<h2>Drops by cause</h2>\n");
        sb.append(Charts.div("drops", Charts.dropsByCause("packets dropped by cause", e.counters().droppedByCause())));
        sb.append("<h2>Queue depth over time per egress port</h2>\n");
        Map<String, QueueDepthTimeline> ports = new LinkedHashMap<>();
        int front = e.config().frontPanelPorts();
        for (int p = 0; p < e.trafficManager().portCount(); p++) {
            QueueDepthTimeline t = e.portDepthTimeline(p);
            if (t != null) {
                ports.put(p < front ? "port " + p : "recirc " + (p - front), t);
            }
        }
        List<String> shown = Charts.deepest(ports, Charts.QUEUE_DEPTH_PORTS);
        if (shown.isEmpty()) {
            sb.append("<p>Nothing was queued.</p>\n");
        } else {
            Map<String, QueueDepthTimeline> drawn = new LinkedHashMap<>();
            shown.forEach(k -> drawn.put(k, ports.get(k)));
            sb.append(Charts.div("queues", Charts.queueDepth("egress port occupancy (max per bucket; the "
                    + shown.size() + " deepest of " + ports.size() + " ports that queued)", drawn, e.clock().hz())));
        }
        sb.append("<h2>Stage resources</h2>\n");
        sb.append(resources("resources", e.resources()));
        sb.append(results(r.results()));
        sb.append(Charts.script());
        sb.append("</body></html>\n");
        return sb.toString();
    }


    /** The network run's report: totals, end-to-end latency, switches, links, busiest buffers, resources. */
    static String renderNetwork(ReplayResult r) {
        NetworkEngine net = r.network();
        ReplayOptions o = r.options();
        StringBuilder sb = new StringBuilder();
        sb.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>rmtemu network run</title>\n")
                .append(STYLE).append("</head><body>\n");
        sb.append("<h1>rmtemu network replay: <code>").append(esc(o.topology())).append("</code></h1>\n");
        sb.append("<p>Trace <code>").append(esc(o.trace())).append("</code>, timing <code>").append(esc(o.timing()))
                .append("</code>, program <code>").append(esc(o.program() == null ? "(per switch)" : o.program()))
                .append("</code>, seed ").append(o.seed()).append(".</p>\n");
        sb.append("<h2>Totals</h2>\n<table>");
        net.totals().toMap().forEach((k, v) -> sb.append("<tr><td>").append(esc(k.replace('_', ' ')))
                .append("</td><td>").append(v).append("</td></tr>"));
        sb.append("</table>\n");
        sb.append("<h2>End-to-end latency percentile distribution</h2>\n");
        sb.append(latency("latency", "host to host", net.latency()));
        sb.append("<h2>Drops by cause</h2>\n");
        Map<String, Long> drops = new LinkedHashMap<>();
        for (int s = 0; s < net.switchCount(); s++) {
            net.switchEngine(s).counters().droppedByCause().forEach((k, v) -> drops.merge(k, v, Long::sum));
        }
        NetworkEngine.NetworkTotals t = net.totals();
        drops.put("link_lost", t.linkLost());
        drops.put("unlinked_port", t.unlinkedPortDrops());
        drops.put("hop_limit", t.hopLimitDrops());
        sb.append(Charts.div("drops", Charts.dropsByCause("packets dropped by cause (switches, links, network)", drops)));

        sb.append("<h2>Switches</h2>\n<table><tr><th>switch</th><th>kind</th><th>program</th><th>in</th><th>out</th>")
                .append("<th>dropped</th><th>recirculated</th><th>p50 ns</th><th>p99 ns</th></tr>\n");
        for (int s = 0; s < net.switchCount(); s++) {
            SwitchEngine e = net.switchEngine(s);
            var l = e.metrics().latency().summary();
            sb.append("<tr><td>").append(esc(net.switchNode(s).name())).append("</td><td>")
                    .append(esc(net.switchNode(s).kind().fileName())).append("</td><td>").append(esc(net.switchProgram(s)))
                    .append("</td><td>").append(e.counters().packetsIn()).append("</td><td>").append(e.counters().packetsOut())
                    .append("</td><td>").append(e.counters().droppedTotal()).append("</td><td>")
                    .append(e.counters().recirculations()).append("</td><td>").append(l.p50()).append("</td><td>")
                    .append(l.p99()).append("</td></tr>\n");
        }
        sb.append("</table>\n");

        sb.append("<h2>Links (one row per direction)</h2>\n<table><tr><th>link</th><th>from</th><th>to</th><th>carried</th>")
                .append("<th>lost</th><th>duplicated</th><th>reordered</th><th>delayed</th></tr>\n");
        for (Link l : net.topology().links()) {
            for (int d = 0; d < 2; d++) {
                if (d == 1 && !l.bidirectional()) {
                    continue;
                }
                sb.append("<tr><td>").append(l.id()).append("</td><td>").append(esc((d == 0 ? l.a() : l.b()).toString()))
                        .append("</td><td>").append(esc((d == 0 ? l.b() : l.a()).toString())).append("</td><td>")
                        .append(net.carried(l.id(), d)).append("</td><td>").append(net.lost(l.id(), d)).append("</td><td>")
                        .append(net.duplicates(l.id(), d)).append("</td><td>").append(net.reordered(l.id(), d))
                        .append("</td><td>").append(net.delayed(l.id(), d)).append("</td></tr>\n");
            }
        }
        sb.append("</table>\n");

        sb.append("<h2>Buffer occupancy over time of the busiest switches</h2>\n");
        Map<String, QueueDepthTimeline> buffers = new LinkedHashMap<>();
        for (int s = 0; s < net.switchCount(); s++) {
            buffers.put(net.switchNode(s).name(), net.switchEngine(s).queueDepthTimeline());
        }
        List<String> busiest = Charts.deepest(buffers, Charts.QUEUE_DEPTH_PORTS);
        if (busiest.isEmpty()) {
            sb.append("<p>Nothing was queued.</p>\n");
        } else {
            Map<String, QueueDepthTimeline> drawn = new LinkedHashMap<>();
            busiest.forEach(k -> drawn.put(k, buffers.get(k)));
            sb.append(Charts.div("queues", Charts.queueDepth("traffic-manager buffer occupancy (max per bucket; the "
                    + busiest.size() + " busiest switches)", drawn, net.clock().hz())));
        }

        sb.append("<h2>Stage resources of each program</h2>\n");
        Set<String> shown = new TreeSet<>();
        for (int s = 0; s < net.switchCount(); s++) {
            SwitchEngine e = net.switchEngine(s);
            String program = net.switchProgram(s);
            if (e.resources().stages().isEmpty() || !shown.add(program)) {
                continue;
            }
            sb.append("<h3><code>").append(esc(program)).append("</code> (first on ")
                    .append(esc(net.switchNode(s).name())).append(")</h3>\n")
                    .append(resources("resources-" + shown.size(), e.resources()));
        }
        if (shown.isEmpty()) {
            sb.append("<p>No switch runs a program with stages.</p>\n");
        }
        sb.append(results(r.results()));
        sb.append(Charts.script());
        sb.append("</body></html>\n");
        return sb.toString();
    }

    private static String latency(String id, String what, LatencyHistogram h) {
        if (h.count() == 0) {
            return "<p>No packet departed.</p>\n";
        }
        return Charts.div(id, Charts.latencyPercentiles("latency (" + what + ", ns) by percentile",
                Map.of(h.name(), h.copy()), Map.of(h.name(), h.max())));
    }

    /**
     * The programs' results tables (results/*.csv) drawn as the experiments' figures are: each
     * measured column against the table's first varying number (HashPipe: estimate, truth and
     * error by rank); nothing when the run has no results.
     */
    private static String results(RunResults results) {
        StringBuilder sb = new StringBuilder();
        int n = 0;
        for (CsvTables.Table t : results.tables()) {
            for (ObjectNode chart : ExperimentPlots.charts("results", t)) {
                sb.append(Charts.div("results-" + n++, chart));
            }
        }
        return n == 0 ? "" : "<h2>Program results</h2>\n" + sb;
    }

    private static String resources(String id, ResourceReport r) {
        if (r.stages().isEmpty()) {
            return "<p>The program uses no stage.</p>\n";
        }
        return Charts.div(id, Charts.stageResources("per-stage use of " + r.target().name() + "'s budgets", r));
    }

    private static String esc(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
