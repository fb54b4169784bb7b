package dev.rmtemu.programs;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.rmtemu.emulator.cli.Main;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
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
 * The figures as a reader sees them, in headless Chromium (Debian package {@code chromium}; skipped
 * when absent), like the emulator's HtmlReportBrowserTest: one figure per experiment with its
 * quickest options (the paper's axes, its series count, no series at x = 0), drawn with no console
 * message; and a program's estimate and truth on one chart of report.html.
 */
class FiguresBrowserTest {
    private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    private static final Pattern CHART = Pattern.compile(
            "<div class=\"chart\" id=\"([a-z0-9-]+)\"[^>]*data-drawn=\"true\"[^>]*>(.*?)</div>", Pattern.DOTALL);

    @TempDir
    Path tmp;

    /** {@code zeroIsData}: the table has rows at x = 0 (a burst of no drops), which are points, not a missing value. */
    private record Figure(String page, String title, String xName, String yName, int series, boolean zeroIsData) {
    }

    @Test
    void oneFigurePerExperimentHasThePapersAxesAndSeriesAndNothingAtXZero() throws Exception {
        List<Figure> expected = List.of(
                // Fig. 5: one line per algorithm and d (2 d values + 3 baselines), one panel per k
                new Figure("hashpipe-results", "hashpipe: Fig. 5: false negatives against memory (k = 60)", "memory (counters)",
                        "false negatives (% of the top k)", 6, false),
                new Figure("lds-rows", "lds: median relative error of the mean delay by flow size (part = a)",
                        "flow size (packets)", "median relative error (%)", -1, false),
                new Figure("lossradar-decode", "lossradar: digests fully decoded against cells per loss (signatures = random)",
                        "cells / losses", "digests fully decoded (share)", 1, false),
                new Figure("midst-accuracy", "midst: heavy-loser F1 against memory (burst_packets = 4000)",
                        "memory per sketch (KB)", "F1", 1, false),
                // two measured lines and the thesis's values as two sets of marked points
                new Figure("wbmon-burst", "wbmon: drop-burst tolerance: judgements against burst size", "drop burst (packets)",
                        "packets misjudged", 4, true));
        run("hashpipe", "packets=20000", "memory=300,600", "k=60,150", "d=2,4", "intervals=1");
        run("lds", "part=a", "packets=20000", "flows=400", "seed=3");
        run("lossradar", "part=a", "a_losses=60", "a_ratios=1.1,3.0", "a_trials=20", "a_trace=gen:tcp?packets=3000&flows=6&seed=4&start=0");
        run("midst", "part=a", "memories=10,160", "overloads=1.5", "flows=5000", "bursts=2", "burst_packets=4000",
                "burst_sizes=4000", "interval_us=5000");
        run("wbmon", "part=b", "b_max=200", "b_step=50");
        for (Figure f : expected) {
            Path dir = tmp.resolve("plots-" + f.page().substring(0, f.page().indexOf('-')));
            Path page = dir.resolve(f.page() + ".html");
            assertTrue(Files.isRegularFile(page), f.page());
            JsonNode first = new ObjectMapper().readTree(dir.resolve(f.page() + ".echarts.json").toFile()).get(0);
            assertEquals(f.title(), first.get("title").get("text").asText(), f.page());
            assertEquals(f.xName(), first.get("xAxis").get("name").asText(), f.page());
            assertEquals(f.yName(), first.get("yAxis").get("name").asText(), f.page());
            if (f.series() >= 0) {
                assertEquals(f.series(), first.get("series").size(), f.page() + ": " + first.get("series"));
            } else {
                assertTrue(first.get("series").size() >= 1, f.page());
            }
            for (JsonNode s : first.get("series")) {
                for (JsonNode point : s.get("data")) {
                    assertTrue(f.zeroIsData() || !point.get(0).isNumber() || point.get(0).asDouble() != 0,
                            f.page() + ": " + s.get("name") + " has a point at x = 0");
                }
            }
            List<String> drawn = drawnCharts(page);
            assertTrue(drawn.contains("figure-0"), f.page() + " drawn: " + drawn);
        }
    }

    @Test
    void hashpipesReportDrawsEachEstimateAgainstItsTruthAndItsError() throws Exception {
        Path out = tmp.resolve("hp");
        StringWriter err = new StringWriter();
        int code = Main.run(new String[] {"replay", "--program", "hashpipe", "--trace", "gen:isp?packets=5000&flows=200",
            "--out", out.toString(), "--no-progress"}, new PrintWriter(new StringWriter(), true), new PrintWriter(err, true));
        assertEquals(0, code, err.toString());
        JsonNode topK = new ObjectMapper().readTree(out.resolve("report.json").toFile()).path("results").path("hashpipe").path("top_k");
        assertEquals(topK.size(), ReportCharts.assertEstimateVsTruth(out, 0, "hashpipe: top-k flows: estimate against true count",
                "true flow size (packets)", "estimated flow size (packets)", topK, "true", "key", true, "estimate"));
        JsonNode scatter = ReportCharts.option(out, "results-0");
        assertEquals("scatter", scatter.get("series").get(0).get("type").asText());
        assertEquals("item", scatter.get("tooltip").get("trigger").asText(), "a point's tooltip names its flow");
        assertTrue(scatter.get("toolbox").get("feature").has("saveAsImage"), "save as PNG");
        List<String> drawn = drawnCharts(out.resolve("report.html"));
        assertTrue(drawn.containsAll(List.of("results-0", "results-1")), drawn.toString());
    }

    private void run(String experiment, String... opts) {
        List<String> args = new ArrayList<>(List.of("experiment", experiment));
        for (String o : opts) {
            args.add("--opt");
            args.add(o);
        }
        args.addAll(List.of("--plots", tmp.resolve("plots-" + experiment).toString()));
        StringWriter err = new StringWriter();
        int code = Main.run(args.toArray(String[]::new), new PrintWriter(new StringWriter(), true), new PrintWriter(err, true));
        assertEquals(0, code, experiment + ": " + err);
    }

    /** The ids of the charts that hold rendered SVG marks; fails on any console message. */
    private List<String> drawnCharts(Path html) throws IOException, InterruptedException {
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
        assertEquals(List.of(), err.lines().filter(l -> l.contains(":CONSOLE")).toList(), "console messages");
        Matcher m = CHART.matcher(Files.readString(dom, StandardCharsets.UTF_8));
        List<String> drawn = new ArrayList<>();
        while (m.find()) {
            if (m.group(2).contains("<svg")) {
                drawn.add(m.group(1));
            }
        }
        return drawn;
    }
}
