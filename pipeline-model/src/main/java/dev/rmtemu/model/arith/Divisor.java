package dev.rmtemu.model.arith;

/**
 * Exact integer division by a divisor fixed at construction, without a hardware divide on
 * the common path: every dividend in [0, {@link #FAST_LIMIT}) takes one 64 × 64 → 128-bit
 * multiply by a fixed-point reciprocal and a shift of its high word; larger (and negative)
 * dividends take the plain division. A 64-bit {@code idiv} costs tens of cycles and the
 * engine divides a few times per packet (serialisation time, cycles to ns, bytes to cells,
 * hash folding), so this is worth its lines.
 *
 * <p>Why the multiply is exact (Granlund and Montgomery, "Division by invariant integers
 * using multiplication", 1994, section 4, with the round-up reciprocal): let {@code d >= 3},
 * {@code b = floor(log2 d)} and {@code k = 64 + s} with {@code s = max(0, b - 2)}, and let
 * {@code m = ceil(2^k / d)} and {@code e = m·d − 2^k}, so {@code 0 <= e < d}. Then
 * {@code x·m / 2^k = x/d + x·e / (d·2^k)}. Writing {@code x = q·d + r} ({@code r <= d − 1}),
 * the floor of that is {@code q} as long as {@code r/d + x·e/(d·2^k) < 1}, which holds when
 * {@code x·e < 2^k}. For {@code x < 2^61}: if {@code b >= 2}, {@code x·e < 2^61 · 2^(b+1) = 2^k};
 * if {@code b = 1} ({@code d = 3}, {@code k = 64}), {@code x·e < 2^61 · 3 < 2^64}. And
 * {@code m < 2^63} ({@code m <= 2^62 + 1} for {@code b >= 2}, {@code ceil(2^64/3)} for
 * {@code d = 3}), so the signed {@link Math#multiplyHigh} of two non-negative operands is the
 * unsigned high word. Divisors 1 and 2 shift.
 */
public final class Divisor {
    /** Dividends in [0, FAST_LIMIT) take the multiply path. */
    public static final long FAST_LIMIT = 1L << 61;
    private static final int FAST_BITS = 61;

    private final long divisor;
    /** ceil(2^(64 + shift) / divisor), or 0 for a divisor of 1 or 2 (the quotient is then a shift). */
    private final long magic;
    private final int shift;

    public Divisor(long divisor) {
        if (divisor <= 0) {
            throw new IllegalArgumentException("divisor must be positive, got " + divisor);
        }
        this.divisor = divisor;
        int b = 63 - Long.numberOfLeadingZeros(divisor);
        if (divisor <= 2) {
            magic = 0;
            shift = b;
        } else {
            shift = Math.max(0, b - 2);
            // ceil(2^(64+s) / d) by long division of 2^(64+s) = 2^s · 2^64, as an unsigned 128-bit quotient:
            // the high part 2^s / d is 0 (2^s < d), so the quotient is floor((2^s · 2^64 - 1) / d) + 1
            magic = ceilPow2Over(64 + shift, divisor);
        }
    }

    /** ceil(2^k / d) for 64 <= k < 64 + 62 and 3 <= d with 2^(k-64) < d (the result is below 2^63). */
    private static long ceilPow2Over(int k, long d) {
        // 2^k = hi·2^64 + 0 with hi = 2^(k-64) < d: schoolbook division one bit at a time, remainder kept below d
        long rem = 1L << (k - 64);
        long q = 0;
        for (int i = 0; i < 64; i++) {
            // rem < d <= 2^63 - 1: doubling fits an unsigned long
            rem <<= 1;
            q <<= 1;
            if (Long.compareUnsigned(rem, d) >= 0) {
                rem -= d;
                q |= 1;
            }
        }
        return rem == 0 ? q : q + 1;
    }

    public long divisor() {
        return divisor;
    }

    /** {@code x / divisor} for {@code x >= 0} (floor). */
    public long quotient(long x) {
        if ((x >>> FAST_BITS) == 0) {
            // 0 <= x < 2^61: the multiply-high (exact, see the class comment) or a shift
            return magic != 0 ? Math.multiplyHigh(x, magic) >>> shift : x >>> shift;
        }
        return x / divisor;
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
