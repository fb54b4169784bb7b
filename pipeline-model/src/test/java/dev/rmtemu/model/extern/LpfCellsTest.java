package dev.rmtemu.model.extern;

import dev.rmtemu.model.UserError;
import dev.rmtemu.model.phv.Gress;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * An LPF's outputs on known sample sequences, hand-computed from the equations LpfCells
 * documents (values to four decimals; the outputs are the floors, none near an integer):
 * SAMPLE y += (1 - e^(-dt/tau)) (x - y), tau gain when rising, decay when falling; RATE
 * y = y e^(-dt/tau) + x; output floor(y) >> N.
 */
class LpfCellsTest {
    private static LpfCells cells(int bits) {
        return new LpfCells(new Meter(0, "f", MeterType.PACKETS, Meter.Algorithm.LPF, 4, Gress.INGRESS, 0, null, bits, 0, 0));
    }

    @Test
    void sampleModeIsAnEwmaWithGainAndDecayTimeConstants() {
        LpfCells f = cells(16);
        f.setParams(1, LpfType.SAMPLE, 1000, 2000, 0);
        // 1000 starts the filter; 0 after 1000 ns falls with tau 2000: 1000 - 0.3935 x 1000 = 606.5307
        // 1000 after 1000 ns rises with tau 1000: 606.5307 + 0.6321 x 393.4693 = 855.2507
        // 1000 after 2000 ns: 855.2507 + 0.8647 x 144.7493 = 980.4103
        assertEquals(1000, f.execute(1, 1000, 5_000));
        assertEquals(606, f.execute(1, 0, 6_000));
        assertEquals(855, f.execute(1, 1000, 7_000));
        assertEquals(980, f.execute(1, 1000, 9_000));
    }

    @Test
    void rateModeIntegratesOverTheTimeConstantAndScalesDown() {
        LpfCells f = cells(16);
        f.setParams(0, LpfType.RATE, 1000, 1, 2);
        // 100 every 1000 ns, tau 1000 (the decay constant is not used), output / 4:
        // 100 -> 25; 136.7879 -> 34; 150.3215 -> 37; 155.3002 -> 38; 157.1317 -> 39 (-> 158.1977, 100 x tau / d)
        long[] out = new long[5];
        for (int i = 0; i < out.length; i++) {
            out[i] = f.execute(0, 100, 1000L * i);
        }
        assertEquals("[25, 34, 37, 38, 39]", java.util.Arrays.toString(out));
    }

    @Test
    void theOutputSaturatesAtTsLargestValue() {
        LpfCells f = cells(8);
        f.setParams(0, LpfType.RATE, 1_000_000, 1_000_000, 0);
        assertEquals(200, f.execute(0, 200, 0));
        assertEquals(255, f.execute(0, 200, 10)); // 399.998 does not fit bit<8>
    }

    @Test
    void aZeroTimeConstantFollowsTheInputAnUnsetCellPassesItThrough() {
        LpfCells f = cells(16);
        assertEquals(1234, f.execute(2, 1234, 0)); // never set
        f.setParams(3, LpfType.SAMPLE, 0, 0, 1);
        f.execute(3, 10, 0);
        assertEquals(350, f.execute(3, 700, 1)); // y = x, then / 2
    }

    @Test
    void settingTheSpecRestartsTheCell() {
        LpfCells f = cells(16);
        f.setParams(0, LpfType.SAMPLE, 1000, 1000, 0);
        f.execute(0, 1000, 0);
        f.setParams(0, LpfType.SAMPLE, 1000, 1000, 0);
        assertEquals(40, f.execute(0, 40, 100)); // the first sample again: y = x
    }

    @Test
    void aBadSpecIsRefusedNamingTheCell() {
        LpfCells f = cells(16);
        assertEquals("lpf f[1]: scale-down factor 32 outside 0..31",
                assertThrows(UserError.class, () -> f.setParams(1, LpfType.SAMPLE, 1, 1, 32)).getMessage());
        assertEquals("lpf f[0]: time constants must be finite and not negative",
                assertThrows(UserError.class, () -> f.setParams(0, LpfType.RATE, -1, 1, 0)).getMessage());
    }
}
