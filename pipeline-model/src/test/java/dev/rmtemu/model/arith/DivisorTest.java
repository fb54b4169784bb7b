package dev.rmtemu.model.arith;

import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class DivisorTest {
    @Test
    void matchesHardwareDivisionOnEdgesAndRandomDividends() {
        long[] divisors = {1, 2, 3, 7, 61, 80, 5000, 1_220_000_000L, 999_999_937L, (1L << 40) + 1, Long.MAX_VALUE};
        SplittableRandom rnd = new SplittableRandom(42);
        for (long d : divisors) {
            Divisor div = new Divisor(d);
            long[] edges = {0, 1, d - 1, d, d + 1, 2 * d - 1, 2 * d, Divisor.FAST_LIMIT - 1, Divisor.FAST_LIMIT,
                    Divisor.FAST_LIMIT + 1, Long.MAX_VALUE, Long.MAX_VALUE - 1};
            for (long x : edges) {
                if (x >= 0) {
                    check(div, x);
                }
            }
            for (int i = 0; i < 200_000; i++) {
                long x = i % 2 == 0 ? rnd.nextLong(Divisor.FAST_LIMIT) : rnd.nextLong(Long.MAX_VALUE);
                check(div, x);
                // just below and above multiples, where a one-off estimate would show
                long m = (x / d) * d;
                check(div, m);
                if (m > 0) {
                    check(div, m - 1);
                }
            }
        }
    }

    @Test
    void smallDividendsTakeTheMultiplyShiftExactly() {
        // every packet length to 80-byte cells, table folds, and the bound of the integer path
        long[] divisors = {1, 2, 3, 61, 80, 750, 5000, 65_535, 1_000_003, (1L << 20) + 7, (1L << 40) - 1, 1L << 40};
        SplittableRandom rnd = new SplittableRandom(3);
        for (long d : divisors) {
            Divisor div = new Divisor(d);
            for (long x = 0; x < (1 << 18); x++) {
                check(div, x);
            }
            long bound = (1L << 40) / d;
            for (long x = Math.max(0, bound - 3000); x < bound + 3000; x++) {
                check(div, x);
            }
            for (int i = 0; i < 100_000; i++) {
                check(div, rnd.nextLong(bound + 1));
            }
        }
    }

    @Test
    void thirtyTwoBitDividendsTakeTheMultiplyHighExactly() {
        // hashes folded onto tables: every 32-bit dividend form, divisors up to 2^32 - 1 and powers of two
        long[] divisors = {3, 4, 5, 750, 1024, 4500, 65_537, (1L << 31) - 1, 1L << 31, (1L << 31) + 1,
            (1L << 32) - 2, (1L << 32) - 1, 1L << 32};
        SplittableRandom rnd = new SplittableRandom(32);
        for (long d : divisors) {
            Divisor div = new Divisor(d);
            long top = (1L << 32) - 1;
            for (long x = top - 5000; x <= top + 5; x++) {
                check(div, x);
            }
            for (long k = Math.max(1, top / d - 300); k <= top / d; k++) {
                check(div, k * d - 1);
                check(div, k * d);
            }
            for (int i = 0; i < 200_000; i++) {
                check(div, rnd.nextLong(1L << 32));
            }
        }
    }

    @Test
    void multiplyHighIsExactUpToItsBoundWhereTheReciprocalErrsMost() {
        // the exactness condition x·e < 2^k is tightest for the largest dividend with remainder d - 1
        // and for divisors whose round-up reciprocal errs by nearly d (e close to d): 2^j + 1 and 2^j - 1
        // have e = d - 2^k mod d at both extremes; 3 is the one divisor on k = 64 with b = 1
        SplittableRandom rnd = new SplittableRandom(61);
        java.util.List<Long> divisors = new java.util.ArrayList<>(java.util.List.of(1L, 2L, 3L, 5L, 6L, 7L, 50L, 61L,
                1_220_000_000L, Long.MAX_VALUE, Long.MAX_VALUE - 1, (1L << 61) - 1, 1L << 61, (1L << 61) + 1));
        for (int j = 2; j < 63; j++) {
            divisors.add((1L << j) - 1);
            divisors.add(1L << j);
            divisors.add((1L << j) + 1);
            divisors.add(rnd.nextLong(1L << j, j == 62 ? Long.MAX_VALUE : 1L << (j + 1)));
        }
        for (long d : divisors) {
            Divisor div = new Divisor(d);
            long top = Divisor.FAST_LIMIT - 1;
            long lastFullRemainder = top % d == d - 1 ? top : top - top % d - 1; // largest x < 2^61 with x % d == d - 1
            for (long x : new long[] {top, top - 1, lastFullRemainder, lastFullRemainder + 1, Divisor.FAST_LIMIT}) {
                if (x >= 0) {
                    check(div, x);
                }
            }
            for (int i = 0; i < 20_000; i++) {
                long q = rnd.nextLong(top / d + 1);
                for (long x : new long[] {q * d, q * d + d - 1, q * d - 1}) {
                    if (x >= 0 && x <= top) {
                        check(div, x);
                    }
                }
            }
        }
    }

    private static void check(Divisor div, long x) {
        long q = div.quotient(x);
        assertEquals(x / div.divisor(), q, () -> x + " / " + div.divisor());
        assertEquals(x % div.divisor(), div.remainder(x, q), () -> x + " % " + div.divisor());
        assertEquals(x % div.divisor(), div.remainder(x), () -> x + " % " + div.divisor() + " (one-argument form)");
    }

    @Test
    void refusesNonPositiveDivisors() {
        assertThrows(IllegalArgumentException.class, () -> new Divisor(0));
        assertThrows(IllegalArgumentException.class, () -> new Divisor(-5));
    }
}
