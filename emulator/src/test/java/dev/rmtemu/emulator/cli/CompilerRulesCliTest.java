package dev.rmtemu.emulator.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 30's rules through the command line, on a user's program file: a refusal exits 3
 * with the pass's one line (the p4c sources behind each rule are named in
 * dev.rmtemu.model.compiler.StageHazardRulesTest), and the key-written-in-its-stage warning
 * is printed by {@code resources} and by the replay, which also keeps it in report.json.
 */
class CompilerRulesCliTest {
    private static final String HEAD = """
            import dev.rmtemu.model.hash.HashAlgorithm;
            import dev.rmtemu.model.hash.HashUnit;
            import dev.rmtemu.model.phv.Field;
            import dev.rmtemu.model.phv.Gress;
            import dev.rmtemu.model.phv.Intrinsic;
            import dev.rmtemu.model.program.ProgramBuilder;
            import dev.rmtemu.model.program.ProgramFactory;
            import dev.rmtemu.model.program.ProgramParams;
            import dev.rmtemu.model.program.StageProgram;
            import dev.rmtemu.model.register.AluOp;
            import dev.rmtemu.model.register.CmpOp;
            import dev.rmtemu.model.register.Operand;
            import dev.rmtemu.model.register.Predicate;
            import dev.rmtemu.model.register.RegisterAction;
            import dev.rmtemu.model.register.RegisterArray;
            import dev.rmtemu.model.table.MatchKind;
            import dev.rmtemu.model.table.MatchTable;
            import static dev.rmtemu.model.ir.Ir.*;

            public final class NAME implements ProgramFactory {
                public String name() { return "NAME"; }
                public String description() { return "issue 30 rule"; }
                public java.util.List<dev.rmtemu.model.program.ParamSpec> params() { return java.util.List.of(); }
                public StageProgram build(ProgramParams p) {
                    ProgramBuilder b = ProgramBuilder.create(name(), description());
                    Field src = b.header("ipv4.src_addr");
                    Field port = b.intrinsic(Intrinsic.UCAST_EGRESS_PORT);
                    Field x = b.metadata(Gress.INGRESS, "meta.x", 32);
                    ProgramBuilder.StageBuilder s0 = b.stage(Gress.INGRESS, 0);
                    HashUnit h = s0.hash("h16", HashAlgorithm.byName("crc16"), 16, src);
                    RegisterArray counts = s0.register("counts", 32, 65536);
                    RegisterAction inc = s0.action(RegisterAction.on(counts, "inc")
                            .updateLo(AluOp.ADD, Operand.REG_LO, Operand.constant(1))
                            .output(RegisterAction.OutputSource.NEW_LO));
            """;
    private static final String TAIL = """
                    return b.build();
                }
            }
            """;

    private static Path program(Path dir, String name, String body) throws IOException {
        Path f = dir.resolve(name + ".java");
        Files.writeString(f, HEAD.replace("NAME", name) + body + TAIL);
        return f;
    }

    @Test
    void aStatefulAluFedByAnotherInItsStageExitsThree(@TempDir Path tmp) throws IOException {
        String sums = """
                        RegisterArray sums = s0.register("sums", 32, 65536);
                        RegisterAction sum = s0.action(RegisterAction.on(sums, "sum")
                                .updateLo(AluOp.ADD, Operand.REG_LO, Operand.IN_LO));
                """;
        Path bad = program(tmp, "Chained", sums + """
                        s0.body(c -> c.set(port, 1).execute(inc, hash(h)).execute(sum, hash(h), output(inc)));
                """);
        CliRunner r = CliRunner.run("resources", "--program", bad.toString());
        assertEquals(3, r.exit(), r.err());
        assertEquals("rmtemu: Chained: ingress stage 0: register action sum of array sums: reads the output of register "
                + "action inc of array counts as its stateful-ALU input; a stateful ALU is addressed by hash or match overhead "
                + "and fed PHV words or hash bits, and another stateful ALU's output reaches the PHV at the end of the stage, "
                + "so it can be used from stage 1 on [stage-dependencies]\n", r.err());
        Path ok = program(tmp, "Fed", sums + """
                        s0.body(c -> c.set(port, 1).execute(inc, hash(h)).execute(sum, hash(h), read(src)));
                """);
        CliRunner twin = CliRunner.run("resources", "--program", ok.toString());
        assertEquals(0, twin.exit(), twin.err());
        assertEquals("", twin.err());
    }

