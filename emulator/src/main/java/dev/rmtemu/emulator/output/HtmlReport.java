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
import dev.rmtemu.emulator.spi.PlotSpec;
import dev.rmtemu.emulator.spi.ProgramResults;
import dev.rmtemu.emulator.engine.RateTimeline;
import dev.rmtemu.emulator.metrics.PercentileSummary;
import dev.rmtemu.emulator.tm.DropCause;
import dev.rmtemu.emulator.tm.PortConfig;
import dev.rmtemu.emulator.tm.TrafficManager;
import org.HdrHistogram.Histogram;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A self-contained HTML report: tables, and charts drawn by Apache ECharts (bundled in the page,
 * see {@link Charts}): the latency percentile distribution of every histogram the run wrote with
 * its percentile table, the ports' key numbers, throughput and drops over time, drops by cause,
 * queue depth over time of the deepest egress ports with their tail-drop limits, per-stage use of
 * every accounted resource and the programs' results as their plot specs say, with named axes,
 * ticks and units. A network's report has the same per switch (a port table each; throughput,
 * drops and queues of the busiest) beside its switch and link tables. Deterministic: it shows no
 * host measurements.
 */
final class HtmlReport {

    private HtmlReport() {
    }

    static String render(ReplayResult r) {
        SwitchEngine e = r.engine();
        StringBuilder sb = new StringBuilder();
        sb.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>rmtemu run: ")
                .append(esc(r.options().program())).append("</title>\n").append(Charts.STYLE).append("</head><body>\n");
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
        List<LatencyHistogram> histograms = new ArrayList<>();
        for (LatencyHistogram h : e.metrics().nonEmpty()) {
            if (!h.name().equals(e.metrics().hostProcessing().name())) {
                histograms.add(h); // host time is not deterministic: report.json's 'host' has it
            }
        }
        sb.append(latency("latency", "arrival to departure and queueing delay per port and queue", histograms));
        String portTable = portTable(e, NO_SWITCH);
        sb.append("<h2>Ports</h2>\n").append(portTable.isEmpty() ? "<p>No packet reached the traffic manager.</p>\n" : portTable);
        sb.append("<h2>Throughput and drops over time</h2>\n");
        sb.append(overTime(Map.of("throughput", e.departedBits()), Map.of("drops", e.droppedPackets()), e.clock().hz(),
                "throughput out of the front-panel ports (bits with preamble and gap, per bucket)",
                "drop rate (every cause, per bucket)"));
        sb.append("<h2>Drops by cause</h2>\n");
        sb.append(Charts.div("drops", Charts.dropsByCause("packets dropped by cause", e.counters().droppedByCause())));
        sb.append("<h2>Queue depth over time per egress port</h2>\n");
        Map<String, PortDepth> ports = new LinkedHashMap<>();
        portDepths(e, NO_SWITCH, ports);
        sb.append(queueDepth(ports, e.clock().hz(), e.trafficManager().config().cellBytes()));
        sb.append("<h2>Stage resources</h2>\n");
        sb.append(resources("resources", e.resources()));
        sb.append(results(r.results()));
        sb.append(Charts.script());
        sb.append("</body></html>\n");
        return sb.toString();
    }

    /** A single switch's report names its ports without a switch ({@link #portName}). */
    private static final String NO_SWITCH = null;

