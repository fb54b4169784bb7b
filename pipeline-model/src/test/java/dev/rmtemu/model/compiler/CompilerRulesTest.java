package dev.rmtemu.model.compiler;

import dev.rmtemu.model.UserError;
import dev.rmtemu.model.hash.HashAlgorithm;
import dev.rmtemu.model.hash.HashUnit;
import dev.rmtemu.model.ir.Block;
import dev.rmtemu.model.phv.Field;
import dev.rmtemu.model.phv.Gress;
import dev.rmtemu.model.program.ProgramBuilder;
import dev.rmtemu.model.program.StageProgram;
import dev.rmtemu.model.register.AluOp;
import dev.rmtemu.model.register.Operand;
import dev.rmtemu.model.register.RegisterAction;
import dev.rmtemu.model.register.RegisterArray;
import dev.rmtemu.model.target.TargetProfiles;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.function.BiConsumer;

import static dev.rmtemu.model.ir.Ir.add;
import static dev.rmtemu.model.ir.Ir.constant;
import static dev.rmtemu.model.ir.Ir.eq;
import static dev.rmtemu.model.ir.Ir.hash;
import static dev.rmtemu.model.ir.Ir.mod;
import static dev.rmtemu.model.ir.Ir.output;
import static dev.rmtemu.model.ir.Ir.read;
import static dev.rmtemu.model.ir.Ir.shl;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every rule the compiler passes enforce: a program that breaks it is refused
 * with the named line, and a legal twin that differs only in that point is
 * accepted. The Tofino facts behind the rules: container ALUs have no
 * multiplier or divider and shift by an instruction constant; a stateful ALU's
 * output lands in the PHV at the end of its stage, so gateways see it from the
 * next stage (p4c's bf-p4c table placement puts a gateway that reads it in a
 * later stage); one stateful-ALU access per register per packet pass; one
 * instruction per PHV container per action.
 */
class CompilerRulesTest {

    /** A one-array test program: src address and a counter of 16 Ki cells in ingress stage 0. */
    private record Fixture(ProgramBuilder b, Field src, Field meta, Field meta2, HashUnit h16, HashUnit h17,
                           RegisterAction inc, ProgramBuilder.StageBuilder s0) {
    }

    private static Fixture fixture() {
        ProgramBuilder b = ProgramBuilder.create("t", "test");
        Field src = b.header("ipv4.src_addr");
        Field meta = b.metadata(Gress.INGRESS, "meta.x", 32);
        Field meta2 = b.metadata(Gress.INGRESS, "meta.y", 16);
        ProgramBuilder.StageBuilder s0 = b.stage(Gress.INGRESS, 0);
        HashUnit h16 = s0.hash("h16", HashAlgorithm.byName("crc32"), 16, src);
        HashUnit h17 = s0.hash("h17", HashAlgorithm.byName("crc16"), 17, src);
        RegisterArray arr = s0.register("counts", 32, 65536);
        RegisterAction inc = s0.action(RegisterAction.on(arr, "inc")
                .updateLo(AluOp.ADD, Operand.REG_LO, Operand.constant(1)).output(RegisterAction.OutputSource.NEW_LO));
        return new Fixture(b, src, meta, meta2, h16, h17, inc, s0);
    }

    private static Compilation compile(BiConsumer<Fixture, Block> stage0, String target) {
        Fixture f = fixture();
        f.s0().body(code -> stage0.accept(f, code));
        StageProgram p = f.b().build();
        return ProgramCompiler.compile(p, TargetProfiles.builtIn(target));
    }

    private static void refused(Compilation c, String line) {
        assertEquals(List.of(line), c.lines());
    }

    private static void accepted(Compilation c) {
        assertEquals(List.of(), c.lines());
    }

    @Test
    void moduloByANonPowerOfTwoIsRefusedOnTofinoButNotUnconstrained() {
        // MIDST's 'index % 40960': Tofino's container ALUs have no divider
        refused(compile((f, c) -> c.set(f.meta2(), mod(read(f.src()), constant(40960))), "tofino1"),
                "t: ingress stage 0: expression (ipv4.src_addr % 40960): '%' by 40960, not a power of two; "
                        + "tofino1 can only shift or mask (no multiplier or divider) [target-operators]");
        accepted(compile((f, c) -> c.set(f.meta2(), mod(read(f.src()), constant(32768))), "tofino1"));
        accepted(compile((f, c) -> c.set(f.meta2(), mod(read(f.src()), constant(40960))), "unconstrained"));
    }

