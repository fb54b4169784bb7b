package dev.rmtemu.emulator.output;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rmtemu.emulator.json.Json;
import dev.rmtemu.emulator.spi.CsvTables;
import dev.rmtemu.emulator.spi.PlotSpec;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The figures of an experiment, drawn from its CSV tables (so a figure and its table never
 * disagree) as its {@link PlotSpec}s say: the paper's figure redrawn with our numbers, x, y, lines
 * and panels as the paper has them, the paper's values as marked points where the notes give
 * them. The figures of one table are one self-contained page (ECharts bundled, like report.html)
 * and their ECharts options as JSON, to re-draw or restyle; a table no spec names gets none.
 */
public final class ExperimentPlots {
    /** A figure page and its options, named after the table. */
    public record Figure(String table, String html, String optionsJson) {
    }

    private static final String PAPER = "paper: ";

    private ExperimentPlots() {
    }

    /** One page per table that a spec names (in the specs' order); specs of tables the run did not write are skipped. */
    public static List<Figure> of(String experiment, List<CsvTables.Table> tables, List<PlotSpec> specs) {
        Map<String, List<ObjectNode>> byTable = new LinkedHashMap<>();
        for (PlotSpec s : specs) {
            for (CsvTables.Table t : tables) {
                if (t.name().equals(s.table())) {
                    byTable.computeIfAbsent(t.name(), k -> new ArrayList<>()).addAll(charts(experiment, t, s));
                }
            }
        }
        List<Figure> out = new ArrayList<>();
        byTable.forEach((table, charts) -> {
            if (charts.isEmpty()) {
                return;
            }
            StringBuilder page = new StringBuilder("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
                    + "<title>rmtemu experiment " + experiment + ": " + table + "</title>" + Charts.STYLE + "</head><body>\n");
            ArrayNode options = Json.mapper().createArrayNode();
            for (int i = 0; i < charts.size(); i++) {
                page.append(Charts.div("figure-" + i, charts.get(i)));
                options.add(charts.get(i));
            }
            page.append(Charts.script()).append("</body></html>\n");
            out.add(new Figure(table, page.toString(), Json.write(options)));
        });
        return out;
    }

