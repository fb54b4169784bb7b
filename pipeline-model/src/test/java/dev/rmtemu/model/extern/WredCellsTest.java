package dev.rmtemu.model.extern;

import dev.rmtemu.model.UserError;
import dev.rmtemu.model.phv.Gress;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * RED's decisions at known averages (Floyd and Jacobson 1993), drop value 7, no-drop value 2,
 * thresholds 10 and 30 cells. With the time constant 0 the average is the sample.
 */
class WredCellsTest {
    private static final int DROP = 7;
    private static final int PASS = 2;

    private static WredCells cells(int id) {
        return new WredCells(new Meter(id, "w", MeterType.PACKETS, Meter.Algorithm.WRED, 2, Gress.EGRESS, 0, null, 8, DROP, PASS));
    }

    @Test
    void belowTheMinimumNeverAtOrAboveTheMaximumAlways() {
        WredCells w = cells(0);
        w.setParams(0, 0, 10, 30, 0.5);
        List<Long> out = new ArrayList<>();
        for (long q : new long[] {0, 9, 30, 31, 5, 1000}) {
            out.add(w.execute(0, q, 0));
        }
        assertEquals(List.of(2L, 2L, 7L, 7L, 2L, 7L), out);
    }

    /**
     * At avg 20, pb = 0.5 x (20 - 10) / 20 = 0.25 and pa = pb / (1 - count pb): 0.25, 1/3, 0.5, 1 as
     * count goes 0, 1, 2, 3. SplitMix64 seeded 0x57524544 (+ id 0) draws 0.9668, 0.5686, 0.0546,
     * 0.7110, 0.9734, 0.0248, 0.4593, 0.1687: keep (0.9668 >= 0.25), keep (0.5686 >= 1/3), drop
     * (0.0546 < 0.5, count 0), keep (0.7110 >= 1/3), keep (0.9734 >= 0.5), drop (pa 1), keep
     * (0.4593 >= 1/3), drop (0.1687 < 0.5).
     */
    @Test
    void betweenTheThresholdsTheCountRaisesTheProbabilityAndTheSeededDrawsDecide() {
        WredCells w = cells(0);
        w.setParams(1, 0, 10, 30, 0.5);
        List<Long> out = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            out.add(w.execute(1, 20, i));
        }
        assertEquals(List.of(2L, 2L, 7L, 2L, 2L, 7L, 2L, 7L), out);
        // another extern (id 1) draws from seed + 1: 0.3648, 0.3919, 0.4290, 0.9341, 0.3229, 0.5179, 0.5291, 0.1477
        WredCells other = cells(1);
        other.setParams(1, 0, 10, 30, 0.5);
        List<Long> second = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            second.add(other.execute(1, 20, i));
        }
        assertEquals(List.of(2L, 2L, 7L, 2L, 7L, 2L, 2L, 7L), second);
    }

    @Test
    void theAverageIsAnEwmaInTime() {
        WredCells w = cells(0);
        w.setParams(0, 1000, 10, 30, 0.5);
        assertEquals(PASS, w.execute(0, 0, 0));      // starts the average at 0
        assertEquals(DROP, w.execute(0, 100, 1000)); // avg = 100 (1 - e^-1) = 63.2121 >= 30
        assertEquals(100 * (1 - StrictMath.exp(-1)), w.average(0), 1e-9);
        // 10 us of idle at depth 0: avg = 63.2121 e^-10 = 0.0029 < 10
        assertEquals(PASS, w.execute(0, 0, 11_000));
        assertEquals(100 * (1 - StrictMath.exp(-1)) * StrictMath.exp(-10), w.average(0), 1e-12);
    }

    @Test
    void anUnsetCellNeverDrops() {
        assertEquals(PASS, cells(0).execute(0, 1_000_000, 0));
    }

    @Test
    void aBadSpecIsRefusedNamingTheCell() {
        WredCells w = cells(0);
        assertEquals("wred w[0]: thresholds must satisfy 0 <= min <= max, got min 30, max 10",
                assertThrows(UserError.class, () -> w.setParams(0, 0, 30, 10, 0.1)).getMessage());
        assertEquals("wred w[1]: the max probability must be in 0..1, got 1.5",
                assertThrows(UserError.class, () -> w.setParams(1, 0, 1, 10, 1.5)).getMessage());
    }
}