    /** The key numbers of every port that saw a packet: enqueued, dequeued, bytes, drops by cause. */
    private static String portTable(SwitchEngine e, String switchName) {
        TrafficManager tm = e.trafficManager();
        int front = e.config().frontPanelPorts();
        StringBuilder sb = new StringBuilder("<table><tr><th>port</th><th>enqueued</th><th>dequeued</th><th>bytes dequeued</th>");
        for (DropCause c : DropCause.values()) {
            sb.append("<th>dropped: ").append(c.reportName()).append("</th>");
        }
        sb.append("</tr>\n");
        int rows = 0;
        for (int p = 0; p < tm.portCount(); p++) {
            long enq = 0;
            long deq = 0;
            long bytes = 0;
            for (int q = 0; q < tm.config().ports().get(p).queues(); q++) {
                enq += tm.enqueuedPackets(p, q);
                deq += tm.dequeuedPackets(p, q);
                bytes += tm.dequeuedBytes(p, q);
            }
            long drops = 0;
            for (DropCause c : DropCause.values()) {
                drops += tm.droppedPackets(p, c);
            }
            if (enq == 0 && drops == 0) {
                continue;
            }
            rows++;
            sb.append("<tr><td>").append(esc(portName(switchName, p, front))).append("</td><td>").append(enq)
                    .append("</td><td>").append(deq).append("</td><td>").append(bytes).append("</td>");
            for (DropCause c : DropCause.values()) {
                sb.append("<td>").append(tm.droppedPackets(p, c)).append("</td>");
            }
            sb.append("</tr>\n");
        }
        sb.append("</table>\n");
        return rows == 0 ? "" : sb.toString();
    }

    /**
     * A port as the reader knows it: a single switch's as the engine numbers it ("port 3"), a network
     * switch's as the topology does ("s1:4", engine port + 1, as the links table names it); a
     * recirculation port by its pipe ("recirc 0", "s1 recirc 0").
     */
    private static String portName(String switchName, int p, int front) {
        if (switchName == null) {
            return p < front ? "port " + p : "recirc " + (p - front);
        }
        return p < front ? switchName + ":" + (p + 1) : switchName + " recirc " + (p - front);
    }

    /**
     * Throughput (Gb/s) and drops (packets per µs) over the run's time, one line per timeline: every
     * timeline put on the widest bucket among them (they all start at cycle 0 and their widths are
     * powers of two), up to the last bucket with anything in it.
     */
    private static String overTime(Map<String, RateTimeline> bits, Map<String, RateTimeline> drops, long hz,
                                   String throughputTitle, String dropTitle) {
        long bucket = 1;
        for (RateTimeline t : bits.values()) {
            bucket = Math.max(bucket, t.bucketCycles());
        }
        for (RateTimeline t : drops.values()) {
            bucket = Math.max(bucket, t.bucketCycles());
        }
        Map<String, double[]> b = new LinkedHashMap<>();
        Map<String, double[]> d = new LinkedHashMap<>();
        int last = -1;
        for (Map.Entry<String, RateTimeline> t : bits.entrySet()) {
            b.put(t.getKey(), rebucket(t.getValue().sums(), t.getValue().bucketCycles(), bucket));
            last = Math.max(last, lastNonZero(b.get(t.getKey())));
        }
        for (Map.Entry<String, RateTimeline> t : drops.entrySet()) {
            d.put(t.getKey(), rebucket(t.getValue().sums(), t.getValue().bucketCycles(), bucket));
            last = Math.max(last, lastNonZero(d.get(t.getKey())));
        }
        if (last < 0) {
            return "<p>No packet departed or was dropped.</p>\n";
        }
        int n = Math.min(RateTimeline.BUCKETS, last + 2);
        double seconds = bucket / (double) hz;
        double bucketUs = bucket * 1e6 / hz;
        b.replaceAll((k, v) -> scaled(v, n, 1 / seconds / 1e9));
        d.replaceAll((k, v) -> scaled(v, n, 1 / (seconds * 1e6)));
        StringBuilder sb = new StringBuilder("<div class=\"pair\">");
        if (!b.isEmpty()) {
            sb.append(Charts.div("throughput", Charts.overTime(throughputTitle, "throughput (Gb/s)", b, bucketUs)));
        }
        if (!d.isEmpty()) {
            sb.append(Charts.div("drop-rate", Charts.overTime(dropTitle, "drops (packets/\u00b5s)", d, bucketUs)));
        } else {
            sb.append("<p>No switch dropped a packet.</p>");
        }
        return sb.append("</div>\n").toString();
    }

