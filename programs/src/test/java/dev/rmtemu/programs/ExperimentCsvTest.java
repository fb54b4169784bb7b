package dev.rmtemu.programs;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.rmtemu.emulator.cli.Main;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code rmtemu experiment NAME --out DIR} on real experiments with their quickest options:
 * each CSV holds exactly the rows of its JSON array (header = the row objects' keys, one line
 * per object or per nested group, equal values), the tables are still printed, and two runs
 * write the same bytes.
 */
class ExperimentCsvTest {
    private static final ObjectMapper JSON = new ObjectMapper().enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);
    private static final String[] WBMON = {"--opt", "part=ab", "--opt", "a_step=32", "--opt", "b_max=200", "--opt", "b_step=50"};
    private static final String[] LDS = {"--opt", "part=a", "--opt", "packets=20000", "--opt", "flows=400", "--opt", "seed=3"};

    @TempDir
    Path tmp;

    private record Run(int code, String out, String err) {
    }

    private static Run cli(List<String> args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(args.toArray(String[]::new), new PrintWriter(out, true), new PrintWriter(err, true));
        return new Run(code, out.toString(), err.toString());
    }

    private static List<String> args(String name, String[] opts, String... more) {
        List<String> a = new ArrayList<>(List.of("experiment", name));
        a.addAll(List.of(opts));
        a.addAll(List.of(more));
        return a;
    }

    @Test
    void wbmonsTablesAreItsJsonArraysRowForRowAndTheRunIsRepeatable() throws IOException {
        Path dir = tmp.resolve("wbmon");
        Run r = cli(args("wbmon", WBMON, "--out", dir.toString()));
        assertEquals(0, r.code(), r.err());
        assertEquals(cli(args("wbmon", WBMON)).out(), r.out(), "the tables are still printed");
        assertTrue(r.out().contains("WBMon (a)") && r.out().contains("WBMon (b)"), r.out());
        assertEquals(List.of("report.json", "wbmon-burst.csv", "wbmon-reorder.csv", "wbmon.json"), listing(dir));
        assertEquals(cli(args("wbmon", WBMON, "--json")).out(), Files.readString(dir.resolve("wbmon.json")));
        JsonNode root = JSON.readTree(dir.resolve("wbmon.json").toFile());
        for (String table : new String[] {"reorder", "burst"}) {
            JsonNode rows = root.get(table);
            List<List<String>> csv = parse(Files.readString(dir.resolve("wbmon-" + table + ".csv")));
            assertEquals(keys(rows.get(0)), csv.get(0), table + " header");
            assertEquals(rows.size(), csv.size() - 1, table + " rows");
            assertTrue(rows.size() > 1, table + " has several rows");
            for (int i = 0; i < rows.size(); i++) {
                assertRowEquals(rows.get(i), csv.get(0), csv.get(i + 1), table + " row " + i);
            }
        }
        Path again = tmp.resolve("again");
        assertEquals(0, cli(args("wbmon", WBMON, "--out", again.toString())).code());
        for (String f : listing(dir)) {
            assertEquals(Files.readString(dir.resolve(f)), Files.readString(again.resolve(f)), f);
        }
    }

    @Test
    void ldsRowsWithPerGroupStatisticsBecomeOneLinePerGroup() throws IOException {
        Path dir = tmp.resolve("lds");
        Run r = cli(args("lds", LDS, "--out", dir.toString()));
        assertEquals(0, r.code(), r.err());
        JsonNode rows = JSON.readTree(dir.resolve("lds.json").toFile()).get("rows");
        List<List<String>> csv = parse(Files.readString(dir.resolve("lds-rows.csv")));
        assertEquals(List.of("part", "method", "engine", "target", "loss", "group", "flows", "estimated", "median_pct", "p95_pct",
                "within_1pct", "within_5pct", "within_10pct"), csv.get(0));
        int line = 1;
        for (JsonNode row : rows) {
            for (JsonNode g : row.get("groups")) {
                List<String> cells = csv.get(line++);
                assertEquals(row.get("method").asText(), cells.get(1));
                assertEquals(row.get("engine").asText(), cells.get(2));
                assertEquals(g.get("group").asText(), cells.get(5));
                assertRowEquals(g, csv.get(0), cells, "lds line " + line);
            }
        }
        assertEquals(csv.size(), line, "one line per group, no more");
    }

    @Test
    void aBadOutIsRefusedBeforeTheExperimentRuns() throws IOException {
        Path file = Files.writeString(tmp.resolve("file.csv"), "x");
        Run r = cli(args("wbmon", WBMON, "--out", file.toString()));
        assertEquals(2, r.code());
        assertEquals("rmtemu: --out " + file + ": exists and is not a directory\n", r.err());
        assertEquals("", r.out());
    }

    /** The values of {@code json}'s scalar fields equal the cells under the same column names. */
    private static void assertRowEquals(JsonNode json, List<String> header, List<String> cells, String where) {
        assertEquals(header.size(), cells.size(), where);
        for (Iterator<Map.Entry<String, JsonNode>> it = json.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> f = it.next();
            if (!f.getValue().isValueNode()) {
                continue;
            }
            String cell = cells.get(header.indexOf(f.getKey()));
            JsonNode v = f.getValue();
            if (v.isNull()) {
                assertEquals("", cell, where + " " + f.getKey());
            } else if (v.isNumber()) {
                assertEquals(0, v.decimalValue().compareTo(new BigDecimal(cell)), where + " " + f.getKey() + ": " + v + " vs " + cell);
                assertTrue(cell.matches("-?[0-9]+(\\.[0-9]+)?"), "plain number: " + cell);
            } else {
                assertEquals(v.asText(), cell, where + " " + f.getKey());
            }
        }
    }

    private static List<String> keys(JsonNode row) {
        List<String> k = new ArrayList<>();
        row.fieldNames().forEachRemaining(k::add);
        return k;
    }

    private static List<String> listing(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    /** RFC 4180 lines (quoted cells may hold commas, doubled quotes and line breaks). */
    private static List<List<String>> parse(String text) {
        List<List<String>> lines = new ArrayList<>();
        List<String> line = new ArrayList<>();
        StringBuilder cell = new StringBuilder();
        boolean quoted = false;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (quoted) {
                if (c == '"' && i + 1 < text.length() && text.charAt(i + 1) == '"') {
                    cell.append('"');
                    i++;
                } else if (c == '"') {
                    quoted = false;
                } else {
                    cell.append(c);
                }
            } else if (c == '"') {
                quoted = true;
            } else if (c == ',') {
                line.add(cell.toString());
                cell.setLength(0);
            } else if (c == '\n') {
                line.add(cell.toString());
                cell.setLength(0);
                lines.add(line);
                line = new ArrayList<>();
            } else {
                cell.append(c);
            }
        }
        assertTrue(line.isEmpty() && cell.isEmpty(), "the CSV ends with a line break");
        return lines;
    }
}
