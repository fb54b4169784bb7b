package dev.rmtemu.traces.gen;

import dev.rmtemu.model.UserError;
import dev.rmtemu.traces.FlowKey;
import dev.rmtemu.traces.PacketRecord;
import dev.rmtemu.traces.spec.TraceSpec;
import dev.rmtemu.traces.pcap.CaptureFiles;
import dev.rmtemu.traces.pcap.CaptureWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

import static dev.rmtemu.traces.TraceTestSupport.gen;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class GeneratorTest {
    @TempDir
    Path dir;

    private byte[] pcapBytes(String spec, String name) throws Exception {
        Path f = dir.resolve(name);
        try (var src = TraceSpec.open(spec); CaptureWriter w = CaptureWriter.create(f, CaptureFiles.Format.PCAPNG)) {
            PacketRecord r = PacketRecord.allocate();
            while (src.next(r)) {
                w.write(r);
            }
        }
        return Files.readAllBytes(f);
    }

    @Test
    void sameSeedSameBytesDifferentSeedDifferentBytes() throws Exception {
        byte[] a = pcapBytes("gen:isp?packets=20000&flows=1000&seed=7&ipv6=0.2", "a.pcapng");
        byte[] b = pcapBytes("gen:isp?packets=20000&flows=1000&seed=7&ipv6=0.2", "b.pcapng");
        byte[] c = pcapBytes("gen:isp?packets=20000&flows=1000&seed=8&ipv6=0.2", "c.pcapng");
        assertArrayEquals(a, b);
        assertFalse(Arrays.equals(a, c));
    }

    /** Per-flow packet counts of a generated trace, keyed by 5-tuple hash (collisions checked). */
    private static Map<Long, long[]> flows(SyntheticSource src) {
        Map<Long, long[]> m = new HashMap<>();
        PacketRecord r = PacketRecord.allocate();
        while (src.next(r)) {
            m.computeIfAbsent(FlowKey.hash(r), k -> new long[1])[0]++;
        }
        return m;
    }

    @Test
    void zipfGivesRequestedPacketsFlowsAndSkew() {
        SyntheticSource src = gen(GeneratorKind.ISP, "packets", "200000", "flows", "5000", "seed", "5", "dist", "zipf");
        Map<Long, long[]> f = flows(src);
        long total = f.values().stream().mapToLong(v -> v[0]).sum();
        assertEquals(200_000, total);
        assertEquals(5000, f.size(), 5); // random 5-tuples may collide, but hardly ever
        long top = f.values().stream().mapToLong(v -> v[0]).max().orElseThrow();
        // Zipf s=1.1 over 5000 flows: the top flow has 1/H(5000,1.1) of the packets, about 18.6 %.
        double expectedTopShare = 1.0 / harmonic(5000, 1.1);
        assertEquals(expectedTopShare, top / 200_000.0, 0.01);
    }

    private static double harmonic(int n, double s) {
        double h = 0;
        for (int i = 1; i <= n; i++) {
            h += 1.0 / Math.pow(i, s);
        }
        return h;
    }

    @Test
    void paretoHasElephantsAndMice() {
        SyntheticSource src = gen(GeneratorKind.DC, "packets", "100000", "flows", "2000", "seed", "9");
        Map<Long, long[]> f = flows(src);
        assertEquals(2000, f.size(), 2);
        long[] sizes = f.values().stream().mapToLong(v -> v[0]).sorted().toArray();
        assertEquals(100_000, Arrays.stream(sizes).sum());
        long top1pct = 0;
        for (int i = sizes.length - 20; i < sizes.length; i++) {
            top1pct += sizes[i];
        }
        // Pareto α = 1.2: the largest 1 % of flows carry a large share; the median flow is small.
        assertTrue(top1pct > 15_000, "top 1% of flows carry " + top1pct);
        assertTrue(sizes[sizes.length / 2] < 50, "median flow " + sizes[sizes.length / 2]);
    }

    @Test
    void tcpFlowsStartWithSynAndCountConsecutively() {
        SyntheticSource src = gen(GeneratorKind.TCP, "packets", "30000", "flows", "100", "seed", "2");
        Map<Long, int[]> state = new HashMap<>(); // [packets, lastIpId, nextSeq]
        PacketRecord r = PacketRecord.allocate();
        int fins = 0;
        while (src.next(r)) {
            assertEquals(PacketRecord.PROTO_TCP, r.protocol());
            int[] s = state.get(FlowKey.hash(r));
            if (s == null) {
                assertEquals(PacketRecord.TCP_SYN, r.tcpFlags(), "first packet of a flow is a SYN");
                assertEquals(0, r.payloadHash());
                state.put(FlowKey.hash(r), new int[] {1, r.ipId(), r.tcpSeq() + 1});
                continue;
            }
            assertEquals((s[1] + 1) & 0xFFFF, r.ipId(), "consecutive IP IDs");
            assertEquals(s[2], r.tcpSeq(), "sequence advances by payload");
            s[0]++;
            s[1] = r.ipId();
            int payload = r.wireLength() - 54;
            if ((r.tcpFlags() & PacketRecord.TCP_FIN) != 0) {
                fins++;
                s[2] = r.tcpSeq() + 1;
            } else {
                assertTrue(payload >= 4);
                s[2] = r.tcpSeq() + payload;
            }
        }
        assertEquals(100, state.size());
        assertEquals(100, fins, "every flow of two or more packets ends with FIN");
    }

    @Test
    void timestampsFollowLinkRateAndLoad() {
        SyntheticSource src = gen(GeneratorKind.UNIFORM, "packets", "100000", "flows", "100", "gbps", "10",
                "load", "0.25", "sizes", "fixed:1000", "start", "0");
        PacketRecord r = PacketRecord.allocate();
        long last = -1;
        long prev = Long.MIN_VALUE;
        while (src.next(r)) {
            assertTrue(r.timestampNs() >= prev);
            prev = r.timestampNs();
            last = r.timestampNs();
        }
        // 1020 B at 10 Gb/s = 816 ns on the wire; at load 0.25 the mean gap is 3264 ns.
        assertEquals(3264.0, last / 99_999.0, 3264.0 * 0.02);
    }

    @Test
    void incastSendsSynchronisedBursts() {
        SyntheticSource src = gen(GeneratorKind.INCAST, "packets", "3200", "senders", "32", "bursts", "10",
                "interval", "1000000", "start", "0", "gbps", "100");
        PacketRecord r = PacketRecord.allocate();
        int n = 0;
        int atBurstStart = 0;
        while (src.next(r)) {
            assertEquals(0x0A000001, r.dstIpv4());
            if (r.timestampNs() % 1_000_000 == 0) {
                atBurstStart++;
            }
            n++;
        }
        assertEquals(3200, n);
        assertEquals(32 * 10, atBurstStart, "every sender's first packet of each burst starts at the burst time");
    }

    @Test
    void badSpecsNameTheValidChoices() {
        UserError e = assertThrows(UserError.class, () -> TraceSpec.open("gen:nope"));
        assertTrue(e.getMessage().contains("isp, dc, incast, tcp, uniform"), e.getMessage());
        e = assertThrows(UserError.class, () -> TraceSpec.open("gen:isp?colour=red"));
        assertTrue(e.getMessage().contains("valid: bursts, dist, flows"), e.getMessage());
        e = assertThrows(UserError.class, () -> TraceSpec.open("gen:isp?load=2"));
        assertTrue(e.getMessage().contains("load"), e.getMessage());
        e = assertThrows(UserError.class, () -> TraceSpec.open("gen:isp?sizes=huge"));
        assertTrue(e.getMessage().contains("imix, fixed:N, mean:N"), e.getMessage());
    }

    @Test
    void canonicalSpecReproducesTheTrace() {
        SyntheticSource a = gen(GeneratorKind.DC, "packets", "5000", "flows", "50", "seed", "4", "ipv6", "0.5");
        SyntheticSource b = new SyntheticSource(TraceSpec.generator(a.describe()));
        PacketRecord ra = PacketRecord.allocate();
        PacketRecord rb = PacketRecord.allocate();
        while (a.next(ra)) {
            assertTrue(b.next(rb));
            assertTrue(ra.contentEquals(rb));
        }
        assertFalse(b.next(rb));
    }
}
