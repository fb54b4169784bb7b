package dev.rmtemu.emulator.rundir;

import sun.misc.Signal;
import sun.misc.SignalHandler;

import java.util.ArrayList;
import java.util.List;

/**
 * SIGINT and SIGTERM turned into a {@link StopRequest} for the time of a run, instead of
 * the JVM's default (exit at once, leaving no report). The exit code follows the shell's
 * convention, 128 + the signal number (130, 143). Closing restores the previous handlers.
 * Uses {@code sun.misc.Signal} (module jdk.unsupported, exported to every class path
 * application): the only Java API that sees a signal without ending the JVM.
 */
public final class StopSignals implements AutoCloseable {
    /** Signals a run stops on, by their JVM names. */
    static final List<String> SIGNALS = List.of("INT", "TERM");
    /** Shell exit code of a process ended by signal N: 128 + N. */
    static final int SIGNAL_EXIT_BASE = 128;

    private final List<Signal> signals = new ArrayList<>();
    private final List<SignalHandler> previous = new ArrayList<>();

    private StopSignals() {
    }

    public static StopSignals install(StopRequest stop) {
        StopSignals s = new StopSignals();
        for (String name : SIGNALS) {
            Signal sig = new Signal(name);
            SignalHandler before;
            try {
                before = Signal.handle(sig, got -> stop.request("SIG" + got.getName(),
                        SIGNAL_EXIT_BASE + got.getNumber()));
            } catch (IllegalArgumentException e) {
                // the JVM keeps this signal (e.g. SIGINT ignored by a background job, or -Xrs): it keeps its default
                continue;
            }
            s.signals.add(sig);
            s.previous.add(before);
        }
        return s;
    }

    @Override
    public void close() {
        for (int i = 0; i < signals.size(); i++) {
            Signal.handle(signals.get(i), previous.get(i));
        }
        signals.clear();
        previous.clear();
    }
}
