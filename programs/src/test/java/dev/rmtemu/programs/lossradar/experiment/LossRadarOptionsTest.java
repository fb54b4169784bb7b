package dev.rmtemu.programs.lossradar.experiment;

import dev.rmtemu.model.UserError;
import dev.rmtemu.programs.lossradar.program.LossRadarConfig;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class LossRadarOptionsTest {
    @Test
    void defaultsParseToTheirTypedValues() {
        LossRadarOptions o = LossRadarOptions.parse(Map.of("b_cells", "24,48"));
        assertEquals("abcdflmr", o.part());
        assertEquals(3, o.hashes());
        assertEquals(200L, o.bMs());
        assertEquals(0.0005, o.bLoss());
        assertArrayEquals(new int[] {24, 48}, o.bCells());
        assertArrayEquals(new double[] {1, 10, 20}, o.mBatchMs());
        assertEquals("tofino1", o.target());
        assertEquals("24,48", o.text().get("b_cells"));
    }

    @Test
    void badValuesAreOneLineNamingTheOption() {
        assertEquals("experiment lossradar: part 'az' may hold only a, b, c, d, f, l, m and r",
                assertThrows(UserError.class, () -> LossRadarOptions.parse(Map.of("part", "az"))).getMessage());
        assertEquals("experiment lossradar: hashes must be 1.." + LossRadarConfig.MAX_HASHES,
                assertThrows(UserError.class, () -> LossRadarOptions.parse(Map.of("hashes", "0"))).getMessage());
        assertEquals("experiment lossradar: option b_cells values must be positive, got '24,-1'",
                assertThrows(UserError.class, () -> LossRadarOptions.parse(Map.of("b_cells", "24,-1"))).getMessage());
        assertEquals("experiment lossradar: option c_ms must be an integer, got '3.5'",
                assertThrows(UserError.class, () -> LossRadarOptions.parse(Map.of("c_ms", "3.5"))).getMessage());
    }
}
