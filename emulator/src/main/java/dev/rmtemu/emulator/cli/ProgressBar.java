package dev.rmtemu.emulator.cli;

import dev.rmtemu.emulator.host.HostClock;

import java.io.PrintWriter;
import java.util.Locale;
import java.util.function.LongSupplier;

/**
 * A one-line progress display on stderr for long trace work: when the total is known, a bar,
 * the percentage, done/total, the host's rate and the time left (ETA); otherwise the count and
 * the rate. Redrawn at most every {@link #REDRAW_INTERVAL_NS} of host time. Rate and ETA are
 * host metrics (wall clock, {@link HostClock}); they never reach any output file. Disabled
 * unless stderr is an interactive terminal (approximated by {@link System#console()}, which
 * Java 17 ties to the process's terminal) or forced; {@code --no-progress} turns it off.
 */
public final class ProgressBar implements AutoCloseable {
    /** Redraw period: 5 updates per second is smooth without costing time. */
    static final long REDRAW_INTERVAL_NS = 200_000_000L;
    static final int BAR_WIDTH = 30;

    private final PrintWriter err;
    private final String label;
    private final String unit;
    private final boolean enabled;
    private final LongSupplier clock;
    private final long startNs;
    private long total;
    private long lastDrawNs;
    private long done;
    private boolean drawn;

    /**
     * @param total the count at completion, or a negative number when unknown
     * @param force draw even when stderr is not a terminal
     */
    public ProgressBar(PrintWriter err, String label, String unit, long total, boolean force) {
        this(err, label, unit, total, force || System.console() != null, HostClock::nanos);
    }

    /** With the decision to draw and the host clock given (tests use a fake clock). */
    ProgressBar(PrintWriter err, String label, String unit, long total, boolean enabled, LongSupplier clock) {
        this.err = err;
        this.label = label;
        this.unit = unit;
        this.total = total;
        this.enabled = enabled;
        this.clock = clock;
        this.startNs = clock.getAsLong();
        this.lastDrawNs = startNs;
    }

    /** Whether anything will be drawn. */
    public boolean enabled() {
        return enabled;
    }

    /** Sets the count at completion once it is known (negative: unknown). */
    public void total(long total) {
        this.total = total;
    }

    /** Reports progress (cheap when not redrawing). */
    public void update(long count) {
        done = count;
        if (!enabled) {
            return;
        }
        long now = clock.getAsLong();
        if (now - lastDrawNs >= REDRAW_INTERVAL_NS) {
            lastDrawNs = now;
            draw(now);
        }
    }

    private void draw(long now) {
        err.print("\r" + render(label, unit, done, total, now - startNs));
        err.flush();
        drawn = true;
    }

    /**
     * The line for {@code done} of {@code total} (negative: unknown) after {@code elapsedNs} of
     * host time, e.g. {@code replay [###---]  10% 100,000/1,000,000 packets  1.0 M packets/s (host)  ETA 0:09}.
     */
    static String render(String label, String unit, long done, long total, long elapsedNs) {
        double secs = Math.max(1e-9, elapsedNs / 1e9);
        double rate = done / secs;
        StringBuilder sb = new StringBuilder(label).append(' ');
        if (total > 0) {
            double f = Math.min(1.0, (double) done / total);
            int fill = (int) Math.round(f * BAR_WIDTH);
            sb.append('[').append("#".repeat(fill)).append("-".repeat(BAR_WIDTH - fill)).append("] ");
            sb.append(String.format(Locale.ROOT, "%3d%% %,d/%,d %s", (int) Math.floor(f * 100), done, total, unit));
        } else {
            sb.append(String.format(Locale.ROOT, "%,d %s", done, unit));
        }
        sb.append(String.format(Locale.ROOT, "  %s %s/s (host)", humanRate(rate), unit));
        if (total > 0) {
            sb.append("  ETA ").append(done >= total ? "0:00" : rate <= 0 ? "--:--" : duration((total - done) / rate));
        }
        return sb.toString();
    }

    /** {@code m:ss}, or {@code h:mm:ss} from an hour on, rounded up to the second. */
    static String duration(double seconds) {
        long s = (long) Math.ceil(seconds);
        long h = s / 3600;
        long m = (s % 3600) / 60;
        long sec = s % 60;
        return h > 0 ? String.format(Locale.ROOT, "%d:%02d:%02d", h, m, sec) : String.format(Locale.ROOT, "%d:%02d", m, sec);
    }

    static String humanRate(double perSecond) {
        if (perSecond >= 1e6) {
            return String.format(Locale.ROOT, "%.2f M", perSecond / 1e6);
        }
        if (perSecond >= 1e3) {
            return String.format(Locale.ROOT, "%.1f K", perSecond / 1e3);
        }
        return String.format(Locale.ROOT, "%.0f", perSecond);
    }

    /** Draws the final state and ends the line (if anything was drawn or forced). */
    @Override
    public void close() {
        if (enabled) {
            draw(clock.getAsLong());
            err.println();
            err.flush();
        } else if (drawn) {
            err.println();
        }
    }
}
