package dev.rmtemu.emulator.replay;

import dev.rmtemu.emulator.engine.QueueDepthTimeline;
import dev.rmtemu.emulator.engine.SwitchEngine;
import dev.rmtemu.emulator.network.NetworkEngine;
import dev.rmtemu.emulator.topology.Link;
import dev.rmtemu.model.check.ResourceReport;
import dev.rmtemu.model.check.StageUsage;
import dev.rmtemu.model.target.TargetProfile;
import org.HdrHistogram.Histogram;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A self-contained HTML report (inline SVG, no scripts, no external files):
 * the latency percentile curve, traffic-manager occupancy over time and
 * per-stage resource bars. Deterministic: it shows no host measurements.
 */
final class HtmlReport {
    private static final int W = 720;
    private static final int H = 260;
    private static final int PAD = 48;
    /** Percentiles plotted on the latency curve: 1 - 10^-k for k in [0, MAX_NINES]. */
    private static final double MAX_NINES = 5;
    private static final int CURVE_POINTS = 100;

    private HtmlReport() {
    }

    static String render(ReplayResult r) {
        SwitchEngine e = r.engine();
        StringBuilder sb = new StringBuilder();
        sb.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>rmtemu run: ")
                .append(esc(r.options().program())).append("</title>\n<style>")
                .append("body{font-family:sans-serif;margin:2em;color:#222}table{border-collapse:collapse}")
                .append("td,th{border:1px solid #ccc;padding:2px 8px;text-align:right}svg{background:#fafafa;border:1px solid #ddd}")
                .append("</style></head><body>\n");
        sb.append("<h1>rmtemu replay: ").append(esc(r.options().program())).append(" on ")
                .append(esc(e.config().profile().name())).append("</h1>\n");
        sb.append("<p>Trace <code>").append(esc(r.options().trace())).append("</code>, timing <code>")
                .append(esc(r.options().timing())).append("</code>, ").append(e.config().frontPanelPorts())
                .append(" ports at ").append(r.options().portGbps()).append(" Gb/s.</p>\n");
        sb.append("<table><tr><th>in</th><th>out</th><th>dropped</th><th>recirculated</th></tr><tr><td>")
                .append(e.counters().packetsIn()).append("</td><td>").append(e.counters().packetsOut()).append("</td><td>")
                .append(e.counters().droppedTotal()).append("</td><td>").append(e.counters().recirculations())
                .append("</td></tr></table>\n");
        sb.append("<h2>Latency percentile curve (arrival to departure, ns)</h2>\n");
        sb.append(latencyCurve(e.metrics().latency().copy()));
        sb.append("<h2>Traffic-manager buffer occupancy over time (max cells per bucket)</h2>\n");
        sb.append(queueDepth(e.queueDepthTimeline(), e.clock().hz()));
        sb.append("<h2>Stage resources (% of each stage's budget)</h2>\n");
        sb.append(resourceBars(e.resources()));
        sb.append("</body></html>\n");
        return sb.toString();
    }

    /** Switches whose buffer occupancy is plotted in a network report (the busiest ones). */
    static final int NETWORK_QUEUE_PLOTS = 6;
    private static final String[] PALETTE = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b"};

    /** The network run's report: totals, end-to-end latency, switches, links, busiest buffers, resources. */
    static String renderNetwork(NetworkReplay.Result r) {
        NetworkEngine net = r.network();
        ReplayOptions o = r.options();
        StringBuilder sb = new StringBuilder();
        sb.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>rmtemu network run</title>\n<style>")
                .append("body{font-family:sans-serif;margin:2em;color:#222}table{border-collapse:collapse}")
                .append("td,th{border:1px solid #ccc;padding:2px 8px;text-align:right}td:first-child{text-align:left}")
                .append("svg{background:#fafafa;border:1px solid #ddd}</style></head><body>\n");
        sb.append("<h1>rmtemu network replay: <code>").append(esc(o.topology())).append("</code></h1>\n");
        sb.append("<p>Trace <code>").append(esc(o.trace())).append("</code>, timing <code>").append(esc(o.timing()))
                .append("</code>, program <code>").append(esc(o.program() == null ? "(per switch)" : o.program()))
                .append("</code>, seed ").append(o.seed()).append(".</p>\n");
        sb.append("<h2>Totals</h2>\n<table>");
        net.totals().toMap().forEach((k, v) -> sb.append("<tr><td>").append(esc(k.replace('_', ' ')))
                .append("</td><td>").append(v).append("</td></tr>"));
        sb.append("</table>\n");
        sb.append("<h2>End-to-end latency percentile curve (host to host, ns)</h2>\n");
        sb.append(latencyCurve(net.latency().copy()));

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

        sb.append("<h2>Traffic-manager buffer occupancy of the busiest switches (max cells per bucket)</h2>\n");
        sb.append(busiestQueues(net));

        sb.append("<h2>Stage resources of each program (% of each stage's budget)</h2>\n");
        java.util.Set<String> shown = new java.util.TreeSet<>();
        for (int s = 0; s < net.switchCount(); s++) {
            SwitchEngine e = net.switchEngine(s);
            String program = net.switchProgram(s);
            if (e.resources().stages().isEmpty() || !shown.add(program)) {
                continue;
            }
            sb.append("<h3><code>").append(esc(program)).append("</code> (first on ")
                    .append(esc(net.switchNode(s).name())).append(")</h3>\n").append(resourceBars(e.resources()));
        }
        if (shown.isEmpty()) {
            sb.append("<p>No switch runs a program with stages.</p>\n");
        }
        sb.append("</body></html>\n");
        return sb.toString();
    }

