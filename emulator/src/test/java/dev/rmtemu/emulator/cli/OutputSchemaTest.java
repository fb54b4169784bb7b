package dev.rmtemu.emulator.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rmtemu.emulator.json.Json;
import dev.rmtemu.emulator.json.OutputSchemas;
import dev.rmtemu.emulator.output.RunReport;
import dev.rmtemu.emulator.topology.TopoReport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * One documented schema per output (docs/schema/): each generated from the records the output is
 * written from, committed, and every output checked against its schema. After changing a record,
 * rewrite the files with {@code mvn -pl emulator -am test -Dtest=OutputSchemaTest
 * -Dsurefire.failIfNoSpecifiedTests=false -Drmtemu.writeSchemas=true}.
 */
class OutputSchemaTest {
    /** Each generated schema: its file name and the schema. */
    static Map<String, ObjectNode> generated() {
        Map<String, ObjectNode> m = new LinkedHashMap<>();
        m.put("report-switch.schema.json", OutputSchemas.generate(RunReport.SwitchRun.class,
                "report.json of a single-switch run", "rmtemu replay --out DIR (and rmtemu demo): DIR/report.json at the"
                        + " end of the run, complete or interrupted. 'host' is the only part that depends on the machine.",
                envelope(), Set.of("interrupted_by")));
        m.put("report-network.schema.json", OutputSchemas.generate(RunReport.NetworkRun.class,
                "report.json of a network run", "rmtemu replay --topology T --out DIR: DIR/report.json at the end of"
                        + " the run. 'host' is the only part that depends on the machine.",
                envelope(), Set.of("interrupted_by")));
        m.put("trace-info.schema.json", OutputSchemas.generate(TraceInfoReport.class, "rmtemu trace info --json",
                "A trace's summary.", null, Set.of()));
        m.put("programs.schema.json", OutputSchemas.generate(ProgramsCommand.Listing.class, "rmtemu programs --json",
                "The stage programs on the class path with their parameters, and the built-in targets.", null, Set.of()));
        m.put("topo.schema.json", OutputSchemas.generate(TopoReport.class, "rmtemu topo --json",
                "A topology's counts, the topology in the file schema, and what the options asked for.", null, Set.of()));
        return m;
    }

    /** The keys RunDirectory writes around a report's record. */
    private static ObjectNode envelope() {
        ObjectNode e = Json.mapper().createObjectNode();
        e.putObject(Json.SCHEMA_VERSION_KEY).put("type", "integer").put("const", Json.SCHEMA_VERSION);
        e.putObject("complete").put("type", "boolean")
                .put("description", "false while the run is going on, and for a run that was interrupted");
        e.putObject("interrupted_by").put("type", "string").put("description", "the signal that ended the run early");
        ObjectNode files = e.putObject("files").put("type", "array")
                .put("description", "the run directory's manifest: every file the run wrote, sorted");
        files.putObject("items").put("type", "string");
        return e;
    }

    @Test
    void committedSchemasAreTheOnesTheRecordsGive() throws IOException {
        boolean write = Boolean.getBoolean("rmtemu.writeSchemas");
        for (Map.Entry<String, ObjectNode> e : generated().entrySet()) {
            Path file = OutputSchemas.DIR.resolve(e.getKey());
            String text = Json.write(e.getValue());
            if (write) {
                Files.createDirectories(file.getParent());
                Files.writeString(file, text, StandardCharsets.UTF_8);
            }
            assertTrue(Files.exists(file), file + " is missing (see this test's comment to write it)");
            assertEquals(text, Files.readString(file, StandardCharsets.UTF_8),
                    file + " differs from the records (see this test's comment to rewrite it)");
        }
    }

