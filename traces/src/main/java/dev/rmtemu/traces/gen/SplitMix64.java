package dev.rmtemu.traces.gen;

/**
 * SplitMix64 (Steele, Lea, Flood 2014): the documented 64-bit generator all seeded
 * randomness in traces uses, written out here so the streams are the same on every
 * JVM. Floating-point transforms use {@link StrictMath} for the same reason.
 * Also a counter-based form, {@link #at}, for decisions that must depend only on
 * (seed, index) and not on how many numbers were drawn before.
 */
public final class SplitMix64 {
    private static final long GAMMA = 0x9E3779B97F4A7C15L;
    private static final double DOUBLE_UNIT = 0x1.0p-53;
    private long state;

    public SplitMix64(long seed) {
        this.state = seed;
    }

    public long nextLong() {
        return mix(state += GAMMA);
    }

    /** Uniform in [0, 1). */
    public double nextDouble() {
        return (nextLong() >>> 11) * DOUBLE_UNIT;
    }

    /** Uniform in (0, 1]: safe to take a logarithm of or raise to a negative power. */
    public double nextOpenDouble() {
        return ((nextLong() >>> 11) + 1) * DOUBLE_UNIT;
    }

    /** Uniform in [0, bound) for bound &gt; 0 (Lemire's multiply-shift; negligible bias). */
    public int nextInt(int bound) {
        return (int) (((nextLong() >>> 32) * bound) >>> 32);
    }

    /** Exponential with the given mean. */
    public double nextExponential(double mean) {
        return -mean * StrictMath.log(nextOpenDouble());
    }

    /** Standard normal by Box–Muller (one of the pair; simple and deterministic). */
    public double nextGaussian() {
        double u1 = nextOpenDouble();
        double u2 = nextDouble();
        return StrictMath.sqrt(-2.0 * StrictMath.log(u1)) * StrictMath.cos(2.0 * StrictMath.PI * u2);
    }

    /** The SplitMix64 output function (a bijection). */
    public static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    /** Counter-based draw: the {@code index}-th number of stream {@code seed}. */
    public static long at(long seed, long index) {
        return mix(mix(seed) + (index + 1) * GAMMA);
    }

    /** {@link #at} as a double in [0, 1). */
    public static double doubleAt(long seed, long index) {
        return (at(seed, index) >>> 11) * DOUBLE_UNIT;
    }

    /** Derives an independent seed for a named sub-stream. */
    public static long derive(long seed, long stream) {
        return mix(seed ^ mix(stream * GAMMA + 0x632BE59BD9B4E019L));
    }
}
