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
        List<String> drawn = drawnCharts(out.resolve("report.html"), tmp);
        assertEquals(List.of("latency", "drops", "queues"), drawn.subList(0, 3));
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
