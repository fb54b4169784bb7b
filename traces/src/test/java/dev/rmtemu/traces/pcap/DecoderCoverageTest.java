package dev.rmtemu.traces.pcap;

import dev.rmtemu.traces.PacketRecord;
import dev.rmtemu.traces.SkipReason;
import dev.rmtemu.traces.TraceFormatException;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.nio.ByteOrder;
import java.nio.channels.Channels;
import java.util.List;

import static dev.rmtemu.traces.TraceTestSupport.drain;
import static dev.rmtemu.traces.TraceTestSupport.view;
import static dev.rmtemu.traces.pcap.CaptureBuilder.be16;
import static dev.rmtemu.traces.pcap.CaptureBuilder.concat;
import static dev.rmtemu.traces.pcap.CaptureBuilder.ip;
import static dev.rmtemu.traces.pcap.CaptureBuilder.macs;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Each link type, encapsulation, header variant and file variant, on hand-built captures. */
class DecoderCoverageTest {

    static CaptureReader open(byte[] file, boolean lenient) {
        return CaptureFiles.open("test", Channels.newChannel(new ByteArrayInputStream(file)), lenient, 0);
    }

    private static PacketRecord tcp4() {
        return PacketRecord.allocate().wireLength(200).ipVersion(4).protocol(6).ttl(61).ipId(4321)
                .srcIpv4(0xC0A80001).dstIpv4(0x08080808).srcPort(40000).dstPort(443).tcpSeq(0xDEADBEEF)
                .tcpFlags(0x18).payloadHash(0x0BADF00D);
    }

    private static PacketRecord udp6() {
        return PacketRecord.allocate().wireLength(300).ipVersion(6).protocol(17).ttl(7)
                .srcIpv6(0x20010DB800000001L, 5L).dstIpv6(0x20010DB8FFFF0000L, 6L).srcPort(5353).dstPort(53)
                .payloadHash(77);
    }

    /** Bytes of a link type's own header, replaced by an Ethernet header in the record's frame. */
    private static int linkHeader(int linkType) {
        switch (linkType) {
            case LinkType.LINUX_SLL:
                return 16;
            case LinkType.LINUX_SLL2:
                return 20;
            case LinkType.NULL:
            case LinkType.LOOP:
                return 4;
            default:
                return 0;
        }
    }

    /**
     * Reads one frame of a pcap with the given link type and checks it decodes like {@code expect}
     * and carries the frame's bytes: an Ethernet frame as captured; any other link type's frame
     * behind a 14-byte Ethernet header (hosts' MACs, the ethertype of its IP version) in place of
     * its own link header, the wire length changed by the difference.
     */
    private static void assertFrame(int linkType, byte[] frame, PacketRecord expect) {
        // the record's frame is whole (its wire length); tags and link headers wrapped around it lengthen the wire
        int wire = Math.max(frame.length, expect.wireLength());
        byte[] file = new CaptureBuilder(ByteOrder.LITTLE_ENDIAN).pcapHeader(false, linkType)
                .pcapPacket(1, 2, frame, wire).bytes();
        try (CaptureReader rd = open(file, false)) {
            List<byte[]> got = drain(rd);
            assertEquals(1, got.size(), "link type " + linkType + " skipped: " + rd.skipped());
            PacketRecord r = view(got.get(0));
            byte[] carried = frame;
            int wireCarried = wire;
            if (linkType != LinkType.ETHERNET) {
                int h = linkHeader(linkType);
                byte[] eth = java.util.Arrays.copyOf(CaptureBuilder.ethernet(expect), 14);
                carried = concat(eth, java.util.Arrays.copyOfRange(frame, h, frame.length));
                wireCarried = wire - h + 14;
            }
            PacketRecord want = PacketRecord.allocate(carried.length).copyFrom(expect).timestampNs(1_000_002_000L)
                    .ingressPort(0).wireLength(wireCarried).putFrame(carried, 0, carried.length);
            assertTrue(want.contentEquals(r), "link type " + linkType + ": " + r + " vs " + want);
            assertEquals(0, rd.notIp().total());
        }
    }

