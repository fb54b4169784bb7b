package dev.rmtemu.traces.pcap;

import dev.rmtemu.traces.FlowKey;
import dev.rmtemu.traces.PacketRecord;
import dev.rmtemu.traces.TraceTestSupport;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.TreeMap;
import java.util.TreeSet;

import static dev.rmtemu.traces.TraceTestSupport.view;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Reads the real captures in shared/traces (skipped when absent). Expected numbers were
 * counted independently with tshark 4.0 (frame count, sum of frame.len, first
 * frame.time_epoch, ip.proto / ipv6.nxt, distinct outer 5-tuples with ICMP type/code).
 */
class SharedCapturesTest {

    private record Summary(int packets, int flows, long bytes, long firstTs, TreeMap<Integer, Integer> protocols,
                           long skipped) {
    }

    private static Summary read(String file) {
        Path dir = TraceTestSupport.sharedTraces();
        assumeTrue(dir != null && Files.isRegularFile(dir.resolve(file)), "shared capture " + file + " absent");
        try (CaptureReader rd = CaptureFiles.open(dir.resolve(file), false)) {
            List<byte[]> recs = TraceTestSupport.drain(rd);
            TreeSet<String> flows = new TreeSet<>();
            TreeMap<Integer, Integer> protos = new TreeMap<>();
            long bytes = 0;
            for (byte[] b : recs) {
                PacketRecord r = view(b);
                PacketRecord key = PacketRecord.allocate();
                FlowKey.copyKey(r, key);
                flows.add(java.util.Arrays.toString(key.buffer().byteArray()));
                protos.merge(r.protocol(), 1, Integer::sum);
                bytes += r.wireLength();
            }
            return new Summary(recs.size(), flows.size(), bytes, view(recs.get(0)).timestampNs(), protos,
                    rd.skipped().total());
        }
    }

    @Test
    void smtpPcap() {
        Summary s = read("smtp.pcap");
        assertEquals(60, s.packets());
        assertEquals(6, s.flows());
        assertEquals(26866, s.bytes());
        assertEquals(1_254_722_767_492_060_000L, s.firstTs());
        assertEquals(53, s.protocols().get(6));
        assertEquals(3, s.protocols().get(17));
        assertEquals(4, s.protocols().get(1));
        assertEquals(0, s.skipped());
    }

    @Test
    void sipRtpPcap() {
        Summary s = read("sip_rtp.pcap");
        assertEquals(507, s.packets());
        assertEquals(3, s.flows());
        assertEquals(109724, s.bytes());
        assertEquals(507, s.protocols().get(17));
        assertEquals(1, s.protocols().size());
    }

    @Test
    void samplePcapng() {
        Summary s = read("sample.pcapng");
        assertEquals(44, s.packets());
        assertEquals(15, s.flows());
        assertEquals(10224, s.bytes());
        assertEquals(1_526_927_127_136_722_000L, s.firstTs());
        assertEquals(37, s.protocols().get(6));
        assertEquals(4, s.protocols().get(2)); // IGMP, with the IPv4 router-alert option
        assertEquals(2, s.protocols().get(17));
        assertEquals(1, s.protocols().get(58));
    }

    @Test
    void udpTcpIcmpPcap() {
        Summary s = read("udp_tcp_icmp.pcap");
        assertEquals(3, s.packets());
        assertEquals(3, s.flows());
        assertEquals(224, s.bytes());
        assertEquals(1, s.protocols().get(6));
        assertEquals(1, s.protocols().get(1));
        assertEquals(1, s.protocols().get(17));
    }

    @Test
    void smtpFirstPacketFieldsMatchTshark() {
        Path dir = TraceTestSupport.sharedTraces();
        assumeTrue(dir != null && Files.isRegularFile(dir.resolve("smtp.pcap")));
        try (CaptureReader rd = CaptureFiles.open(dir.resolve("smtp.pcap"), false)) {
            PacketRecord r = PacketRecord.allocate();
            rd.next(r);
            // tshark: frame 1 is a DNS query 10.10.1.4:56166 -> 10.10.1.1:53, ttl 128, id 0x250a, 76 bytes
            assertEquals(4, r.ipVersion());
            assertEquals(17, r.protocol());
            assertEquals(0x0A0A0104, r.srcIpv4());
            assertEquals(0x0A0A0101, r.dstIpv4());
            assertEquals(56166, r.srcPort());
            assertEquals(53, r.dstPort());
            assertEquals(128, r.ttl());
            assertEquals(0x250a, r.ipId());
            assertEquals(76, r.wireLength());
            assertEquals(0, r.ingressPort());
        }
    }
}