    /**
     * The charts of {@code spec} over {@code t}: one per value of its panel column (in row order),
     * or one; none when no row has both an x and a y.
     */
    public static List<ObjectNode> charts(String experiment, CsvTables.Table t, PlotSpec spec) {
        List<String> cols = t.columns();
        List<String> named = new ArrayList<>(spec.y());
        named.addAll(spec.paperY());
        named.addAll(spec.series());
        named.add(spec.x());
        if (spec.panel() != null) {
            named.add(spec.panel());
        }
        if (spec.label() != null) {
            named.add(spec.label());
        }
        if (!cols.containsAll(named)) {
            // a part of the experiment that did not run leaves its columns out: no figure, not a failed run
            return List.of();
        }
        int x = column(t, spec.x());
        int panel = spec.panel() == null ? -1 : column(t, spec.panel());
        int[] y = columns(t, spec.y());
        int[] paper = columns(t, spec.paperY());
        int[] series = varying(t, columns(t, spec.series()));
        boolean numericX = isNumeric(t, x);
        Map<String, List<List<String>>> panels = new LinkedHashMap<>();
        for (List<String> row : t.rows()) {
            panels.computeIfAbsent(panel < 0 ? "" : row.get(panel), k -> new ArrayList<>()).add(row);
        }
        if (spec.estimateVsTruth()) {
            return estimateCharts(experiment, t, spec, x, panel, y, series, panels);
        }
        List<ObjectNode> charts = new ArrayList<>();
        for (Map.Entry<String, List<List<String>>> p : panels.entrySet()) {
            String title = (experiment.isEmpty() ? "" : experiment + ": ") + spec.title()
                    + (panel < 0 ? "" : " (" + cols.get(panel) + " = " + p.getKey() + ")");
            ObjectNode o = Charts.base(title);
            ObjectNode xa = Charts.axis(o.putObject("xAxis"), numericX ? (spec.logScaleX() ? "log" : "value") : "category", spec.xName());
            if (numericX && !spec.logScaleX()) {
                xa.put("scale", true);
            } else if (numericX) {
                // a log axis spans whole decades unless told: 300..4800 would sit in 100..10,000
                xa.put("min", "dataMin").put("max", "dataMax");
            }
            ArrayNode categories = numericX ? null : xa.putArray("data");
            List<String> seen = new ArrayList<>();
            Charts.yAxis(o, "value", spec.yName()).put("scale", true);
            ArrayNode ss = o.putArray("series");
            Map<String, ArrayNode> lines = new LinkedHashMap<>();
            Map<String, ArrayNode> marks = new LinkedHashMap<>();
            Map<String, String> colours = new LinkedHashMap<>();
            for (List<String> row : p.getValue()) {
                String xv = row.get(x);
                if (xv.isEmpty()) {
                    continue;
                }
                if (!numericX && !seen.contains(xv)) {
                    seen.add(xv);
                    categories.add(xv);
                }
                for (int j = 0; j < y.length; j++) {
                    String key = name(t, row, series, y.length > 1 ? cols.get(y[j]) : null);
                    add(ss, lines, key, "line", row, numericX, xv, y[j], colours);
                    if (paper.length > 0) {
                        add(ss, marks, PAPER + key, "scatter", row, numericX, xv, paper[j], colours);
                    }
                }
            }
            if (lines.isEmpty()) {
                continue;
            }
            for (PlotSpec.PaperPoint pp : spec.paperPoints()) {
                if (numericX && lines.containsKey(pp.line())) {
                    List<String> point = List.of(pp.x().toPlainString(), pp.y().toPlainString());
                    add(ss, marks, PAPER + pp.line(), "scatter", point, true, point.get(0), 1, colours);
                }
            }
            Charts.legend(o, lines.size() + marks.size());
            charts.add(o);
        }
        return charts;
    }

    /** Name of the line y = x on an estimate-against-truth chart. */
    static final String EXACT = "y = x (estimate = truth)";
    /** Significant digits kept of a relative error (an estimate within 1e-5 of its truth keeps its digits). */
    private static final MathContext RELATIVE_ERROR_DIGITS = new MathContext(6, RoundingMode.HALF_EVEN);