    @Test
    void singleSwitchReportValidatesAndTheSchemaRefusesWhatIsNotInIt(@TempDir Path tmp) throws IOException {
        Path out = tmp.resolve("run");
        CliRunner r = CliRunner.run("replay", "--program", "counter", "--trace", "gen:isp?packets=3000&flows=50",
                "--port-gbps", "10", "--save-registers", "--out", out.toString(), "--no-progress");
        assertEquals(0, r.exit(), r.err());
        JsonNode schema = schema("report-switch.schema.json");
        ObjectNode report = (ObjectNode) read(out.resolve("report.json"));
        assertEquals(Set.of(), OutputSchemas.problems(schema, report));
        assertEquals(Json.SCHEMA_VERSION, report.get("schema_version").asInt());
        assertEquals("schema_version", report.fieldNames().next(), "schema_version comes first");

        // resources.json (a tree written by the model, its schema written by hand) and resources --json
        JsonNode resources = schema("resources.schema.json");
        JsonNode written = read(out.resolve("resources.json"));
        assertEquals(Set.of(), OutputSchemas.problems(resources, written));
        assertEquals("schema_version", written.fieldNames().next());
        CliRunner res = CliRunner.run("resources", "-p", "counter", "-t", "unconstrained", "--json");
        assertEquals(0, res.exit(), res.err());
        JsonNode unconstrained = Json.mapper().readTree(res.out());
        assertEquals(Set.of(), OutputSchemas.problems(resources, unconstrained));
        assertTrue(unconstrained.get("resources").get("mau").get("n_stages").isNull(), "unlimited is null, not a string");

        // a key no record has, a number written as a string, a missing section: each refused
        ObjectNode extra = report.deepCopy();
        ((ObjectNode) extra.get("counters")).put("droppedTotal", 1);
        assertEquals(1, OutputSchemas.problems(schema, extra).size(), OutputSchemas.problems(schema, extra).toString());
        ObjectNode text = report.deepCopy();
        ((ObjectNode) text.get("counters")).put("in", "3000");
        assertEquals(1, OutputSchemas.problems(schema, text).size());
        ObjectNode missing = report.deepCopy();
        missing.remove("latency_ns");
        assertEquals(1, OutputSchemas.problems(schema, missing).size());
    }

    @Test
    void networkReportValidates(@TempDir Path tmp) throws IOException {
        Path out = tmp.resolve("net");
        // an impaired link, so the optional lost_by_impairment is there too
        Path topo = tmp.resolve("t.yaml");
        dev.rmtemu.emulator.LineTopology.write(topo, false, "{loss: \"bernoulli:0.1\"}");
        CliRunner r = CliRunner.run("replay", "--topology", topo.toString(), "--trace", "gen:isp?packets=3000&flows=50",
                "--rate", "10G", "--out", out.toString(), "--no-progress");
        assertEquals(0, r.exit(), r.err());
        JsonNode report = read(out.resolve("report.json"));
        assertEquals(Set.of(), OutputSchemas.problems(schema("report-network.schema.json"), report));
        assertTrue(report.get("network").get("links").findValue("lost_by_impairment").size() > 0);
    }

    @Test
    void traceInfoProgramsAndTopoJsonValidate() throws IOException {
        CliRunner info = CliRunner.run("trace", "info", "--json", "gen:isp?packets=2000&flows=40", "--top", "3");
        assertEquals(0, info.exit(), info.err());
        JsonNode i = Json.mapper().readTree(info.out());
        assertEquals(Set.of(), OutputSchemas.problems(schema("trace-info.schema.json"), i));
        assertEquals(2000, i.get("packets").asLong());
        assertEquals(3, i.get("top_flows").size());

        CliRunner programs = CliRunner.run("programs", "--json");
        assertEquals(0, programs.exit(), programs.err());
        JsonNode p = Json.mapper().readTree(programs.out());
        assertEquals(Set.of(), OutputSchemas.problems(schema("programs.schema.json"), p));
        List<String> targets = p.get("targets").findValuesAsText("name");
        assertEquals(List.of("tofino1", "tofino2", "rmt", "unconstrained"), targets);

        CliRunner topo = CliRunner.run("topo", "builtin:fattree?k=4", "--json", "--path", "h0_0_0,h3_1_1", "--vconns",
                "--neighborhoods", "--routes", "core0");
        assertEquals(0, topo.exit(), topo.err());
        JsonNode t = Json.mapper().readTree(topo.out());
        assertEquals(Set.of(), OutputSchemas.problems(schema("topo.schema.json"), t));
        assertEquals(16, t.get("hosts").asInt());
        assertTrue(t.get("path").get("found").asBoolean());
        assertEquals("h0_0_0", t.get("path").get("hops").get(0).get("name").asText());
    }

    static JsonNode schema(String name) throws IOException {
        return read(OutputSchemas.DIR.resolve(name));
    }

    private static JsonNode read(Path p) throws IOException {
        return Json.mapper().readTree(Files.readString(p, StandardCharsets.UTF_8));
    }
}
