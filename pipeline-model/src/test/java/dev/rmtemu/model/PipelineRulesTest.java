package dev.rmtemu.model;

import dev.rmtemu.model.phv.Field;
import dev.rmtemu.model.phv.Gress;
import dev.rmtemu.model.program.ProgramBuilder;
import dev.rmtemu.model.program.StageProgram;
import dev.rmtemu.model.register.AluOp;
import dev.rmtemu.model.register.Operand;
import dev.rmtemu.model.register.RegisterAction;
import dev.rmtemu.model.register.RegisterArray;
import dev.rmtemu.model.runtime.PipelineViolation;
import org.junit.jupiter.api.Test;

import static dev.rmtemu.model.ir.Ir.add;
import static dev.rmtemu.model.ir.Ir.constant;
import static dev.rmtemu.model.ir.Ir.hash;
import static dev.rmtemu.model.ir.Ir.read;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The per-packet hardware rules (the run-time belt behind the compiler's
 * proofs, reached here without compiling): one access per array, own stage
 * only, VLIW PHV semantics.
 */
class PipelineRulesTest {

    private static RegisterAction increment(ProgramBuilder.StageBuilder s, RegisterArray r) {
        return s.action(RegisterAction.on(r, "inc").updateLo(AluOp.ADD, Operand.REG_LO, Operand.constant(1))
                .output(RegisterAction.OutputSource.NEW_LO));
    }

    @Test
    void secondAccessToAnArrayInOnePassIsAViolation() {
        ProgramBuilder b = ProgramBuilder.create("double", "");
        ProgramBuilder.StageBuilder s = b.stage(Gress.INGRESS, 2);
        RegisterArray r = s.register("counts", 32, 16);
        RegisterAction inc = increment(s, r);
        s.body(c -> c.execute(inc, constant(1)).execute(inc, constant(2)));
        TestPrograms.Rig rig = TestPrograms.Rig.of(b.build(), 1, true);
        PipelineViolation v = assertThrows(PipelineViolation.class,
                () -> rig.executor().run(rig.phv(), 0, Gress.INGRESS, 41));
        assertEquals(PipelineViolation.Kind.SECOND_REGISTER_ACCESS, v.kind());
        assertEquals(41, v.packetNumber());
        assertEquals(Gress.INGRESS, v.gress());
        assertEquals(2, v.stage());
        assertEquals("counts", v.resource());
        assertEquals(PipelineViolation.EXIT_CODE, v.exitCode());
        // the first access happened, the second never did
        assertEquals(1, rig.state().readRegister(0, "counts", 1));
        assertEquals(0, rig.state().readRegister(0, "counts", 2));
    }

    @Test
    void oneAccessPerPassIsAllowedAndPassesAreIndependent() {
        ProgramBuilder b = ProgramBuilder.create("once", "");
        ProgramBuilder.StageBuilder s = b.stage(Gress.INGRESS, 0);
        RegisterArray r = s.register("counts", 32, 4);
        RegisterAction inc = increment(s, r);
        s.body(c -> c.execute(inc, constant(3)));
        TestPrograms.Rig rig = TestPrograms.Rig.of(b.build(), 2, true);
        for (int i = 0; i < 5; i++) {
            rig.executor().run(rig.phv(), 1, Gress.INGRESS, i);
        }
        assertEquals(5, rig.state().readRegister(1, "counts", 3));
        assertEquals(0, rig.state().readRegister(0, "counts", 3), "registers exist once per pipe");
    }

