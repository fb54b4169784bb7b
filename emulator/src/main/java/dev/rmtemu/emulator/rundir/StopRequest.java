package dev.rmtemu.emulator.rundir;

/**
 * A request to stop a run early, set from another thread (a signal handler) and read by
 * the engine thread at chunk boundaries: the run then writes its final report marked
 * incomplete instead of vanishing.
 */
public final class StopRequest {
    private volatile String reason;
    private volatile int exitCode;

    /**
     * Asks the run to stop; {@code reason} (e.g. SIGTERM) goes into the report as
     * {@code interrupted_by}, {@code exitCode} is what the CLI exits with. The first request wins.
     */
    public synchronized void request(String reason, int exitCode) {
        if (this.reason == null) {
            this.exitCode = exitCode;
            this.reason = reason;
        }
    }

    public boolean requested() {
        return reason != null;
    }

    /** The reason of the first request, or null. */
    public String reason() {
        return reason;
    }

    /** The exit code of the first request (0 before one). */
    public int exitCode() {
        return exitCode;
    }
}