    /** Reads one Ethernet frame that is not (a well-formed) IP: a record with IP version 0 and exactly its bytes. */
    private static SkipReason notIp(byte[] frame) {
        byte[] file = new CaptureBuilder(ByteOrder.BIG_ENDIAN).pcapHeader(true, LinkType.ETHERNET)
                .pcapPacket(1, 2, frame, frame.length + 3).bytes();
        try (CaptureReader rd = open(file, false)) {
            List<byte[]> got = drain(rd);
            assertEquals(1, got.size());
            assertEquals(0, rd.skipped().total());
            PacketRecord r = view(got.get(0));
            assertEquals(0, r.ipVersion());
            assertEquals(0, r.protocol());
            assertEquals(0, r.srcIpv4());
            assertEquals(frame.length + 3, r.wireLength());
            assertArrayEquals(frame, r.frameBytes());
            assertEquals(1, rd.notIp().total());
            for (SkipReason s : SkipReason.values()) {
                if (rd.notIp().count(s) == 1) {
                    return s;
                }
            }
            throw new AssertionError();
        }
    }

    private static SkipReason skipReason(int linkType, byte[] frame) {
        byte[] file = new CaptureBuilder(ByteOrder.BIG_ENDIAN).pcapHeader(true, linkType)
                .pcapPacket(1, 2, frame, frame.length).bytes();
        try (CaptureReader rd = open(file, false)) {
            assertEquals(0, drain(rd).size());
            assertEquals(1, rd.skipped().total());
            for (SkipReason s : SkipReason.values()) {
                if (rd.skipped().count(s) == 1) {
                    return s;
                }
            }
            throw new AssertionError();
        }
    }

    @Test
    void ethernetVlanQinqAndMpls() {
        PacketRecord t = tcp4();
        PacketRecord u = udp6();
        assertFrame(LinkType.ETHERNET, CaptureBuilder.ethernet(t), t);
        assertFrame(LinkType.ETHERNET, concat(macs(), be16(0x8100), be16(100), be16(0x0800), ip(t)), t);
        assertFrame(LinkType.ETHERNET, concat(macs(), be16(0x88A8), be16(5), be16(0x8100), be16(6), be16(0x86DD),
                ip(u)), u);
        byte[] labels = {0, 1, 0, 64, 0, 2, 1, 64}; // two labels, bottom-of-stack on the second
        assertFrame(LinkType.ETHERNET, concat(macs(), be16(0x8847), labels, ip(u)), u);
        assertFrame(LinkType.ETHERNET, concat(macs(), be16(0x8100), be16(1), be16(0x8847), labels, ip(t)), t);
    }

    @Test
    void rawIpCookedAndLoopback() {
        PacketRecord t = tcp4();
        PacketRecord u = udp6();
        for (int lt : new int[] {LinkType.RAW, LinkType.RAW_12, LinkType.RAW_14}) {
            assertFrame(lt, ip(t), t);
            assertFrame(lt, ip(u), u);
        }
        assertFrame(LinkType.IPV4, ip(t), t);
        assertFrame(LinkType.IPV6, ip(u), u);
        byte[] sll = {0, 0, 0, 1, 0, 6, 1, 2, 3, 4, 5, 6, 0, 0, 0x08, 0x00};
        assertFrame(LinkType.LINUX_SLL, concat(sll, ip(t)), t);
        byte[] sll2 = {(byte) 0x86, (byte) 0xDD, 0, 0, 0, 0, 0, 3, 0, 1, 0, 6, 1, 2, 3, 4, 5, 6, 0, 0};
        assertFrame(LinkType.LINUX_SLL2, concat(sll2, ip(u)), u);
        assertFrame(LinkType.NULL, concat(new byte[] {2, 0, 0, 0}, ip(t)), t);
        assertFrame(LinkType.LOOP, concat(new byte[] {0, 0, 0, 24}, ip(u)), u);
    }

    @Test
    void ipv4OptionsAndIpv6ExtensionHeaders() {
        PacketRecord t = tcp4();
        byte[] p = ip(t);
        // IPv4 with 8 bytes of options (NOPs + end): IHL 7.
        byte[] opts = {1, 1, 1, 1, 1, 1, 1, 0};
        byte[] v4 = concat(java.util.Arrays.copyOf(p, 20), opts, java.util.Arrays.copyOfRange(p, 20, p.length));
        v4[0] = 0x47;
        int total = ((p[2] & 0xFF) << 8 | (p[3] & 0xFF)) + 8;
        v4[2] = (byte) (total >> 8);
        v4[3] = (byte) total;
        assertFrame(LinkType.RAW, v4, t);

        // IPv6: hop-by-hop (8) -> routing (24) -> dest opts (16) -> AH (24) -> UDP.
        PacketRecord u = udp6();
        byte[] q = ip(u);
        byte[] hop = {43, 0, 1, 4, 0, 0, 0, 0};
        byte[] routing = new byte[24];
        routing[0] = 60;
        routing[1] = 2;
        byte[] dest = new byte[16];
        dest[0] = 51;
        dest[1] = 1;
        byte[] ah = new byte[24];
        ah[0] = 17;
        ah[1] = 4; // (4 + 2) * 4 = 24 bytes
        byte[] v6 = concat(java.util.Arrays.copyOf(q, 40), hop, routing, dest, ah, java.util.Arrays.copyOfRange(q, 40, q.length));
        v6[6] = 0; // next header: hop-by-hop
        int plen = ((q[4] & 0xFF) << 8 | (q[5] & 0xFF)) + 72;
        v6[4] = (byte) (plen >> 8);
        v6[5] = (byte) plen;
        assertFrame(LinkType.RAW, v6, u);
    }

