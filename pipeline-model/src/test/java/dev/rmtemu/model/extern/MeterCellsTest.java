package dev.rmtemu.model.extern;

import dev.rmtemu.model.UserError;
import dev.rmtemu.model.phv.Gress;
import org.junit.jupiter.api.Test;

import static dev.rmtemu.model.extern.MeterColor.GREEN;
import static dev.rmtemu.model.extern.MeterColor.RED;
import static dev.rmtemu.model.extern.MeterColor.YELLOW;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Meter colours on traces of known sizes and times, each hand-computed from the RFCs' defining
 * equations (RFC 2698 section 3 for the trTCM, RFC 2697 section 3 for the srTCM). Rates are
 * bytes (or packets) per second and times nanoseconds, so 1,000,000 B/s adds one byte a
 * microsecond. TNA's colour encoding (GREEN 0, YELLOW 1, RED 3) is MeterColor_t of p4c
 * backends/tofino/bf-p4c/p4include/tofino1_base.p4.
 */
class MeterCellsTest {
    private static MeterCells cells(MeterType type, Meter.Algorithm algorithm) {
        return new MeterCells(new Meter(0, "m", type, algorithm, 4, Gress.INGRESS, 0, null));
    }

    @Test
    void tnaColourEncoding() {
        assertEquals(0, GREEN);
        assertEquals(1, YELLOW);
        assertEquals(3, RED);
        assertEquals("YELLOW", MeterColor.name(1));
        assertEquals(null, MeterColor.name(2));
    }

    @Test
    void trTcmColourBlindExactToTheByte() {
        MeterCells m = cells(MeterType.BYTES, Meter.Algorithm.TRTCM);
        m.setRates(1, 1_000_000, 200, 2_000_000, 300); // Tc = 200, Tp = 300
        assertEquals(GREEN, m.execute(1, GREEN, 100, 0));   // Tc 100, Tp 200
        assertEquals(YELLOW, m.execute(1, GREEN, 150, 0));  // Tc 100 < 150; Tp 50
        assertEquals(RED, m.execute(1, GREEN, 100, 0));     // Tp 50 < 100
        // 50 us later: Tc + 50 = 150, Tp + 100 = 150: exactly enough for 150 bytes
        assertEquals(GREEN, m.execute(1, GREEN, 150, 50_000)); // Tc 0, Tp 0
        assertEquals(RED, m.execute(1, GREEN, 64, 50_001));    // 0.001 and 0.002 tokens
        // at 150 us: Tc = 0.001 + 99.999 = 100, Tp = 0.002 + 199.998 = 200, exactly
        m.execute(1, GREEN, 0, 150_000); // a zero-byte packet only refills
        assertEquals(100L * MeterCells.NS_PER_S, m.scaledTokensC(1));
        assertEquals(200L * MeterCells.NS_PER_S, m.scaledTokensP(1));
        assertEquals(GREEN, m.execute(1, GREEN, 100, 150_000)); // Tc 0, Tp 100
        assertEquals(RED, m.execute(1, GREEN, 101, 150_000));   // one byte more than Tp
        assertEquals(YELLOW, m.execute(1, GREEN, 100, 150_000)); // Tp 100 >= 100, Tc 0 < 100
    }

    @Test
    void bucketsRefillToTheirBurstAndNoFurther() {
        MeterCells m = cells(MeterType.BYTES, Meter.Algorithm.TRTCM);
        m.setRates(0, 1_000_000, 200, 2_000_000, 300);
        assertEquals(GREEN, m.execute(0, GREEN, 200, 0)); // Tc 0, Tp 100
        // a day later both are full again, not more
        assertEquals(GREEN, m.execute(0, GREEN, 200, 86_400_000_000_000L));
        assertEquals(YELLOW, m.execute(0, GREEN, 100, 86_400_000_000_000L)); // Tc 0, Tp 100 -> 0
        assertEquals(RED, m.execute(0, GREEN, 1, 86_400_000_000_000L));
    }

