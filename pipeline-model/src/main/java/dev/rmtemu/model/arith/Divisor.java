package dev.rmtemu.model.arith;

/**
 * Exact integer division by a divisor fixed at construction, without a hardware
 * divide on the common path: the quotient is estimated with one floating-point
 * multiply by the reciprocal and corrected with one multiply-subtract, which is
 * exact whenever the estimate is off by at most one. That holds for every
 * dividend below {@link #FAST_LIMIT} (2^50: a double holds it and the reciprocal's
 * rounding error stays far below one unit); larger dividends take the plain
 * division. A 64-bit {@code idiv} costs tens of cycles and the engine divides a few
 * times per packet (serialisation time, cycles to ns), so this is worth its lines.
 */
public final class Divisor {
    /** Dividends in [0, FAST_LIMIT) take the multiply path. */
    public static final long FAST_LIMIT = 1L << 50;

    private final long divisor;
    private final double reciprocal;

    public Divisor(long divisor) {
        if (divisor <= 0) {
            throw new IllegalArgumentException("divisor must be positive, got " + divisor);
        }
        this.divisor = divisor;
        this.reciprocal = 1.0 / divisor;
    }

    public long divisor() {
        return divisor;
    }

    /** {@code x / divisor} for {@code x >= 0} (floor). */
    public long quotient(long x) {
        if (x < 0 || x >= FAST_LIMIT) {
            return x / divisor;
        }
        long q = (long) (x * reciprocal);
        long r = x - q * divisor;
        if (r < 0) {
            return q - 1;
        }
        return r >= divisor ? q + 1 : q;
    }

    /** Greatest common divisor of two non-negative numbers (reducing clock and rate fractions). */
    public static long gcd(long a, long b) {
        while (b != 0) {
            long t = a % b;
            a = b;
            b = t;
        }
        return a;
    }

    /** {@code x % divisor} given {@code q == quotient(x)}. */
    public long remainder(long x, long q) {
        return x - q * divisor;
    }
}
