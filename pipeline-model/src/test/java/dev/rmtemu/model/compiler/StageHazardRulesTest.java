package dev.rmtemu.model.compiler;

import dev.rmtemu.model.UserError;
import dev.rmtemu.model.hash.HashAlgorithm;
import dev.rmtemu.model.hash.HashUnit;
import dev.rmtemu.model.phv.Field;
import dev.rmtemu.model.phv.Gress;
import dev.rmtemu.model.check.PhvAllocation;
import dev.rmtemu.model.program.ProgramBuilder;
import dev.rmtemu.model.program.StageProgram;
import dev.rmtemu.model.register.AluOp;
import dev.rmtemu.model.register.CmpOp;
import dev.rmtemu.model.register.Operand;
import dev.rmtemu.model.register.Predicate;
import dev.rmtemu.model.register.RegisterAction;
import dev.rmtemu.model.register.RegisterArray;
import dev.rmtemu.model.table.MatchKind;
import dev.rmtemu.model.table.MatchTable;
import dev.rmtemu.model.target.TargetProfiles;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;

import static dev.rmtemu.model.ir.Ir.add;
import static dev.rmtemu.model.ir.Ir.and;
import static dev.rmtemu.model.ir.Ir.constant;
import static dev.rmtemu.model.ir.Ir.eq;
import static dev.rmtemu.model.ir.Ir.hash;
import static dev.rmtemu.model.ir.Ir.mul;
import static dev.rmtemu.model.ir.Ir.output;
import static dev.rmtemu.model.ir.Ir.read;
import static dev.rmtemu.model.ir.Ir.shl;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Issue 30's hardware rules 1, 2, 4, 5 and 7: each refused (or warned) case next to its
 * legal twin, with the p4c Tofino back-end source behind the rule.
 */
class StageHazardRulesTest {
    private static final String TOFINO = "tofino1";

    /** Two register arrays in ingress stage 0 (counts, 16-bit addressed; sums) and a 16-bit hash. */
    private record Rig(ProgramBuilder b, Field src, Field meta, Field slot, HashUnit h16, RegisterAction inc,
                       RegisterAction sum, ProgramBuilder.StageBuilder s0) {
    }

    private static Rig rig() {
        ProgramBuilder b = ProgramBuilder.create("t", "test");
        Field src = b.header("ipv4.src_addr");
        Field meta = b.metadata(Gress.INGRESS, "meta.x", 32);
        Field slot = b.metadata(Gress.INGRESS, "meta.slot", 16);
        ProgramBuilder.StageBuilder s0 = b.stage(Gress.INGRESS, 0);
        HashUnit h16 = s0.hash("h16", HashAlgorithm.byName("crc32"), 16, src);
        RegisterArray counts = s0.register("counts", 32, 65536);
        RegisterAction inc = s0.action(RegisterAction.on(counts, "inc")
                .updateLo(AluOp.ADD, Operand.REG_LO, Operand.constant(1)).output(RegisterAction.OutputSource.NEW_LO));
        RegisterArray sums = s0.register("sums", 32, 65536);
        RegisterAction sum = s0.action(RegisterAction.on(sums, "sum")
                .updateLo(AluOp.ADD, Operand.REG_LO, Operand.IN_LO).output(RegisterAction.OutputSource.NEW_LO));
        return new Rig(b, src, meta, slot, h16, inc, sum, s0);
    }

    private static Compilation compile(ProgramBuilder b) {
        return ProgramCompiler.compile(b.build(), TargetProfiles.builtIn(TOFINO));
    }

