package dev.rmtemu.traces.pcap;

import dev.rmtemu.traces.HostMac;
import dev.rmtemu.traces.PacketRecord;
import dev.rmtemu.traces.PayloadHash;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.List;

import static dev.rmtemu.traces.TraceTestSupport.drain;
import static dev.rmtemu.traces.TraceTestSupport.view;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Exact bytes of hand-checked frames. Each expected frame was also checked with scapy 2.5
 * (Debian's python3-scapy): dissected, its IP/UDP lengths and every checksum deleted and the
 * frame rebuilt by scapy gives the same bytes.
 */
class FrameSynthesizerTest {
    @TempDir
    Path dir;

    private static byte[] frame(PacketRecord r, int snap) {
        UnsafeBuffer b = new UnsafeBuffer(new byte[2048]);
        int n = FrameSynthesizer.build(r, b, 0, snap);
        assertEquals(FrameSynthesizer.capturedLength(r, snap), n);
        byte[] out = new byte[n];
        b.getBytes(0, out);
        return out;
    }

    private static String hex(PacketRecord r) {
        return HexFormat.of().formatHex(frame(r, FrameSynthesizer.WHOLE_FRAME));
    }

    static PacketRecord syn() {
        return PacketRecord.allocate().wireLength(64).ipVersion(4).protocol(6).ttl(64).ipId(0x1234)
                .srcIpv4(0x0A000001).dstIpv4(0x0A000002).srcPort(40000).dstPort(80).tcpSeq(0x01020304)
                .tcpFlags(PacketRecord.TCP_SYN);
    }

    static PacketRecord tcpV6() {
        return PacketRecord.allocate().wireLength(1500).ipVersion(6).protocol(6).ttl(3)
                .srcIpv6(0x20010DB800000000L, 0xA).dstIpv6(0x20010DB8FFFF0000L, 0xB).srcPort(443).dstPort(50000)
                .tcpSeq(-1).tcpFlags(PacketRecord.TCP_ACK | PacketRecord.TCP_PSH).payloadHash(42);
    }

    @Test
    void tcpSynWithoutPayloadIsHeadersPlusEthernetPadding() {
        // 02:00:0a:00:00:02 <- 02:00:0a:00:00:01 (the host map), IPv4 total length 40 (headers only,
        // checksum 0x549a), TCP SYN, data offset 5, window 65535, checksum 0xfb49, then 10 bytes of padding
        assertEquals("02000a00000202000a000001080045000028123400004006549a0a0000010a0000029c40005001020304000000005002fffffb49000000000000000000000000", hex(syn()));
    }

    @Test
    void udpCarriesItsWholePayloadWithLengthsAndChecksumOfTheWireLength() {
        PacketRecord r = PacketRecord.allocate().wireLength(100).ipVersion(4).protocol(17).ttl(63).ipId(7)
                .srcIpv4(0x0A010203).dstIpv4(0xC0A80101).srcPort(5353).dstPort(53).payloadHash(0x5EED1234);
        // IPv4 total length 86 = 100 - 14, UDP length 66, UDP checksum 0xb901; payload word 91e6d1b6, then zeros
        assertEquals("0200c0a8010102000a010203080045000056000700003f11ade30a010203c0a8010114e900350042b90191e6d1b6000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000", hex(r));
    }

    @Test
    void icmpv6EchoIsChecksummedOverTheIpv6PseudoHeader() {
        PacketRecord r = PacketRecord.allocate().wireLength(90).ipVersion(6).protocol(58).ttl(64)
                .srcIpv6(0x20010DB800000000L, 1).dstIpv6(0x20010DB800000000L, 2).srcPort(128).dstPort(0)
                .payloadHash(0x0BADF00D);
        // 06:00:00:00:00:02 <- 06:00:00:00:00:01, payload length 36, echo request, checksum 0xa612
        assertEquals("06000000000206000000000186dd6000000000243a4020010db800000000000000000000000120010db80000000000000000000000028000a6120000000085f0f828000000000000000000000000000000000000000000000000", hex(r));
    }

    @Test
    void icmpEchoIsChecksummedWithoutPseudoHeader() {
        PacketRecord r = PacketRecord.allocate().wireLength(70).ipVersion(4).protocol(1).ttl(255).ipId(0xFFFF)
                .srcIpv4(0xC0000201).dstIpv4(0xC6336402).srcPort(8).dstPort(0).payloadHash(-2);
        assertEquals("0200c63364020200c0000201080045000038ffff0000ff01cf8dc0000201c6336402080029b60000000080994db0000000000000000000000000000000000000000000000000", hex(r));
    }

    @Test
    void fullSizeIpv6TcpFrameIsWrittenWhole() {
        byte[] f = frame(tcpV6(), FrameSynthesizer.WHOLE_FRAME);
        assertEquals(1500, f.length);
        // payload length 1446, TCP checksum 0x3072, payload word 2d062c30; the other 1442 payload bytes are zero
        assertEquals("06000000000b06000000000a86dd6000000005a6060320010db800000000000000000000000a20010db8ffff0000000000000000000b01bbc350ffffffff000000005018ffff307200002d062c3000000000000000000000000000000000", HexFormat.of().formatHex(f, 0, 94));
        for (int i = 94; i < f.length; i++) {
            assertEquals(0, f[i], "byte " + i);
        }
    }

    /** Ones' complement sum over an IPv6 TCP frame's pseudo-header and segment: 0xFFFF when its checksum is right. */
    private static int ipv6TcpSum(byte[] f) {
        UnsafeBuffer b = new UnsafeBuffer(f);
        int segment = b.getShort(18, ByteOrder.BIG_ENDIAN) & 0xFFFF;
        long sum = 6 + segment;
        for (int i = 22; i < 54; i += 2) {
            sum += b.getShort(i, ByteOrder.BIG_ENDIAN) & 0xFFFF;
        }
        for (int i = 54; i < 54 + segment; i += 2) {
            sum += b.getShort(i, ByteOrder.BIG_ENDIAN) & 0xFFFF;
        }
        while ((sum >>> 16) != 0) {
            sum = (sum & 0xFFFF) + (sum >>> 16);
        }
        return (int) sum;
    }

    @Test
    void aFrameTruncatedToTheSnapLengthCarriesTheChecksumOfItsWholeFrame() {
        byte[] whole = frame(tcpV6(), FrameSynthesizer.WHOLE_FRAME);
        assertEquals(0xFFFF, ipv6TcpSum(whole));
        byte[] cut = frame(tcpV6(), 96);
        assertEquals(96, cut.length);
        // headers equal but for the checksum; the payload word differs: the hash covers the 22 captured payload bytes
        assertArrayEquals(java.util.Arrays.copyOf(whole, 70), java.util.Arrays.copyOf(cut, 70));
        assertEquals(0x8e5e, new UnsafeBuffer(cut).getShort(70, ByteOrder.BIG_ENDIAN) & 0xFFFF);
        // the frame it is the prefix of (zeros after the snap length) has a valid checksum
        assertEquals(0xFFFF, ipv6TcpSum(java.util.Arrays.copyOf(cut, 1500)));
        // a snap length shorter than headers + payload word is raised to them: the hash must read back
        assertEquals(FrameSynthesizer.frameLength(tcpV6()), frame(tcpV6(), 10).length);
        assertEquals(14 + 40 + 20 + 4, FrameSynthesizer.frameLength(tcpV6()));
    }

    @Test
    void aRecordWhosePayloadWasNeverCapturedIsWrittenAsItsHeadersWithTheWireLengthInIp() {
        PacketRecord r = syn().wireLength(1500).tcpFlags(PacketRecord.TCP_ACK);
        byte[] f = frame(r, FrameSynthesizer.WHOLE_FRAME);
        assertEquals(54, f.length);
        UnsafeBuffer b = new UnsafeBuffer(f);
        assertEquals(1486, b.getShort(16, ByteOrder.BIG_ENDIAN) & 0xFFFF);
    }

    @Test
    void hostMapGivesEachHostOneLocallyAdministeredUnicastMac() {
        assertEquals(0x02000A000001L, HostMac.ofIpv4(0x0A000001));
        assertEquals(0x0200FFFFFFFFL, HostMac.ofIpv4(-1));
        assertEquals(0x0600000000ABL, HostMac.ofIpv6(0x20010DB800000000L, 0xFFFFFF00000000ABL));
        assertEquals(0x02, (HostMac.ofIpv4(0) >>> 40) & 0x03, "locally administered, not multicast");
        assertEquals(0x02, (HostMac.ofIpv6(0, 0) >>> 40) & 0x03, "locally administered, not multicast");
    }

    @Test
    void leadingWordMakesAnyPayloadLengthHashToTheRecordsHash() {
        for (int len : new int[] {4, 5, 6, 7, 8, 9, 13, 22, 1446, 65_000}) {
            for (int h : new int[] {1, -1, 0x5EED1234, 42}) {
                UnsafeBuffer p = new UnsafeBuffer(new byte[len]);
                p.putInt(0, PayloadHash.leadingWordFor(h, len), ByteOrder.BIG_ENDIAN);
                assertEquals(h, PayloadHash.hash(p, 0, len), "length " + len);
            }
        }
        assertEquals(PayloadHash.payloadFor(0x5EED1234), PayloadHash.leadingWordFor(0x5EED1234, 4));
    }

    @Test
    void truncatedCapturesReadBackAsTheSameRecords() {
        List<PacketRecord> recs = List.of(syn(), tcpV6(), tcpV6().payloadHash(7).wireLength(9000));
        for (CaptureFiles.Format format : CaptureFiles.Format.values()) {
            Path f = dir.resolve("snap." + format.name());
            try (CaptureWriter w = CaptureWriter.create(f, format, 96)) {
                recs.forEach(w::write);
            }
            try (CaptureReader rd = CaptureFiles.open(f, false)) {
                List<byte[]> got = drain(rd);
                assertEquals(recs.size(), got.size());
                for (int i = 0; i < got.size(); i++) {
                    // the decoded fields are the record's; the frame is the synthesised one at snap length 96
                    PacketRecord want = PacketRecord.allocate(PacketRecord.MAX_FRAME_BYTES).copyFrom(recs.get(i));
                    UnsafeBuffer frame = new UnsafeBuffer(new byte[FrameSynthesizer.capturedLength(want, 96)]);
                    int n = FrameSynthesizer.build(want, frame, 0, 96);
                    want.putFrame(frame, 0, n);
                    assertTrue(want.contentEquals(view(got.get(i))), format + " " + i + ": " + view(got.get(i)));
                }
            }
        }
    }
}