    @Test
    void fragmentsAreFlaggedAndLaterFragmentsHaveNoPorts() {
        PacketRecord first = tcp4().flags(PacketRecord.FLAG_FRAGMENT);
        assertFrame(LinkType.RAW, ip(first), first);
        PacketRecord later = tcp4().flags(PacketRecord.FLAG_FRAGMENT | PacketRecord.FLAG_LATER_FRAGMENT)
                .srcPort(0).dstPort(0).tcpSeq(0).tcpFlags(0);
        assertFrame(LinkType.RAW, ip(later), later);
        PacketRecord later6 = udp6().flags(PacketRecord.FLAG_FRAGMENT | PacketRecord.FLAG_LATER_FRAGMENT)
                .srcPort(0).dstPort(0).ipId(999);
        assertFrame(LinkType.RAW, ip(later6), later6);
    }

    @Test
    void framesThatAreNotIpAreKeptWithTheirBytesAndCountedByWhy() {
        byte[] arp = concat(macs(), be16(0x0806), new byte[28]);
        assertEquals(SkipReason.ARP, notIp(arp));
        assertEquals(SkipReason.ARP, notIp(concat(macs(), be16(0x8100), be16(7), be16(0x0806), new byte[28]))); // VLAN
        assertEquals(SkipReason.ARP, notIp(concat(macs(), be16(0x88A8), be16(5), be16(0x8100), be16(6), be16(0x0806),
                new byte[28]))); // QinQ
        assertEquals(SkipReason.NON_IP_ETHERTYPE, notIp(concat(macs(), be16(0x88CC), new byte[30])));
        assertEquals(SkipReason.TRUNCATED_L2, notIp(new byte[10]));
        assertEquals(SkipReason.TRUNCATED_L3, notIp(concat(macs(), be16(0x0800), java.util.Arrays.copyOf(ip(tcp4()), 12))));
        byte[] badLabels = {0, 1, 1, 64, 0x12, 0x34};
        assertEquals(SkipReason.MPLS_NON_IP, notIp(concat(macs(), be16(0x8847), badLabels)));
        byte[] tags = new byte[4 * 10];
        for (int i = 0; i < 10; i++) {
            tags[4 * i + 2] = (byte) 0x81;
        }
        assertEquals(SkipReason.TOO_MANY_TAGS, notIp(concat(macs(), be16(0x8100), tags)));
    }

    @Test
    void framesThatCannotBeFramedAsEthernetAreSkipped() {
        // another link type's frame must be IP (or say its ethertype) to get an Ethernet header in front
        assertEquals(SkipReason.UNSUPPORTED_LINK_TYPE, skipReason(147, ip(tcp4())));
        assertEquals(SkipReason.NOT_IP, skipReason(LinkType.RAW, new byte[] {0x55, 0, 0, 0}));
        assertEquals(SkipReason.TRUNCATED_L2, skipReason(LinkType.LINUX_SLL, new byte[10]));
        // a raw IP frame cut short is kept (as not IP), with an Ethernet header in front
        byte[] file = new CaptureBuilder(ByteOrder.BIG_ENDIAN).pcapHeader(true, LinkType.RAW)
                .pcapPacket(1, 2, java.util.Arrays.copyOf(ip(tcp4()), 30), 200).bytes();
        try (CaptureReader rd = open(file, false)) {
            List<byte[]> got = drain(rd);
            assertEquals(1, got.size());
            assertEquals(1, rd.notIp().count(SkipReason.TRUNCATED_L4));
            PacketRecord r = view(got.get(0));
            assertEquals(0, r.ipVersion());
            assertEquals(214, r.wireLength());
            assertEquals(44, r.capturedLength());
            assertArrayEquals(concat(new byte[12], be16(0x0800), java.util.Arrays.copyOf(ip(tcp4()), 30)), r.frameBytes());
        }
    }