    /**
     * Rule 1. p4c: a stateful ALU's sources are PHV fields or hash bits over the input crossbar
     * (mau/input_xbar.cpp, IXBar::FindSaluSources); its address comes from hash distribution or
     * match overhead; a field read over the crossbar is an IXBAR_READ (match) dependency on the
     * table that writes it (mau/table_dependency_graph.cpp, FindDataDependencyGraph::AddDependencies),
     * so the reader is placed at least one stage later.
     */
    @Test
    void aRegisterOutputAsAnotherStatefulAlusIndexIsRefused() {
        Rig r = rig();
        r.s0().body(c -> c.execute(r.inc(), hash(r.h16()))
                .execute(r.sum(), and(output(r.inc()), constant(65535)), read(r.src())));
        assertEquals(List.of("t: ingress stage 0: register action sum of array sums: reads the output of register action inc "
                + "of array counts as its index; a stateful ALU is addressed by hash or match overhead and fed PHV words or "
                + "hash bits, and another stateful ALU's output reaches the PHV at the end of the stage, so it can be used "
                + "from stage 1 on [stage-dependencies]"), compile(r.b()).lines());
        // the twin: the output lands in a field, and stage 1 addresses the other array with it
        Rig ok = rig();
        ok.s0().body(c -> c.execute(ok.inc(), hash(ok.h16())).set(ok.slot(), output(ok.inc())));
        ProgramBuilder.StageBuilder s1 = ok.b().stage(Gress.INGRESS, 1);
        RegisterAction later = s1.action(RegisterAction.on(s1.register("later", 32, 65536), "sum")
                .updateLo(AluOp.ADD, Operand.REG_LO, Operand.IN_LO));
        s1.body(c -> c.execute(later, read(ok.slot()), read(ok.src())));
        assertEquals(List.of(), compile(ok.b()).lines());
    }

    /** Rule 1, the ALU input: the same p4c sources (IXBar::FindSaluSources takes PHV or hash, never an ALU output). */
    @Test
    void aRegisterOutputAsAnotherStatefulAlusInputIsRefused() {
        Rig r = rig();
        r.s0().body(c -> c.execute(r.inc(), hash(r.h16())).execute(r.sum(), hash(r.h16()), output(r.inc())));
        assertEquals(List.of("t: ingress stage 0: register action sum of array sums: reads the output of register action inc "
                + "of array counts as its stateful-ALU input; a stateful ALU is addressed by hash or match overhead and fed "
                + "PHV words or hash bits, and another stateful ALU's output reaches the PHV at the end of the stage, so it "
                + "can be used from stage 1 on [stage-dependencies]"), compile(r.b()).lines());
        // the twin: both ALUs read the packet's field, as they entered the stage
        Rig ok = rig();
        ok.s0().body(c -> c.execute(ok.inc(), hash(ok.h16())).execute(ok.sum(), hash(ok.h16()), read(ok.src())));
        assertEquals(List.of(), compile(ok.b()).lines());
    }

    /** Two metadata fields packed as the m.hi24 / m.lo8 and read together in a later stage. */
    private record Packed(ProgramBuilder b, Field hi24, Field lo8, Field src) {
    }

    private static Packed packed() {
        ProgramBuilder b = ProgramBuilder.create("t", "test");
        Field src = b.header("ipv4.src_addr");
        Field hi24 = b.metadata(Gress.INGRESS, "m.hi24", 24);
        Field lo8 = b.metadata(Gress.INGRESS, "m.lo8", 8);
        b.stage(Gress.INGRESS, 3).body(c -> c.set(src, add(read(hi24), read(lo8))));
        return new Packed(b, hi24, lo8, src);
    }

