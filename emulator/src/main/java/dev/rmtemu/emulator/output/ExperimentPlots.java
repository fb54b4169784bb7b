package dev.rmtemu.emulator.output;

import dev.rmtemu.emulator.spi.CsvTables;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rmtemu.emulator.json.Json;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The figures of an experiment, drawn from its CSV tables (so a figure and its table never
 * disagree): per table, one chart per measured column against the table's first varying numeric
 * column (its parameter), one line per value of the table's first text column whose values repeat
 * (the method or setting; a column of distinct keys names rows, not groups), axes named by their columns (whose names carry their units: {@code _pct},
 * {@code _kb}, {@code _ns}). A table with one varying number gets bars per row instead, and a
 * table where no number varies no figure.
 * Each table's figures are one self-contained page (ECharts bundled, like report.html) and
 * their ECharts options as JSON, to re-draw or restyle.
 */
public final class ExperimentPlots {
    /** Charts per table at most: the first measured columns, in the table's order. */
    public static final int MAX_CHARTS_PER_TABLE = 8;

    /** A figure page and its options, named after the table. */
    public record Figure(String table, String html, String optionsJson) {
    }

    private ExperimentPlots() {
    }

    public static List<Figure> of(String experiment, List<CsvTables.Table> tables) {
        List<Figure> out = new ArrayList<>();
        for (CsvTables.Table t : tables) {
            List<ObjectNode> charts = charts(experiment, t);
            if (charts.isEmpty()) {
                continue;
            }
            StringBuilder page = new StringBuilder("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
                    + "<title>rmtemu experiment " + experiment + ": " + t.name() + "</title></head><body>\n");
            ArrayNode options = Json.mapper().createArrayNode();
            for (int i = 0; i < charts.size(); i++) {
                page.append(Charts.div("figure-" + i, charts.get(i)));
                options.add(charts.get(i));
            }
            page.append(Charts.script()).append("</body></html>\n");
            out.add(new Figure(t.name(), page.toString(), Json.write(options)));
        }
        return out;
    }

    /** The charts of one table (empty when no number in it varies). */
    public static List<ObjectNode> charts(String experiment, CsvTables.Table t) {
        List<String> cols = t.columns();
        List<Integer> numeric = new ArrayList<>();
        int group = -1;
        int label = -1;
        for (int c = 0; c < cols.size(); c++) {
            if (isNumeric(t, c)) {
                numeric.add(c);
            } else if (varies(t, c)) {
                label = label < 0 ? c : label;
                group = group < 0 && repeats(t, c) ? c : group;
            }
        }
        List<Integer> varying = new ArrayList<>();
        for (int c : numeric) {
            if (varies(t, c)) {
                varying.add(c);
            }
        }
        List<ObjectNode> charts = new ArrayList<>();
        if (varying.size() == 1) {
            int y = varying.get(0);
            charts.add(bars(experiment + " " + t.name() + ": " + cols.get(y), t, label, y));
            return charts;
        }
        for (int y : varying.subList(Math.min(1, varying.size()), varying.size())) {
            if (charts.size() == MAX_CHARTS_PER_TABLE) {
                break;
            }
            charts.add(lines(experiment + " " + t.name() + ": " + cols.get(y), t, varying.get(0), y, group));
        }
        return charts;
    }

    private static ObjectNode lines(String title, CsvTables.Table t, int x, int y, int group) {
        Map<String, ArrayNode> series = new LinkedHashMap<>();
        ObjectNode o = Charts.base(title);
        Charts.axis(o.putObject("xAxis"), "value", t.columns().get(x)).put("scale", true);
        Charts.yAxis(o, "value", t.columns().get(y)).put("scale", true);
        ArrayNode ss = o.putArray("series");
        for (List<String> row : t.rows()) {
            if (row.get(x).isEmpty() || row.get(y).isEmpty()) {
                continue;
            }
            String key = group < 0 ? t.columns().get(y) : row.get(group);
            ArrayNode data = series.computeIfAbsent(key, k -> {
                ObjectNode s = ss.addObject();
                s.put("type", "line");
                s.put("name", k);
                return s.putArray("data");
            });
            data.addArray().add(new BigDecimal(row.get(x))).add(new BigDecimal(row.get(y)));
        }
        Charts.legend(o, series.size());
        return o;
    }

    private static ObjectNode bars(String title, CsvTables.Table t, int label, int y) {
        ObjectNode o = Charts.base(title);
        ObjectNode xa = Charts.axis(o.putObject("xAxis"), "category", label < 0 ? "row" : t.columns().get(label));
        ArrayNode cats = xa.putArray("data");
        Charts.yAxis(o, "value", t.columns().get(y));
        ObjectNode s = o.putArray("series").addObject();
        s.put("type", "bar");
        s.put("name", t.columns().get(y));
        ArrayNode data = s.putArray("data");
        for (int r = 0; r < t.rows().size(); r++) {
            List<String> row = t.rows().get(r);
            cats.add(label < 0 ? Integer.toString(r + 1) : row.get(label));
            data.add(row.get(y).isEmpty() ? null : new BigDecimal(row.get(y)));
        }
        return o;
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

    /** Some value occurs twice: the column names groups of rows (a method), not each row (a flow key). */
    private static boolean repeats(CsvTables.Table t, int c) {
        Set<String> seen = new LinkedHashSet<>();
        for (List<String> row : t.rows()) {
            if (!seen.add(row.get(c))) {
                return true;
            }
        }
        return false;
    }

    private static boolean varies(CsvTables.Table t, int c) {
        Set<String> seen = new LinkedHashSet<>();
        for (List<String> row : t.rows()) {
            seen.add(row.get(c));
            if (seen.size() > 1) {
                return true;
            }
        }
        return false;
    }
}
