package dev.rmtemu.model.arith;

/**
 * Exact integer division by a divisor fixed at construction, without a hardware
 * divide on the common path: the quotient is estimated with one floating-point
 * multiply by the reciprocal and corrected with one multiply-subtract, which is
 * exact whenever the estimate is off by at most one. That holds for every
 * dividend below {@link #FAST_LIMIT} (2^50: a double holds it and the reciprocal's
 * rounding error stays far below one unit); larger dividends take the plain
 * division. Small dividends (x · divisor below 2^40: packet lengths, table
 * indices) take an integer multiply by a fixed-point reciprocal and a shift. A 64-bit {@code idiv} costs tens of cycles and the engine divides a few
 * times per packet (serialisation time, cycles to ns), so this is worth its lines.
 */
public final class Divisor {
    /** Dividends in [0, FAST_LIMIT) take the multiply path. */
    public static final long FAST_LIMIT = 1L << 50;

    /** Shift of the integer reciprocal: dividends below {@link #smallLimit} use {@code (x * magic) >>> SHIFT}. */
    private static final int SHIFT = 40;

    private final long divisor;
    private final double reciprocal;
    /** ceil(2^SHIFT / divisor). */
    private final long magic;
    /**
     * Dividends below this take the integer multiply-shift, which is exact when
     * {@code x * divisor < 2^SHIFT} (the reciprocal's excess then stays below one
     * part in x·divisor) and {@code x * magic} fits a long.
     */
    private final long smallLimit;
    /**
     * ceil(2^64 / divisor) for 3 <= divisor < 2^32, else 0: for 32-bit dividends the
     * quotient is then the high word of one 64 x 64 multiply, exactly (Lemire, Kaser and
     * Kurz, "Faster remainder by direct computation", 2019, Theorem 1 with N = 32, F = 64).
     * This covers a 32-bit hash folded onto any table size.
     */
    private final long wideMagic;

    public Divisor(long divisor) {
        if (divisor <= 0) {
            throw new IllegalArgumentException("divisor must be positive, got " + divisor);
        }
        this.divisor = divisor;
        this.reciprocal = 1.0 / divisor;
        this.magic = divisor > (1L << SHIFT) ? 0 : ((1L << SHIFT) + divisor - 1) / divisor;
        this.smallLimit = magic == 0 ? 0 : Math.min((1L << SHIFT) / divisor, Long.MAX_VALUE / magic);
        // ceil(2^64 / d) = floor((2^64 - 1) / d) + 1 for every d >= 2; below 2^63 for d >= 3,
        // so the signed multiplyHigh of it and a non-negative x is the unsigned one
        this.wideMagic = divisor >= 3 && divisor < (1L << 32) ? Long.divideUnsigned(-1L, divisor) + 1 : 0;
    }

    public long divisor() {
        return divisor;
    }

    /** {@code x / divisor} for {@code x >= 0} (floor). */
    public long quotient(long x) {
        if (x >= 0 && x < smallLimit) {
            // packet bytes to cells, hash folding: a multiply and a shift, no float conversions
            return (x * magic) >>> SHIFT;
        }
        if ((x >>> 32) == 0 && wideMagic != 0) {
            // a 32-bit dividend (a hash): one multiply-high
            return Math.multiplyHigh(x, wideMagic);
        }
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

    /** {@code x % divisor} for {@code x >= 0}: e.g. a hash folded onto a table whose size is not a power of two. */
    public long remainder(long x) {
        return x - quotient(x) * divisor;
    }

    /** {@code x % divisor} given {@code q == quotient(x)}. */
    public long remainder(long x, long q) {
        return x - q * divisor;
    }
}
