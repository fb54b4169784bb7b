package dev.rmtemu.model.register;

import dev.rmtemu.model.phv.Gress;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The generated code of a register action does what its declarative form says, on random actions
 * (operands include the register-file rows of two RegisterParams, which the code reads at run time).
 */
class CompiledActionTest {
    private static final Predicate[] PREDICATES = {Predicate.ALWAYS, Predicate.C0, Predicate.NOT_C0, Predicate.C1,
        Predicate.NOT_C1, Predicate.C0_AND_C1, Predicate.C0_AND_NOT_C1, Predicate.NOT_C0_AND_C1, Predicate.NEITHER,
        Predicate.C0_OR_C1};

    private static final int PARAMS = 2;

    @Test
    void compiledEqualsInterpretedOnRandomActionsAndInputs() {
        SplittableRandom rnd = new SplittableRandom(2024);
        int built = 0;
        for (int t = 0; t < 3000; t++) {
            boolean pair = rnd.nextBoolean();
            int bits = new int[] {8, 16, 32}[rnd.nextInt(3)];
            RegisterArray arr = new RegisterArray(0, "r", bits, pair, 16, Gress.INGRESS, 0)
                    .withParams(List.of(new RegisterArray.Param("p0", 32, false, 0), new RegisterArray.Param("p1", 8, true, 0)));
            RegisterAction action;
            try {
                action = random(arr, rnd);
            } catch (RuntimeException invalid) {
                continue; // the builder refused a combination hardware would not run
            }
            built++;
            long[] lo1 = new long[16 + PARAMS]; // the cells, then the register-file rows
            long[] hi1 = pair ? new long[16] : null;
            for (int i = 0; i < 16 + PARAMS; i++) {
                lo1[i] = i < 16 ? rnd.nextLong() & arr.wordMask() : arr.params().get(i - 16).row(rnd.nextLong());
            }
            for (int i = 0; i < 16; i++) {
                if (pair) {
                    hi1[i] = rnd.nextLong() & arr.wordMask();
                }
            }
            long[] lo2 = lo1.clone();
            long[] hi2 = pair ? hi1.clone() : null;
            for (int k = 0; k < 50; k++) {
                int idx = rnd.nextInt(16);
                long inLo = rnd.nextInt(4) == 0 ? lo1[idx] : rnd.nextLong();
                long inHi = rnd.nextLong();
                assertEquals(action.interpret(lo1, hi1, idx, inLo, inHi), action.execute(lo2, hi2, idx, inLo, inHi),
                        action::toString); // execute runs the generated kernel
                assertArrayEquals(lo1, lo2);
                if (pair) {
                    assertArrayEquals(hi1, hi2);
                }
            }
        }
        assertTrue(built > 1000, "built " + built);
    }

    private static RegisterAction random(RegisterArray arr, SplittableRandom rnd) {
        RegisterAction.Builder b = RegisterAction.on(arr, "a");
        int conditions = rnd.nextInt(3);
        for (int c = 0; c < conditions; c++) {
            b.condition(operand(arr, rnd), CmpOp.values()[rnd.nextInt(CmpOp.values().length)], operand(arr, rnd));
        }
        int lo = rnd.nextInt(3);
        for (int i = 0; i < lo; i++) {
            b.updateLo(predicate(conditions, rnd), AluOp.values()[rnd.nextInt(AluOp.values().length)], operand(arr, rnd),
                    operand(arr, rnd));
        }
        if (arr.pair()) {
            int hi = rnd.nextInt(3);
            for (int i = 0; i < hi; i++) {
                b.updateHi(predicate(conditions, rnd), AluOp.values()[rnd.nextInt(AluOp.values().length)],
                        operand(arr, rnd), operand(arr, rnd));
            }
        }
        RegisterAction.OutputSource[] outs = RegisterAction.OutputSource.values();
        b.output(predicate(conditions, rnd), outs[rnd.nextInt(outs.length)]);
        return b.build();
    }

    private static Predicate predicate(int conditions, SplittableRandom rnd) {
        return conditions == 0 ? Predicate.ALWAYS : PREDICATES[rnd.nextInt(PREDICATES.length)];
    }

    private static Operand operand(RegisterArray arr, SplittableRandom rnd) {
        if (rnd.nextInt(6) == 0) {
            return Operand.param(rnd.nextInt(PARAMS));
        }
        switch (rnd.nextInt(arr.pair() ? 5 : 3)) {
            case 0:
                return Operand.REG_LO;
            case 1:
                return Operand.IN_LO;
            case 2:
                return Operand.constant(rnd.nextInt(4) == 0 ? -1 : rnd.nextInt(1000));
            case 3:
                return Operand.REG_HI;
            default:
                return Operand.IN_HI;
        }
    }
}
