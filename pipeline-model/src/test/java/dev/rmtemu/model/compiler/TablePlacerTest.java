package dev.rmtemu.model.compiler;

import dev.rmtemu.model.UserError;
import dev.rmtemu.model.ir.Block;
import dev.rmtemu.model.phv.Field;
import dev.rmtemu.model.phv.Gress;
import dev.rmtemu.model.program.ElementPlacement;
import dev.rmtemu.model.program.ProgramBuilder;
import dev.rmtemu.model.program.StageDependency;
import dev.rmtemu.model.program.StageProgram;
import dev.rmtemu.model.register.AluOp;
import dev.rmtemu.model.register.Operand;
import dev.rmtemu.model.register.RegisterAction;
import dev.rmtemu.model.register.RegisterArray;
import dev.rmtemu.model.table.MatchKind;
import dev.rmtemu.model.table.MatchTable;
import dev.rmtemu.model.target.TargetProfile;
import dev.rmtemu.model.target.TargetProfiles;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

import static dev.rmtemu.model.ir.Ir.constant;
import static dev.rmtemu.model.ir.Ir.eq;
import static dev.rmtemu.model.ir.Ir.read;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Table placement of programs that name no stages, against p4c's Tofino back end. The
 * dependency kinds are {@code DependencyGraph::dependencies_t} (bf-p4c mau/table_dependency_graph.h),
 * found as {@code FindDataDependencyGraph::AddDependencies} finds them; the stage distance of
 * each is the one {@code FindDependencyGraph::finalize_dependence_graph}
 * (mau/table_dependency_graph.cpp) gives min_stage: IXBAR_READ, ACTION_READ and OUTPUT put the
 * reader one stage after the writer; CONTROL and the ANTI (reverse) kinds allow the same stage.
 */
class TablePlacerTest {
    private static final TargetProfile TOFINO1 = TargetProfiles.builtIn("tofino1");

    /** A two-table ingress control: fields k1, k2, x, y (8 bits), tables a (key k1) and b (key {@code bKey}). */
    private static final class Tiny {
        final ProgramBuilder b = ProgramBuilder.create("tiny", "placement test");
        final Field k1 = b.metadata(Gress.INGRESS, "meta.k1", 8);
        final Field k2 = b.metadata(Gress.INGRESS, "meta.k2", 8);
        final Field x = b.metadata(Gress.INGRESS, "meta.x", 8);
        final Field y = b.metadata(Gress.INGRESS, "meta.y", 8);
        final ProgramBuilder.ControlBuilder c = b.control(Gress.INGRESS);

        MatchTable table(String name, Field key) {
            return c.table(name, MatchKind.EXACT, 256, 8, key);
        }

        StageProgram place(Consumer<Block> body) {
            c.apply(body);
            return ProgramCompiler.compile(b.build(), TOFINO1).requireAccepted().program();
        }
    }

    private static int stage(StageProgram p, String table) {
        return p.table(table).stage();
    }

    private static ElementPlacement why(StageProgram p, String element) {
        return p.placement().stream().filter(e -> e.element().equals(element)).findFirst().orElseThrow();
    }

    /** IXBAR_READ: b's key reads x, which a's action writes: b goes one stage later, and that stage match-depends. */
    @Test
    void matchDependencyPutsTheReaderInTheNextStage() {
        Tiny t = new Tiny();
        MatchTable a = t.table("a", t.k1);
        MatchTable b = t.table("b", t.x);
        StageProgram p = t.place(code -> {
            code.apply(a).on(1, hit -> hit.set(t.x, 1));
            code.apply(b);
        });
        assertEquals(0, stage(p, "a"));
        assertEquals(1, stage(p, "b"));
        assertEquals("match dependency on a (meta.x)", why(p, "b").reason());
        assertEquals(StageDependency.MATCH, p.stages(Gress.INGRESS).get(1).dependency());
    }

