package dev.rmtemu.emulator.cli;

import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The progress line from fixed numbers and a fake host clock. */
class ProgressBarTest {
    private static final long SECOND = 1_000_000_000L;

    @Test
    void knownTotalShowsBarPercentCountRateAndEta() {
        // 250,000 of 1,000,000 in 2 s: 125 K/s, 750,000 left -> 6 s
        assertEquals("replay [########----------------------]  25% 250,000/1,000,000 packets  125.0 K packets/s (host)"
                + "  ETA 0:06", ProgressBar.render("replay", "packets", 250_000, 1_000_000, 2 * SECOND));
        // 3 M of 10 M in 1 s: 3 M/s, 7 M left -> 2.33 s, rounded up
        assertEquals("gen [#########---------------------]  30% 3,000,000/10,000,000 pkts  3.00 M pkts/s (host)  ETA 0:03",
                ProgressBar.render("gen", "pkts", 3_000_000, 10_000_000, SECOND));
    }

    @Test
    void etaGrowsHoursAndEndsAtZero() {
        // 1,000 of 10,000,000 in 1 s: 1,000/s, 9,999,000 left = 9,999 s = 2 h 46 min 39 s
        assertEquals("x [------------------------------]   0% 1,000/10,000,000 p  1.0 K p/s (host)  ETA 2:46:39",
                ProgressBar.render("x", "p", 1_000, 10_000_000, SECOND));
        assertEquals("x [##############################] 100% 500/500 p  250 p/s (host)  ETA 0:00",
                ProgressBar.render("x", "p", 500, 500, 2 * SECOND));
        assertEquals("x [------------------------------]   0% 0/500 p  0 p/s (host)  ETA --:--",
                ProgressBar.render("x", "p", 0, 500, 2 * SECOND));
        assertEquals("1:01:01", ProgressBar.duration(3661));
        assertEquals("0:59", ProgressBar.duration(58.2));
    }

    @Test
    void unknownTotalShowsCountAndRateOnly() {
        assertEquals("info 1,234,567 pkts  2.47 M pkts/s (host)",
                ProgressBar.render("info", "pkts", 1_234_567, -1, SECOND / 2));
    }

    @Test
    void drawsAtMostEveryRedrawIntervalOnTheFakeClockAndOnlyWhenEnabled() {
        AtomicLong now = new AtomicLong(100 * SECOND);
        StringWriter text = new StringWriter();
        ProgressBar bar = new ProgressBar(new PrintWriter(text), "replay", "packets", -1, true, now::get);
        bar.total(400);
        now.addAndGet(ProgressBar.REDRAW_INTERVAL_NS - 1);
        bar.update(10);
        assertEquals("", text.toString());
        now.addAndGet(1);
        bar.update(100); // 100 in 0.2 s: 500/s, 300 left -> 0.6 s
        assertEquals("\rreplay [########----------------------]  25% 100/400 packets  500 packets/s (host)  ETA 0:01",
                text.toString());
        now.addAndGet(SECOND / 5);
        bar.update(400);
        bar.close();
        assertEquals("\rreplay [########----------------------]  25% 100/400 packets  500 packets/s (host)  ETA 0:01"
                + "\rreplay [##############################] 100% 400/400 packets  1.0 K packets/s (host)  ETA 0:00"
                + "\rreplay [##############################] 100% 400/400 packets  1.0 K packets/s (host)  ETA 0:00"
                + System.lineSeparator(), text.toString());

        StringWriter off = new StringWriter();
        ProgressBar quiet = new ProgressBar(new PrintWriter(off), "replay", "packets", 400, false, now::get);
        now.addAndGet(10 * SECOND);
        quiet.update(400);
        quiet.close();
        assertEquals("", off.toString());
    }
}
