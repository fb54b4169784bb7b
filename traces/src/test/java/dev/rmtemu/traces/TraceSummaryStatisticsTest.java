package dev.rmtemu.traces;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** The flow statistics of trace info on a hand-built trace, with values worked out by hand. */
class TraceSummaryStatisticsTest {
    /** A source over a list of records. */
    private static final class ListSource implements PacketSource {
        private final List<PacketRecord> records;
        private int next;

        ListSource(List<PacketRecord> records) {
            this.records = records;
        }

        @Override
        public boolean next(PacketRecord into) {
            if (next == records.size()) {
                return false;
            }
            into.copyFrom(records.get(next++));
            return true;
        }

        @Override
        public SkipCounters skipped() {
            return new SkipCounters();
        }

        @Override
        public String describe() {
            return "list";
        }

        @Override
        public void close() {
        }
    }

    @Test
    void topSharesCcdfNewFlowsAndMeanSize() {
        // flow f (f = 0..11) sends sizes[f] packets; flow f starts at f x 100 ns; 11 ns between its packets
        int[] sizes = {50, 20, 10, 5, 3, 2, 2, 2, 1, 1, 1, 3};
        List<PacketRecord> recs = new ArrayList<>();
        for (int f = 0; f < sizes.length; f++) {
            for (int p = 0; p < sizes[f]; p++) {
                recs.add(PacketRecord.allocate().ipVersion(4).protocol(PacketRecord.PROTO_UDP).srcIpv4(0x0A000000 + f)
                        .dstIpv4(0x0A0000FF).srcPort(1000).dstPort(53).wireLength(f == 0 ? 1500 : 100)
                        .timestampNs(f * 100L + p * 11L));
            }
        }
        // timestamps must not go backwards for the count of new flows to be by first packet: sort by time
        recs.sort((a, b) -> Long.compare(a.timestampNs(), b.timestampNs()));
        TraceSummary s = TraceSummary.of(new ListSource(recs), 3, null);
        assertEquals(100, s.packets());
        assertEquals(12, s.flows());
        TraceSummary.TopShare[] t = s.topShares();
        assertEquals(0.50, t[0].packetShare(), 1e-12);
        assertEquals(0.98, t[1].packetShare(), 1e-12); // 50+20+10+5+3+3+2+2+2+1: two single-packet flows left out
        assertEquals(1.0, t[2].packetShare(), 1e-12);
        assertEquals(1.0, t[3].packetShare(), 1e-12);
        TraceSummary.CcdfPoint[] c = s.flowSizeCcdf();
        assertEquals(12, c[0].flows());
        assertEquals(9, c[1].flows());   // >= 2 packets
        assertEquals(3, c[2].flows());   // >= 10 packets
        assertEquals(0, c[3].flows());   // >= 100
        assertEquals(0.25, c[2].share(), 1e-12);
        // span 0 .. 1122 ns (flow 11's third packet): intervals of ceil(1122 / 10) = 113 ns; flow f starts at 100 f
        assertEquals(113, s.newFlowIntervalNs());
        assertArrayEquals(new long[] {2, 1, 1, 1, 1, 1, 1, 2, 1, 1}, s.newFlowsPerInterval());
        assertEquals((50 * 1500 + 50 * 100) / 100.0, s.meanPacketBytes(), 1e-12);
    }
}