    @Test
    void accessToAnotherStagesArrayIsRefusedWhenTheProgramIsBuilt() {
        ProgramBuilder b = ProgramBuilder.create("reach", "");
        ProgramBuilder.StageBuilder s0 = b.stage(Gress.INGRESS, 0);
        RegisterArray r = s0.register("early", 32, 8);
        RegisterAction inc = increment(s0, r);
        b.stage(Gress.INGRESS, 3).body(c -> c.execute(inc, constant(0)));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, b::build);
        assertEquals("ingress stage 3 runs register action early.inc (RAW) of array early, placed in ingress stage 0",
                e.getMessage());
    }

    @Test
    void egressCannotReachAnIngressArray() {
        ProgramBuilder b = ProgramBuilder.create("gress", "");
        ProgramBuilder.StageBuilder s0 = b.stage(Gress.INGRESS, 0);
        RegisterArray r = s0.register("in_sketch", 32, 8);
        RegisterAction inc = increment(s0, r);
        b.stage(Gress.EGRESS, 0).body(c -> c.execute(inc, constant(0)));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, b::build);
        assertEquals("egress stage 0 runs register action in_sketch.inc (RAW) of array in_sketch, placed in ingress stage 0",
                e.getMessage());
    }

    @Test
    void sameStageReadDoesNotSeeSameStageWriteButNextStageDoes() {
        ProgramBuilder b = ProgramBuilder.create("vliw", "");
        Field a = b.metadata(Gress.INGRESS, "meta.a", 16);
        Field seenSame = b.metadata(Gress.INGRESS, "meta.seen_same", 16);
        Field seenNext = b.metadata(Gress.INGRESS, "meta.seen_next", 16);
        b.stage(Gress.INGRESS, 0).body(c -> c.set(a, 7).set(seenSame, add(read(a), constant(100))));
        b.stage(Gress.INGRESS, 1).body(c -> c.set(seenNext, add(read(a), constant(100))));
        TestPrograms.Rig rig = TestPrograms.Rig.of(b.build(), 1, true);
        rig.phv().load(a, 1);
        rig.executor().run(rig.phv(), 0, Gress.INGRESS, 0);
        assertEquals(101, rig.phv().get(seenSame), "stage 0 reads a as it entered the stage");
        assertEquals(107, rig.phv().get(seenNext), "stage 1 sees stage 0's write");
        assertEquals(7, rig.phv().get(a));
    }

    @Test
    void hashReadsThePhvAsItEnteredTheStage() {
        ProgramBuilder b = ProgramBuilder.create("hashvliw", "");
        Field src = b.header("ipv4.src_addr");
        Field out = b.metadata(Gress.INGRESS, "meta.h", 32);
        ProgramBuilder.StageBuilder s = b.stage(Gress.INGRESS, 0);
        var h = s.hash("h", dev.rmtemu.model.hash.Crc.named("crc32"), 32, src);
        Field before = b.metadata(Gress.INGRESS, "meta.before", 32);
        s.body(c -> c.set(src, 0xDEADBEEFL).set(out, hash(h)).set(before, read(src)));
        StageProgram p = b.build();
        TestPrograms.Rig rig = TestPrograms.Rig.of(p, 1, true);
        rig.phv().load(src, 0x0A000001L);
        rig.executor().run(rig.phv(), 0, Gress.INGRESS, 0);
        assertEquals(0x0A000001L, rig.phv().get(before));
        long expected = dev.rmtemu.model.hash.Crc.named("crc32").hash(new byte[] {10, 0, 0, 1});
        assertEquals(expected, rig.phv().get(out));
        assertEquals(0xDEADBEEFL, rig.phv().get(src));
    }

    @Test
    void metadataOfTheOtherGressIsAViolation() {
        ProgramBuilder b = ProgramBuilder.create("meta", "");
        Field ingressOnly = b.metadata(Gress.INGRESS, "meta.ig", 8);
        Field egressOut = b.metadata(Gress.EGRESS, "meta.eg", 8);
        b.stage(Gress.EGRESS, 0).body(c -> c.set(egressOut, read(ingressOnly)));
        TestPrograms.Rig rig = TestPrograms.Rig.of(b.build(), 1, true);
        PipelineViolation v = assertThrows(PipelineViolation.class,
                () -> rig.executor().run(rig.phv(), 0, Gress.EGRESS, 3));
        assertEquals(PipelineViolation.Kind.FIELD_OF_ANOTHER_GRESS, v.kind());
    }

    @Test
    void enforcementOffSkipsTheChecks() {
        ProgramBuilder b = ProgramBuilder.create("loose", "");
        ProgramBuilder.StageBuilder s = b.stage(Gress.INGRESS, 0);
        RegisterArray r = s.register("counts", 32, 4);
        RegisterAction inc = increment(s, r);
        s.body(c -> c.execute(inc, constant(0)).execute(inc, constant(0)));
        TestPrograms.Rig rig = TestPrograms.Rig.of(b.build(), 1, false);
        rig.executor().run(rig.phv(), 0, Gress.INGRESS, 0);
        assertEquals(2, rig.state().readRegister(0, "counts", 0));
    }

    @Test
    void outOfRangeIndexIsAViolationEvenWithoutEnforcement() {
        ProgramBuilder b = ProgramBuilder.create("range", "");
        ProgramBuilder.StageBuilder s = b.stage(Gress.INGRESS, 0);
        RegisterArray r = s.register("counts", 32, 4);
        RegisterAction inc = increment(s, r);
        s.body(c -> c.execute(inc, constant(4)));
        TestPrograms.Rig rig = TestPrograms.Rig.of(b.build(), 1, false);
        PipelineViolation v = assertThrows(PipelineViolation.class,
                () -> rig.executor().run(rig.phv(), 0, Gress.INGRESS, 9));
        assertEquals(PipelineViolation.Kind.REGISTER_INDEX_OUT_OF_RANGE, v.kind());
    }

    @Test
    void actionOnAnArrayOfAnotherStageIsRejectedAtDeclaration() {
        ProgramBuilder b = ProgramBuilder.create("decl", "");
        RegisterArray r = b.stage(Gress.INGRESS, 0).register("r", 32, 4);
        ProgramBuilder.StageBuilder s1 = b.stage(Gress.INGRESS, 1);
        assertThrows(IllegalArgumentException.class,
                () -> s1.action(RegisterAction.on(r, "x").updateLo(AluOp.ADD, Operand.REG_LO, Operand.constant(1))));
    }
}