    /**
     * ACTION_READ: b's action reads x, which a's action writes: the next stage as well (a PHV
     * write reaches the PHV at the end of its stage), but the stage only action-depends.
     */
    @Test
    void actionDependencyPutsTheReaderInTheNextStageWithAnActionDependentStage() {
        Tiny t = new Tiny();
        MatchTable a = t.table("a", t.k1);
        MatchTable b = t.table("b", t.k2);
        StageProgram p = t.place(code -> {
            code.apply(a).on(1, hit -> hit.set(t.x, 1));
            code.apply(b).on(1, hit -> hit.set(t.y, read(t.x)));
        });
        assertEquals(1, stage(p, "b"));
        assertEquals("action dependency on a (meta.x)", why(p, "b").reason());
        assertEquals(StageDependency.ACTION, p.stages(Gress.INGRESS).get(1).dependency());
    }

    /**
     * Program order inside a run of instructions: {@code y = x} after {@code x = 1} reads the new
     * x, so it is an action of its own one stage later (p4c's front end gives each such run an
     * action table of its own, SynthesizeActions; a PHV write is visible from the next stage).
     */
    @Test
    void anInstructionReadingAnEarlierOneOfItsRunIsAnActionOfItsOwn() {
        Tiny t = new Tiny();
        StageProgram p = t.place(code -> code.set(t.x, 1).set(t.k1, 2).set(t.y, read(t.x)));
        assertEquals(List.of("set(meta.x, meta.k1)", "set(meta.y)"), p.placement().stream().map(ElementPlacement::element).toList());
        assertEquals("action dependency on set(meta.x, meta.k1) (meta.x)", why(p, "set(meta.y)").reason());
        assertEquals(2, p.stages(Gress.INGRESS).size());
    }

    /** OUTPUT: both write x (and may both run): the later writer goes one stage down. */
    @Test
    void outputDependencyPutsTheSecondWriterInTheNextStage() {
        Tiny t = new Tiny();
        MatchTable a = t.table("a", t.k1);
        MatchTable b = t.table("b", t.k2);
        StageProgram p = t.place(code -> {
            code.apply(a).on(1, hit -> hit.set(t.x, 1));
            code.apply(b).on(1, hit -> hit.set(t.x, 2));
        });
        assertEquals(1, stage(p, "b"));
        assertEquals("output dependency on a (meta.x)", why(p, "b").reason());
    }

    /** CONTROL: a table applied under a gateway may share the gateway's stage. */
    @Test
    void controlDependencyAllowsTheSameStage() {
        Tiny t = new Tiny();
        MatchTable b = t.table("b", t.k2);
        StageProgram p = t.place(code -> code.when(eq(read(t.k1), constant(1)), then -> then.apply(b)));
        assertEquals(0, stage(p, "b"));
        assertEquals("control dependency on if (meta.k1 == 1)", why(p, "b").reason());
    }

    /** ANTI_TABLE_READ (reverse): b writes the field a matched on; a read the old value, so b may share a's stage. */
    @Test
    void reverseDependencyAllowsTheSameStage() {
        Tiny t = new Tiny();
        MatchTable a = t.table("a", t.x);
        MatchTable b = t.table("b", t.k2);
        StageProgram p = t.place(code -> {
            code.apply(a);
            code.apply(b).on(1, hit -> hit.set(t.x, 3));
        });
        assertEquals(0, stage(p, "b"));
        assertEquals("reverse dependency on a (meta.x)", why(p, "b").reason());
    }

    /**
     * Concurrent and mutually exclusive (mau/table_mutex.cpp): tables with no shared field share
     * stage 0; so do a writer of x and a reader of x in the two branches of one gateway.
     */
    @Test
    void concurrentAndMutuallyExclusiveTablesShareAStage() {
        Tiny t = new Tiny();
        MatchTable a = t.table("a", t.k1);
        MatchTable b = t.table("b", t.k2);
        MatchTable c = t.table("c", t.x);
        StageProgram p = t.place(code -> {
            code.apply(a).on(1, hit -> hit.set(t.y, 1));
            code.when(eq(read(t.k1), constant(0)),
                    then -> then.apply(b).on(1, hit -> hit.set(t.x, 1)),
                    otherwise -> otherwise.apply(c));
        });
        assertEquals(List.of(0, 0, 0), List.of(stage(p, "a"), stage(p, "b"), stage(p, "c")));
        assertEquals("no dependency", why(p, "a").reason());
    }

