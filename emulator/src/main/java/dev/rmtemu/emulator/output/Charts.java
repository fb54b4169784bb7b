package dev.rmtemu.emulator.output;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rmtemu.emulator.engine.QueueDepthTimeline;
import dev.rmtemu.emulator.json.Json;
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
    static final int WIDTH_PX = 900;
    static final int HEIGHT_PX = 340;
    private static final int Y_NAME_GAP_PX = 62;

    private static final String WEBJAR = "META-INF/resources/webjars/echarts/";
    private static final String WEBJAR_POM = "META-INF/maven/org.webjars.npm/echarts/pom.properties";

    private Charts() {
    }

    /**
     * Latency against percentile, the way HdrHistogram's plotter draws its percentile distribution:
     * x is 1/(1-p) on a log axis labelled as percentiles (90%, 99%, 99.9% ...), y the latency in ns.
     * Values are capped at the exact maximum (the top bucket may reach beyond it).
     */
    static ObjectNode latencyPercentiles(String title, Map<String, Histogram> series, Map<String, Long> exactMax) {
        ObjectNode o = base(title);
        o.put("rmtemu_percentile_axis", true);
        ObjectNode x = axis(o.putObject("xAxis"), "log", "percentile");
        x.put("min", 1);
        yAxis(o, "value", "latency (ns)");
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
                data.addArray().add(1.0 / (1.0 - p)).add(value);
            }
        }
        legend(o, series.size());
        return o;
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

    /** Occupancy over time, one line per timeline: the maximum in each bucket, x in microseconds. */
    static ObjectNode queueDepth(String title, Map<String, QueueDepthTimeline> timelines, long clockHz) {
        ObjectNode o = base(title);
        axis(o.putObject("xAxis"), "value", "time (\u00b5s)");
        yAxis(o, "value", "occupancy (80 B cells)");
        ArrayNode ss = o.putArray("series");
        for (Map.Entry<String, QueueDepthTimeline> e : timelines.entrySet()) {
            ArrayNode data = line(ss, e.getKey());
            int[] cells = e.getValue().maxCells();
            int last = lastNonZero(cells);
            double bucketUs = e.getValue().bucketCycles() * 1e6 / clockHz;
            for (int i = 0; i <= Math.min(cells.length - 1, last + 1); i++) {
                data.addArray().add(Math.round(i * bucketUs * 1000) / 1000.0).add(cells[i]);
            }
        }
        legend(o, timelines.size());
        return o;
    }

    /** Each stage's use of its budgets, in percent: one group of bars per stage and gress. */
    static ObjectNode stageResources(String title, ResourceReport r) {
        TargetProfile t = r.target();
        ObjectNode o = base(title);
        ObjectNode x = axis(o.putObject("xAxis"), "category", "stage");
        ArrayNode cats = x.putArray("data");
        ObjectNode y = yAxis(o, "value", "% of the stage's budget");
        y.put("min", 0).put("max", 100);
        String[] names = {"SRAM blocks", "TCAM blocks", "stateful ALUs", "hash bits", "logical tables"};
        long[] avail = {t.sram().unlimited() ? TargetProfile.UNLIMITED : t.sram().blocks(),
            t.tcam().unlimited() ? TargetProfile.UNLIMITED : t.tcam().blocks(), t.statefulAlusPerStage(),
            t.hashBitsPerStage(), t.logicalTablesPerStage()};
        ArrayNode ss = o.putArray("series");
        ArrayNode[] data = new ArrayNode[names.length];
        for (int k = 0; k < names.length; k++) {
            ObjectNode s = ss.addObject();
            s.put("type", "bar");
            s.put("name", names[k] + (avail[k] == TargetProfile.UNLIMITED || avail[k] == 0 ? " (no budget)" : ""));
            data[k] = s.putArray("data");
        }
        for (StageUsage u : r.stages()) {
            cats.add(u.gress().label() + " " + u.stage());
            long[] used = {u.sramBlocks(), u.tcamBlocks(), u.statefulAlus(), u.hashBits(), u.logicalTables()};
            for (int k = 0; k < used.length; k++) {
                boolean none = avail[k] == TargetProfile.UNLIMITED || avail[k] == 0;
                data[k].add(none ? 0 : Math.round(1000.0 * used[k] / avail[k]) / 10.0);
            }
        }
        legend(o, names.length);
        return o;
    }

    /** A chart's place in the page: a div and its option as inert JSON, drawn by {@link #script()}. */
    public static String div(String id, ObjectNode option) {
        // "</" would end the script element early; "<\/" is the same JSON string
        String json = Json.line(option).replace("</", "<\\/");
        return "<div class=\"chart\" id=\"" + id + "\" style=\"width:" + WIDTH_PX + "px;height:" + HEIGHT_PX
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
              document.querySelectorAll('div.chart').forEach(function (div) {
                var option = JSON.parse(document.getElementById(div.id + '-option').textContent);
                if (option.rmtemu_percentile_axis) {
                  option.xAxis.axisLabel = {formatter: percentile};
                  option.tooltip = {trigger: 'axis', formatter: function (ps) {
                    return ps.map(function (p) {
                      return p.seriesName + ': ' + percentile(p.value[0]) + ' \\u2264 ' + p.value[1] + ' ns';
                    }).join('<br>');
                  }};
                }
                var chart = echarts.init(div, null, {renderer: 'svg'});
                chart.setOption(option);
                div.setAttribute('data-drawn', 'true');
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

    public static void legend(ObjectNode o, int entries) {
        if (entries > 1) {
            o.putObject("legend").put("top", 25);
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