    @Test
    void divisionAndMultiplicationByARunTimeValueAreRefused() {
        Compilation c = compile((f, code) -> code.set(f.meta(),
                dev.rmtemu.model.ir.Ir.mul(read(f.src()), read(f.meta2()))), "tofino1");
        refused(c, "t: ingress stage 0: expression (ipv4.src_addr * meta.y): '*' by a run-time value; "
                + "tofino1 has no multiplier or divider [target-operators]");
        accepted(compile((f, code) -> code.set(f.meta(), dev.rmtemu.model.ir.Ir.mul(read(f.src()), constant(8))), "tofino1"));
    }

    @Test
    void shiftByARunTimeAmountIsRefused() {
        refused(compile((f, c) -> c.set(f.meta(), shl(read(f.src()), read(f.meta2()))), "tofino1"),
                "t: ingress stage 0: expression (ipv4.src_addr << meta.y): shift by a run-time amount; "
                        + "tofino1's container ALUs shift by a constant [target-operators]");
        accepted(compile((f, c) -> c.set(f.meta(), shl(read(f.src()), constant(3))), "tofino1"));
    }

    @Test
    void gatewayOnARegisterOutputOfTheSameStageIsRefused() {
        refused(compile((f, c) -> c.execute(f.inc(), hash(f.h16()))
                        .when(eq(output(f.inc()), constant(1)), t -> t.set(f.meta2(), 7)), "tofino1"),
                "t: ingress stage 0: gateway 'counts.inc.output == 1': branches on the output of register action inc "
                        + "of array counts run in the same stage; the output reaches the PHV at the end of the stage, "
                        + "so the branch can be taken from stage 1 on [stage-dependencies]");
        // the twin: the output goes to a field, and stage 1 branches on the field
        Fixture f = fixture();
        f.s0().body(c -> c.execute(f.inc(), hash(f.h16())).set(f.meta(), output(f.inc())));
        f.b().stage(Gress.INGRESS, 1).body(c -> c.when(eq(read(f.meta()), constant(1)), t -> t.set(f.meta2(), 7)));
        accepted(ProgramCompiler.compile(f.b().build(), TargetProfiles.builtIn("tofino1")));
    }

    @Test
    void registerArrayAccessedTwiceOnOnePathIsRefusedOnceOnEachBranchIsNot() {
        refused(compile((f, c) -> c.execute(f.inc(), hash(f.h16()))
                        .when(eq(read(f.src()), constant(0)), t -> t.execute(f.inc(), hash(f.h16()))), "tofino1"),
                "t: ingress stage 0: register array counts: accessed 2 times on one control path; a stateful ALU does "
                        + "one read-modify-write per packet pass [register-access]");
        accepted(compile((f, c) -> c.when(eq(read(f.src()), constant(0)),
                t -> t.execute(f.inc(), hash(f.h16())),
                e -> e.execute(f.inc(), constant(5))), "tofino1"));
    }

    @Test
    void aTableAppliedTwiceOnOnePathIsRefused() {
        Fixture f = fixture();
        var t = f.s0().table("fwd", dev.rmtemu.model.table.MatchKind.EXACT, 64, 16, f.src());
        f.s0().body(c -> {
            c.apply(t).on(1, a -> a.set(f.meta2(), dev.rmtemu.model.ir.Ir.actionData(t)));
            c.when(eq(read(f.src()), constant(0)), x -> x.apply(t).miss(m -> m.set(f.meta(), 1)));
        });
        refused(ProgramCompiler.compile(f.b().build(), TargetProfiles.builtIn("tofino1")),
                "t: ingress stage 0: table fwd: applied 2 times on one control path; a logical table is looked up once "
                        + "per packet pass [register-access]");
        Fixture g = fixture();
        var u = g.s0().table("fwd", dev.rmtemu.model.table.MatchKind.EXACT, 64, 16, g.src());
        g.s0().body(c -> c.when(eq(read(g.src()), constant(0)),
                x -> x.apply(u).miss(m -> m.set(g.meta(), 1)),
                y -> y.apply(u).miss(m -> m.set(g.meta(), 2))));
        accepted(ProgramCompiler.compile(g.b().build(), TargetProfiles.builtIn("tofino1")));
    }

    @Test
    void aContainerWrittenTwiceOnOnePathIsRefused() {
        refused(compile((f, c) -> c.set(f.meta2(), 1).set(f.meta2(), 2), "tofino1"),
                "t: ingress stage 0: field meta.y: written 2 times on one control path; its container takes one "
                        + "instruction per stage [vliw-instructions]");
        accepted(compile((f, c) -> c.when(eq(read(f.src()), constant(0)), t -> t.set(f.meta2(), 1), e -> e.set(f.meta2(), 2)),
                "tofino1"));
    }

