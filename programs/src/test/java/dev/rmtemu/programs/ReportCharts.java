package dev.rmtemu.programs;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * report.html's program results as a test reads them: each chart's ECharts option (the JSON the
 * page draws), and the checks of an estimate-against-truth pair of charts against the rows of
 * report.json it was drawn from.
 */
public final class ReportCharts {
    /** The line a point on which is exact. */
    public static final String EXACT = "y = x (estimate = truth)";

    private ReportCharts() {
    }

    /** The option of chart {@code id} in {@code run}'s report.html. */
    public static JsonNode option(Path run, String id) {
        try {
            String html = Files.readString(run.resolve("report.html"), StandardCharsets.UTF_8);
            String start = "<script type=\"application/json\" id=\"" + id + "-option\">";
            int i = html.indexOf(start);
            assertTrue(i >= 0, "no chart " + id + " in report.html");
            return new ObjectMapper().readTree(html.substring(i + start.length(), html.indexOf("</script>", i)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The names of a chart's series, in order. */
    public static List<String> seriesNames(JsonNode chart) {
        List<String> names = new ArrayList<>();
        chart.get("series").forEach(s -> names.add(s.get("name").asText()));
        return names;
    }

    /**
     * Asserts that charts {@code scatterId} and the next one are {@code rows}' estimates (columns
     * {@code estimates}) against their truth (column {@code truth}): a point per row with both, named
     * by column {@code label}, the line y = x over all of them, and beside it each point's error
     * ({@code relative}: (estimate - truth) / truth, rows of a true 0 left out; else the difference).
     * Returns the number of points of the first estimate.
     */
    public static int assertEstimateVsTruth(Path run, int scatterId, String title, String xName, String yName, JsonNode rows,
                                            String truth, String label, boolean relative, String... estimates) {
        JsonNode scatter = option(run, "results-" + scatterId);
        JsonNode error = option(run, "results-" + (scatterId + 1));
        assertEquals(title, scatter.get("title").get("text").asText());
        assertEquals(xName, scatter.get("xAxis").get("name").asText());
        assertEquals(yName, scatter.get("yAxis").get("name").asText());
        List<String> names = new ArrayList<>(List.of(estimates));
        names.add(EXACT);
        assertEquals(names, seriesNames(scatter));
        assertTrue(error.get("title").get("text").asText().startsWith(title + ": error of the estimate"),
                error.get("title").toString());
        assertEquals(relative ? "relative error: (estimated - true) / true" : "error: estimated - " + xName,
                error.get("yAxis").get("name").asText());
        assertEquals(0, error.get("series").get(0).get("markLine").get("data").get(0).get("yAxis").asInt(), "the exact line");
        double lo = Double.MAX_VALUE;
        double hi = -Double.MAX_VALUE;
        int first = -1;
        for (int k = 0; k < estimates.length; k++) {
            List<double[]> want = new ArrayList<>();
            List<String> wantNames = new ArrayList<>();
            for (JsonNode row : rows) {
                if (row.path(truth).isNumber() && row.path(estimates[k]).isNumber()) {
                    want.add(new double[] {row.path(truth).asDouble(), row.path(estimates[k]).asDouble()});
                    wantNames.add(row.path(label).isArray() ? join(row.path(label)) : row.path(label).asText());
                }
            }
            JsonNode points = scatter.get("series").get(k).get("data");
            assertEquals(want.size(), points.size(), estimates[k] + ": a point per row with both numbers");
            int e = 0;
            JsonNode errors = error.get("series").get(k).get("data");
            for (int i = 0; i < want.size(); i++) {
                JsonNode p = points.get(i);
                assertEquals(wantNames.get(i), p.get("name").asText());
                assertEquals(want.get(i)[0], p.get("value").get(0).asDouble(), 1e-9 * Math.abs(want.get(i)[0]));
                assertEquals(want.get(i)[1], p.get("value").get(1).asDouble(), 1e-9 * Math.abs(want.get(i)[1]));
                lo = Math.min(lo, Math.min(want.get(i)[0], want.get(i)[1]));
                hi = Math.max(hi, Math.max(want.get(i)[0], want.get(i)[1]));
                if (relative && want.get(i)[0] == 0) {
                    continue;
                }
                double expected = relative ? (want.get(i)[1] - want.get(i)[0]) / want.get(i)[0] : want.get(i)[1] - want.get(i)[0];
                JsonNode q = errors.get(e++);
                assertEquals(wantNames.get(i), q.get("name").asText());
                assertEquals(expected, q.get("value").get(1).asDouble(), 1e-5 * Math.max(1e-3, Math.abs(expected)),
                        estimates[k] + " error of " + wantNames.get(i));
            }
            assertEquals(e, errors.size(), estimates[k] + ": an error per point with a truth");
            first = first < 0 ? want.size() : first;
        }
        JsonNode diagonal = scatter.get("series").get(estimates.length).get("data");
        assertEquals(lo, diagonal.get(0).get(0).asDouble(), 1e-9 * Math.abs(lo));
        assertEquals(lo, diagonal.get(0).get(1).asDouble(), 1e-9 * Math.abs(lo));
        assertEquals(hi, diagonal.get(1).get(0).asDouble(), 1e-9 * Math.abs(hi));
        assertEquals(hi, diagonal.get(1).get(1).asDouble(), 1e-9 * Math.abs(hi));
        return first;
    }

    private static String join(JsonNode array) {
        List<String> parts = new ArrayList<>();
        array.forEach(a -> parts.add(a.asText()));
        return String.join(" ", parts);
    }
}