    /**
     * Rule 2. p4c keeps fields one stage writes by different instructions out of one container
     * when it allocates PHV: fields written by tables that share a stage get a no-pack constraint
     * (phv/analysis/pack_conflicts.cpp, PackConflicts::generateNoPackConstraints, skipped for mutually
     * exclusive tables and actions), and inside one action fields share a container only when their
     * writes make one instruction (phv/action_phv_constraints.cpp, ActionPhvConstraints::can_pack).
     * rmtemu does the same: the program is accepted and the PHV total grows.
     */
    @Test
    void fieldsWrittenByDifferentOperationsInOneStageGetSeparateContainers() {
        Packed p = packed();
        p.b().stage(Gress.INGRESS, 1).body(c -> c
                .set(p.hi24(), shl(read(p.src()), constant(8)))
                .set(p.lo8(), add(read(p.src()), constant(1))));
        StageProgram prog = p.b().build();
        Compilation c = ProgramCompiler.compile(prog, TargetProfiles.builtIn(TOFINO));
        assertEquals(List.of(), c.lines());
        assertEquals(Set.of("m.lo8"), demand(prog, "m.hi24").noPack());
        assertEquals(Set.of("m.hi24"), demand(prog, "m.lo8").noPack());
        // the twin: the same two writes in two stages share one 32-bit container: 8 b less
        Packed q = packed();
        q.b().stage(Gress.INGRESS, 1).body(c2 -> c2.set(q.hi24(), shl(read(q.src()), constant(8))));
        q.b().stage(Gress.INGRESS, 2).body(c2 -> c2.set(q.lo8(), add(read(q.src()), constant(1))));
        StageProgram twin = q.b().build();
        Compilation t = ProgramCompiler.compile(twin, TargetProfiles.builtIn(TOFINO));
        assertEquals(List.of(), t.lines());
        assertEquals(Set.of(), demand(twin, "m.hi24").noPack());
        // placed alone, the two fields take a 32-bit and an 8-bit container; the twin's share one 32-bit one
        assertEquals(40, pairBits(prog));
        assertEquals(32, pairBits(twin));
    }

    private static long pairBits(StageProgram p) {
        return PhvAllocation.allocate(TargetProfiles.builtIn(TOFINO), List.of(demand(p, "m.hi24"), demand(p, "m.lo8"))).usedBits();
    }

    /** Rule 2: writes on exclusive branches of one gateway, and plain moves in one block, may share a container. */
    @Test
    void exclusiveBranchesAndMovesInOneBlockMayShareAContainer() {
        Packed p = packed();
        p.b().stage(Gress.INGRESS, 1).body(c -> c.when(eq(read(p.src()), constant(0)),
                t -> t.set(p.hi24(), shl(read(p.src()), constant(8))),
                e -> e.set(p.lo8(), add(read(p.src()), constant(1)))));
        assertEquals(Set.of(), demand(p.b().build(), "m.hi24").noPack());
        Packed q = packed();
        q.b().stage(Gress.INGRESS, 1).body(c -> c.set(q.hi24(), read(q.src())).set(q.lo8(), constant(7)));
        assertEquals(Set.of(), demand(q.b().build(), "m.lo8").noPack());
    }

    private static PhvAllocation.Demand demand(StageProgram p, String field) {
        return PhvLiveness.demands(p).stream().filter(d -> d.members().contains(field)).findFirst().orElseThrow();
    }

    /** Rule 4: '*' is commutative, so a power-of-two constant on the left is a shift as well (TargetOperatorsPass). */
    @Test
    void aPowerOfTwoConstantOnTheLeftOfMultiplyIsAShift() {
        Rig r = rig();
        r.s0().body(c -> c.set(r.meta(), mul(constant(4), read(r.src()))));
        assertEquals(List.of(), compile(r.b()).lines());
        Rig bad = rig();
        bad.s0().body(c -> c.set(bad.meta(), mul(constant(3), read(bad.src()))));
        assertEquals(List.of("t: ingress stage 0: expression (3 * ipv4.src_addr): '*' by 3, not a power of two; tofino1 can "
                + "only shift or mask (no multiplier or divider) [target-operators]"), compile(bad.b()).lines());
    }

