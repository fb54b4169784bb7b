package dev.rmtemu.model;

import dev.rmtemu.model.phv.Gress;
import dev.rmtemu.model.register.AluOp;
import dev.rmtemu.model.register.AtomTemplate;
import dev.rmtemu.model.register.CmpOp;
import dev.rmtemu.model.register.Operand;
import dev.rmtemu.model.register.Predicate;
import dev.rmtemu.model.register.RegisterAction;
import dev.rmtemu.model.register.RegisterAction.OutputSource;
import dev.rmtemu.model.register.RegisterArray;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class RegisterActionTest {
    private final RegisterArray single = new RegisterArray(0, "single", 32, false, 8, Gress.INGRESS, 0);
    private final RegisterArray pair = new RegisterArray(1, "pair", 32, true, 8, Gress.INGRESS, 0);

    @Test
    void templatesAreTheLeastAtomThatRunsTheAction() {
        assertEquals(AtomTemplate.READ, RegisterAction.on(single, "r").output(OutputSource.OLD_LO).build().template());
        assertEquals(AtomTemplate.WRITE, RegisterAction.on(single, "w").updateLo(AluOp.SET, Operand.IN_LO, Operand.constant(0)).build().template());
        assertEquals(AtomTemplate.RAW, RegisterAction.on(single, "raw").updateLo(AluOp.ADD, Operand.REG_LO, Operand.IN_LO).build().template());
        assertEquals(AtomTemplate.PRAW, RegisterAction.on(single, "praw")
                .condition(Operand.REG_LO, CmpOp.LT, Operand.constant(10))
                .updateLo(Predicate.C0, AluOp.ADD, Operand.REG_LO, Operand.constant(1)).build().template());
        assertEquals(AtomTemplate.IF_ELSE_RAW, RegisterAction.on(single, "ifelse")
                .condition(Operand.REG_LO, CmpOp.EQ, Operand.IN_LO)
                .updateLo(Predicate.C0, AluOp.ADD, Operand.REG_LO, Operand.constant(1))
                .updateLo(Predicate.NOT_C0, AluOp.SET, Operand.IN_LO, Operand.constant(0)).build().template());
        assertEquals(AtomTemplate.SUB, RegisterAction.on(single, "sub")
                .updateLo(AluOp.SUB, Operand.REG_LO, Operand.IN_LO).build().template());
        assertEquals(AtomTemplate.NESTED_IF, RegisterAction.on(single, "nested")
                .condition(Operand.REG_LO, CmpOp.EQ, Operand.IN_LO)
                .condition(Operand.REG_LO, CmpOp.EQ, Operand.constant(0))
                .updateLo(Predicate.C0_OR_C1, AluOp.SET, Operand.IN_LO, Operand.constant(0)).build().template());
        assertEquals(AtomTemplate.PAIR, RegisterAction.on(pair, "pair")
                .updateHi(AluOp.ADD, Operand.REG_HI, Operand.constant(1)).build().template());
        assertEquals(AtomTemplate.FREEFORM, RegisterAction.freeform(single, "free", (c, lo, hi) -> c.lo = lo * 3).template());
    }

    /** HashPipe stage-1 shape on a (key lo, count hi) pair: hit increments, miss evicts. */
    @Test
    void pairActionUpdatesBothWordsUnderConditions() {
        RegisterAction a = RegisterAction.on(pair, "insert")
                .condition(Operand.REG_LO, CmpOp.EQ, Operand.IN_LO)
                .updateHi(Predicate.C0, AluOp.ADD, Operand.REG_HI, Operand.constant(1))
                .updateHi(Predicate.NOT_C0, AluOp.SET, Operand.constant(1), Operand.constant(0))
                .updateLo(Predicate.NOT_C0, AluOp.SET, Operand.IN_LO, Operand.constant(0))
                .output(Predicate.NOT_C0, OutputSource.OLD_HI)
                .build();
        long[] lo = new long[8];
        long[] hi = new long[8];
        assertEquals(0, a.execute(lo, hi, 3, 0xAAAA, 0));   // empty slot: evicts (0, 0)
        assertEquals(0, a.execute(lo, hi, 3, 0xAAAA, 0));   // hit
        assertEquals(0, a.execute(lo, hi, 3, 0xAAAA, 0));   // hit
        assertEquals(0xAAAA, lo[3]);
        assertEquals(3, hi[3]);
        assertEquals(3, a.execute(lo, hi, 3, 0xBBBB, 0));   // miss: evicts count 3
        assertEquals(0xBBBB, lo[3]);
        assertEquals(1, hi[3]);
    }

    @Test
    void resultsWrapAtTheWordWidth() {
        RegisterArray narrow = new RegisterArray(2, "narrow", 8, false, 2, Gress.INGRESS, 0);
        RegisterAction add = RegisterAction.on(narrow, "add").updateLo(AluOp.ADD, Operand.REG_LO, Operand.IN_LO)
                .output(OutputSource.NEW_LO).build();
        long[] lo = {250, 0};
        assertEquals(4, add.execute(lo, null, 0, 10, 0));
        RegisterAction sub = RegisterAction.on(narrow, "sub").updateLo(AluOp.SUB, Operand.REG_LO, Operand.IN_LO)
                .output(OutputSource.NEW_LO).build();
        assertEquals(255, sub.execute(lo, null, 1, 1, 0));
        RegisterAction max = RegisterAction.on(narrow, "max").updateLo(AluOp.MAX, Operand.REG_LO, Operand.IN_LO)
                .output(OutputSource.OLD_LO).build();
        long[] m = {7, 0};
        assertEquals(7, max.execute(m, null, 0, 9, 0));
        assertArrayEquals(new long[] {9, 0}, m);
    }

    @Test
    void predicateOutputIsTheConditionBits() {
        RegisterAction a = RegisterAction.on(single, "p")
                .condition(Operand.REG_LO, CmpOp.GE, Operand.constant(5))
                .condition(Operand.IN_LO, CmpOp.NE, Operand.constant(0))
                .output(OutputSource.PREDICATE).build();
        long[] lo = {6, 1};
        assertEquals(3, a.execute(lo, null, 0, 1, 0));
        assertEquals(1, a.execute(lo, null, 0, 0, 0));
        assertEquals(2, a.execute(lo, null, 1, 1, 0));
    }

    @Test
    void structuralLimitsAreRejected() {
        // a third condition is the compiler's refusal (stage-resources), not the builder's: see StageHazardRulesTest
        assertEquals(3, RegisterAction.on(single, "x")
                .condition(Operand.REG_LO, CmpOp.EQ, Operand.IN_LO)
                .condition(Operand.REG_LO, CmpOp.EQ, Operand.IN_LO)
                .condition(Operand.REG_LO, CmpOp.EQ, Operand.IN_LO).build().conditionCount());
        assertThrows(IllegalArgumentException.class,
                () -> RegisterAction.on(single, "y").updateHi(AluOp.ADD, Operand.REG_HI, Operand.IN_HI));
    }
}
