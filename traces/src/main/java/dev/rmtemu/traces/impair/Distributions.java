package dev.rmtemu.traces.impair;

import dev.rmtemu.traces.gen.SplitMix64;

/** Counter-based draws: values depend only on (seed, counter), via StrictMath. */
final class Distributions {
    private static final double DOUBLE_UNIT = 0x1.0p-53;

    private Distributions() {
    }

    /** Standard normal from draws {@code k} and {@code k}+1/2 of the stream (Box–Muller). */
    static double gaussian(long seed, long k) {
        double u1 = ((SplitMix64.at(seed, k) >>> 11) + 1) * DOUBLE_UNIT;
        double u2 = (SplitMix64.at(seed ^ 0x5851F42D4C957F2DL, k) >>> 11) * DOUBLE_UNIT;
        return StrictMath.sqrt(-2.0 * StrictMath.log(u1)) * StrictMath.cos(2.0 * StrictMath.PI * u2);
    }

    /** Exponential with the given mean from draw {@code k}. */
    static double exponential(long seed, long k, double mean) {
        return -mean * StrictMath.log(((SplitMix64.at(seed, k) >>> 11) + 1) * DOUBLE_UNIT);
    }
}
