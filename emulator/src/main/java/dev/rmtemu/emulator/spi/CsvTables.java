package dev.rmtemu.emulator.spi;

import java.math.BigDecimal;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;

/**
 * The CSV tables of an experiment, derived from its JSON so that the CSV and the JSON can never
 * disagree. Every top-level field that holds a non-empty array of objects is one table, named
 * by the field. A row object's scalars are cells; a nested object's scalars are cells named
 * {@code parent_child}; an array of scalars is one cell, its values joined by spaces; a nested
 * array of objects (at most one per row) expands the row: one CSV line per element, the row's
 * own cells repeated before the element's. Columns appear in the order they are first met.
 * Other top-level values (options, paper figures, single numbers) are not tables.
 *
 * <p>The CSV is RFC 4180: a header of snake_case names, CRLF-free {@code \n} line ends, a cell
 * quoted only when it holds a comma, a quote or a line break, quotes doubled. Numbers are
 * written in plain notation (no exponent, no thousands separators) with the digits the JSON
 * has, trailing zeros dropped; JSON null and NaN are empty cells, infinities {@code inf} and
 * {@code -inf}.
 */
public final class CsvTables {
    /** One table: its name (snake_case), its header and its rows of cells. */
    public record Table(String name, List<String> columns, List<List<String>> rows) {
        /** The table as CSV text: header line, then one line per row, each ending in '\n'. */
        public String csv() {
            StringBuilder b = new StringBuilder();
            line(b, columns);
            for (List<String> r : rows) {
                line(b, r);
            }
            return b.toString();
        }

        private static void line(StringBuilder b, List<String> cells) {
            for (int i = 0; i < cells.size(); i++) {
                if (i > 0) {
                    b.append(',');
                }
                b.append(quote(cells.get(i)));
            }
            b.append('\n');
        }
    }

    // Decimals parsed exactly (not through double) so a cell shows the digits the JSON has.
    // NaN is accepted because experiments format doubles with %f, which writes it for 0/0.
    private static final ObjectMapper JSON = JsonMapper.builder().enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS).build();

    private CsvTables() {
    }

    /** The tables of an experiment's JSON document, in the order of its fields. */
    public static List<Table> of(String json) {
        JsonNode root;
        try {
            root = JSON.readTree(json);
        } catch (JsonProcessingException e) {
            // the experiments write this JSON themselves: a parse failure is a bug, not a user error
            throw new IllegalStateException("experiment JSON does not parse: " + e.getOriginalMessage(), e);
        }
        List<Table> tables = new ArrayList<>();
        if (root == null || !root.isObject()) {
            return tables;
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = root.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> f = it.next();
            if (isTable(f.getValue())) {
                tables.add(table(snake(f.getKey()), f.getValue()));
            }
        }
        return tables;
    }

    /** RFC 4180: quoted only when needed, quotes doubled. */
    public static String quote(String cell) {
        if (cell.indexOf(',') < 0 && cell.indexOf('"') < 0 && cell.indexOf('\n') < 0 && cell.indexOf('\r') < 0) {
            return cell;
        }
        return '"' + cell.replace("\"", "\"\"") + '"';
    }

    /** camelCase to snake_case, snake_case as it is (every experiment writes snake_case; this keeps any other JSON safe). */
    static String snake(String key) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < key.length(); i++) {
            char c = key.charAt(i);
            if (Character.isUpperCase(c)) {
                if (i > 0 && key.charAt(i - 1) != '_') {
                    b.append('_');
                }
                b.append(Character.toLowerCase(c));
            } else {
                b.append(c == '-' || c == ' ' ? '_' : c);
            }
        }
        return b.toString();
    }

    private static boolean isTable(JsonNode v) {
        if (!v.isArray() || v.isEmpty()) {
            return false;
        }
        for (JsonNode e : v) {
            if (!e.isObject()) {
                return false;
            }
        }
        return true;
    }

    private static Table table(String name, JsonNode array) {
        List<Map<String, String>> rows = new ArrayList<>();
        for (JsonNode row : array) {
            rows.addAll(expand(name, row));
        }
        LinkedHashSet<String> columns = new LinkedHashSet<>();
        rows.forEach(r -> columns.addAll(r.keySet()));
        List<List<String>> cells = new ArrayList<>();
        for (Map<String, String> r : rows) {
            List<String> line = new ArrayList<>(columns.size());
            for (String c : columns) {
                line.add(r.getOrDefault(c, ""));
            }
            cells.add(line);
        }
        return new Table(name, List.copyOf(columns), cells);
    }

    /** One row object as one or more CSV rows (more when it holds an array of objects). */
    private static List<Map<String, String>> expand(String table, JsonNode row) {
        Map<String, String> own = new LinkedHashMap<>();
        String nestedKey = null;
        JsonNode nested = null;
        for (Iterator<Map.Entry<String, JsonNode>> it = row.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> f = it.next();
            JsonNode v = f.getValue();
            if (isTable(v)) {
                if (nested != null) {
                    throw new IllegalStateException("experiment JSON table '" + table + "': a row holds two arrays of objects ('"
                            + nestedKey + "', '" + f.getKey() + "'); one CSV table cannot hold both");
                }
                nestedKey = f.getKey();
                nested = v;
            } else {
                flatten(snake(f.getKey()), v, own);
            }
        }
        if (nested == null) {
            return List.of(own);
        }
        List<Map<String, String>> out = new ArrayList<>();
        for (JsonNode e : nested) {
            Map<String, String> r = new LinkedHashMap<>(own);
            for (Iterator<Map.Entry<String, JsonNode>> it = e.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> f = it.next();
                String col = snake(f.getKey());
                // an element's field named like one of the row's is told apart by the array's name
                flatten(r.containsKey(col) ? snake(nestedKey) + "_" + col : col, f.getValue(), r);
            }
            out.add(r);
        }
        return out;
    }

    private static void flatten(String column, JsonNode v, Map<String, String> into) {
        if (v.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> it = v.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> f = it.next();
                flatten(column + "_" + snake(f.getKey()), f.getValue(), into);
            }
        } else if (v.isArray()) {
            List<String> parts = new ArrayList<>();
            for (JsonNode e : v) {
                parts.add(e.isValueNode() ? scalar(e) : e.toString());
            }
            into.put(column, String.join(" ", parts));
        } else {
            into.put(column, scalar(v));
        }
    }

    private static String scalar(JsonNode v) {
        if (v.isNull() || v.isMissingNode()) {
            return "";
        }
        if (v.isBigDecimal()) {
            BigDecimal d = v.decimalValue();
            return d.signum() == 0 ? "0" : d.stripTrailingZeros().toPlainString();
        }
        if (v.isNumber()) {
            double d = v.doubleValue();
            if (Double.isNaN(d)) {
                return "";
            }
            if (Double.isInfinite(d)) {
                return d > 0 ? "inf" : "-inf";
            }
            return v.numberValue().toString();
        }
        return v.asText();
    }
}
