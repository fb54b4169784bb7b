package dev.rmtemu.emulator.spi;

import dev.rmtemu.model.UserError;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class OptionValuesTest {
    private static final Map<String, String> DEFAULTS = Map.of("n", "5", "sizes", "1,2,3", "rate", "0.5");

    @Test
    void givenOptionsOverrideDefaultsAndUnknownOnesAreRefused() {
        Map<String, String> o = OptionValues.withDefaults("x", DEFAULTS, Map.of("n", "7"));
        assertEquals(List.of("n", "rate", "sizes"), List.copyOf(o.keySet()), "sorted");
        assertEquals(7, OptionValues.integer("x", o, "n"));
        assertArrayEquals(new int[] {1, 2, 3}, OptionValues.ints("x", o, "sizes", true));
        assertEquals(0.5, OptionValues.positive("x", o, "rate"));
        UserError e = assertThrows(UserError.class, () -> OptionValues.withDefaults("x", DEFAULTS, Map.of("m", "1")));
        assertEquals("experiment x: unknown option 'm' (known: n, rate, sizes)", e.getMessage());
    }

    @Test
    void badValuesAreOneLineNamingExperimentOptionAndValue() {
        Map<String, String> o = Map.of("n", "five", "sizes", "1,-2", "rate", "0", "big", "1,99999999999");
        assertEquals("experiment x: option n must be an integer, got 'five'",
                assertThrows(UserError.class, () -> OptionValues.integer("x", o, "n")).getMessage());
        assertEquals("experiment x: option sizes values must be positive, got '1,-2'",
                assertThrows(UserError.class, () -> OptionValues.ints("x", o, "sizes", true)).getMessage());
        assertArrayEquals(new int[] {1, -2}, OptionValues.ints("x", o, "sizes", false));
        assertEquals("experiment x: option rate must be positive, got '0'",
                assertThrows(UserError.class, () -> OptionValues.positive("x", o, "rate")).getMessage());
        assertEquals("experiment x: option big values must fit an int, got '1,99999999999'",
                assertThrows(UserError.class, () -> OptionValues.ints("x", o, "big", true)).getMessage());
        assertArrayEquals(new long[] {1, 99_999_999_999L}, OptionValues.longs("x", o, "big", true));
        assertEquals("experiment x: option rate must be a list of numbers, got 'a'",
                assertThrows(UserError.class, () -> OptionValues.numbers("x", Map.of("rate", "a"), "rate", false)).getMessage());
    }
}
