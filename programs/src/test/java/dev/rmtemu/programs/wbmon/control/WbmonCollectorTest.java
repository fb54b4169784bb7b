package dev.rmtemu.programs.wbmon.control;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The success rate the analyser feeds NetBouncer (WBMon dissertation Section 4.4). */
class WbmonCollectorTest {

    @Test
    void blackholedVconnHasSuccessZero() {
        // 1,000 numbered upstream, nothing arrived: no slot was ever cleaned, so no drops were counted
        WbmonCollector.VconnCounters c = new WbmonCollector.VconnCounters(0, 1_000, 0, 0);
        assertEquals(1_000, c.lost());
        assertEquals(0.0, c.successRate(), 0.0);
    }

    @Test
    void lossesAreSentMinusReceived() {
        // 10 lost, of which the window has judged 6 so far (the rest wait in the tolerance window)
        WbmonCollector.VconnCounters c = new WbmonCollector.VconnCounters(3, 1_000, 990, 6);
        assertEquals(10, c.lost());
        assertEquals(0.99, c.successRate(), 1e-12);
    }

    @Test
    void duplicatesDoNotHideDetectedDrops() {
        // 5 duplicates arrived on top of 995 of 1,000: received says 0 lost, the window saw 5 zero bits
        WbmonCollector.VconnCounters c = new WbmonCollector.VconnCounters(1, 1_000, 1_000, 5);
        assertEquals(5, c.lost());
        assertEquals(0.995, c.successRate(), 1e-12);
    }

    @Test
    void nothingSentIsNoEvidence() {
        assertEquals(1.0, new WbmonCollector.VconnCounters(2, 0, 0, 0).successRate(), 0.0);
    }
}