    /**
     * Per panel two charts: every estimate (y) against its truth (x) as points, with the line y = x
     * drawn over the range of both (a point on it is exact, above it an overestimate); and the error
     * of each estimate against its truth ({@link PlotSpec.ErrorMeasure}), with a marked line at 0.
     * Rows without a truth or an estimate (empty, infinite) are left out of both.
     */
    private static List<ObjectNode> estimateCharts(String experiment, CsvTables.Table t, PlotSpec spec, int x, int panel,
                                                   int[] y, int[] series, Map<String, List<List<String>>> panels) {
        List<String> cols = t.columns();
        boolean relative = spec.error() == PlotSpec.ErrorMeasure.RELATIVE;
        String quantity = spec.xName().startsWith("true ") ? spec.xName().substring("true ".length()) : spec.xName();
        int label = spec.label() == null ? -1 : column(t, spec.label());
        List<ObjectNode> charts = new ArrayList<>();
        for (Map.Entry<String, List<List<String>>> p : panels.entrySet()) {
            String suffix = panel < 0 ? "" : " (" + cols.get(panel) + " = " + p.getKey() + ")";
            String prefix = experiment.isEmpty() ? "" : experiment + ": ";
            ObjectNode scatter = Charts.base(prefix + spec.title() + suffix);
            ObjectNode error = Charts.base(prefix + spec.title() + ": error of the estimate" + suffix);
            for (ObjectNode o : List.of(scatter, error)) {
                o.putObject("tooltip").put("trigger", "item");
                Charts.axis(o.putObject("xAxis"), "value", spec.xName()).put("scale", true);
            }
            Charts.yAxis(scatter, "value", spec.yName()).put("scale", true);
            Charts.yAxis(error, "value", relative ? "relative error: (estimated - true) / true"
                    : "error: estimated - true " + quantity).put("scale", true);
            ArrayNode points = scatter.putArray("series");
            ArrayNode errors = error.putArray("series");
            Map<String, ArrayNode> pointSeries = new LinkedHashMap<>();
            Map<String, ArrayNode> errorSeries = new LinkedHashMap<>();
            Map<String, String> colours = new LinkedHashMap<>();
            BigDecimal lo = null;
            BigDecimal hi = null;
            int noTruth = 0;
            for (List<String> row : p.getValue()) {
                BigDecimal truth = number(row.get(x));
                if (truth == null) {
                    continue;
                }
                for (int col : y) {
                    BigDecimal estimate = number(row.get(col));
                    if (estimate == null) {
                        continue;
                    }
                    String key = name(t, row, series, y.length > 1 || series.length == 0 ? cols.get(col) : null);
                    String colour = colours.computeIfAbsent(key, k -> Charts.PALETTE[colours.size() % Charts.PALETTE.length]);
                    point(points(points, pointSeries, key, colour), row, label).add(truth).add(estimate);
                    lo = lo == null ? truth.min(estimate) : lo.min(truth).min(estimate);
                    hi = hi == null ? truth.max(estimate) : hi.max(truth).max(estimate);
                    if (relative && truth.signum() == 0) {
                        noTruth++;
                        continue;
                    }
                    BigDecimal e = relative
                            ? estimate.subtract(truth).divide(truth, RELATIVE_ERROR_DIGITS).stripTrailingZeros()
                            : estimate.subtract(truth);
                    point(points(errors, errorSeries, key, colour), row, label).add(truth).add(e);
                }
            }
            if (pointSeries.isEmpty()) {
                continue;
            }
            ObjectNode exact = points.addObject();
            exact.put("type", "line").put("name", EXACT).put("showSymbol", false).put("silent", true);
            exact.putObject("itemStyle").put("color", EXACT_COLOUR);
            exact.putObject("lineStyle").put("color", EXACT_COLOUR).put("type", "dashed");
            ArrayNode diagonal = exact.putArray("data");
            diagonal.addArray().add(lo).add(lo);
            diagonal.addArray().add(hi).add(hi);
            Charts.legend(scatter, pointSeries.size() + 1);
            charts.add(scatter);
            if (errorSeries.isEmpty()) {
                continue;
            }
            if (noTruth > 0) {
                ((ObjectNode) error.get("title")).put("text", error.get("title").get("text").asText() + "; " + noTruth
                        + " estimate(s) of a true 0 left out");
            }
            ObjectNode first = (ObjectNode) errors.get(0);
            ObjectNode ml = first.putObject("markLine");
            ml.put("symbol", "none").put("silent", true);
            ml.putObject("lineStyle").put("type", "dashed").put("color", EXACT_COLOUR);
            ml.putArray("data").addObject().put("name", "exact").put("yAxis", 0).putObject("label")
                    .put("formatter", "exact").put("position", "insideEndTop");
            Charts.legend(error, errorSeries.size());
            charts.add(error);
        }
        return charts;
    }

    /** The colour of the exact line (y = x, error 0): a neutral grey no series takes. */
    private static final String EXACT_COLOUR = "#555555";

    private static ArrayNode points(ArrayNode ss, Map<String, ArrayNode> into, String key, String colour) {
        return into.computeIfAbsent(key, k -> {
            ObjectNode s = ss.addObject();
            s.put("type", "scatter").put("name", k).put("symbolSize", 7);
            s.putObject("itemStyle").put("color", colour);
            return s.putArray("data");
        });
    }