    private static double[] scaled(double[] v, int n, double factor) {
        double[] out = new double[n];
        for (int i = 0; i < n; i++) {
            out[i] = v[i] * factor;
        }
        return out;
    }

    /** One egress port's occupancy over time and the configuration that limits it. */
    private record PortDepth(QueueDepthTimeline timeline, PortConfig config) {
    }

    /** Every port of {@code e} that queued a packet, named as {@link #portName} says. */
    private static void portDepths(SwitchEngine e, String switchName, Map<String, PortDepth> into) {
        int front = e.config().frontPanelPorts();
        for (int p = 0; p < e.trafficManager().portCount(); p++) {
            QueueDepthTimeline t = e.portDepthTimeline(p);
            if (t != null) {
                into.put(portName(switchName, p, front), new PortDepth(t, e.trafficManager().config().ports().get(p)));
            }
        }
    }

    /**
     * The deepest ports' occupancy over time with the tail-drop limits that apply to them (per queue,
     * and per port when a port has several queues and a larger limit) as marked lines, in cells and
     * in KB.
     */
    private static String queueDepth(Map<String, PortDepth> ports, long hz, int cellBytes) {
        Map<String, QueueDepthTimeline> timelines = new LinkedHashMap<>();
        ports.forEach((k, v) -> timelines.put(k, v.timeline()));
        List<String> shown = Charts.deepest(timelines, Charts.QUEUE_DEPTH_PORTS);
        if (shown.isEmpty()) {
            return "<p>Nothing was queued.</p>\n";
        }
        Map<String, QueueDepthTimeline> drawn = new LinkedHashMap<>();
        Set<Long> perQueue = new TreeSet<>();
        Set<Long> perPort = new TreeSet<>();
        for (String k : shown) {
            drawn.put(k, timelines.get(k));
            PortConfig pc = ports.get(k).config();
            perQueue.add((long) pc.queueLimitCells());
            if (pc.queues() > 1 && pc.portLimitCells() > pc.queueLimitCells()) {
                perPort.add((long) pc.portLimitCells());
            }
        }
        List<Charts.Limit> limits = new ArrayList<>();
        perQueue.forEach(v -> limits.add(new Charts.Limit("tail-drop limit per queue", v)));
        perPort.forEach(v -> limits.add(new Charts.Limit("tail-drop limit per port", v)));
        return Charts.div("queues", Charts.queueDepth("egress port occupancy (max per bucket; the " + shown.size()
                + " deepest of " + timelines.size() + " ports that queued)", drawn, hz, cellBytes, limits));
    }

    private static double[] rebucket(long[] sums, long width, long into) {
        int factor = (int) (into / width);
        double[] out = new double[sums.length];
        for (int i = 0; i < sums.length; i++) {
            out[i / factor] += sums[i];
        }
        return out;
    }

    private static int lastNonZero(double[] v) {
        int last = -1;
        for (int i = 0; i < v.length; i++) {
            if (v[i] != 0) {
                last = i;
            }
        }
        return last;
    }