    @Test
    void threeStatefulAluConditionsExitThreeNamingStageAndPass(@TempDir Path tmp) throws IOException {
        String clamp = """
                        RegisterAction.Builder clamp = RegisterAction.on(s0.register("win", 32, 1024), "clamp")
                                .condition(Operand.REG_LO, CmpOp.GT, Operand.constant(100))
                                .condition(Operand.REG_LO, CmpOp.LT, Operand.constant(10))
                                %s
                                .updateLo(Predicate.C0, AluOp.SET, Operand.constant(100), Operand.constant(0));
                        RegisterAction a = s0.action(clamp);
                        s0.body(c -> c.set(port, 1).execute(a, and(hash(h), constant(1023))));
                """;
        Path bad = program(tmp, "Win", clamp.formatted(".condition(Operand.REG_LO, CmpOp.EQ, Operand.constant(50))"));
        CliRunner r = CliRunner.run("resources", "--program", bad.toString());
        assertEquals(3, r.exit(), r.err());
        assertEquals("rmtemu: Win: stage 0 ingress: register action 'win.clamp' has 3 conditions > 2 [stage-resources]\n",
                r.err());
        CliRunner twin = CliRunner.run("resources", "--program", program(tmp, "Win2", clamp.formatted("")).toString());
        assertEquals(0, twin.exit(), twin.err());
    }

    /** meta.x keys table fwd in stage 1; {@code writer} is where meta.x is written. */
    private static Path keyed(Path tmp, String name, String stage0, String stage1) throws IOException {
        return program(tmp, name, """
                        s0.body(c -> { c.set(port, 1); %s });
                        ProgramBuilder.StageBuilder s1 = b.stage(Gress.INGRESS, 1);
                        MatchTable fwd = s1.table("fwd", MatchKind.EXACT, 1024, 16, x);
                        s1.body(c -> { %s c.apply(fwd).on(1, a -> a.set(port, actionData(fwd))); });
                """.formatted(stage0, stage1));
    }

    @Test
    void aKeyWrittenInItsTablesStageIsAWarningOfResourcesAndReplay(@TempDir Path tmp) throws Exception {
        Path late = keyed(tmp, "Late", "", "c.set(x, read(src));");
        String warning = "Late: ingress stage 1: table fwd: key field meta.x is written in the same stage by the stage's "
                + "instruction 'meta.x = ipv4.src_addr'; the lookup sees the value it had when the packet entered the stage "
                + "(a write is visible from the next stage) [stage-dependencies]";
        CliRunner r = CliRunner.run("resources", "--program", late.toString());
        assertEquals(0, r.exit(), r.err());
        assertEquals("rmtemu: warning: " + warning + "\n", r.err());
        assertTrue(r.out().contains("Warnings (accepted, but probably not meant):\n  " + warning + "\n"), r.out());

        Path out = tmp.resolve("run");
        CliRunner replay = CliRunner.run("replay", "--no-progress", "--program", late.toString(),
                "--trace", "gen:isp?packets=200&flows=10", "--out", out.toString());
        assertEquals(0, replay.exit(), replay.err());
        assertEquals(List.of("rmtemu: warning: " + warning),
                replay.err().lines().filter(l -> l.startsWith("rmtemu: warning: ")).toList());
        assertTrue(Files.readString(out.resolve("report.json")).contains(warning.replace("'", "'")));

        // the twin: written one stage earlier, the table matches the new value and nothing is said
        CliRunner early = CliRunner.run("resources", "--program", keyed(tmp, "Early", "c.set(x, read(src));", "").toString());
        assertEquals(0, early.exit(), early.err());
        assertEquals("", early.err());
    }
}
