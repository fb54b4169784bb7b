package dev.rmtemu.emulator.output;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rmtemu.emulator.spi.CsvTables;
import dev.rmtemu.emulator.spi.PlotSpec;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class ExperimentPlotsTest {
    /** HashPipe's shape: an algorithm with a depth d and a baseline without one, two memories, two k. */
    private static final String SWEEP = "{\"results\":["
            + "{\"algorithm\":\"hashpipe\",\"d\":2,\"memory\":300,\"k\":60,\"fn_pct\":9.5,\"paper_fn\":9},"
            + "{\"algorithm\":\"hashpipe\",\"d\":2,\"memory\":600,\"k\":60,\"fn_pct\":4,\"paper_fn\":null},"
            + "{\"algorithm\":\"hashpipe\",\"d\":4,\"memory\":300,\"k\":60,\"fn_pct\":7,\"paper_fn\":null},"
            + "{\"algorithm\":\"space_saving\",\"d\":null,\"memory\":300,\"k\":60,\"fn_pct\":20,\"paper_fn\":null},"
            + "{\"algorithm\":\"hashpipe\",\"d\":2,\"memory\":300,\"k\":150,\"fn_pct\":12,\"paper_fn\":null}],"
            + "\"causes\":[{\"cause\":\"acl\",\"truth\":4}]}";

    @Test
    void aSpecDrawsYAgainstXWithALinePerSeriesAndAChartPerPanel() {
        List<CsvTables.Table> tables = CsvTables.of(SWEEP);
        PlotSpec spec = PlotSpec.of("results", "Fig. 5", "memory", "memory (counters)", "false negatives (%)", "fn_pct")
                .logX().series("algorithm", "d").panel("k").paper("paper_fn");
        List<ObjectNode> charts = ExperimentPlots.charts("hp", tables.get(0), spec);
        assertEquals(2, charts.size(), "one chart per k");
        ObjectNode k60 = charts.get(0);
        assertEquals("hp: Fig. 5 (k = 60)", k60.get("title").get("text").asText());
        assertEquals("memory (counters)", k60.get("xAxis").get("name").asText());
        assertEquals("log", k60.get("xAxis").get("type").asText());
        assertEquals("false negatives (%)", k60.get("yAxis").get("name").asText());
        // the baseline has no d: its line is named by its algorithm alone and it sits at its memory, never at x = 0
        // the paper's point has its line's colour
        assertEquals("[{\"type\":\"line\",\"name\":\"hashpipe d=2\",\"itemStyle\":{\"color\":\"#1f77b4\"},"
                + "\"lineStyle\":{\"color\":\"#1f77b4\"},\"data\":[[300,9.5],[600,4]]},"
                + "{\"type\":\"scatter\",\"name\":\"paper: hashpipe d=2\",\"itemStyle\":{\"color\":\"#1f77b4\"},"
                + "\"symbol\":\"diamond\",\"symbolSize\":11,\"data\":[[300,9]]},"
                + "{\"type\":\"line\",\"name\":\"hashpipe d=4\",\"itemStyle\":{\"color\":\"#ff7f0e\"},"
                + "\"lineStyle\":{\"color\":\"#ff7f0e\"},\"data\":[[300,7]]},"
                + "{\"type\":\"line\",\"name\":\"space_saving\",\"itemStyle\":{\"color\":\"#2ca02c\"},"
                + "\"lineStyle\":{\"color\":\"#2ca02c\"},\"data\":[[300,20]]}]", k60.get("series").toString());
        assertEquals("dataMin", k60.get("xAxis").get("min").asText(), "a log axis spans the data, not whole decades");
        assertEquals("vertical", k60.get("legend").get("orient").asText(), "the legend is a column beside the plot");
        assertEquals(20, k60.get("color").size(), "20 colours before one repeats");
        assertEquals("hp: Fig. 5 (k = 150)", charts.get(1).get("title").get("text").asText());
        assertEquals(1, charts.get(1).get("series").size());
    }

    @Test
    void aTableNoSpecNamesGetsNoFigureAndASpecOfAColumnTheRunDidNotWriteIsSkipped() {
        List<CsvTables.Table> tables = CsvTables.of(SWEEP);
        PlotSpec fn = PlotSpec.of("results", "Fig. 5", "memory", "memory", "fn", "fn_pct");
        PlotSpec missing = PlotSpec.of("results", "Fig. 6", "memory", "memory", "fp", "fp_pct");
        List<ExperimentPlots.Figure> figures = ExperimentPlots.of("hp", tables, List.of(fn, missing));
        assertEquals(List.of("results"), figures.stream().map(ExperimentPlots.Figure::table).toList());
        assertEquals(List.of(), ExperimentPlots.charts("hp", tables.get(0), missing));
        assertEquals(List.of(), ExperimentPlots.of("hp", tables, List.of()));
    }

    @Test
    void thePapersValuesThatAreNoRowAreMarkedPointsInTheirLinesColour() {
        List<CsvTables.Table> tables = CsvTables.of("{\"cleaning\":[{\"size_kb\":128,\"cp\":76,\"rc\":0.2},"
                + "{\"size_kb\":256,\"cp\":150,\"rc\":0.4}]}");
        PlotSpec spec = PlotSpec.of("cleaning", "Table 1", "size_kb", "KB", "ms", "cp", "rc")
                .paperPoints(new PlotSpec.PaperPoint("rc", new BigDecimal(160), new BigDecimal("4.53")),
                        new PlotSpec.PaperPoint("nosuch", new BigDecimal(160), new BigDecimal("1")));
        ObjectNode c = ExperimentPlots.charts("midst", tables.get(0), spec).get(0);
        assertEquals(3, c.get("series").size(), "two lines and the paper's point of the line that exists");
        JsonNode paper = c.get("series").get(2);
        assertEquals("paper: rc", paper.get("name").asText());
        assertEquals("[[160,4.53]]", paper.get("data").toString());
        assertEquals(c.get("series").get(1).get("itemStyle").get("color"), paper.get("itemStyle").get("color"));
    }

    @Test
    void aTextXIsACategoryAxisInRowOrderAndSeveralYColumnsAreLinesOnTheSameAxes() {
        String json = "{\"rows\":[{\"method\":\"lds\",\"group\":\"1-10\",\"est\":5,\"truth\":4},"
                + "{\"method\":\"lds\",\"group\":\"11-100\",\"est\":3,\"truth\":3}]}";
        ObjectNode c = ExperimentPlots.charts("", CsvTables.of(json).get(0),
                PlotSpec.of("rows", "by size", "group", "flow size", "packets", "est", "truth").series("method")).get(0);
        assertEquals("category", c.get("xAxis").get("type").asText());
        assertEquals("[\"1-10\",\"11-100\"]", c.get("xAxis").get("data").toString());
        // method is the same on every row: it tells no line apart and is left out of the names
        assertEquals("[{\"type\":\"line\",\"name\":\"est\",\"itemStyle\":{\"color\":\"#1f77b4\"},\"lineStyle\":{\"color\":\"#1f77b4\"},"
                + "\"data\":[[\"1-10\",5],[\"11-100\",3]]},{\"type\":\"line\",\"name\":\"truth\",\"itemStyle\":{\"color\":\"#ff7f0e\"},"
                + "\"lineStyle\":{\"color\":\"#ff7f0e\"},\"data\":[[\"1-10\",4],[\"11-100\",3]]}]", c.get("series").toString());
    }

    /** HashPipe's top-k shape: a key, an estimate, a truth (0 for a key the trace never had), a missing estimate. */
    private static final String TOP_K = "{\"top_k\":["
            + "{\"key\":\"a\",\"estimate\":110,\"true\":100,\"reported\":90},"
            + "{\"key\":\"b\",\"estimate\":40,\"true\":50,\"reported\":50},"
            + "{\"key\":\"c\",\"estimate\":5,\"true\":0,\"reported\":null},"
            + "{\"key\":\"d\",\"estimate\":null,\"true\":30,\"reported\":30}]}";

    @Test
    void anEstimateAgainstItsTruthIsAScatterWithTheLineYEqualsXAndItsRelativeErrorBeside() {
        PlotSpec spec = PlotSpec.estimateVsTruth("top_k", "top-k", "true", "flow size (packets)", PlotSpec.ErrorMeasure.RELATIVE,
                "estimate").labelled("key");
        List<ObjectNode> charts = ExperimentPlots.charts("hashpipe", CsvTables.of(TOP_K).get(0), spec);
        assertEquals(2, charts.size(), "the scatter and the error");
        ObjectNode scatter = charts.get(0);
        assertEquals("hashpipe: top-k", scatter.get("title").get("text").asText());
        assertEquals("true flow size (packets)", scatter.get("xAxis").get("name").asText());
        assertEquals("estimated flow size (packets)", scatter.get("yAxis").get("name").asText());
        assertEquals("item", scatter.get("tooltip").get("trigger").asText());
        // every row with both numbers is a point named by its key (d has no estimate); y = x spans both axes' data
        assertEquals("[{\"type\":\"scatter\",\"name\":\"estimate\",\"symbolSize\":7,\"itemStyle\":{\"color\":\"#1f77b4\"},"
                + "\"data\":[{\"name\":\"a\",\"value\":[100,110]},{\"name\":\"b\",\"value\":[50,40]},"
                + "{\"name\":\"c\",\"value\":[0,5]}]},"
                + "{\"type\":\"line\",\"name\":\"y = x (estimate = truth)\",\"showSymbol\":false,\"silent\":true,"
                + "\"itemStyle\":{\"color\":\"#555555\"},\"lineStyle\":{\"color\":\"#555555\",\"type\":\"dashed\"},"
                + "\"data\":[[0,0],[110,110]]}]", scatter.get("series").toString());
        ObjectNode error = charts.get(1);
        // (estimate - true) / true; c's truth is 0, so it has no relative error and the title says so
        assertEquals("hashpipe: top-k: error of the estimate; 1 estimate(s) of a true 0 left out", error.get("title").get("text").asText());
        assertEquals("relative error: (estimated - true) / true", error.get("yAxis").get("name").asText());
        assertEquals("[{\"name\":\"a\",\"value\":[100,0.1]},{\"name\":\"b\",\"value\":[50,-0.2]}]",
                error.get("series").get(0).get("data").toString());
        assertEquals(0, error.get("series").get(0).get("markLine").get("data").get(0).get("yAxis").asInt(), "the exact line");
    }

    @Test
    void severalEstimatesOfOneTruthAreOneSeriesEachAndTheirDifferenceKeepsATrueZero() {
        PlotSpec spec = PlotSpec.estimateVsTruth("top_k", "losses", "true", "loss (packets)", PlotSpec.ErrorMeasure.DIFFERENCE,
                "estimate", "reported");
        List<ObjectNode> charts = ExperimentPlots.charts("", CsvTables.of(TOP_K).get(0), spec);
        List<String> names = new ArrayList<>();
        charts.get(0).get("series").forEach(s -> names.add(s.get("name").asText()));
        assertEquals(List.of("estimate", "reported", "y = x (estimate = truth)"), names);
        assertEquals("losses: error of the estimate", charts.get(1).get("title").get("text").asText());
        assertEquals("error: estimated - true loss (packets)", charts.get(1).get("yAxis").get("name").asText());
        assertEquals("[[100,10],[50,-10],[0,5]]", charts.get(1).get("series").get(0).get("data").toString());
        assertEquals("[[100,-10],[50,0],[30,0]]", charts.get(1).get("series").get(1).get("data").toString());
        assertEquals("[[0,0],[110,110]]", charts.get(0).get("series").get(2).get("data").toString());
    }

    @Test
    void anEstimateAgainstItsTruthRefusesALogAxisAndOnlyItNamesItsPoints() {
        PlotSpec scatter = PlotSpec.estimateVsTruth("t", "x", "true", "q", PlotSpec.ErrorMeasure.RELATIVE, "estimate");
        assertEquals("plot of 't': an estimate against its truth has linear axes and no paper values",
                assertThrows(IllegalArgumentException.class, scatter::logX).getMessage());
        assertEquals("plot of 't': only an estimate against its truth names its points",
                assertThrows(IllegalArgumentException.class,
                        () -> PlotSpec.of("t", "x", "a", "a", "b", "b").labelled("key")).getMessage());
    }
}
