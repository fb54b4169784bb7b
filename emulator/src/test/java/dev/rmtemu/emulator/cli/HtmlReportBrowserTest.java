package dev.rmtemu.emulator.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Loads report.html in headless Chromium (Debian package {@code chromium}; skipped when it is
 * absent) and checks what a reader sees: no console message at all (no script error, no ECharts
 * warning), and every chart drawn, i.e. its div holds an SVG with marks.
 */
class HtmlReportBrowserTest {
    static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    private static final Pattern CHART = Pattern.compile(
            "<div class=\"chart\" id=\"([a-z0-9-]+)\"[^>]*data-drawn=\"true\"[^>]*>(.*?)</div>", Pattern.DOTALL);

    @Test
    void singleSwitchReportDrawsEveryChartWithoutConsoleMessages(@TempDir Path tmp) throws Exception {
        Path out = tmp.resolve("run");
        // a congested port (40 Gb/s under ~50 Gb/s of trace) so the queue and drop charts have data
        CliRunner r = CliRunner.run("replay", "--program", "counter", "--trace", "gen:isp?packets=20000&flows=500",
                "--port-gbps", "10", "--out", out.toString(), "--no-progress");
        assertEquals(0, r.exit(), r.err());
        List<String> drawn = drawnCharts(out.resolve("report.html"), tmp);
        assertEquals(List.of("latency", "throughput", "drop-rate", "drops", "queues", "resources"), drawn);
        String html = Files.readString(out.resolve("report.html"), StandardCharsets.UTF_8);
        JsonNode latency = option(html, "latency");
        // HdrHistogram's percentile plot: log 1/(1-p) x axis, y in a unit that suits the data and not from 0,
        // one line per histogram the run wrote (end to end, and queueing per port and queue)
        assertEquals("log", latency.get("xAxis").get("type").asText());
        assertEquals("percentile (log scale of 1/(1-p))", latency.get("xAxis").get("name").asText());
        assertTrue(latency.get("yAxis").get("scale").asBoolean());
        List<String> hgrm;
        try (var files = Files.list(out)) {
            hgrm = files.map(f -> f.getFileName().toString()).filter(f -> f.endsWith(".hgrm") && !f.startsWith("host"))
                    .map(f -> f.substring(0, f.length() - 5)).sorted().toList();
        }
        List<String> series = new ArrayList<>();
        latency.get("series").forEach(x -> series.add(x.get("name").asText()));
        assertEquals(hgrm, series.stream().sorted().toList(), "a line per histogram file");
        assertTrue(hgrm.size() > 1, "queueing histograms too: " + hgrm);
        assertTrue(html.contains("<th>histogram</th><th>packets</th><th>p50 ("), "percentile table");
        assertTrue(html.contains("<th>p99.99 (") && html.contains("<th>max ("), "percentile table columns");
        assertTrue(html.contains("<th>port</th><th>enqueued</th><th>dequeued</th><th>bytes dequeued</th>"
                + "<th>dropped: tm_queue_limit</th><th>dropped: tm_port_limit</th><th>dropped: tm_buffer_full</th>"), "port table");
        JsonNode queues = option(html, "queues");
        assertEquals("tail-drop limit per queue", queues.get("series").get(0).get("markLine").get("data").get(0).get("name").asText());
        assertEquals(12_500, queues.get("series").get(0).get("markLine").get("data").get(0).get("yAxis").asInt());
        assertEquals("occupancy (KB, at 80 B per cell)", queues.get("yAxis").get(1).get("name").asText());
        assertEquals("inside", queues.get("dataZoom").get(0).get("type").asText(), "time series zoom");
        assertEquals("throughput (Gb/s)", option(html, "throughput").get("yAxis").get("name").asText());
        JsonNode resources = option(html, "resources");
        List<String> drawnBudgets = new ArrayList<>();
        resources.get("series").forEach(x -> drawnBudgets.add(x.get("name").asText()));
        assertEquals(List.of("SRAM blocks", "Map RAMs", "TCAM blocks", "Stateful ALUs", "Hash bits", "Logical tables", "Gateways",
                "Action bus B", "Instructions", "stats alus", "hash functions", "ternary tables", "ternary indirection rams", "exact xbar bytes",
                "ternary xbar bytes"), drawnBudgets, "every accounted resource");
        assertEquals(0, resources.get("xAxis").get("axisLabel").get("interval").asInt(), "every stage labelled");
        assertTrue(latency.get("toolbox").get("feature").has("saveAsImage"), "save as PNG");
    }

    /** The ECharts option of chart {@code id}, as the page holds it. */
    static JsonNode option(String html, String id) throws IOException {
        String start = "<script type=\"application/json\" id=\"" + id + "-option\">";
        int i = html.indexOf(start);
        assertTrue(i >= 0, "no chart " + id);
        int j = html.indexOf("</script>", i);
        return new ObjectMapper().readTree(html.substring(i + start.length(), j));
    }

