package dev.rmtemu.traces.gen;

import dev.rmtemu.model.UserError;
import dev.rmtemu.traces.FlowTable;
import dev.rmtemu.traces.PacketRecord;
import dev.rmtemu.traces.spec.TraceSpec;
import dev.rmtemu.traces.TraceSummary;
import org.junit.jupiter.api.Test;

import java.util.zip.CRC32;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** gen:isp (dist=backbone): flows arrive, run and end through the trace, as on a backbone link. */
class BackboneTraceTest {
    private static final String SPEC = "gen:isp?packets=300000&seed=3";

    @Test
    void flowsArriveThroughTheTraceAndNoFlowDominates() {
        TraceSummary s = TraceSummary.of(TraceSpec.open(SPEC), 1, null);
        assertEquals(300_000, s.packets());
        // one flow arrival per 25 packets (the paper's 10 M packets / 400 K flows), not one flow per packet
        assertTrue(s.flows() > 11_000 && s.flows() < 14_000, "flows " + s.flows());
        // the heaviest flow of a backbone chunk holds well under 1 % (the paper's top flows: ~40 K of 10 M)
        double top1 = s.topShares()[0].packetShare();
        assertTrue(top1 > 0.001 && top1 < 0.015, "top flow share " + top1);
        // most flows are a few packets; some hold hundreds
        TraceSummary.CcdfPoint[] ccdf = s.flowSizeCcdf();
        assertEquals(s.flows(), ccdf[0].flows());
        assertTrue(ccdf[2].share() < 0.2, "flows of 10+ packets " + ccdf[2].share());
        assertTrue(ccdf[3].flows() > 50, "flows of 100+ packets " + ccdf[3].flows());
        // new flows keep arriving at a steady rate in every tenth of the trace
        long[] nf = s.newFlowsPerInterval();
        assertEquals(TraceSummary.NEW_FLOW_INTERVALS, nf.length);
        long mid = nf[5];
        for (int i = 1; i < nf.length; i++) {
            assertTrue(nf[i] > mid * 0.7 && nf[i] < mid * 1.3, "new flows per interval " + java.util.Arrays.toString(nf));
        }
    }

    @Test
    void flowsEndThroughTheTraceWithTheirFin() {
        // per flow: first and last packet index, SYN seen, FIN seen
        FlowTable t = new FlowTable();
        int[] first = new int[1 << 16];
        int[] last = new int[1 << 16];
        PacketRecord r = PacketRecord.allocate();
        int i = 0;
        int fins = 0;
        int finsBeforeHalf = 0;
        try (var src = TraceSpec.open(SPEC)) {
            while (src.next(r)) {
                int e = t.add(r, 1);
                if (t.packets(e) == 1) {
                    first[e] = i;
                }
                last[e] = i;
                if ((r.tcpFlags() & PacketRecord.TCP_FIN) != 0) {
                    fins++;
                    finsBeforeHalf += i < 150_000 ? 1 : 0;
                }
                i++;
            }
        }
        int endedEarly = 0;
        int startedLate = 0;
        for (int e = 0; e < t.size(); e++) {
            endedEarly += last[e] < 150_000 ? 1 : 0;
            startedLate += first[e] > 150_000 ? 1 : 0;
        }
        assertTrue(endedEarly > t.size() / 3, "flows ended in the first half: " + endedEarly + " of " + t.size());
        assertTrue(startedLate > t.size() / 3, "flows started in the second half: " + startedLate + " of " + t.size());
        assertTrue(fins > 1000 && finsBeforeHalf > fins / 3, "FINs " + fins + ", before half " + finsBeforeHalf);
    }

    @Test
    void sameSeedSameBytesAndMemoryFollowsRunningFlowsNotPackets() {
        assertEquals(digest(SPEC), digest(SPEC));
        assertNotEquals(digest(SPEC), digest("gen:isp?packets=300000&seed=4"));
        SyntheticSource src = (SyntheticSource) TraceSpec.open("gen:isp?packets=2000000&seed=1");
        PacketRecord r = PacketRecord.allocate();
        long n = 0;
        while (src.next(r)) {
            n++;
        }
        assertEquals(2_000_000, n);
        // ~80,000 flows in the trace, but only those running at once hold a slot
        assertTrue(src.backboneSlots() <= 8192, "slots " + src.backboneSlots());
    }

    @Test
    void theSpecReproducesTheTraceAndBadModelKeysAreRefused() {
        SyntheticSource a = (SyntheticSource) TraceSpec.open("gen:isp?packets=5000&seed=9&mice=0.9&gap=100000");
        String spec = a.describe();
        assertTrue(spec.contains("dist=backbone") && spec.contains("flows=0") && spec.contains("mice=0.9"), spec);
        assertEquals(digest("gen:isp?packets=5000&seed=9&mice=0.9&gap=100000"), digest(spec));
        UserError e = assertThrows(UserError.class, () -> TraceSpec.open("gen:isp?pareto=0.9"));
        assertEquals("gen:isp?pareto=0.9: generator key 'pareto' must be above 1 with dist=backbone (the elephants' mean size must be finite)",
                e.getMessage());
        e = assertThrows(UserError.class, () -> TraceSpec.open("gen:isp?mice=1"));
        assertEquals("gen:isp?mice=1: generator key 'mice' must be in [0, 1)", e.getMessage());
        e = assertThrows(UserError.class, () -> TraceSpec.open("gen:isp?packets=1000&flows=500"));
        assertTrue(e.getMessage().startsWith("gen:isp?packets=1000&flows=500: generator key 'flows' leaves elephants under one packet"), e.getMessage());
    }

    private static long digest(String spec) {
        CRC32 crc = new CRC32();
        PacketRecord r = PacketRecord.allocate();
        byte[] b = new byte[PacketRecord.DECODED_BYTES];
        try (var src = TraceSpec.open(spec)) {
            while (src.next(r)) {
                r.buffer().getBytes(r.offset(), b);
                crc.update(b);
            }
        }
        return crc.getValue();
    }
}
