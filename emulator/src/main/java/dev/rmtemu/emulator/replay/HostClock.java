package dev.rmtemu.emulator.replay;

/**
 * The only wall-clock reader in a replay, for host metrics (wall time, Mpps).
 * Nothing emulated depends on it; results that depend on it live under the
 * {@code host} key of report.json.
 */
final class HostClock {
    private HostClock() {
    }

    static long nanos() {
        return System.nanoTime();
    }
}