    /**
     * The network run's report: totals, end-to-end latency, drops, the switch and link tables, each
     * switch's port table, throughput and drops over time, the deepest ports' and busiest buffers'
     * occupancy, resources and results.
     */
    static String renderNetwork(ReplayResult r) {
        NetworkEngine net = r.network();
        ReplayOptions o = r.options();
        StringBuilder sb = new StringBuilder();
        sb.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>rmtemu network run</title>\n")
                .append(Charts.STYLE).append("</head><body>\n");
        sb.append("<h1>rmtemu network replay: <code>").append(esc(o.topology())).append("</code></h1>\n");
        sb.append("<p>Trace <code>").append(esc(o.trace())).append("</code>, timing <code>").append(esc(o.timing()))
                .append("</code>, program <code>").append(esc(o.program() == null ? "(per switch)" : o.program()))
                .append("</code>, seed ").append(o.seed()).append(".</p>\n");
        sb.append("<h2>Totals</h2>\n<table>");
        net.totals().toMap().forEach((k, v) -> sb.append("<tr><td>").append(esc(k.replace('_', ' ')))
                .append("</td><td>").append(v).append("</td></tr>"));
        sb.append("</table>\n");
        sb.append("<h2>End-to-end latency percentile distribution</h2>\n");
        sb.append(latency("latency", "host to host", net.latency().count() == 0 ? List.of() : List.of(net.latency())));
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

        sb.append("<h2>Ports of each switch</h2>\n");
        sb.append(switchPorts(net));

        sb.append("<h2>Throughput and drops over time</h2>\n");
        Map<String, RateTimeline> bits = new LinkedHashMap<>();
        Map<String, RateTimeline> dropped = new LinkedHashMap<>();
        for (int s : busiest(net, true)) {
            bits.put(net.switchNode(s).name(), net.switchEngine(s).departedBits());
        }
        for (int s : busiest(net, false)) {
            dropped.put(net.switchNode(s).name(), net.switchEngine(s).droppedPackets());
        }
        sb.append(overTime(bits, dropped, net.clock().hz(), "throughput out of the front-panel ports of the busiest switches ("
                + bits.size() + " of " + net.switchCount() + "; bits with preamble and gap, per bucket)",
                "drop rate of the switches that dropped most (" + dropped.size() + " of " + net.switchCount()
                + "; every cause, per bucket; link losses are in the links table)"));

        sb.append("<h2>Queue depth over time per egress port</h2>\n");
        Map<String, PortDepth> ports = new LinkedHashMap<>();
        for (int s = 0; s < net.switchCount(); s++) {
            portDepths(net.switchEngine(s), net.switchNode(s).name(), ports);
        }
        sb.append(queueDepth(ports, net.clock().hz(), net.switchEngine(0).trafficManager().config().cellBytes()));

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
            // the shared buffer's size is a limit too, but far above any port's: named in the title, not drawn
            sb.append(Charts.div("buffers", Charts.queueDepth("traffic-manager buffer occupancy (max per bucket; the "
                    + busiest.size() + " busiest switches; shared buffer "
                    + net.switchEngine(0).trafficManager().config().sharedBufferCells() + " cells)", drawn, net.clock().hz(),
                    net.switchEngine(0).trafficManager().config().cellBytes(), List.of())));
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

    /**
     * Per switch that saw a packet, its ports' table in a section of its own (open when the switch
     * dropped a packet, the ones a reader looks for), summarised in its heading.
     */
    private static String switchPorts(NetworkEngine net) {
        StringBuilder sb = new StringBuilder();
        for (int s = 0; s < net.switchCount(); s++) {
            SwitchEngine e = net.switchEngine(s);
            String table = portTable(e, net.switchNode(s).name());
            if (table.isEmpty()) {
                continue;
            }
            long dropped = e.counters().droppedTotal();
            sb.append("<details class=\"ports\"").append(dropped > 0 ? " open" : "").append("><summary>")
                    .append(esc(net.switchNode(s).name())).append(": ").append(e.counters().packetsIn()).append(" in, ")
                    .append(e.counters().packetsOut()).append(" out, ").append(dropped).append(" dropped</summary>\n")
                    .append(table).append("</details>\n");
        }
        return sb.length() == 0 ? "<p>No packet reached a switch's traffic manager.</p>\n" : sb.toString();
    }

    /**
     * The switches with the most bits departed ({@code bits}) or packets dropped, most first (ties: in
     * node order), at most {@link Charts#QUEUE_DEPTH_PORTS}, none with nothing.
     */
    private static List<Integer> busiest(NetworkEngine net, boolean bits) {
        List<Integer> order = new ArrayList<>();
        long[] amount = new long[net.switchCount()];
        for (int s = 0; s < net.switchCount(); s++) {
            SwitchEngine e = net.switchEngine(s);
            amount[s] = bits ? total(e.departedBits()) : e.counters().droppedTotal();
            if (amount[s] > 0) {
                order.add(s);
            }
        }
        order.sort((a, b) -> amount[a] != amount[b] ? Long.compare(amount[b], amount[a]) : Integer.compare(a, b));
        return order.subList(0, Math.min(Charts.QUEUE_DEPTH_PORTS, order.size()));
    }

    private static long total(RateTimeline t) {
        long sum = 0;
        for (long v : t.sums()) {
            sum += v;
        }
        return sum;
    }

    /** Histograms drawn on one percentile chart at most (the most packets first, then by name); the table has all. */
    static final int PERCENTILE_SERIES = 12;

    /** The percentile plot of the histograms and beside it their percentile table, in the chart's unit. */
    private static String latency(String id, String what, List<LatencyHistogram> histograms) {
        if (histograms.isEmpty()) {
            return "<p>No packet departed.</p>\n";
        }
        List<LatencyHistogram> drawn = new ArrayList<>(histograms);
        drawn.sort((a, b) -> a.count() != b.count() ? Long.compare(b.count(), a.count()) : a.name().compareTo(b.name()));
        drawn = drawn.subList(0, Math.min(PERCENTILE_SERIES, drawn.size()));
        Map<String, Histogram> series = new LinkedHashMap<>();
        Map<String, Long> max = new LinkedHashMap<>();
        long top = 0;
        for (LatencyHistogram h : histograms) {
            top = Math.max(top, h.max());
        }
        for (LatencyHistogram h : histograms) {
            if (drawn.contains(h)) {
                series.put(h.name(), h.copy());
                max.put(h.name(), h.max());
            }
        }
        Charts.TimeUnit unit = Charts.TimeUnit.forMax(top);
        StringBuilder t = new StringBuilder("<table><tr><th>histogram</th><th>packets</th>");
        for (String p : new String[] {"p50", "p90", "p99", "p99.9", "p99.99", "max"}) {
            t.append("<th>").append(p).append(" (").append(unit.symbol()).append(")</th>");
        }
        t.append("</tr>\n");
        for (LatencyHistogram h : histograms) {
            PercentileSummary s = h.summary();
            t.append("<tr><td>").append(esc(h.name())).append("</td><td>").append(s.count()).append("</td>");
            for (long v : new long[] {s.p50(), s.p90(), s.p99(), s.p999(), s.p9999(), s.max()}) {
                t.append("<td>").append(unit.format(v)).append("</td>");
            }
            t.append("</tr>\n");
        }
        t.append("</table>\n");
        String title = "latency by percentile (" + what + ")" + (drawn.size() < histograms.size()
                ? "; the " + drawn.size() + " histograms with the most packets of " + histograms.size() : "");
        return "<div class=\"pair\">" + Charts.div(id, Charts.latencyPercentiles(title, series, max))
                + "<div id=\"" + id + "-table\">" + t + "</div></div>\n";
    }

    /**
     * The programs' results tables (results/*.csv) drawn as each program's {@link ProgramResults#plots()}
     * say (an estimate against its truth as a scatter with y = x, and its error; a sweep as lines); nothing
     * when the run has no results.
     */
    private static String results(RunResults results) {
        StringBuilder sb = new StringBuilder();
        int n = 0;
        for (Map.Entry<String, ProgramResults> p : results.byProgram().entrySet()) {
            List<CsvTables.Table> tables = RunResults.tablesOf(p.getValue());
            for (PlotSpec spec : p.getValue().plots()) {
                for (CsvTables.Table t : tables) {
                    if (!t.name().equals(spec.table())) {
                        continue;
                    }
                    for (ObjectNode chart : ExperimentPlots.charts(p.getKey(), t, spec)) {
                        sb.append(Charts.div("results-" + n++, chart));
                    }
                }
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