    @Test
    void trTcmColourAwareKeepsThePreColour() {
        MeterCells m = cells(MeterType.BYTES, Meter.Algorithm.TRTCM);
        m.setRates(0, 1_000_000, 200, 2_000_000, 300);
        assertEquals(RED, m.execute(0, RED, 10, 0));       // RED stays RED and takes no tokens
        assertEquals(YELLOW, m.execute(0, YELLOW, 100, 0)); // Tp 200, Tc untouched at 200
        assertEquals(GREEN, m.execute(0, GREEN, 200, 0));   // Tc 0, Tp 0
        // the same packets colour-blind: the first two take both buckets' tokens, so the last is RED
        MeterCells blind = cells(MeterType.BYTES, Meter.Algorithm.TRTCM);
        blind.setRates(0, 1_000_000, 200, 2_000_000, 300);
        assertEquals(GREEN, blind.execute(0, GREEN, 10, 0));   // Tc 190, Tp 290
        assertEquals(GREEN, blind.execute(0, GREEN, 100, 0));  // Tc 90, Tp 190
        assertEquals(RED, blind.execute(0, GREEN, 200, 0));    // Tp 190 < 200
    }

    @Test
    void srTcmOverflowsCommittedTokensIntoTheExcessBucket() {
        MeterCells m = cells(MeterType.BYTES, Meter.Algorithm.SRTCM);
        m.setRates(0, 1_000_000, 100, 1_000_000, 200); // Tc = 100, Te = 200
        assertEquals(GREEN, m.execute(0, GREEN, 100, 0));  // Tc 0
        assertEquals(YELLOW, m.execute(0, GREEN, 150, 0)); // Te 50
        assertEquals(RED, m.execute(0, GREEN, 60, 0));
        // 100 us: 100 tokens, all into C (room 100): Tc 100, Te 50
        assertEquals(GREEN, m.execute(0, GREEN, 100, 100_000)); // Tc 0
        assertEquals(RED, m.execute(0, GREEN, 51, 100_000));    // Te 50 < 51
        // 300 us more: 300 tokens, 100 fill C, 150 of the other 200 fill E to its 200
        assertEquals(YELLOW, m.execute(0, GREEN, 200, 400_000)); // Tc 100 < 200, Te 200
        assertEquals(GREEN, m.execute(0, GREEN, 100, 400_000));
    }

    @Test
    void srTcmColourAware() {
        MeterCells m = cells(MeterType.BYTES, Meter.Algorithm.SRTCM);
        m.setRates(0, 1_000_000, 100, 1_000_000, 200);
        assertEquals(YELLOW, m.execute(0, YELLOW, 50, 0)); // a YELLOW packet never takes C: Te 150
        assertEquals(RED, m.execute(0, RED, 1, 0));
        assertEquals(GREEN, m.execute(0, GREEN, 100, 0));  // Tc 100 untouched until now
    }

    @Test
    void packetMeterCountsPackets() {
        MeterCells m = cells(MeterType.PACKETS, Meter.Algorithm.TRTCM);
        m.setRates(2, 1_000, 2, 2_000, 3); // 1 packet/ms committed, 2 peak
        assertEquals(GREEN, m.execute(2, GREEN, 1, 0));
        assertEquals(GREEN, m.execute(2, GREEN, 1, 0));
        assertEquals(YELLOW, m.execute(2, GREEN, 1, 0));
        assertEquals(RED, m.execute(2, GREEN, 1, 0));
        // 999,999 ns: Tc 0.999999, Tp 1.999998 packets
        assertEquals(YELLOW, m.execute(2, GREEN, 1, 999_999)); // Tp 0.999998
        // one ns more: Tc 1.000000, Tp 1.000000
        assertEquals(GREEN, m.execute(2, GREEN, 1, 1_000_000));
    }

    @Test
    void aCellWithoutRatesLetsEverythingThrough() {
        MeterCells m = cells(MeterType.BYTES, Meter.Algorithm.TRTCM);
        assertEquals(GREEN, m.execute(3, GREEN, 1_000_000, 0));
        assertEquals(GREEN, m.execute(3, YELLOW, 1_000_000, 0));
    }

    @Test
    void ratesTheMarkerCannotHaveAreRefused() {
        MeterCells sr = cells(MeterType.BYTES, Meter.Algorithm.SRTCM);
        UserError e = assertThrows(UserError.class, () -> sr.setRates(0, 1000, 10, 2000, 20));
        assertEquals("meter m[0] is an srTCM (RFC 2697): one rate, so the second rate must equal the first (1000), got 2000",
                e.getMessage());
        MeterCells tr = cells(MeterType.BYTES, Meter.Algorithm.TRTCM);
        e = assertThrows(UserError.class, () -> tr.setRates(0, 2000, 10, 1000, 20));
        assertEquals("meter m[0] is a trTCM (RFC 2698): PIR 1000 must be >= CIR 2000", e.getMessage());
    }
}