    /**
     * A full stage pushes an element down: tofino1 has 4 stateful ALUs per stage, so the fifth
     * register action (each under its own gateway) goes to stage 1, and its gateway is evaluated
     * again there (its field does not change). mau/table_placement.cpp tries the next stage
     * when a table's resources do not fit (TablePlacement::try_alloc_*).
     */
    @Test
    void aFullStagePushesAnElementDown() {
        Tiny t = new Tiny();
        List<RegisterAction> actions = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            RegisterArray r = t.c.register("r" + i, 32, 1024);
            actions.add(t.c.action(RegisterAction.on(r, "inc").updateLo(AluOp.ADD, Operand.REG_LO, Operand.constant(1))));
        }
        StageProgram p = t.place(code -> {
            for (int i = 0; i < 5; i++) {
                RegisterAction ra = actions.get(i);
                code.when(eq(read(t.k1), constant(i)), then -> then.execute(ra, constant(0)));
            }
        });
        assertEquals(List.of(0, 0, 0, 0, 1), p.registers().stream().map(RegisterArray::stage).toList());
        assertEquals("control dependency on if (meta.k1 == 4); earliest 0, pushed down: stage 0 ingress: stateful ALUs 5 > 4",
                why(p, "r4.inc").reason());
        assertEquals("[If[condition=meta.k1 == 4, then=[Execute[action=r4.inc (RAW), index=0, inLo=0, inHi=0]], otherwise=[]]]",
                p.stages(Gress.INGRESS).get(1).body().toString(), "stage 1 repeats the fifth gateway only");
    }

    /**
     * A stage whose logical tables are all taken pushes the next table down: tofino1 has 16
     * logical tables per stage, so of 17 independent tables the 17th goes to stage 1
     * (mau/table_placement.cpp: a table that does not fit the stage's logical IDs is tried in
     * the next stage; TableSummary counts the logical IDs).
     */
    @Test
    void aStageWithEveryLogicalTableTakenPushesATableDown() {
        ProgramBuilder b = ProgramBuilder.create("wide", "17 independent tables");
        ProgramBuilder.ControlBuilder c = b.control(Gress.INGRESS);
        List<MatchTable> t = new ArrayList<>();
        for (int i = 0; i < 17; i++) {
            t.add(c.table("t" + i, MatchKind.EXACT, 256, 8, b.metadata(Gress.INGRESS, "meta.k" + i, 8)));
        }
        c.apply(code -> t.forEach(code::apply));
        StageProgram p = ProgramCompiler.compile(b.build(), TOFINO1).requireAccepted().program();
        assertEquals(0, p.table("t15").stage());
        assertEquals(1, p.table("t16").stage());
        assertEquals("no dependency; earliest 0, pushed down: stage 0 ingress: logical tables 17 > 16", why(p, "t16").reason());
    }

    /** p4c honours @stage (TablePlacement's stage pragma): a pin later than needed holds; one that breaks a dependency is refused. */
    @Test
    void stagePinsAreHonouredAndAPinBreakingADependencyIsRefused() {
        Tiny t = new Tiny();
        MatchTable a = t.table("a", t.k1);
        MatchTable b = t.table("b", t.x);
        t.c.pin("b", 3);
        StageProgram p = t.place(code -> {
            code.apply(a).on(1, hit -> hit.set(t.x, 1));
            code.apply(b);
        });
        assertEquals(3, stage(p, "b"));
        assertEquals("@stage(3), dependencies allow stage 1", why(p, "b").reason());

        Tiny bad = new Tiny();
        MatchTable a2 = bad.table("a", bad.k1);
        MatchTable b2 = bad.table("b", bad.x);
        bad.c.pin("b", 0);
        bad.c.apply(code -> {
            code.apply(a2).on(1, hit -> hit.set(bad.x, 1));
            code.apply(b2);
        });
        StageProgram unplaced = bad.b.build();
        UserError e = assertThrows(UserError.class, () -> ProgramCompiler.compile(unplaced, TOFINO1));
        assertEquals(Compilation.EXIT_REFUSED, e.exitCode());
        assertEquals("program tiny: @stage(0) on b breaks its match dependency on a (meta.x), which needs stage 1 or later",
                e.getMessage());
    }

    /**
     * A chain of 13 dependent tables needs 13 stages: tofino1 has 12, so the program is refused
     * naming the chain (p4c reports the critical path, DependencyGraph::critical_path_length).
     */
    @Test
    void aChainLongerThanTheTargetIsRefusedNamingIt() {
        ProgramBuilder b = ProgramBuilder.create("chain", "13 dependent tables");
        List<Field> m = new ArrayList<>();
        for (int i = 0; i <= 12; i++) {
            m.add(b.metadata(Gress.INGRESS, "meta.m" + i, 8));
        }
        Field other = b.metadata(Gress.INGRESS, "meta.other", 8);
        ProgramBuilder.ControlBuilder c = b.control(Gress.INGRESS);
        List<MatchTable> t = new ArrayList<>();
        for (int i = 0; i <= 12; i++) {
            // t_i matches on m_i and sets m_{i+1}; t6 matches on another field and copies m6 into m7
            t.add(c.table("t" + i, MatchKind.EXACT, 64, 8, i == 6 ? other : m.get(i)));
        }
        c.apply(code -> {
            for (int i = 0; i <= 12; i++) {
                int n = i;
                Block.TableApply ap = code.apply(t.get(n));
                if (n < 12) {
                    ap.on(1, hit -> hit.set(m.get(n + 1), n == 6 ? read(m.get(6)) : constant(n)));
                }
            }
        });
        StageProgram p = b.build();
        UserError e = assertThrows(UserError.class, () -> ProgramCompiler.compile(p, TOFINO1));
        assertEquals(Compilation.EXIT_REFUSED, e.exitCode());
        assertEquals("program chain: ingress needs 13 stages, tofino1 has 12: t0 -(match: meta.m1)-> t1 -(match: meta.m2)-> t2"
                + " -(match: meta.m3)-> t3 -(match: meta.m4)-> t4 -(match: meta.m5)-> t5 -(action: meta.m6)-> t6"
                + " -(match: meta.m7)-> t7 -(match: meta.m8)-> t8 -(match: meta.m9)-> t9 -(match: meta.m10)-> t10"
                + " -(match: meta.m11)-> t11 -(match: meta.m12)-> t12", e.getMessage());
        assertTrue(ProgramCompiler.compile(p, TargetProfiles.builtIn("tofino2")).accepted(), "tofino2 has 20 stages");
    }

    /** {@code n} register arrays r0.. in {@code t}'s control, each with one action {@code inc} adding 1. */
    private static List<RegisterAction> incrementers(Tiny t, int n) {
        List<RegisterAction> actions = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            RegisterArray r = t.c.register("r" + i, 32, 1024);
            actions.add(t.c.action(RegisterAction.on(r, "inc").updateLo(AluOp.ADD, Operand.REG_LO, Operand.constant(1))));
        }
        return actions;
    }

    /**
     * A run of eight independent register actions needs eight stateful ALUs; a tofino1 stage has
     * four. p4c gives each extern call of an apply block an action table of its own (bf-p4c
     * midend/action_synthesis_policy.h, ActionSynthesisPolicy::can_combine) and places each
     * where it fits (mau/table_placement.cpp, TablePlacement): the first four go to stage 0, the
     * rest, pushed by stage 0's stateful ALUs, to stage 1. The instruction between them goes
     * with the head, whose stage has room for it.
     */
    @Test
    void aRunOfMoreRegisterActionsThanAStageHasSpreadsOverStages() {
        Tiny t = new Tiny();
        List<RegisterAction> actions = incrementers(t, 8);
        StageProgram p = t.place(code -> {
            for (int i = 0; i < 8; i++) {
                code.execute(actions.get(i), read(t.k1));
                if (i == 1) {
                    code.set(t.x, 7);
                }
            }
        });
        assertEquals(List.of(0, 0, 0, 0, 1, 1, 1, 1), p.registers().stream().map(RegisterArray::stage).toList());
        assertEquals(List.of("r0.inc", "r4.inc"), p.placement().stream().map(ElementPlacement::element).toList());
        assertEquals("no dependency", why(p, "r0.inc").reason());
        assertEquals("no dependency; earliest 0, pushed down: stage 0 ingress: stateful ALUs 8 > 4", why(p, "r4.inc").reason());
        assertEquals(StageDependency.CONCURRENT, p.stages(Gress.INGRESS).get(1).dependency());
    }

    /**
     * A split keeps program order. The run reads k2 (the first five indexes) and then writes it: a
     * write after a read stays in one run, every statement reading the value the run started
     * with. Cut in program order, the readers come first, and the piece that writes keeps a
     * reverse dependency on them (FindDataDependencyGraph's ANTI: the same stage or later), so
     * no reader sees the new value.
     */
    @Test
    void aSplitRunKeepsEveryReadBeforeTheLaterWrite() {
        Tiny t = new Tiny();
        List<RegisterAction> actions = incrementers(t, 6);
        StageProgram p = t.place(code -> {
            for (int i = 0; i < 5; i++) {
                code.execute(actions.get(i), read(t.k2));
            }
            code.set(t.k2, 3).execute(actions.get(5), read(t.k1));
        });
        assertEquals(List.of(0, 0, 0, 0, 1, 1), p.registers().stream().map(RegisterArray::stage).toList());
        assertEquals("reverse dependency on r0.inc (meta.k2); earliest 0, pushed down: stage 0 ingress: stateful ALUs 6 > 4",
                why(p, "r4.inc").reason());
        assertEquals("[Execute[action=r4.inc (RAW), index=meta.k2, inLo=0, inHi=0], Assign[dest=meta.k2<8>, value=3], "
                + "Execute[action=r5.inc (RAW), index=meta.k1, inLo=0, inHi=0]]", p.stages(Gress.INGRESS).get(1).body().toString());
    }

    /**
     * Forty-nine independent register actions need thirteen stages of four stateful ALUs;
     * tofino1 has twelve: refused naming the element that ends up past the last stage and the
     * stages whose stateful ALUs pushed it there. A chain of instructions, each reading the one
     * before (a PHV write is visible from the next stage), longer than the target is refused
     * naming the chain, as a chain of tables is.
     */
    @Test
    void aRunLongerThanTheTargetIsRefusedNamingWhatMakesItLong() {
        Tiny t = new Tiny();
        List<RegisterAction> actions = incrementers(t, 49);
        UserError e = refusal(t, code -> actions.forEach(a -> code.execute(a, read(t.k1))));
        assertEquals(Compilation.EXIT_REFUSED, e.exitCode());
        assertEquals("program tiny: ingress needs 13 stages, tofino1 has 12: r48.inc [stage 0..11 full]", e.getMessage());

        ProgramBuilder b = ProgramBuilder.create("chain", "13 dependent instructions");
        List<Field> v = new ArrayList<>();
        for (int i = 0; i <= 13; i++) {
            v.add(b.metadata(Gress.INGRESS, "meta.v" + i, 8));
        }
        b.control(Gress.INGRESS).apply(code -> {
            for (int i = 1; i <= 13; i++) {
                code.set(v.get(i), read(v.get(i - 1)));
            }
        });
        StageProgram chain = b.build();
        UserError c = assertThrows(UserError.class, () -> ProgramCompiler.compile(chain, TOFINO1));
        assertEquals(Compilation.EXIT_REFUSED, c.exitCode());
        StringBuilder expected = new StringBuilder("program chain: ingress needs 13 stages, tofino1 has 12: set(meta.v1)");
        for (int i = 2; i <= 13; i++) {
            expected.append(" -(action: meta.v").append(i - 1).append(")-> set(meta.v").append(i).append(')');
        }
        assertEquals(expected.toString(), c.getMessage());
    }

    private static UserError refusal(Tiny t, Consumer<Block> body) {
        t.c.apply(body);
        StageProgram p = t.b.build();
        return assertThrows(UserError.class, () -> ProgramCompiler.compile(p, TOFINO1));
    }

    /**
     * rmtemu has no next-table chain across stages: a gateway whose branch reaches a later stage
     * is evaluated again there, which is refused when its field changes in between (here the
     * branch's own first action rewrites it and its table needs the next stage); the legal twin
     * is {@link #aFullStagePushesAnElementDown}, whose gateway field never changes.
     */
    @Test
    void aRepeatedGatewayWhoseFieldChangesInBetweenIsRefused() {
        Tiny t = new Tiny();
        MatchTable b = t.table("b", t.x);
        UserError e = refusal(t, code -> code.when(eq(read(t.k1), constant(0)),
                then -> then.set(t.k1, 1).set(t.x, 2).apply(b)));
        assertEquals(Compilation.EXIT_REFUSED, e.exitCode());
        assertEquals("program tiny: ingress gateway if (meta.k1 == 0) (stage 0) controls elements up to stage 1, and rmtemu "
                + "evaluates it again in each of those stages, but meta.k1, which it reads, is written in stage 0 by "
                + "set(meta.k1, meta.x); copy the condition's result into a field first", e.getMessage());
    }

    /**
     * A register array lives in one stage (bf-p4c: a stateful ALU and its RAMs belong to one
     * stage, mau/table_placement.cpp places an attached table with the table that drives it), so
     * two actions on one array in exclusive branches share a stage; when a dependency pushes one
     * of them later, the program is refused naming the array.
     */
    @Test
    void actionsOnOneRegisterArrayShareAStageOrAreRefused() {
        Tiny t = new Tiny();
        RegisterArray r = t.c.register("r", 32, 1024);
        RegisterAction inc = t.c.action(RegisterAction.on(r, "inc").updateLo(AluOp.ADD, Operand.REG_LO, Operand.constant(1)));
        RegisterAction dec = t.c.action(RegisterAction.on(r, "dec").updateLo(AluOp.SUB, Operand.REG_LO, Operand.constant(1)));
        StageProgram p = t.place(code -> code.when(eq(read(t.k1), constant(0)),
                then -> then.execute(inc, read(t.k2)), otherwise -> otherwise.execute(dec, read(t.k2))));
        assertEquals(0, p.register("r").stage());
        assertEquals(List.of(0, 0), p.placement().stream().filter(e -> e.element().startsWith("r.")).map(ElementPlacement::stage)
                .toList());

        Tiny bad = new Tiny();
        RegisterArray r2 = bad.c.register("r", 32, 1024);
        RegisterAction inc2 = bad.c.action(RegisterAction.on(r2, "inc").updateLo(AluOp.ADD, Operand.REG_LO, Operand.constant(1)));
        RegisterAction dec2 = bad.c.action(RegisterAction.on(r2, "dec").updateLo(AluOp.SUB, Operand.REG_LO, Operand.constant(1)));
        UserError e = refusal(bad, code -> code.execute(inc2, read(bad.k2)).set(bad.x, 1)
                .when(eq(read(bad.k1), constant(0)), then -> then.execute(dec2, read(bad.x))));
        assertEquals("program tiny: ingress action r.dec: needs stage 1 or later (its match dependency on r.inc (meta.x)) "
                + "but register array r is in stage 0, used by r.inc", e.getMessage());
    }

    /** A declared element the apply body never uses is a mistake in the program (exit 2), as is a table applied twice. */
    @Test
    void unusedElementsAndTablesAppliedTwiceAreRefused() {
        Tiny t = new Tiny();
        t.table("a", t.k1);
        MatchTable b = t.table("b", t.k2);
        UserError e = refusal(t, code -> code.apply(b));
        assertEquals(2, e.exitCode());
        assertEquals("program tiny: the ingress control declares table a but its apply body never uses it", e.getMessage());

        Tiny twice = new Tiny();
        MatchTable a2 = twice.table("a", twice.k1);
        UserError again = refusal(twice, code -> {
            code.apply(a2).on(1, hit -> hit.set(twice.x, 1));
            code.apply(a2);
        });
        assertEquals("program tiny: ingress table a: applied twice (a table is applied once per control, as in P4)",
                again.getMessage());
    }
}
