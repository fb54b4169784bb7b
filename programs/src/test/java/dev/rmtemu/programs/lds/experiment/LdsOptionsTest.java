package dev.rmtemu.programs.lds.experiment;

import dev.rmtemu.model.UserError;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class LdsOptionsTest {
    @Test
    void defaultsParseToTheirTypedValues() {
        LdsOptions o = LdsOptions.parse(Map.of());
        assertEquals(LdsExperiment.DEFAULT_PACKETS, o.packets());
        assertEquals(LdsExperiment.DEFAULT_FLOWS, o.flows());
        assertEquals(1, o.seed());
        assertEquals(4, o.rows());
        assertEquals(1, o.k());
        assertEquals(5, o.kMulti());
        assertArrayEquals(new double[] {0.1, 1, 10}, o.sizes());
        assertArrayEquals(new double[] {0.001, 0.005, 0.01}, o.losses());
        assertEquals(100, o.rliGap());
        assertEquals("abcd", o.part());
        assertEquals(LdsExperiment.PIPELINE, o.engine());
    }

    @Test
    void scaleFullIsThePapersTraceAndBadValuesAreOneLine() {
        LdsOptions full = LdsOptions.parse(Map.of("scale", "full", "packets", "5"));
        assertEquals(LdsExperiment.FULL_PACKETS, full.packets());
        assertEquals(LdsExperiment.FULL_FLOWS, full.flows());
        assertEquals("experiment lds: option losses values must be non-negative, got '0.1,-1'",
                assertThrows(UserError.class, () -> LdsOptions.parse(Map.of("losses", "0.1,-1"))).getMessage());
        assertEquals("experiment lds: rli_gap must be at least 1",
                assertThrows(UserError.class, () -> LdsOptions.parse(Map.of("rli_gap", "0"))).getMessage());
        assertEquals("experiment lds: option seed must be an integer, got 'x'",
                assertThrows(UserError.class, () -> LdsOptions.parse(Map.of("seed", "x"))).getMessage());
        assertEquals("experiment lds: unknown option 'row' (known: engine, flows, k, k_multi, losses, packets, part, rli_gap, rows,"
                        + " scale, seed, sizes)",
                assertThrows(UserError.class, () -> LdsOptions.parse(Map.of("row", "2"))).getMessage());
    }
}