    /**
     * Rule 5: a Tofino stateful ALU instruction has two comparators (p4c mau/stateful_alu.h, the
     * stateful ALU overview and CreateSaluInstruction::setupCmp: "four sub-ALUs, two comparators,
     * output sub-ALU"). Three conditions are refused by the compiler, naming the stage and pass
     * (the resource checker's rule, [stage-resources]), not thrown while the program is built.
     */
    @Test
    void aStatefulAluWithThreeConditionsIsRefusedByThePass() {
        ProgramBuilder b = ProgramBuilder.create("t", "test");
        Field src = b.header("ipv4.src_addr");
        ProgramBuilder.StageBuilder s0 = b.stage(Gress.INGRESS, 0);
        HashUnit h = s0.hash("h10", HashAlgorithm.byName("crc16"), 10, src);
        RegisterArray win = s0.register("win", 32, 1024);
        RegisterAction.Builder clamp = RegisterAction.on(win, "clamp")
                .condition(Operand.REG_LO, CmpOp.GT, Operand.constant(100))
                .condition(Operand.REG_LO, CmpOp.LT, Operand.constant(10))
                .updateLo(Predicate.C0, AluOp.SET, Operand.constant(100), Operand.constant(0))
                .updateLo(Predicate.C1, AluOp.SET, Operand.constant(10), Operand.constant(0));
        RegisterAction two = s0.action(clamp.build());
        s0.body(c -> c.execute(two, hash(h)));
        assertEquals(List.of(), compile(b).lines());

        ProgramBuilder b3 = ProgramBuilder.create("t", "test");
        Field src3 = b3.header("ipv4.src_addr");
        ProgramBuilder.StageBuilder t0 = b3.stage(Gress.INGRESS, 0);
        HashUnit h3 = t0.hash("h10", HashAlgorithm.byName("crc16"), 10, src3);
        RegisterArray win3 = t0.register("win", 32, 1024);
        RegisterAction three = t0.action(RegisterAction.on(win3, "clamp")
                .condition(Operand.REG_LO, CmpOp.GT, Operand.constant(100))
                .condition(Operand.REG_LO, CmpOp.LT, Operand.constant(10))
                .condition(Operand.REG_LO, CmpOp.EQ, Operand.constant(50))
                .updateLo(Predicate.C0, AluOp.SET, Operand.constant(100), Operand.constant(0)));
        t0.body(c -> c.execute(three, hash(h3)));
        StageProgram p3 = b3.build();
        Compilation c = ProgramCompiler.compile(p3, TargetProfiles.builtIn(TOFINO));
        assertEquals(List.of("t: stage 0 ingress: register action 'win.clamp' has 3 conditions > 2 [stage-resources]"),
                c.lines());
        UserError e = assertThrows(UserError.class, c::requireAccepted);
        assertEquals(3, e.exitCode());
        // unconstrained allows any number, but predicates name c0 and c1 only
        assertEquals(List.of("t: stage 0 ingress: register action 'win.clamp' has 3 conditions > 2 (predicates name c0 and "
                + "c1 only) [stage-resources]"), ProgramCompiler.compile(p3, TargetProfiles.builtIn("unconstrained")).lines());
    }

    /** A table in stage 1 keyed by meta.x, and what writes meta.x. */
    private static Compilation keyedTable(boolean writeInStage1) {
        Rig r = rig();
        r.s0().body(c -> {
            if (!writeInStage1) {
                c.set(r.meta(), read(r.src()));
            }
        });
        ProgramBuilder.StageBuilder s1 = r.b().stage(Gress.INGRESS, 1);
        MatchTable fwd = s1.table("fwd", MatchKind.EXACT, 1024, 16, r.meta());
        s1.body(c -> {
            if (writeInStage1) {
                c.when(eq(read(r.src()), constant(0)), t -> t.set(r.meta(), read(r.src())));
            }
            c.apply(fwd).on(1, a -> a.set(r.slot(), 1));
        });
        return compile(r.b());
    }

    /**
     * Rule 7: Tofino's match input crossbar reads the PHV as it entered the stage, so a key field
     * written in the same stage matches its old value (p4c places the table a stage later: an
     * IXBAR_READ dependency, mau/table_dependency_graph.cpp). Legal as written; a warning names both.
     */
    @Test
    void aTableKeyWrittenInItsOwnStageIsAWarningNotARefusal() {
        Compilation c = keyedTable(true);
        assertEquals(List.of(), c.lines());
        assertEquals(List.of("t: ingress stage 1: table fwd: key field meta.x is written in the same stage by gateway "
                + "'ipv4.src_addr == 0' (then branch) instruction 'meta.x = ipv4.src_addr'; the lookup sees the value it had "
                + "when the packet entered the stage (a write is visible from the next stage) [stage-dependencies]"),
                c.warningLines());
        // the twin: written one stage earlier, the table sees the new value; no warning
        Compilation twin = keyedTable(false);
        assertEquals(List.of(), twin.lines());
        assertEquals(List.of(), twin.warningLines());
    }
}
