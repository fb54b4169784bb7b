package dev.rmtemu.emulator.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.rmtemu.emulator.json.Json;
import dev.rmtemu.emulator.json.OutputSchemas;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A user's program that names no stages, from the command line: {@code show} prints each
 * element's stage and why it is there, {@code resources} (text and JSON, valid against its
 * schema) reports the placement, {@code replay} runs it as placed, and a chain longer than the
 * target is refused with exit 3 and one line naming the chain.
 */
class PlacementCliTest {
    /** t0 .. t(chain-1): each table's miss writes the next one's key, so each needs the next stage. */
    private static final String SOURCE = """
            import dev.rmtemu.model.ir.Block;
            import dev.rmtemu.model.phv.Field;
            import dev.rmtemu.model.phv.Gress;
            import dev.rmtemu.model.phv.Intrinsic;
            import dev.rmtemu.model.program.ParamSpec;
            import dev.rmtemu.model.program.ProgramBuilder;
            import dev.rmtemu.model.program.ProgramFactory;
            import dev.rmtemu.model.program.ProgramParams;
            import dev.rmtemu.model.program.StageProgram;
            import dev.rmtemu.model.table.MatchKind;
            import dev.rmtemu.model.table.MatchTable;

            import java.util.ArrayList;
            import java.util.List;

            public final class Chained implements ProgramFactory {
                public String name() { return "chained"; }
                public String description() { return "tables chained by match dependencies, no stage named"; }
                public List<ParamSpec> params() {
                    return List.of(ParamSpec.integer("chain", 3, 1, 40, "tables in the chain"));
                }
                public StageProgram build(ProgramParams p) {
                    int n = p.intValue("chain");
                    ProgramBuilder b = ProgramBuilder.create(name(), description());
                    Field port = b.intrinsic(Intrinsic.UCAST_EGRESS_PORT);
                    List<Field> m = new ArrayList<>();
                    for (int i = 0; i < n; i++) {
                        m.add(b.metadata(Gress.INGRESS, "meta.m" + i, 8));
                    }
                    ProgramBuilder.ControlBuilder c = b.control(Gress.INGRESS);
                    List<MatchTable> t = new ArrayList<>();
                    for (int i = 0; i < n; i++) {
                        t.add(c.table("t" + i, MatchKind.EXACT, 64, 8, m.get(i)));
                    }
                    c.apply(code -> {
                        code.set(port, 1);
                        for (int i = 0; i < n; i++) {
                            int k = i;
                            Block.TableApply a = code.apply(t.get(k));
                            if (k < n - 1) {
                                a.miss(x -> x.set(m.get(k + 1), k + 1));
                            }
                        }
                    });
                    return b.build();
                }
            }
            """;

    private static Path program(Path dir) throws IOException {
        Path f = dir.resolve("Chained.java");
        Files.writeString(f, SOURCE);
        return f;
    }

    @Test
    void showPrintsEachElementsStageAndWhy(@TempDir Path tmp) throws IOException {
        CliRunner r = CliRunner.run("show", "--program", program(tmp).toString());
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().contains("    stage 1 {\n        // placed here: table t1: match dependency on t0 (meta.m1)\n"), r.out());
        assertTrue(r.out().contains("    stage 0 {\n        // placed here: action set(ig_intr_tm_md.ucast_egress_port): "
                + "no dependency\n        // placed here: table t0: no dependency\n"), r.out());
    }

    @Test
    void resourcesReportThePlacementAsTextAndJson(@TempDir Path tmp) throws IOException {
        String file = program(tmp).toString();
        CliRunner text = CliRunner.run("resources", "--program", file);
        assertEquals(0, text.exit(), text.err());
        assertTrue(text.out().contains("Placement (the program names no stages; each element's stage and why):\n"
                + "  ingress  stage  0  action   set(ig_intr_tm_md.ucast_egress_port) no dependency\n"
                + "  ingress  stage  0  table    t0                           no dependency\n"
                + "  ingress  stage  1  table    t1                           match dependency on t0 (meta.m1)\n"
                + "  ingress  stage  2  table    t2                           match dependency on t1 (meta.m2)\n"), text.out());

        CliRunner json = CliRunner.run("resources", "--program", file, "--json");
        assertEquals(0, json.exit(), json.err());
        JsonNode root = Json.mapper().readTree(json.out());
        assertEquals(Set.of(), OutputSchemas.problems(OutputSchemaTest.schema("resources.schema.json"), root));
        JsonNode t2 = root.get("compiler").get("element_placement").get(3);
        assertEquals("{\"gress\":\"ingress\",\"stage\":2,\"kind\":\"table\",\"element\":\"t2\",\"earliest_stage\":2,"
                + "\"cause\":\"match\",\"on\":\"t1\",\"field\":\"meta.m2\",\"pushed_by\":\"\","
                + "\"reason\":\"match dependency on t1 (meta.m2)\"}", t2.toString());
        assertEquals(2, root.get("compiler").get("table_placement").get(2).get("stage").asInt());
    }

    @Test
    void replayRunsThePlacedProgram(@TempDir Path tmp) throws IOException {
        CliRunner r = CliRunner.run("replay", "--program", program(tmp).toString(), "--trace", "gen:isp?packets=2000&flows=40",
                "--no-progress", "--out", tmp.resolve("run").toString());
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().contains("2,000"), r.out());
    }

    @Test
    void aChainLongerThanTheTargetExitsThreeNamingIt(@TempDir Path tmp) throws IOException {
        String file = program(tmp).toString();
        CliRunner r = CliRunner.run("resources", "--program", file, "--param", "chain=13");
        assertEquals(3, r.exit(), r.err());
        assertEquals("rmtemu: program chained: ingress needs 13 stages, tofino1 has 12: t0 -(match: meta.m1)-> t1"
                + " -(match: meta.m2)-> t2 -(match: meta.m3)-> t3 -(match: meta.m4)-> t4 -(match: meta.m5)-> t5"
                + " -(match: meta.m6)-> t6 -(match: meta.m7)-> t7 -(match: meta.m8)-> t8 -(match: meta.m9)-> t9"
                + " -(match: meta.m10)-> t10 -(match: meta.m11)-> t11 -(match: meta.m12)-> t12\n", r.err());
        assertEquals(0, CliRunner.run("resources", "--program", file, "--param", "chain=13", "--target", "tofino2").exit());
        assertEquals(3, CliRunner.run("show", "--program", file, "--param", "chain=13").exit());
    }
}
