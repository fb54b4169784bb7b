package dev.rmtemu.programs.midst.experiment;

import dev.rmtemu.model.UserError;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class MidstOptionsTest {
    private static String error(Map<String, String> given) {
        return assertThrows(UserError.class, () -> MidstOptions.parse(given)).getMessage();
    }

    @Test
    void defaultsParseToTheirTypedValues() {
        MidstOptions o = MidstOptions.parse(Map.of());
        assertArrayEquals(new int[] {8, 16, 32, 64, 128, 256, 512, 1024}, o.memories());
        assertArrayEquals(new double[] {1.2, 2.0}, o.overloads());
        assertEquals(List.of(2, 100_000, 6, 20_000, 1000, 1000, 512), List.of(o.rows(), o.flows(), o.bursts(), o.burstPackets(),
                o.bytes(), o.queueCells(), o.cleanBytes()));
        assertEquals(1.0, o.zipf());
        assertArrayEquals(new int[] {20_000, 2_000}, o.burstSizes());
        assertEquals(30_000, o.intervalUs());
        assertEquals(10.0, o.gbps());
        assertEquals(250, o.high());
        assertEquals(25, o.low());
        assertEquals(2_000, o.probeNs());
        assertEquals(0.001, o.hlFraction());
        assertArrayEquals(new int[] {128, 256, 512, 1024}, o.cleanSizes());
        assertEquals(1, o.seed());
        assertEquals("tofino1", o.target());
        assertEquals("abcde", o.part());
        assertArrayEquals(new int[] {1, 256}, o.shrewMemories());
        assertEquals(100, o.shrewFlows());
        assertEquals(1_000, o.shrewRttMinUs());
        assertEquals(100_000, o.shrewRttMaxUs());
        assertFalse(o.shrewTogether());
        assertEquals(10_000, o.shrewMinRtoUs());
        assertEquals(0.8, o.shrewLoad());
        assertArrayEquals(new long[] {30, 50, 70}, o.shrewPeriodsMs());
        assertEquals(1_000, o.shrewBurstUs());
        assertEquals(10.0, o.shrewAttackGbps());
        assertEquals(20, o.shrewStartMs());
        assertEquals(300, o.shrewMs());
        assertEquals(300, o.shrewBurstThreshold());
        assertEquals(10, o.shrewQueryMs());
        assertArrayEquals(new double[] {1.5, 2, 4, 8}, o.dropOverloads());
        assertEquals(256, o.dropMemory());
        assertEquals(1.0, o.mirrorGbps());
        assertEquals(250, o.mirrorCells());
        assertEquals(64, o.mirrorBytes());
        assertEquals(2, o.pqPipes());
        assertEquals(2, o.pqQueues());
        assertEquals(256, o.pqMemory());
        assertEquals(1.5, o.pqOverload());
        assertArrayEquals(new int[] {20_000, 2_000}, o.pqBurstPackets());
        assertEquals(44, o.text().size());
    }

    @Test
    void overridesAreTypedAndTheirTextIsKeptAsGiven() {
        MidstOptions o = MidstOptions.parse(Map.of("overloads", "1.50", "shrew_periods_ms", "30", "shrew_together", "1",
                "shrew_rtt_us", "2000,2000", "gbps", "40", "part", "c"));
        assertArrayEquals(new double[] {1.5}, o.overloads());
        assertArrayEquals(new long[] {30}, o.shrewPeriodsMs());
        assertTrue(o.shrewTogether());
        assertEquals(2_000, o.shrewRttMinUs());
        assertEquals(2_000, o.shrewRttMaxUs());
        assertEquals(40.0, o.gbps());
        assertEquals("c", o.part());
        // the tables and the JSON quote the text, not the parsed number
        assertEquals("1.50", o.given("overloads"));
        assertEquals("1.50", o.text().get("overloads"));
        assertEquals("0.8", o.given("shrew_load"));
    }

    @Test
    void badValuesAreOneLineNamingTheOption() {
        assertEquals("experiment midst: shrew_flows must be 1..10000, got 0", error(Map.of("shrew_flows", "0")));
        assertEquals("experiment midst: shrew_together must be 0 or 1, got '2'", error(Map.of("shrew_together", "2")));
        assertEquals("experiment midst: shrew_load must be in (0, 1], got 2", error(Map.of("shrew_load", "2")));
        assertEquals("experiment midst: shrew_rtt_us must be MIN,MAX in microseconds, got '5,1'", error(Map.of("shrew_rtt_us", "5,1")));
        assertEquals("experiment midst: burst sizes must be positive, got 0", error(Map.of("burst_sizes", "2000,0")));
        assertEquals("experiment midst: pq_burst_packets must be positive, got -1", error(Map.of("pq_burst_packets", "-1")));
        assertEquals("experiment midst: option shrew_burst_us must be positive, got '0'", error(Map.of("shrew_burst_us", "0")));
        assertEquals("experiment midst: option shrew_ms must be an integer, got '1.5'", error(Map.of("shrew_ms", "1.5")));
        assertEquals("experiment midst: option mirror_cells must be a number, got 'x'", error(Map.of("mirror_cells", "x")));
        assertEquals("experiment midst: option drop_memory must be an integer, got 'x'", error(Map.of("drop_memory", "x")));
        assertEquals("experiment midst: option pq_memory must be positive, got '0'", error(Map.of("pq_memory", "0")));
        assertEquals("experiment midst: option memories must be a list of integers, got 'x'", error(Map.of("memories", "x")));
        assertEquals("experiment midst: option overloads values must be positive, got '1.2,0'", error(Map.of("overloads", "1.2,0")));
        assertEquals("experiment midst: option gbps must be a number, got 'fast'", error(Map.of("gbps", "fast")));
        assertTrue(error(Map.of("row", "2")).startsWith("experiment midst: unknown option 'row' (known: burst_packets, burst_sizes,"));
    }
}