    @Test
    void anInstructionNeedingTwoAluOperationsIsRefused() {
        refused(compile((f, c) -> c.set(f.meta(), add(add(read(f.src()), constant(1)), constant(2))), "tofino1"),
                "t: ingress stage 0: field meta.x: 'meta.x = ((ipv4.src_addr + 1) + 2)' needs 2 ALU operations; "
                        + "a container's ALU does one per stage [vliw-instructions]");
        accepted(compile((f, c) -> c.set(f.meta(), add(read(f.src()), constant(3))), "tofino1"));
        // fullArithmetic (unconstrained) evaluates any expression in one instruction
        accepted(compile((f, c) -> c.set(f.meta(), add(add(read(f.src()), constant(1)), constant(2))), "unconstrained"));
    }

    @Test
    void aRegisterIndexThatCanPassTheArrayIsRefused() {
        refused(compile((f, c) -> c.execute(f.inc(), hash(f.h17())), "tofino1"),
                "t: ingress stage 0: register array counts: index h17.get() can reach 131071 but the array has 65536 "
                        + "cells (use a power-of-two size, or fold the index onto the size) [widths-and-types]");
        accepted(compile((f, c) -> c.execute(f.inc(), hash(f.h16())), "tofino1"));
        // folding with a power-of-two mask is a bit selection, legal everywhere
        accepted(compile((f, c) -> c.execute(f.inc(), mod(hash(f.h17()), constant(65536))), "tofino1"));
    }

    @Test
    void aRegisterOutputUsedWhereItsActionDidNotRunIsRefused() {
        refused(compile((f, c) -> c.when(eq(read(f.src()), constant(0)), t -> t.execute(f.inc(), hash(f.h16())))
                        .set(f.meta(), output(f.inc())), "tofino1"),
                "t: ingress stage 0: register action inc: its output is used on a control path where the action does "
                        + "not run before [stage-dependencies]");
        accepted(compile((f, c) -> c.execute(f.inc(), hash(f.h16())).set(f.meta(), output(f.inc())), "tofino1"));
    }

    @Test
    void aConstantWiderThanItsFieldIsRefused() {
        refused(compile((f, c) -> c.set(f.meta2(), 65536), "tofino1"),
                "t: ingress stage 0: field meta.y: constant 65536 does not fit its 16 bits [widths-and-types]");
        accepted(compile((f, c) -> c.set(f.meta2(), 65535), "tofino1"));
    }

    @Test
    void aHashOfAnotherStageIsRefused() {
        Fixture f = fixture();
        f.s0().body(c -> c.set(f.meta(), read(f.src())));
        f.b().stage(Gress.INGRESS, 1).body(c -> c.set(f.meta2(), hash(f.h16())));
        refused(ProgramCompiler.compile(f.b().build(), TargetProfiles.builtIn("tofino1")),
                "t: ingress stage 1: hash unit h16: read here but placed in ingress stage 0 (a hash output is used in "
                        + "its own stage) [widths-and-types]");
        accepted(compile((g, c) -> c.set(g.meta2(), hash(g.h16())), "tofino1"));
    }

    @Test
    void aGatewayOnAHashOutputOfItsOwnStageIsRefused() {
        refused(compile((f, c) -> c.when(eq(hash(f.h16()), constant(0)), t -> t.set(f.meta2(), 1)), "tofino1"),
                "t: ingress stage 0: gateway 'h16.get() == 0': branches on hash unit h16 of the same stage; a hash output "
                        + "reaches the PHV at the end of the stage, so the branch can be taken from stage 1 on [stage-dependencies]");
        // the twin: the hash goes to a field, and the next stage branches on it
        Fixture f = fixture();
        f.s0().body(c -> c.set(f.meta2(), hash(f.h16())));
        f.b().stage(Gress.INGRESS, 1).body(c -> c.when(eq(read(f.meta2()), constant(0)), t -> t.set(f.meta(), 1)));
        accepted(ProgramCompiler.compile(f.b().build(), TargetProfiles.builtIn("tofino1")));
    }

