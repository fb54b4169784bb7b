package dev.rmtemu.emulator.spi;

import dev.rmtemu.emulator.engine.SwitchEngine;
import dev.rmtemu.emulator.network.NetworkEngine;
import dev.rmtemu.traces.SkipCounters;

import java.util.List;

/**
 * What a replay produced, through one switch or a network ({@code --topology}): the machine that
 * ran it ({@code engine} for one switch, {@code network} for a network; the other is null: its
 * counters, metrics and state) and host measurements. {@code interruptedBy} names the signal that
 * stopped the run early (null: it ran to the end); {@code results} are the programs' results
 * read from the switches after the run ({@link ProgramReport}); {@code outputWarnings} are what
 * writing the run's outputs had to say (a capture file that reached its limit).
 */
public record ReplayResult(ReplayOptions options, SwitchEngine engine, NetworkEngine network, long packetsRead,
                           SkipCounters skipped, long hostNanos, long firstArrivalCycle, long lastArrivalCycle,
                           String interruptedBy, RunResults results, List<String> outputWarnings) {
    public ReplayResult {
        if ((engine == null) == (network == null)) {
            throw new IllegalArgumentException("a replay runs one switch or one network");
        }
        outputWarnings = List.copyOf(outputWarnings);
    }

    public ReplayResult(ReplayOptions options, SwitchEngine engine, NetworkEngine network, long packetsRead,
                        SkipCounters skipped, long hostNanos, long firstArrivalCycle, long lastArrivalCycle,
                        String interruptedBy, RunResults results) {
        this(options, engine, network, packetsRead, skipped, hostNanos, firstArrivalCycle, lastArrivalCycle,
                interruptedBy, results, List.of());
    }

    /** The result of a single-switch replay. */
    public static ReplayResult ofSwitch(ReplayOptions options, SwitchEngine engine, long packetsRead, SkipCounters skipped,
                                        long hostNanos, long firstArrivalCycle, long lastArrivalCycle,
                                        String interruptedBy, RunResults results) {
        return new ReplayResult(options, engine, null, packetsRead, skipped, hostNanos, firstArrivalCycle,
                lastArrivalCycle, interruptedBy, results);
    }

    /** The result of a network replay. */
    public static ReplayResult ofNetwork(ReplayOptions options, NetworkEngine network, long packetsRead,
                                         SkipCounters skipped, long hostNanos, long firstArrivalCycle,
                                         long lastArrivalCycle, String interruptedBy, RunResults results) {
        return new ReplayResult(options, null, network, packetsRead, skipped, hostNanos, firstArrivalCycle,
                lastArrivalCycle, interruptedBy, results);
    }

    /** Whether a network ran (then {@link #network()} is set and {@link #engine()} is null). */
    public boolean isNetwork() {
        return network != null;
    }

    /** This result with the programs' results. */
    public ReplayResult withResults(RunResults r) {
        return new ReplayResult(options, engine, network, packetsRead, skipped, hostNanos, firstArrivalCycle,
                lastArrivalCycle, interruptedBy, r, outputWarnings);
    }

    /** This result with the warnings of writing its outputs (they follow the run's own). */
    public ReplayResult withOutputWarnings(List<String> w) {
        return new ReplayResult(options, engine, network, packetsRead, skipped, hostNanos, firstArrivalCycle,
                lastArrivalCycle, interruptedBy, results, w);
    }

    /** Host throughput in millions of trace packets per second of wall time. */
    public double hostMpps() {
        return hostNanos == 0 ? 0 : packetsRead * 1e3 / hostNanos;
    }

    /** What the user should know about this run, a network's forwarding-loop warning included (see {@link RunWarnings}). */
    public List<String> warnings() {
        return RunWarnings.of(this);
    }
}
