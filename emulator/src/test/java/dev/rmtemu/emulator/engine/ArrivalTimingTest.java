package dev.rmtemu.emulator.engine;

import dev.rmtemu.model.UserError;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The replay timing modes, with tcpreplay's meaning where tcpreplay has the option. */
class ArrivalTimingTest {
    /** 1 GHz: one cycle per ns, so arrival cycles read as ns. */
    private static final CycleClock GHZ = new CycleClock(1_000_000_000L);

    private static long[] arrivals(ArrivalTiming t, long[] timestampsNs, int wireLength) {
        long[] at = new long[timestampsNs.length];
        for (int i = 0; i < at.length; i++) {
            at[i] = t.next(timestampsNs[i], wireLength);
        }
        return at;
    }

    private static final long[] TRACE = {5_000, 6_000, 8_000, 14_000};

    @Test
    void multiplierIsTcpreplaysXTimesFasterAndScaledIsItsInverse() {
        assertEquals(List.of(0L, 500L, 1_500L, 4_500L),
                asList(arrivals(ArrivalTiming.parse("multiplier:2", GHZ), TRACE, 100)));
        assertEquals(List.of(0L, 2_000L, 6_000L, 18_000L),
                asList(arrivals(ArrivalTiming.parse("multiplier:0.5", GHZ), TRACE, 100)));
        assertEquals(List.of(0L, 2_000L, 6_000L, 18_000L),
                asList(arrivals(ArrivalTiming.parse("scaled:2", GHZ), TRACE, 100)));
        assertEquals(List.of(0L, 1_000L, 3_000L, 9_000L),
                asList(arrivals(ArrivalTiming.parse("original", GHZ), TRACE, 100)));
    }

    @Test
    void topspeedIsBackToBackAtThePortRateAndBackToBackIsOnePerCycle() {
        // 100 B + 20 B preamble and gap = 960 bits: 96 ns at 10 Gb/s, whatever the trace's spacing
        assertEquals(List.of(0L, 96L, 192L, 288L),
                asList(arrivals(ArrivalTiming.parse("topspeed", GHZ, 10), TRACE, 100)));
        assertEquals(List.of(0L, 1L, 2L, 3L),
                asList(arrivals(ArrivalTiming.parse("back-to-back", GHZ, 10), TRACE, 100)));
        UserError e = assertThrows(UserError.class, () -> ArrivalTiming.parse("topspeed", GHZ));
        assertEquals("timing 'topspeed' packs packets at the ports' line rate, and a topology's links have their own"
                + " rates: give --rate RATE (or --timing back-to-back)", e.getMessage());
    }

    @Test
    void ratesTakeTheUnitsTcpreplayAndIperfUsersWrite() {
        for (String r : new String[] {"rate:10G", "rate:10Gbps", "rate:10gbit", "rate:10Gb/s", "rate:10000M",
            "rate:10000Mbps", "rate:1e1G", "10G", "rate:0.01T", "rate:10000000kbit/s"}) {
            assertEquals(List.of(0L, 96L, 192L, 288L),
                    asList(arrivals(ArrivalTiming.parse(r, GHZ), TRACE, 100)), r);
        }
        assertEquals("timing 'rate:100gbpx': a rate needs its unit, e.g. 100G, 100Gbps, 40gbit, 10M ('gbpx' is not one)",
                assertThrows(UserError.class, () -> ArrivalTiming.parse("rate:100gbpx", GHZ)).getMessage());
        assertEquals("timing 'rate:100': a rate needs its unit, e.g. 100G, 100Gbps, 40gbit, 10M",
                assertThrows(UserError.class, () -> ArrivalTiming.parse("rate:100", GHZ)).getMessage());
        assertEquals("timing 'rate:100bps': a rate needs its unit, e.g. 100G, 100Gbps, 40gbit, 10M ('bps' is not one)",
                assertThrows(UserError.class, () -> ArrivalTiming.parse("rate:100bps", GHZ)).getMessage());
        assertEquals("timing 'multiplier:0': multiplier must be positive",
                assertThrows(UserError.class, () -> ArrivalTiming.parse("multiplier:0", GHZ)).getMessage());
        assertEquals("timing 'warp:9' not understood (original, multiplier:X, scaled:X, rate:100G, pps:N, topspeed, back-to-back)",
                assertThrows(UserError.class, () -> ArrivalTiming.parse("warp:9", GHZ)).getMessage());
    }

    private static List<Long> asList(long[] a) {
        List<Long> l = new ArrayList<>();
        for (long v : a) {
            l.add(v);
        }
        return l;
    }
}