    /**
     * One plot of the switches with the highest peak occupancy (ties: node order), each
     * timeline rescaled to the widest bucket so the lines share the time axis.
     */
    private static String busiestQueues(NetworkEngine net) {
        List<Integer> order = new ArrayList<>();
        int[] peak = new int[net.switchCount()];
        for (int s = 0; s < net.switchCount(); s++) {
            for (int c : net.switchEngine(s).queueDepthTimeline().maxCells()) {
                peak[s] = Math.max(peak[s], c);
            }
            if (peak[s] > 0) {
                order.add(s);
            }
        }
        if (order.isEmpty()) {
            return "<p>Nothing was queued.</p>\n";
        }
        order.sort((a, b) -> peak[a] != peak[b] ? Integer.compare(peak[b], peak[a]) : Integer.compare(a, b));
        List<Integer> plotted = order.subList(0, Math.min(NETWORK_QUEUE_PLOTS, order.size()));
        long bucket = 1;
        for (int s : plotted) {
            bucket = Math.max(bucket, net.switchEngine(s).queueDepthTimeline().bucketCycles());
        }
        double maxX = 1;
        double maxY = 1;
        List<List<double[]>> lines = new ArrayList<>();
        for (int s : plotted) {
            QueueDepthTimeline t = net.switchEngine(s).queueDepthTimeline();
            int[] cells = t.maxCells();
            int merge = (int) (bucket / t.bucketCycles());
            List<double[]> pts = new ArrayList<>();
            for (int i = 0; i < cells.length; i += merge) {
                int m = 0;
                for (int j = i; j < Math.min(cells.length, i + merge); j++) {
                    m = Math.max(m, cells[j]);
                }
                pts.add(new double[] {i / merge, m});
                maxY = Math.max(maxY, m);
                if (m > 0) {
                    maxX = Math.max(maxX, i / merge);
                }
            }
            lines.add(pts);
        }
        StringBuilder sb = svgOpen();
        double bucketUs = bucket * 1e6 / net.clock().hz();
        axes(sb, String.format(Locale.ROOT, "time (buckets of %.3f us)", bucketUs), "cells", maxY);
        for (int k = 0; k < plotted.size(); k++) {
            final double lastX = maxX;
            List<double[]> pts = lines.get(k).stream().filter(p -> p[0] <= lastX).toList();
            polyline(sb, pts, maxX, maxY, PALETTE[k % PALETTE.length]);
            sb.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" font-size=\"11\" fill=\"%s\">%s</text>%n",
                    W - 150, 20 + 14 * k, PALETTE[k % PALETTE.length], esc(net.switchNode(plotted.get(k)).name())));
        }
        return sb.append("</svg>\n").toString();
    }

    private static String latencyCurve(Histogram h) {
        if (h.getTotalCount() == 0) {
            return "<p>No packet departed.</p>\n";
        }
        List<double[]> pts = new ArrayList<>();
        for (int i = 0; i <= CURVE_POINTS; i++) {
            double nines = MAX_NINES * i / CURVE_POINTS;
            double pct = 100 * (1 - Math.pow(10, -nines));
            pts.add(new double[] {nines, h.getValueAtPercentile(pct)});
        }
        double maxY = 1;
        for (double[] p : pts) {
            maxY = Math.max(maxY, p[1]);
        }
        StringBuilder sb = svgOpen();
        axes(sb, "percentile (nines: 0=p0, 1=p90, 2=p99, 3=p99.9 ...)", "ns", maxY);
        polyline(sb, pts, MAX_NINES, maxY, "#1f77b4");
        return sb.append("</svg>\n").toString();
    }

    private static String queueDepth(QueueDepthTimeline t, long hz) {
        int[] cells = t.maxCells();
        int last = -1;
        for (int i = 0; i < cells.length; i++) {
            if (cells[i] > 0) {
                last = i;
            }
        }
        if (last < 0) {
            return "<p>Nothing was queued.</p>\n";
        }
        List<double[]> pts = new ArrayList<>();
        double maxY = 1;
        for (int i = 0; i <= last; i++) {
            pts.add(new double[] {i, cells[i]});
            maxY = Math.max(maxY, cells[i]);
        }
        StringBuilder sb = svgOpen();
        double bucketUs = t.bucketCycles() * 1e6 / hz;
        axes(sb, String.format(Locale.ROOT, "time (buckets of %.3f us)", bucketUs), "cells", maxY);
        polyline(sb, pts, Math.max(1, last), maxY, "#d62728");
        return sb.append("</svg>\n").toString();
    }

    private static String resourceBars(ResourceReport r) {
        TargetProfile t = r.target();
        String[] names = {"SRAM", "TCAM", "ALUs", "hash bits", "tables"};
        String[] colors = {"#1f77b4", "#ff7f0e", "#2ca02c", "#9467bd", "#8c564b"};
        List<StageUsage> rows = r.stages();
        int n = rows.size();
        int rowH = 14;
        int height = PAD + n * rowH + 20;
        StringBuilder sb = new StringBuilder();
        sb.append("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"").append(W).append("\" height=\"").append(height).append("\">\n");
        for (int k = 0; k < names.length; k++) {
            sb.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"8\" width=\"10\" height=\"10\" fill=\"%s\"/><text x=\"%d\" y=\"17\" font-size=\"11\">%s</text>%n",
                    PAD + k * 110, colors[k], PAD + k * 110 + 14, names[k]));
        }
        double barW = (W - PAD - 20) / 5.0;
        for (int i = 0; i < n; i++) {
            StageUsage u = rows.get(i);
            double y = PAD + i * rowH;
            sb.append(String.format(Locale.ROOT, "<text x=\"4\" y=\"%.1f\" font-size=\"10\">%d %s</text>%n", y + 10, u.stage(), u.gress().label().substring(0, 2)));
            long[] used = {u.sramBlocks(), u.tcamBlocks(), u.statefulAlus(), u.hashBits(), u.logicalTables()};
            long[] avail = {t.sram().unlimited() ? 0 : t.sram().blocks(), t.tcam().unlimited() ? 0 : t.tcam().blocks(),
                t.statefulAlusPerStage(), t.hashBitsPerStage(), t.logicalTablesPerStage()};
            for (int k = 0; k < used.length; k++) {
                double frac = avail[k] == 0 || avail[k] == TargetProfile.UNLIMITED ? 0 : Math.min(1, (double) used[k] / avail[k]);
                sb.append(String.format(Locale.ROOT, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%d\" fill=\"%s\"/>%n",
                        PAD + k * barW, y, frac * (barW - 6), rowH - 3, colors[k]));
            }
        }
        return sb.append("</svg>\n").toString();
    }

    private static StringBuilder svgOpen() {
        return new StringBuilder("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + W + "\" height=\"" + H + "\">\n");
    }

    private static void axes(StringBuilder sb, String xLabel, String yLabel, double maxY) {
        sb.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#444\"/>%n", PAD, H - PAD, W - 10, H - PAD));
        sb.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"10\" x2=\"%d\" y2=\"%d\" stroke=\"#444\"/>%n", PAD, PAD, H - PAD));
        sb.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" font-size=\"11\">%s</text>%n", PAD, H - 12, esc(xLabel)));
        sb.append(String.format(Locale.ROOT, "<text x=\"4\" y=\"20\" font-size=\"11\">%s</text>%n", esc(yLabel)));
        sb.append(String.format(Locale.ROOT, "<text x=\"4\" y=\"34\" font-size=\"10\">%.0f</text>%n", maxY));
        sb.append(String.format(Locale.ROOT, "<text x=\"4\" y=\"%d\" font-size=\"10\">0</text>%n", H - PAD));
    }

    private static void polyline(StringBuilder sb, List<double[]> pts, double maxX, double maxY, String color) {
        sb.append("<polyline fill=\"none\" stroke=\"").append(color).append("\" stroke-width=\"1.5\" points=\"");
        for (double[] p : pts) {
            double x = PAD + (W - PAD - 10) * p[0] / maxX;
            double y = (H - PAD) - (H - PAD - 10) * p[1] / maxY;
            sb.append(String.format(Locale.ROOT, "%.1f,%.1f ", x, y));
        }
        sb.append("\"/>\n");
    }

    private static String esc(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
