package dev.rmtemu.emulator.cli;

import dev.rmtemu.emulator.host.HostClock;

import java.io.PrintWriter;

/**
 * A one-line progress display on stderr for long trace work: count, percentage and bar
 * when the total is known, and the host's processing rate. Redrawn at most every
 * {@link #REDRAW_INTERVAL_NS} of host time. The rate is a host metric (wall clock); it
 * never reaches any output file. Disabled unless stderr is an interactive terminal
 * (approximated by {@link System#console()}, which Java 17 ties to the process's
 * terminal) or forced with {@code --progress}.
 */
public final class ProgressBar implements AutoCloseable {
    /** Redraw period: 5 updates per second is smooth without costing time. */
    static final long REDRAW_INTERVAL_NS = 200_000_000L;
    static final int BAR_WIDTH = 30;

    private final PrintWriter err;
    private final String label;
    private final String unit;
    private final long total;
    private final boolean enabled;
    private final long startNs;
    private long lastDrawNs;
    private long done;
    private boolean drawn;

    /**
     * @param total the count at completion, or a negative number when unknown
     * @param force draw even when stderr is not a terminal
     */
    public ProgressBar(PrintWriter err, String label, String unit, long total, boolean force) {
        this.err = err;
        this.label = label;
        this.unit = unit;
        this.total = total;
        this.enabled = force || System.console() != null;
        this.startNs = HostClock.nanos();
        this.lastDrawNs = startNs;
    }

    /** Whether anything will be drawn. */
    public boolean enabled() {
        return enabled;
    }

    /** Reports progress (cheap when not redrawing). */
    public void update(long count) {
        done = count;
        if (!enabled) {
            return;
        }
        long now = HostClock.nanos();
        if (now - lastDrawNs >= REDRAW_INTERVAL_NS) {
            lastDrawNs = now;
            draw(now);
        }
    }

    private void draw(long now) {
        double secs = Math.max(1e-9, (now - startNs) / 1e9);
        StringBuilder sb = new StringBuilder("\r").append(label).append(' ');
        if (total > 0) {
            double f = Math.min(1.0, (double) done / total);
            int fill = (int) Math.round(f * BAR_WIDTH);
            sb.append('[').append("#".repeat(fill)).append("-".repeat(BAR_WIDTH - fill)).append("] ");
            sb.append(String.format("%3d%% ", (int) Math.floor(f * 100)));
        }
        sb.append(String.format("%,d %s  %s %s/s (host)", done, unit, humanRate(done / secs), unit));
        err.print(sb);
        err.flush();
        drawn = true;
    }

    static String humanRate(double perSecond) {
        if (perSecond >= 1e6) {
            return String.format("%.2f M", perSecond / 1e6);
        }
        if (perSecond >= 1e3) {
            return String.format("%.1f K", perSecond / 1e3);
        }
        return String.format("%.0f", perSecond);
    }

    /** Draws the final state and ends the line (if anything was drawn or forced). */
    @Override
    public void close() {
        if (enabled) {
            draw(HostClock.nanos());
            err.println();
            err.flush();
        } else if (drawn) {
            err.println();
        }
    }
}
