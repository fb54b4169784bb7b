package dev.rmtemu.emulator.engine;

import org.junit.jupiter.api.Test;

import java.math.BigInteger;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;

class CycleClockTest {
    private static final BigInteger NS = BigInteger.valueOf(1_000_000_000L);

    @Test
    void cyclesToNsIsTheExactFloorForAnyClockAndCount() {
        SplittableRandom rnd = new SplittableRandom(9);
        long[] clocks = {1_220_000_000L, 1_000_000_000L, 1_500_000_000L, 999_999_937L, 3, 7_000_000_001L};
        for (long hz : clocks) {
            CycleClock c = new CycleClock(hz);
            long[] edges = {0, 1, hz - 1, hz, hz + 1, Long.MAX_VALUE / 1_000_000_000L, Long.MAX_VALUE - 1, Long.MAX_VALUE};
            for (long cycles : edges) {
                check(c, cycles);
            }
            for (int i = 0; i < 100_000; i++) {
                check(c, rnd.nextLong(1L << (1 + rnd.nextInt(62))));
            }
        }
    }

    @Test
    void nsToCyclesIsTheExactFloorForAnyClockAndTime() {
        SplittableRandom rnd = new SplittableRandom(10);
        long[] clocks = {1_220_000_000L, 1_000_000_000L, 1_500_000_000L, 999_999_937L, 3, 7_000_000_001L};
        for (long hz : clocks) {
            CycleClock c = new CycleClock(hz);
            long[] edges = {0, 1, 49, 50, 51, 999_999_999L, 1_000_000_000L, 1L << 40, Long.MAX_VALUE / hz, Long.MAX_VALUE / 61 + 1};
            for (long ns : edges) {
                checkNs(c, ns);
            }
            for (int i = 0; i < 100_000; i++) {
                checkNs(c, rnd.nextLong(1L << (1 + rnd.nextInt(62))));
            }
        }
    }

    private static void checkNs(CycleClock c, long ns) {
        BigInteger exact = BigInteger.valueOf(ns).multiply(BigInteger.valueOf(c.hz())).divide(NS);
        if (exact.bitLength() < Long.SIZE) { // a cycle count beyond a long has no answer to compare
            assertEquals(exact.longValueExact(), c.nsToCycles(ns), () -> ns + " ns at " + c.hz() + " Hz");
        }
    }

    private static void check(CycleClock c, long cycles) {
        BigInteger exact = BigInteger.valueOf(cycles).multiply(NS).divide(BigInteger.valueOf(c.hz()));
        if (exact.bitLength() < Long.SIZE) { // beyond a long of ns (292 years) there is no answer to compare
            assertEquals(exact.longValueExact(), c.cyclesToNs(cycles), () -> cycles + " cycles at " + c.hz() + " Hz");
        }
    }
}
