package dev.rmtemu.emulator.engine;

/**
 * Exact conversions between nanoseconds and cycles of a target clock, in
 * integer arithmetic (no floating point, no overflow for any realistic run):
 * ns → cycles rounds down, cycles → ns rounds down.
 */
public record CycleClock(long hz) {
    private static final long NS_PER_S = 1_000_000_000L;

    public CycleClock {
        if (hz <= 0) {
            throw new IllegalArgumentException("clock must be positive");
        }
    }

    public long nsToCycles(long ns) {
        return (ns / NS_PER_S) * hz + (ns % NS_PER_S) * hz / NS_PER_S;
    }

    /** ns → cycles rounding up (a delay must not get shorter). */
    public long nsToCyclesCeil(long ns) {
        long whole = (ns / NS_PER_S) * hz;
        long rest = (ns % NS_PER_S) * hz;
        return whole + (rest + NS_PER_S - 1) / NS_PER_S;
    }

    public long cyclesToNs(long cycles) {
        if (cycles >= 0 && cycles < Long.MAX_VALUE / NS_PER_S) {
            return cycles * NS_PER_S / hz; // equal to the split form below, with one division
        }
        return (cycles / hz) * NS_PER_S + (cycles % hz) * NS_PER_S / hz;
    }
}