    @Test
    void networkReportDrawsEveryChartWithoutConsoleMessages(@TempDir Path tmp) throws Exception {
        Path out = tmp.resolve("net");
        CliRunner r = CliRunner.run("replay", "--topology", "builtin:fattree?k=4", "--trace",
                "gen:isp?packets=5000&flows=100", "--rate", "40G", "--out", out.toString(), "--no-progress");
        assertEquals(0, r.exit(), r.err());
        String html = Files.readString(out.resolve("report.html"), StandardCharsets.UTF_8);
        // no switch dropped: the drop-rate chart is a sentence instead
        assertTrue(html.contains("<p>No switch dropped a packet.</p>"), "no drop-rate chart without drops");
        assertEquals(20, countOf(html, "<details class=\"ports\">"), "a port table per switch (all 20 carried packets)");
        List<String> drawn = drawnCharts(out.resolve("report.html"), tmp);
        assertEquals(List.of("latency", "drops", "throughput", "queues", "buffers"), drawn.subList(0, 5));
    }

    /** One switch between a 10 Gb/s and a 1 Gb/s link: its port towards the slow link fills to the limit and drops. */
    private static final String SLOW_LINK = """
            defaults: {latency_ns: 1000, rate_gbps: 100}
            nodes:
              - {name: s1, type: switch, target: tofino1, ports: 3}
              - {name: h1, type: host, address: 10.0.0.0/9}
              - {name: h2, type: host, address: 128.0.0.0/1}
            links:
              - {a: h1:1, b: s1:1, rate_gbps: 10}
              - {a: s1:2, b: h2:1, rate_gbps: 1}
            """;

    @Test
    void networkReportHasEachSwitchsPortTableThroughputDropRateAndQueueLimits(@TempDir Path tmp) throws Exception {
        Path topo = tmp.resolve("slow.yaml");
        Files.writeString(topo, SLOW_LINK);
        Path out = tmp.resolve("net");
        CliRunner r = CliRunner.run("replay", "--topology", topo.toString(), "--trace", "gen:isp?packets=20000&flows=300&seed=5",
                "--rate", "10G", "--out", out.toString(), "--no-progress");
        assertEquals(0, r.exit(), r.err());
        String html = Files.readString(out.resolve("report.html"), StandardCharsets.UTF_8);
        JsonNode report = new ObjectMapper().readTree(out.resolve("report.json").toFile());
        JsonNode s1 = report.path("network").path("switches").path("s1");
        long dropped = s1.path("dropped").asLong();
        assertTrue(dropped > 1000, "the slow port drops: " + s1);
        assertEquals(dropped, s1.path("dropped_by_cause").path("tm_queue_limit").asLong(), s1.toString());
        // s1's section is open (it dropped) and its table names ports as the links table does (s1:2 towards h2)
        assertTrue(html.contains("<details class=\"ports\" open><summary>s1: 20000 in, "), "s1's port table, open");
        assertTrue(html.contains("<tr><th>port</th><th>enqueued</th><th>dequeued</th><th>bytes dequeued</th>"
                + "<th>dropped: tm_queue_limit</th>"), "port table columns");
        Matcher row = Pattern.compile("<tr><td>s1:2</td><td>(\\d+)</td><td>(\\d+)</td><td>\\d+</td><td>(\\d+)</td>").matcher(html);
        assertTrue(row.find(), "a row for s1:2");
        assertEquals(dropped, Long.parseLong(row.group(3)), "s1:2's queue-limit drops are the switch's drops");
        assertEquals(Long.parseLong(row.group(1)), Long.parseLong(row.group(2)), "everything enqueued left");
        JsonNode tput = option(html, "throughput");
        assertEquals("throughput (Gb/s)", tput.get("yAxis").get("name").asText());
        assertEquals("time (\u00b5s)", tput.get("xAxis").get("name").asText());
        assertEquals(List.of("s1"), names(tput), "one line per busiest switch");
        JsonNode drops = option(html, "drop-rate");
        assertEquals("drops (packets/\u00b5s)", drops.get("yAxis").get("name").asText());
        assertEquals(List.of("s1"), names(drops));
        JsonNode queues = option(html, "queues");
        assertEquals(List.of("s1:2", "s1:1"), names(queues), "the deepest ports first");
        JsonNode limits = queues.get("series").get(0).get("markLine").get("data");
        assertEquals("tail-drop limit per queue", limits.get(0).get("name").asText());
        assertEquals(12_500, limits.get(0).get("yAxis").asInt());
        assertEquals("tail-drop limit per port", limits.get(1).get("name").asText());
        assertEquals(25_000, limits.get(1).get("yAxis").asInt());
        assertEquals("occupancy (80 B cells)", queues.get("yAxis").get(0).get("name").asText());
        assertEquals("occupancy (KB, at 80 B per cell)", queues.get("yAxis").get(1).get("name").asText());
        int peak = 0;
        for (JsonNode p : queues.get("series").get(0).get("data")) {
            peak = Math.max(peak, p.get(1).asInt());
        }
        assertTrue(peak >= 12_400 && peak <= 12_500, "s1:2 fills up to its queue's limit: " + peak);
        assertTrue(queues.get("toolbox").get("feature").has("saveAsImage"), "save as PNG");
        List<String> drawn = drawnCharts(out.resolve("report.html"), tmp);
        assertEquals(List.of("latency", "drops", "throughput", "drop-rate", "queues", "buffers"), drawn);
        // charts are as wide as the window lets them be: 500 px more window, 500 px more chart
        int narrow = chartWidth(out.resolve("report.html"), tmp, 800, "queues");
        int wide = chartWidth(out.resolve("report.html"), tmp, 1300, "queues");
        assertEquals(500, wide - narrow, narrow + " px in an 800 px window, " + wide + " px in a 1300 px one");
    }