    /** A new point of {@code data}: its [x, y], named by the row's {@code label} column if there is one. */
    private static ArrayNode point(ArrayNode data, List<String> row, int label) {
        if (label < 0) {
            return data.addArray();
        }
        ObjectNode p = data.addObject();
        p.put("name", row.get(label));
        return p.putArray("value");
    }

    /** A cell as a number, or null when it holds none (empty, "inf", "-inf", text). */
    private static BigDecimal number(String v) {
        try {
            return v.isEmpty() ? null : new BigDecimal(v);
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /**
     * Adds a point to the series {@code key}, made on first use; a line takes the next colour of the
     * palette and the paper's points for it ("paper: " + its name) the same colour, as diamonds.
     */
    private static void add(ArrayNode ss, Map<String, ArrayNode> into, String key, String type, List<String> row,
                            boolean numericX, String xv, int col, Map<String, String> colours) {
        String v = row.get(col);
        if (v.isEmpty() || v.equals("inf") || v.equals("-inf")) {
            return;
        }
        ArrayNode data = into.computeIfAbsent(key, k -> {
            ObjectNode s = ss.addObject();
            s.put("type", type);
            s.put("name", k);
            String colour = colours.computeIfAbsent(type.equals("scatter") ? k.substring(PAPER.length()) : k,
                    c -> Charts.PALETTE[colours.size() % Charts.PALETTE.length]);
            s.putObject("itemStyle").put("color", colour);
            if (type.equals("scatter")) {
                s.put("symbol", "diamond").put("symbolSize", 11);
            } else {
                s.putObject("lineStyle").put("color", colour);
            }
            return s.putArray("data");
        });
        ArrayNode point = data.addArray();
        if (numericX) {
            point.add(new BigDecimal(xv));
        } else {
            point.add(xv);
        }
        point.add(new BigDecimal(v));
    }

    /**
     * A line's name: the first series column's value, then the others as column=value (empty ones
     * left out, and ones the name already says: HashPipe's algorithm "hashpipe d=4" carries its d).
     */
    private static String name(CsvTables.Table t, List<String> row, int[] series, String yColumn) {
        List<String> parts = new ArrayList<>();
        if (yColumn != null) {
            parts.add(yColumn);
        }
        for (int i = 0; i < series.length; i++) {
            String v = row.get(series[i]);
            String part = i == 0 ? v : t.columns().get(series[i]) + "=" + v;
            if (!v.isEmpty() && !String.join(" ", parts).contains(part)) {
                parts.add(part);
            }
        }
        return parts.isEmpty() ? t.name() : String.join(" ", parts);
    }

    /** The columns among {@code cols} whose value varies in the table (a constant tells no line apart). */
    private static int[] varying(CsvTables.Table t, int[] cols) {
        List<Integer> out = new ArrayList<>();
        for (int c : cols) {
            String first = t.rows().isEmpty() ? "" : t.rows().get(0).get(c);
            for (List<String> row : t.rows()) {
                if (!row.get(c).equals(first)) {
                    out.add(c);
                    break;
                }
            }
        }
        return out.stream().mapToInt(Integer::intValue).toArray();
    }

    private static int column(CsvTables.Table t, String name) {
        return t.columns().indexOf(name);
    }

    private static int[] columns(CsvTables.Table t, List<String> names) {
        int[] c = new int[names.size()];
        for (int i = 0; i < c.length; i++) {
            c[i] = column(t, names.get(i));
        }
        return c;
    }

    /** Every non-empty cell a plain number (the CSV writes numbers plainly), and at least one. */
    private static boolean isNumeric(CsvTables.Table t, int c) {
        boolean any = false;
        for (List<String> row : t.rows()) {
            String v = row.get(c);
            if (v.isEmpty()) {
                continue;
            }
            try {
                new BigDecimal(v);
                any = true;
            } catch (NumberFormatException e) {
                return false;
            }
        }
        return any;
    }
}
