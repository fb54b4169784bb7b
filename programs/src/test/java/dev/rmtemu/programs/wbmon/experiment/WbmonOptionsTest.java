package dev.rmtemu.programs.wbmon.experiment;

import dev.rmtemu.model.UserError;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class WbmonOptionsTest {
    @Test
    void defaultsParseToTheirTypedValuesAndKeepTheirText() {
        WbmonOptions o = WbmonOptions.parse(Map.of("c_sigma", "0.750"));
        assertEquals(0.75, o.cSigma());
        assertEquals("0.750", o.text("c_sigma"), "the tables and the JSON quote an option as given");
        assertArrayEquals(new int[] {1, 2, 3}, o.fFaults());
        assertArrayEquals(new double[] {0.001, 0.01, 0.1, 0.5}, o.dLosses());
        assertEquals(0.01, o.eLoss());
        assertEquals(383, o.bMax());
        assertEquals(1, o.seed());
        assertEquals("", o.control());
    }

    @Test
    void badValuesAreOneLineNamingTheOption() {
        assertEquals("experiment wbmon: option f_faults takes whole numbers of at least 1, got '1,2.5'",
                assertThrows(UserError.class, () -> WbmonOptions.parse(Map.of("f_faults", "1,2.5"))).getMessage());
        assertEquals("experiment wbmon: option e_loss values must be at most 1, got '2'",
                assertThrows(UserError.class, () -> WbmonOptions.parse(Map.of("e_loss", "2"))).getMessage());
        assertEquals("experiment wbmon: option c_runs must be at least 1, got 0",
                assertThrows(UserError.class, () -> WbmonOptions.parse(Map.of("c_runs", "0"))).getMessage());
        assertEquals("experiment wbmon: option seed must be an integer, got 'one'",
                assertThrows(UserError.class, () -> WbmonOptions.parse(Map.of("seed", "one"))).getMessage());
    }
}
