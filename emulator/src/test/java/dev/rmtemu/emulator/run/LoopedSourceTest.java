package dev.rmtemu.emulator.run;

import dev.rmtemu.traces.spec.TraceSpec;
import dev.rmtemu.traces.PacketRecord;
import dev.rmtemu.traces.PacketSource;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** tcpreplay's --loop: the same packets pass after pass, time going forward. */
class LoopedSourceTest {
    private static final String TRACE = "gen:isp?packets=50&flows=5&seed=3";

    private static List<Long> timestamps(PacketSource s) {
        PacketRecord r = PacketRecord.allocate();
        List<Long> ts = new ArrayList<>();
        try (s) {
            while (s.next(r)) {
                ts.add(r.timestampNs());
            }
        }
        return ts;
    }

    @Test
    void eachPassIsShiftedByTheSpanPlusTheMeanGap() {
        List<Long> once = timestamps(TraceSpec.open(TRACE));
        assertEquals(50, once.size());
        long span = once.get(49) - once.get(0);
        long period = span + span / 49;
        List<Long> thrice = timestamps(LoopedSource.of(TraceSpec.open(TRACE), () -> TraceSpec.open(TRACE), 3));
        assertEquals(150, thrice.size());
        for (int pass = 0; pass < 3; pass++) {
            for (int i = 0; i < 50; i++) {
                assertEquals(once.get(i) + pass * period, thrice.get(pass * 50 + i), "pass " + pass + " packet " + i);
            }
        }
        assertEquals(150, LoopedSource.of(TraceSpec.open(TRACE), () -> TraceSpec.open(TRACE), 3).knownCount());
    }
}
