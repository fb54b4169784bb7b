package dev.rmtemu.emulator.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.rmtemu.emulator.spi.FixtureExperiment;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code rmtemu experiment NAME --out DIR} with the test class path's {@link FixtureExperiment}. */
class ExperimentOutTest {
    @TempDir
    Path tmp;

    private static String produced(boolean json) {
        StringWriter s = new StringWriter();
        new FixtureExperiment().run(Map.of(), json, new PrintWriter(s), new PrintWriter(new StringWriter()));
        return s.toString();
    }

    private static List<String> listing(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    @Test
    void writesTheJsonAndOneQuotedCsvPerTableAndStillPrintsTheTables() throws IOException {
        Path dir = tmp.resolve("out");
        CliRunner r = CliRunner.run("experiment", "fixture", "--out", dir.toString());
        assertEquals(0, r.exit(), r.err());
        assertEquals(produced(false), r.out());
        assertEquals("experiment fixture: wrote " + dir.resolve("fixture.json") + " and 2 CSV tables in " + dir + "\n", r.err());
        assertEquals(List.of("fixture-other.csv", "fixture-rows.csv", "fixture.json", "report.json"), listing(dir));
        assertEquals(produced(true), Files.readString(dir.resolve("fixture.json")));
        assertEquals("label,value\n\"a, \"\"quoted\"\" one\",1.5\nplain,2\n", Files.readString(dir.resolve("fixture-rows.csv")));
        assertEquals("k\n3\n", Files.readString(dir.resolve("fixture-other.csv")));
        JsonNode report = new ObjectMapper().readTree(dir.resolve("report.json").toFile());
        assertTrue(report.get("complete").asBoolean());
        assertEquals("[\"fixture-other.csv\",\"fixture-rows.csv\",\"fixture.json\",\"report.json\"]", report.get("files").toString());
        assertEquals("[\"fixture-rows.csv\",\"fixture-other.csv\"]", report.get("tables").toString());
        assertEquals("{\"experiment\":\"fixture\",\"options\":{}}", report.get("inputs").toString());
    }

    @Test
    void plotsDrawOneFigurePagePerTableWorthDrawingIntoTheirOwnOrTheSameRunDirectory() throws Exception {
        Path figs = tmp.resolve("figs");
        CliRunner r = CliRunner.run("experiment", "fixture", "--plots", figs.toString());
        assertEquals(0, r.exit(), r.err());
        assertEquals("experiment fixture: wrote 1 figure page in " + figs + "\n", r.err());
        // "other" is named by no plot spec: no figure
        assertEquals(List.of("fixture-rows.echarts.json", "fixture-rows.html", "report.json"), listing(figs));
        JsonNode options = new ObjectMapper().readTree(figs.resolve("fixture-rows.echarts.json").toFile());
        assertEquals("[\"a, \\\"quoted\\\" one\",\"plain\"]", options.get(0).get("xAxis").get("data").toString());
        assertEquals("[[\"a, \\\"quoted\\\" one\",1.5],[\"plain\",2]]", options.get(0).get("series").get(0).get("data").toString());
        assertEquals(List.of("figure-0"), HtmlReportBrowserTest.drawnCharts(figs.resolve("fixture-rows.html"), tmp));

        Path both = tmp.resolve("both");
        r = CliRunner.run("experiment", "fixture", "--out", both.toString(), "--plots", both.toString());
        assertEquals(0, r.exit(), r.err());
        assertEquals(List.of("fixture-other.csv", "fixture-rows.csv", "fixture-rows.echarts.json", "fixture-rows.html",
                "fixture.json", "report.json"), listing(both));
        assertEquals("[\"fixture-rows.html\"]",
                new ObjectMapper().readTree(both.resolve("report.json").toFile()).get("figures").toString());
    }

    @Test
    void experimentJsonHasTheSchemaVersionFirstAndValidates() throws IOException {
        CliRunner r = CliRunner.run("experiment", "fixture", "--json");
        assertEquals(0, r.exit(), r.err());
        JsonNode doc = new ObjectMapper().readTree(r.out());
        assertEquals("schema_version", doc.fieldNames().next());
        assertEquals(java.util.Set.of(), dev.rmtemu.emulator.json.OutputSchemas.problems(
                OutputSchemaTest.schema("experiment.schema.json"), doc));
        ((com.fasterxml.jackson.databind.node.ObjectNode) doc).put("schema_version", "2");
        java.util.Set<String> problems = dev.rmtemu.emulator.json.OutputSchemas.problems(
                OutputSchemaTest.schema("experiment.schema.json"), doc);
        assertTrue(!problems.isEmpty() && problems.stream().allMatch(m -> m.startsWith("$.schema_version")), problems.toString());
        // one schema: a camelCase key is refused
        JsonNode camel = new ObjectMapper().readTree(r.out());
        ((com.fasterxml.jackson.databind.node.ObjectNode) camel).put("falseNegativePct", 1);
        java.util.Set<String> camelProblems = dev.rmtemu.emulator.json.OutputSchemas.problems(
                OutputSchemaTest.schema("experiment.schema.json"), camel);
        assertEquals(1, camelProblems.size(), camelProblems.toString());
        assertTrue(camelProblems.iterator().next().contains("falseNegativePct"), camelProblems.toString());
    }

    @Test
    void withJsonItPrintsTheJsonItKeeps() throws IOException {
        Path dir = tmp.resolve("out");
        CliRunner r = CliRunner.run("experiment", "fixture", "--json", "--out", dir.toString());
        assertEquals(0, r.exit(), r.err());
        assertEquals(Files.readString(dir.resolve("fixture.json")), r.out());
    }

    @Test
    void twoRunsWriteTheSameBytesAndASecondRunIntoTheDirectoryReplacesTheFirst() throws IOException {
        Path a = tmp.resolve("a");
        Path b = tmp.resolve("b");
        assertEquals(0, CliRunner.run("experiment", "fixture", "--out", a.toString()).exit());
        assertEquals(0, CliRunner.run("experiment", "fixture", "--out", b.toString()).exit());
        assertEquals(0, CliRunner.run("experiment", "fixture", "--out", b.toString()).exit());
        assertEquals(listing(a), listing(b));
        for (String f : listing(a)) {
            assertEquals(Files.readString(a.resolve(f)), Files.readString(b.resolve(f)), f);
        }
    }

    @Test
    void aPathThatIsAFileIsRefusedWithExit2AndOneLine() throws IOException {
        Path file = Files.writeString(tmp.resolve("file"), "x");
        CliRunner r = CliRunner.run("experiment", "fixture", "--out", file.toString());
        assertEquals(2, r.exit());
        assertEquals("rmtemu: --out " + file + ": exists and is not a directory\n", r.err());
        assertEquals("", r.out());
        CliRunner under = CliRunner.run("experiment", "fixture", "--out", file.resolve("sub").toString());
        assertEquals(2, under.exit());
        assertEquals("rmtemu: --out " + file.resolve("sub") + ": " + file + " exists and is not a directory\n", under.err());
    }

    @Test
    void aForeignNonEmptyDirectoryIsRefusedUnlessForced() throws IOException {
        Path dir = Files.createDirectory(tmp.resolve("mine"));
        Files.writeString(dir.resolve("notes.txt"), "keep");
        CliRunner r = CliRunner.run("experiment", "fixture", "--out", dir.toString());
        assertEquals(2, r.exit());
        assertEquals("rmtemu: run directory " + dir + ": not empty and not a run directory (no report.json with a 'files'"
                + " manifest); choose another --out or add --force\n", r.err());
        assertEquals(List.of("notes.txt"), listing(dir));
        assertEquals(0, CliRunner.run("experiment", "fixture", "--out", dir.toString(), "--force").exit());
        assertEquals("keep", Files.readString(dir.resolve("notes.txt")));
        assertTrue(Files.exists(dir.resolve("fixture-rows.csv")));
    }

    @Test
    void forceWithoutOutIsRefused() {
        CliRunner r = CliRunner.run("experiment", "fixture", "--force");
        assertEquals(2, r.exit());
        assertEquals("rmtemu: --force needs --out DIR or --plots DIR\n", r.err());
    }

    @Test
    void aRefusedOptionLeavesAReportMarkedIncompleteAndNoTables() throws IOException {
        Path dir = tmp.resolve("out");
        CliRunner r = CliRunner.run("experiment", "fixture", "--opt", "fail=1", "--out", dir.toString());
        assertEquals(2, r.exit());
        assertEquals("rmtemu: experiment fixture: option fail is 1\n", r.err());
        assertEquals(List.of("report.json"), listing(dir));
        JsonNode report = new ObjectMapper().readTree(dir.resolve("report.json").toFile());
        assertFalse(report.get("complete").asBoolean());
        assertEquals("{\"experiment\":\"fixture\",\"options\":{\"fail\":\"1\"}}", report.get("inputs").toString());
    }
}