    @Test
    void pcapByteOrdersAndResolutions() {
        PacketRecord t = tcp4();
        byte[] frame = CaptureBuilder.ethernet(t);
        for (ByteOrder o : new ByteOrder[] {ByteOrder.BIG_ENDIAN, ByteOrder.LITTLE_ENDIAN}) {
            for (boolean nanos : new boolean[] {false, true}) {
                byte[] file = new CaptureBuilder(o).pcapHeader(nanos, LinkType.ETHERNET)
                        .pcapPacket(1_600_000_000, 123_456, frame, 200).bytes();
                try (CaptureReader rd = open(file, false)) {
                    List<byte[]> got = drain(rd);
                    assertEquals(1, got.size());
                    long want = 1_600_000_000L * 1_000_000_000L + (nanos ? 123_456 : 123_456_000);
                    assertEquals(want, view(got.get(0)).timestampNs(), o + " nanos=" + nanos);
                }
            }
        }
    }

    @Test
    void pcapngInterfacesResolutionsSimplePacketsAndUnknownBlocks() {
        PacketRecord t = tcp4();
        PacketRecord u = udp6();
        for (ByteOrder o : new ByteOrder[] {ByteOrder.BIG_ENDIAN, ByteOrder.LITTLE_ENDIAN}) {
            byte[] file = new CaptureBuilder(o).shb()
                    .idb(LinkType.ETHERNET, 0, -1)              // if 0: default µs
                    .unknownBlock(0x00000004, 37)              // name resolution block: skipped
                    .idb(LinkType.RAW, 0, 9)                   // if 1: ns
                    .idb(LinkType.ETHERNET, 0, 0x80 | 10)      // if 2: 2^-10 s
                    .epb(0, 5_000_000L, CaptureBuilder.ethernet(t), 200)
                    .epb(1, 7_000_000_123L, ip(u), 300)
                    .unknownBlock(0x40000BAD, 3)               // custom block: skipped
                    .epb(2, 3 * 1024 + 512, CaptureBuilder.ethernet(u), 300)
                    .spb(CaptureBuilder.ethernet(t), 200)
                    .bytes();
            try (CaptureReader rd = open(file, false)) {
                List<byte[]> got = drain(rd);
                assertEquals(4, got.size(), rd.skipped().toString());
                assertEquals(5_000_000_000L, view(got.get(0)).timestampNs());
                assertEquals(0, view(got.get(0)).ingressPort());
                assertEquals(7_000_000_123L, view(got.get(1)).timestampNs());
                assertEquals(1, view(got.get(1)).ingressPort());
                assertEquals(3_500_000_000L, view(got.get(2)).timestampNs());
                assertEquals(2, view(got.get(2)).ingressPort());
                assertEquals(3_500_000_000L, view(got.get(3)).timestampNs(), "SPB keeps the previous timestamp");
                assertEquals(0, view(got.get(3)).ingressPort());
                assertEquals(t.srcIpv4(), view(got.get(3)).srcIpv4());
                assertEquals(u.dstPort(), view(got.get(2)).dstPort());
            }
        }
    }

    @Test
    void corruptFilesNameFileAndOffset() {
        byte[] frame = CaptureBuilder.ethernet(tcp4());
        byte[] good = new CaptureBuilder(ByteOrder.LITTLE_ENDIAN).pcapHeader(false, 1)
                .pcapPacket(1, 0, frame, 200).pcapPacket(2, 0, frame, 200).bytes();
        byte[] cut = java.util.Arrays.copyOf(good, good.length - 5);
        TraceFormatException e = assertThrows(TraceFormatException.class, () -> {
            try (CaptureReader rd = open(cut, false)) {
                drain(rd);
            }
        });
        long second = 24 + 16 + frame.length;
        assertEquals(second, e.byteOffset());
        assertTrue(e.getMessage().startsWith("test: truncated packet data"), e.getMessage());
        assertTrue(e.getMessage().endsWith("at byte offset " + second), e.getMessage());
        try (CaptureReader rd = open(cut, true)) {
            assertEquals(1, drain(rd).size());
            assertEquals(1, rd.skipped().count(SkipReason.CORRUPT_TAIL));
            assertTrue(rd.stopReason().contains("truncated packet data"));
        }
        byte[] huge = good.clone();
        huge[24 + 8] = 0;
        huge[24 + 9] = 0;
        huge[24 + 10] = 0x10; // caplen 1 MiB
        e = assertThrows(TraceFormatException.class, () -> {
            try (CaptureReader rd = open(huge, false)) {
                drain(rd);
            }
        });
        assertTrue(e.getMessage().contains("exceeds the limit of 262144"), e.getMessage());
        assertThrows(TraceFormatException.class, () -> open(new byte[] {1, 2, 3, 4, 5, 6, 7, 8}, false));
    }
}
