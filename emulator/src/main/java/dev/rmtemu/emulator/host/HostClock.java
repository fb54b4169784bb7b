package dev.rmtemu.emulator.host;

/**
 * The only wall-clock reader in rmtemu, for host metrics: wall time, Mpps, the
 * progress bar's rate and per-packet host processing time. Nothing emulated
 * depends on it; results that do live under the {@code host} key of report.json
 * and in host-processing.hgrm.
 */
public final class HostClock {
    private HostClock() {
    }

    public static long nanos() {
        return System.nanoTime();
    }
}
