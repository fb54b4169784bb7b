package dev.rmtemu.emulator.spi;

import dev.rmtemu.emulator.engine.SwitchEngine;
import dev.rmtemu.traces.SkipCounters;

/**
 * What a replay produced: the engine (counters, metrics, state) and host measurements.
 * {@code interruptedBy} names the signal that stopped the run early (null: it ran to the end);
 * {@code results} are the programs' results read from the switch after the run ({@link ProgramReport}).
 */
public record ReplayResult(ReplayOptions options, SwitchEngine engine, long packetsRead, SkipCounters skipped,
                           long hostNanos, long firstArrivalCycle, long lastArrivalCycle, String interruptedBy,
                           RunResults results) {
    /** This result with the programs' results. */
    public ReplayResult withResults(RunResults r) {
        return new ReplayResult(options, engine, packetsRead, skipped, hostNanos, firstArrivalCycle, lastArrivalCycle,
                interruptedBy, r);
    }

    /** Host throughput in millions of packets per second of wall time. */
    public double hostMpps() {
        return hostNanos == 0 ? 0 : packetsRead * 1e3 / hostNanos;
    }

    /** What the user should know about this run (see {@link RunWarnings}). */
    public java.util.List<String> warnings() {
        return RunWarnings.of(this);
    }
}