    /**
     * Instruction memory: 32 rows x 2 colours per gress with one slot for the no-op
     * (bf-p4c specs/mau_spec.h) holds 63 action instruction words; a table whose
     * action blocks need 64 is refused, one with 63 fits.
     */
    @Test
    void sixtyFourActionBlocksOverflowInstructionMemorySixtyThreeFit() {
        refused(compileActions(64), "t: stage 0 ingress: VLIW instructions 64 > 63 (instruction memory 32 rows x 2 colours, "
                + "1 reserved for the no-op) [stage-resources]");
        accepted(compileActions(63));
    }

    private static Compilation compileActions(int n) {
        Fixture f = fixture();
        var t = f.s0().table("actions", dev.rmtemu.model.table.MatchKind.EXACT, 1024, 16, f.src());
        f.s0().body(c -> {
            var apply = c.apply(t);
            for (int i = 1; i <= n; i++) {
                int k = i;
                apply.on(k, a -> a.set(f.meta2(), k));
            }
        });
        return ProgramCompiler.compile(f.b().build(), TargetProfiles.builtIn("tofino1"));
    }

    /** Gateways counted from the IR meet the checker's budget (bf-p4c specs/mau_spec.h: 16 gateways a stage). */
    @Test
    void seventeenGatewaysInOneStageAreRefusedSixteenFit() {
        refused(compile((f, c) -> gateways(f, c, 17), "tofino1"),
                "t: stage 0 ingress: gateways 17 > 16 [stage-resources]");
        accepted(compile((f, c) -> gateways(f, c, 16), "tofino1"));
    }

    /** An if / else-if chain of {@code n} gateways, each branch one instruction: one write per path. */
    private static void gateways(Fixture f, Block c, int n) {
        if (n > 0) {
            c.when(eq(read(f.src()), constant(n)), t -> t.set(f.meta2(), n), e -> gateways(f, e, n - 1));
        }
    }

    /**
     * A stateful ALU reads two PHV words, fixed per register (bf-p4c mau/input_xbar.cpp):
     * three fields as inputs of one register's actions, over two branches, are refused.
     */
    @Test
    void aStatefulAluFedFromThreeFieldsIsRefusedTwoFit() {
        Fixture f = fixture();
        RegisterArray pairs = f.s0().register("pairs", 32, true, 1024);
        RegisterAction put = f.s0().action(RegisterAction.on(pairs, "put")
                .updateLo(AluOp.SET, Operand.IN_LO, Operand.constant(0)).updateHi(AluOp.SET, Operand.IN_HI, Operand.constant(0)));
        var h10 = f.s0().hash("h10", HashAlgorithm.byName("crc16"), 10, f.src());
        f.s0().body(c -> c.when(eq(read(f.src()), constant(0)),
                t -> t.execute(put, hash(h10), read(f.src()), read(f.meta())),
                e -> e.execute(put, hash(h10), read(f.src()), read(f.meta2()))));
        refused(ProgramCompiler.compile(f.b().build(), TargetProfiles.builtIn("tofino1")),
                "t: stage 0 ingress: register 'pairs' stateful ALU reads 3 PHV words > 2 [stage-resources]");
        Fixture g = fixture();
        RegisterArray pairs2 = g.s0().register("pairs", 32, true, 1024);
        RegisterAction put2 = g.s0().action(RegisterAction.on(pairs2, "put")
                .updateLo(AluOp.SET, Operand.IN_LO, Operand.constant(0)).updateHi(AluOp.SET, Operand.IN_HI, Operand.constant(0)));
        var g10 = g.s0().hash("h10", HashAlgorithm.byName("crc16"), 10, g.src());
        g.s0().body(c -> c.when(eq(read(g.src()), constant(0)),
                t -> t.execute(put2, hash(g10), read(g.src()), read(g.meta())),
                e -> e.execute(put2, hash(g10), read(g.meta()), read(g.src()))));
        accepted(ProgramCompiler.compile(g.b().build(), TargetProfiles.builtIn("tofino1")));
    }

    @Test
    void everyBrokenRuleIsReportedAndTheRefusalExitsThree() {
        Compilation c = compile((f, code) -> code.set(f.meta2(), mod(read(f.src()), constant(1000)))
                .execute(f.inc(), hash(f.h17())), "tofino1");
        assertEquals(2, c.refusals().size());
        UserError e = assertThrows(UserError.class, c::requireAccepted);
        assertEquals(3, e.exitCode());
        assertTrue(e.getMessage().startsWith("program t refused by tofino1:\n  t: ingress stage 0: register array counts"),
                e.getMessage());
        assertEquals(List.of("widths-and-types", "stage-dependencies", "register-access", "target-operators",
                "vliw-instructions", "gateway-conditions", "stage-resources"), c.passes().stream().map(CompilerPass::name).toList());
    }
}
