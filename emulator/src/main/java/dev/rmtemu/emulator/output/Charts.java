package dev.rmtemu.emulator.output;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rmtemu.emulator.engine.QueueDepthTimeline;
import dev.rmtemu.emulator.json.Json;
import dev.rmtemu.model.check.ReportRenderer;
import dev.rmtemu.model.check.ResourceReport;
import dev.rmtemu.model.check.StageUsage;
import dev.rmtemu.model.target.TargetProfile;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;

/**
 * The report's charts as Apache ECharts options (JSON data, built with Jackson), and the page
 * script that draws them with the ECharts bundle from its webjar, inlined so that report.html
 * works offline and alone. Charts draw with the SVG renderer and no animation, so the finished
 * page holds its marks as SVG elements (what the browser test and a screenshot see).
 */
public final class Charts {
    /** HdrHistogram's percentile output resolution: points per halving of the distance to 100%. */
    static final int PERCENTILE_TICKS_PER_HALF_DISTANCE = 5;
    /** Ports drawn on the queue-depth chart (the deepest ones; ties by port number). */
    static final int QUEUE_DEPTH_PORTS = 8;
    static final int HEIGHT_PX = 380;
    /** The page style every report and figure page shares (charts as wide as the window, up to a readable width). */
    public static final String STYLE = "<style>body{font-family:sans-serif;margin:2em;color:#222}"
            + "table{border-collapse:collapse;margin:0.5em 0}td,th{border:1px solid #ccc;padding:2px 8px;text-align:right}"
            + "td:first-child{text-align:left}div.chart{margin:1em 0;width:100%;max-width:1400px}"
            + "div.pair{display:flex;flex-wrap:wrap;gap:1em;align-items:flex-start}div.pair div.chart{flex:1 1 700px}</style>";
    /**
     * 20 distinct colours (Tableau 20: the 10 category colours and their light twins), so that up to 20 lines
     * never share a colour (ECharts' default palette has 9).
     */
    static final String[] PALETTE = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2",
        "#7f7f7f", "#bcbd22", "#17becf", "#aec7e8", "#ffbb78", "#98df8a", "#ff9896", "#c5b0d5", "#c49c94", "#f7b6d2",
        "#c7c7c7", "#dbdb8d", "#9edae5"};
    /** Width kept right of the plot for a legend, so that it never covers a line. */
    private static final int LEGEND_WIDTH_PX = 230;
    /** Width right of the plot for a second y axis (ticks and name). */
    private static final int RIGHT_AXIS_PX = 100;
    private static final int Y_NAME_GAP_PX = 62;

    private static final String WEBJAR = "META-INF/resources/webjars/echarts/";
    private static final String WEBJAR_POM = "META-INF/maven/org.webjars.npm/echarts/pom.properties";

    private Charts() {
    }

    /**
     * Latency against percentile, the way HdrHistogram's plotter draws its percentile distribution:
     * x is 1/(1-p) on a log axis labelled as percentiles (90%, 99%, 99.9% ...), y the latency in the
     * unit that suits the largest value ({@link TimeUnit#forMax}), its range from the data. One line per
     * histogram; values are capped at each one's exact maximum (the top bucket may reach beyond it).
     */
    static ObjectNode latencyPercentiles(String title, Map<String, Histogram> series, Map<String, Long> exactMax) {
        ObjectNode o = base(title);
        o.put("rmtemu_percentile_axis", true);
        ObjectNode x = axis(o.putObject("xAxis"), "log", "percentile (log scale of 1/(1-p))");
        x.put("min", 1);
        long top = 0;
        for (long m : exactMax.values()) {
            top = Math.max(top, m);
        }
        TimeUnit unit = TimeUnit.forMax(top);
        o.put("rmtemu_unit", unit.symbol());
        yAxis(o, "value", "latency (" + unit.symbol() + ")").put("scale", true);
        ArrayNode ss = o.putArray("series");
        for (Map.Entry<String, Histogram> e : series.entrySet()) {
            ArrayNode data = line(ss, e.getKey());
            long max = exactMax.get(e.getKey());
            for (HistogramIterationValue v : e.getValue().percentiles(PERCENTILE_TICKS_PER_HALF_DISTANCE)) {
                double p = v.getPercentileLevelIteratedTo() / 100.0;
                if (p >= 1.0) {
                    break;
                }
                long value = Math.min(max, e.getValue().highestEquivalentValue(v.getValueIteratedTo()));
                data.addArray().add(1.0 / (1.0 - p)).add(unit.value(value));
            }
        }
        legend(o, series.size());
        return o;
    }

    /** A time unit for latencies: the largest whose value of the maximum is at least 1, rounded to 3 decimals. */
    enum TimeUnit {
        NS("ns", 1), US("\u00b5s", 1_000), MS("ms", 1_000_000), S("s", 1_000_000_000);

        private final String symbol;
        private final long ns;

        TimeUnit(String symbol, long ns) {
            this.symbol = symbol;
            this.ns = ns;
        }

        static TimeUnit forMax(long maxNs) {
            TimeUnit u = NS;
            for (TimeUnit t : values()) {
                if (maxNs >= t.ns * 10) {
                    u = t;
                }
            }
            return u;
        }

        String symbol() {
            return symbol;
        }

        /** {@code ns} in this unit, to 3 decimals (ns: as it is). */
        double value(long valueNs) {
            return this == NS ? valueNs : Math.round(valueNs * 1000.0 / ns) / 1000.0;
        }

        /** {@code ns} in this unit as text, e.g. "193.456". */
        String format(long valueNs) {
            return this == NS ? Long.toString(valueNs) : String.format(Locale.ROOT, "%.3f", valueNs / (double) ns);
        }
    }

    /** Packets dropped, one bar per cause (every cause, zero too, so the chart always has the same axis). */
    static ObjectNode dropsByCause(String title, Map<String, Long> byCause) {
        ObjectNode o = base(title);
        ObjectNode x = axis(o.putObject("xAxis"), "category", "cause");
        ArrayNode cats = x.putArray("data");
        yAxis(o, "value", "packets");
        ObjectNode bar = o.putArray("series").addObject();
        bar.put("type", "bar");
        bar.put("name", "dropped");
        ArrayNode data = bar.putArray("data");
        byCause.forEach((k, v) -> {
            cats.add(k);
            data.add(v);
        });
        x.putObject("axisLabel").put("interval", 0).put("rotate", 20);
        x.put("nameGap", 55);
        return o;
    }

    /** A horizontal line marking a limit on a chart's y axis. */
    record Limit(String label, long value) {
    }

    /**
     * Occupancy over time, one line per timeline: the maximum in each bucket, x in microseconds,
     * zoomable; the left axis in cells, the right one the same scale in KB ({@code cellBytes} per cell:
     * what the cells can hold), and each limit (the tail-drop limits) a labelled dashed line.
     */
    static ObjectNode queueDepth(String title, Map<String, QueueDepthTimeline> timelines, long clockHz, int cellBytes,
                                 List<Limit> limits) {
        ObjectNode o = base(title);
        axis(o.putObject("xAxis"), "value", "time (\u00b5s)");
        int top = 0;
        for (QueueDepthTimeline t : timelines.values()) {
            top = Math.max(top, peak(t));
        }
        for (Limit l : limits) {
            top = (int) Math.max(top, l.value());
        }
        long yMax = niceCeiling(top);
        ArrayNode ys = o.putArray("yAxis");
        axis(ys.addObject(), "value", "occupancy (" + cellBytes + " B cells)").put("nameGap", Y_NAME_GAP_PX)
                .put("min", 0).put("max", yMax);
        axis(ys.addObject(), "value", "occupancy (KB, at " + cellBytes + " B per cell)").put("nameGap", Y_NAME_GAP_PX)
                .put("min", 0).put("max", Math.round(yMax * (double) cellBytes / 1000.0 * 1000) / 1000.0)
                .putObject("splitLine").put("show", false);
        ArrayNode ss = o.putArray("series");
        boolean marked = false;
        for (Map.Entry<String, QueueDepthTimeline> e : timelines.entrySet()) {
            ObjectNode s = ss.addObject();
            s.put("type", "line");
            s.put("name", e.getKey());
            s.put("showSymbol", false);
            ArrayNode data = s.putArray("data");
            int[] cells = e.getValue().maxCells();
            int last = lastNonZero(cells);
            double bucketUs = e.getValue().bucketCycles() * 1e6 / clockHz;
            for (int i = 0; i <= Math.min(cells.length - 1, last + 1); i++) {
                data.addArray().add(Math.round(i * bucketUs * 1000) / 1000.0).add(cells[i]);
            }
            if (!marked && !limits.isEmpty()) {
                marked = true;
                ObjectNode ml = s.putObject("markLine");
                ml.put("symbol", "none");
                ml.putObject("lineStyle").put("type", "dashed").put("color", "#d62728");
                ArrayNode md = ml.putArray("data");
                for (Limit l : limits) {
                    ObjectNode d = md.addObject();
                    d.put("name", l.label());
                    d.put("yAxis", l.value());
                    d.putObject("label").put("formatter", l.label() + ": " + l.value() + " cells").put("position", "insideEndTop");
                }
            }
        }
        zoom(o);
        // room right of the plot for the second axis's ticks and name (the legend, if any, adds its own)
        ((ObjectNode) o.get("grid")).put("right", RIGHT_AXIS_PX);
        legend(o, timelines.size());
        return o;
    }

    /** Throughput or drops over time: one line per series of per-bucket values, x in microseconds, zoomable. */
    static ObjectNode overTime(String title, String yName, Map<String, double[]> series, double bucketUs) {
        ObjectNode o = base(title);
        axis(o.putObject("xAxis"), "value", "time (\u00b5s)");
        yAxis(o, "value", yName);
        ArrayNode ss = o.putArray("series");
        for (Map.Entry<String, double[]> e : series.entrySet()) {
            ArrayNode data = line(ss, e.getKey());
            double[] v = e.getValue();
            for (int i = 0; i < v.length; i++) {
                data.addArray().add(Math.round(i * bucketUs * 1000) / 1000.0).add(Math.round(v[i] * 1000) / 1000.0);
            }
        }
        zoom(o);
        legend(o, series.size());
        return o;
    }

    /** 1, 2 or 5 times a power of ten, at least {@code v} and above it by a margin (a limit is not drawn on the frame). */
    static long niceCeiling(long v) {
        long target = Math.max(1, v + v / 10);
        long p = 1;
        while (true) {
            for (long m : new long[] {1, 2, 5}) {
                if (m * p >= target) {
                    return m * p;
                }
            }
            p *= 10;
        }
    }

    /** Zoom with the mouse wheel and a slider under the x axis (time series). */
    static void zoom(ObjectNode o) {
        ArrayNode z = o.putArray("dataZoom");
        z.addObject().put("type", "inside");
        z.addObject().put("type", "slider").put("height", 18).put("bottom", 8);
        ((ObjectNode) o.get("grid")).put("bottom", 95);
        ((ObjectNode) o.get("xAxis")).put("nameGap", 28);
    }

    /**
     * Each stage's use of every budget the accounting counts ({@link ReportRenderer#columns}), in percent:
     * one group of bars per stage and gress, every stage labelled; a budget the target does not have is
     * named "(no budget)" and drawn at 0.
     */
    static ObjectNode stageResources(String title, ResourceReport r) {
        ObjectNode o = base(title);
        ObjectNode x = axis(o.putObject("xAxis"), "category", "stage");
        x.putObject("axisLabel").put("interval", 0).put("rotate", r.stages().size() > 12 ? 45 : 0);
        x.put("nameGap", r.stages().size() > 12 ? 55 : 35);
        ArrayNode cats = x.putArray("data");
        ObjectNode y = yAxis(o, "value", "% of the stage's budget");
        y.put("min", 0).put("max", 100);
        List<ReportRenderer.Column> columns = ReportRenderer.columns(r.target());
        ArrayNode ss = o.putArray("series");
        ArrayNode[] data = new ArrayNode[columns.size()];
        for (int k = 0; k < columns.size(); k++) {
            ReportRenderer.Column c = columns.get(k);
            ObjectNode s = ss.addObject();
            s.put("type", "bar");
            s.put("name", c.name() + (noBudget(c) ? " (no budget)" : ""));
            data[k] = s.putArray("data");
        }
        for (StageUsage u : r.stages()) {
            cats.add(u.gress().label() + " " + u.stage());
            for (int k = 0; k < columns.size(); k++) {
                ReportRenderer.Column c = columns.get(k);
                data[k].add(noBudget(c) ? 0 : Math.round(1000.0 * c.metric().of(u) / c.available()) / 10.0);
            }
        }
        legend(o, columns.size());
        return o;
    }

    private static boolean noBudget(ReportRenderer.Column c) {
        return c.available() == TargetProfile.UNLIMITED || c.available() <= 0;
    }

    /** A chart's place in the page: a div and its option as inert JSON, drawn by {@link #script()}. */
    public static String div(String id, ObjectNode option) {
        // "</" would end the script element early; "<\/" is the same JSON string
        String json = Json.line(option).replace("</", "<\\/");
        return "<div class=\"chart\" id=\"" + id + "\" style=\"height:" + HEIGHT_PX
                + "px\"></div>\n<script type=\"application/json\" id=\"" + id + "-option\">" + json + "</script>\n";
    }

    /** The ECharts bundle and the code that draws every chart div; goes at the end of the body. */
    public static String script() {
        return "<script>\n" + bundle() + "\n</script>\n<script>\n" + DRAW + "</script>\n";
    }

    private static final String DRAW = """
            (function () {
              function percentile(v) {
                var p = 100 - 100 / v;
                return (Math.round(p * 1000) / 1000) + '%';
              }
              var charts = [];
              document.querySelectorAll('div.chart').forEach(function (div) {
                var option = JSON.parse(document.getElementById(div.id + '-option').textContent);
                if (option.rmtemu_percentile_axis) {
                  option.xAxis.axisLabel = {formatter: percentile};
                  option.tooltip = {trigger: 'axis', formatter: function (ps) {
                    return ps.map(function (p) {
                      return p.seriesName + ': ' + percentile(p.value[0]) + ' \\u2264 ' + p.value[1] + ' ' + option.rmtemu_unit;
                    }).join('<br>');
                  }};
                }
                var chart = echarts.init(div, null, {renderer: 'svg'});
                chart.setOption(option);
                charts.push(chart);
                div.setAttribute('data-drawn', 'true');
              });
              window.addEventListener('resize', function () {
                charts.forEach(function (c) { c.resize(); });
              });
            })();
            """;

    /** echarts.min.js from the webjar on the class path (its version from the webjar's pom.properties). */
    static String bundle() {
        ClassLoader cl = Charts.class.getClassLoader();
        try (InputStream pom = cl.getResourceAsStream(WEBJAR_POM)) {
            if (pom == null) {
                throw new IllegalStateException("the ECharts webjar is not on the class path (" + WEBJAR_POM + ")");
            }
            Properties p = new Properties();
            p.load(pom);
            String path = WEBJAR + p.getProperty("version") + "/dist/echarts.min.js";
            try (InputStream js = cl.getResourceAsStream(path)) {
                if (js == null) {
                    throw new IllegalStateException("the ECharts webjar has no " + path);
                }
                return new String(js.readAllBytes(), StandardCharsets.UTF_8);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the ECharts bundle: " + e.getMessage(), e);
        }
    }

    public static ObjectNode base(String title) {
        ObjectNode o = Json.mapper().createObjectNode();
        o.put("animation", false);
        o.putObject("title").put("text", title).putObject("textStyle").put("fontSize", 14);
        o.putObject("tooltip").put("trigger", "axis");
        o.putObject("grid").put("left", 90).put("right", 40).put("top", 60).put("bottom", 70);
        ArrayNode colors = o.putArray("color");
        for (String c : PALETTE) {
            colors.add(c);
        }
        // save as PNG (ECharts draws the SVG chart onto a canvas for it), and zoom back out
        ObjectNode features = o.putObject("toolbox").put("right", 20).putObject("feature");
        features.putObject("saveAsImage").put("type", "png").put("title", "save as PNG");
        features.putObject("restore").put("title", "reset zoom");
        return o;
    }

    /** A y axis: its name set further out than an x axis's, clear of wide tick labels. */
    public static ObjectNode yAxis(ObjectNode chart, String type, String name) {
        return axis(chart.putObject("yAxis"), type, name).put("nameGap", Y_NAME_GAP_PX);
    }

    public static ObjectNode axis(ObjectNode a, String type, String name) {
        a.put("type", type);
        a.put("name", name);
        a.put("nameLocation", "middle");
        a.put("nameGap", 35);
        return a;
    }

    private static ArrayNode line(ArrayNode series, String name) {
        ObjectNode s = series.addObject();
        s.put("type", "line");
        s.put("name", name);
        s.put("showSymbol", false);
        return s.putArray("data");
    }

    /** A scrolling legend in a column right of the plot, which makes room for it: it never covers a line. */
    public static void legend(ObjectNode o, int entries) {
        if (entries > 1) {
            o.putObject("legend").put("type", "scroll").put("orient", "vertical").put("right", 10).put("top", 50)
                    .put("bottom", 20).put("width", LEGEND_WIDTH_PX - 30);
            boolean twoYAxes = o.get("yAxis") != null && o.get("yAxis").isArray();
            ((ObjectNode) o.get("grid")).put("right", LEGEND_WIDTH_PX + (twoYAxes ? RIGHT_AXIS_PX : 0));
            ObjectNode tb = (ObjectNode) o.get("toolbox");
            if (tb != null) {
                tb.put("right", 20);
            }
        }
    }

    private static int lastNonZero(int[] cells) {
        int last = -1;
        for (int i = 0; i < cells.length; i++) {
            if (cells[i] > 0) {
                last = i;
            }
        }
        return last;
    }

    /** The timelines worth drawing: the deepest {@code limit}, by peak (ties: the given order). */
    static <K> List<K> deepest(Map<K, QueueDepthTimeline> all, int limit) {
        return all.entrySet().stream().filter(e -> peak(e.getValue()) > 0)
                .sorted((a, b) -> Integer.compare(peak(b.getValue()), peak(a.getValue())))
                .limit(limit).map(Map.Entry::getKey).toList();
    }

    static int peak(QueueDepthTimeline t) {
        int m = 0;
        for (int c : t.maxCells()) {
            m = Math.max(m, c);
        }
        return m;
    }
}
