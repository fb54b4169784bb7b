package dev.rmtemu.emulator.engine;

import dev.rmtemu.model.arith.Divisor;

/**
 * Exact conversions between nanoseconds and cycles of a target clock, in
 * integer arithmetic (no floating point, no overflow for any realistic run):
 * ns → cycles rounds down, cycles → ns rounds down.
 *
 * <p>Both run per packet (arrival times, timestamps in intrinsic metadata), so they use
 * the reduced fraction 10^9 / hz (tofino1: 50 / 61) and a {@link Divisor} instead of a
 * 64-bit divide.
 */
public final class CycleClock {
    private static final long NS_PER_S = 1_000_000_000L;

    private final long hz;
    /** ns per cycle = nsNum / nsDen, reduced. */
    private final long nsNum;
    private final Divisor nsDen;
    /** Below this many cycles, cycles × nsNum fits a long. */
    private final long fastBound;
    /** cycles per ns = nsDen / nsNum: the same reduced fraction the other way, for arrivals. */
    private final long cyclesNum;
    private final Divisor cyclesDen;
    /** Below this many ns, ns × cyclesNum fits a long. */
    private final long nsFastBound;

    public CycleClock(long hz) {
        if (hz <= 0) {
            throw new IllegalArgumentException("clock must be positive");
        }
        this.hz = hz;
        long g = Divisor.gcd(NS_PER_S, hz);
        this.nsNum = NS_PER_S / g;
        this.nsDen = new Divisor(hz / g);
        this.fastBound = Long.MAX_VALUE / nsNum;
        this.cyclesNum = hz / g;
        this.cyclesDen = new Divisor(nsNum);
        this.nsFastBound = Long.MAX_VALUE / cyclesNum;
    }


    public long hz() {
        return hz;
    }

    public long nsToCycles(long ns) {
        if (ns >= 0 && ns < nsFastBound) {
            // floor(ns × hz / 10^9) with the fraction reduced (tofino1: × 61 / 50): no 64-bit divide per arrival
            return cyclesDen.quotient(ns * cyclesNum);
        }
        return (ns / NS_PER_S) * hz + (ns % NS_PER_S) * hz / NS_PER_S;
    }

    /** ns → cycles rounding up (a delay must not get shorter). */
    public long nsToCyclesCeil(long ns) {
        long whole = (ns / NS_PER_S) * hz;
        long rest = (ns % NS_PER_S) * hz;
        return whole + (rest + NS_PER_S - 1) / NS_PER_S;
    }

    public long cyclesToNs(long cycles) {
        if (cycles >= 0 && cycles < fastBound) {
            return nsDen.quotient(cycles * nsNum); // floor(cycles × 10^9 / hz), the fraction reduced
        }
        return (cycles / hz) * NS_PER_S + (cycles % hz) * NS_PER_S / hz;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof CycleClock c && c.hz == hz;
    }

    @Override
    public int hashCode() {
        return Long.hashCode(hz);
    }

    @Override
    public String toString() {
        return "CycleClock[hz=" + hz + "]";
    }
}