    private static final Pattern CHART_WIDTH = Pattern.compile(
            "<div class=\"chart\" id=\"([a-z0-9-]+)\"[^>]*data-drawn=\"true\"[^>]*><div style=\"[^\"]*width: (\\d+)px");

    /** The width ECharts gave chart {@code id} in a window {@code windowWidth} pixels wide. */
    static int chartWidth(Path html, Path tmp, int windowWidth, String id) throws IOException, InterruptedException {
        assumeTrue(Files.isExecutable(CHROMIUM), "chromium is not installed (apt-get install chromium)");
        Path dom = tmp.resolve("dom-" + windowWidth + ".html");
        Process p = new ProcessBuilder(CHROMIUM.toString(), "--headless", "--no-sandbox", "--disable-gpu",
                "--user-data-dir=" + tmp.resolve("profile-" + windowWidth), "--window-size=" + windowWidth + ",2000",
                "--virtual-time-budget=5000", "--dump-dom", html.toUri().toString())
                .redirectOutput(dom.toFile()).redirectError(tmp.resolve("chromium-" + windowWidth + ".log").toFile()).start();
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "chromium did not finish in 120 s");
        Matcher m = CHART_WIDTH.matcher(Files.readString(dom, StandardCharsets.UTF_8));
        while (m.find()) {
            if (m.group(1).equals(id)) {
                return Integer.parseInt(m.group(2));
            }
        }
        throw new AssertionError("chart " + id + " was not drawn in a " + windowWidth + " px window");
    }

    private static List<String> names(JsonNode chart) {
        List<String> names = new ArrayList<>();
        chart.get("series").forEach(s -> names.add(s.get("name").asText()));
        return names;
    }

    /** The ids of the charts that hold rendered SVG marks, in page order; fails on any console message. */
    static List<String> drawnCharts(Path html, Path tmp) throws IOException, InterruptedException {
        assumeTrue(Files.isExecutable(CHROMIUM), "chromium is not installed (apt-get install chromium)");
        Path log = tmp.resolve("chromium.log");
        Path dom = tmp.resolve("dom.html");
        Process p = new ProcessBuilder(CHROMIUM.toString(), "--headless", "--no-sandbox", "--disable-gpu",
                "--user-data-dir=" + tmp.resolve("profile"), "--enable-logging=stderr", "--v=0",
                "--virtual-time-budget=5000", "--dump-dom", html.toUri().toString())
                .redirectOutput(dom.toFile()).redirectError(log.toFile()).start();
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "chromium did not finish in 120 s");
        String err = Files.readString(log, StandardCharsets.UTF_8);
        assertEquals(0, p.exitValue(), err);
        List<String> console = err.lines().filter(l -> l.contains(":CONSOLE")).toList();
        assertEquals(List.of(), console, "console messages");
        String page = Files.readString(dom, StandardCharsets.UTF_8);
        Matcher m = CHART.matcher(page);
        List<String> drawn = new ArrayList<>();
        while (m.find()) {
            String body = m.group(2);
            // ECharts' SVG renderer: an <svg> with path marks (lines, bars, axes and ticks)
            if (body.contains("<svg") && countOf(body, "<path") >= 10) {
                drawn.add(m.group(1));
            }
        }
        return drawn;
    }

    private static int countOf(String s, String what) {
        int n = 0;
        for (int i = s.indexOf(what); i >= 0; i = s.indexOf(what, i + 1)) {
            n++;
        }
        return n;
    }
}
