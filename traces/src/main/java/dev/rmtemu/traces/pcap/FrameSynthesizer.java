package dev.rmtemu.traces.pcap;

import dev.rmtemu.traces.PacketRecord;
import dev.rmtemu.traces.PayloadHash;
import org.agrona.MutableDirectBuffer;

import java.nio.ByteOrder;

/**
 * Builds an Ethernet frame from a record: Ethernet II, IPv4 (20-byte header with a
 * valid checksum) or IPv6 (plus a fragment header for fragments), then TCP (20 bytes),
 * UDP (8), ICMP/ICMPv6 (8, type and code from the record's ports) or nothing for other
 * protocols and later fragments, then 4 payload bytes chosen so the payload hash reads
 * back unchanged ({@link PayloadHash#payloadFor}), or none when the hash is 0.
 * The IP length fields describe the whole wire length, so the frame reads back as a
 * capture truncated to its headers: decoding it yields the same record.
 */
public final class FrameSynthesizer {
    /** Locally administered MACs: the record has no L2 addresses. */
    static final long DST_MAC = 0x020000000002L;
    static final long SRC_MAC = 0x020000000001L;
    /** Offset (in 8-byte units) written for later fragments; any non-zero value works. */
    static final int LATER_FRAGMENT_OFFSET_UNITS = 185;
    static final int ETHERNET_HEADER = 14;
    static final int MAX_IP_LENGTH = 65_535;
    private static final ByteOrder BE = ByteOrder.BIG_ENDIAN;

    private FrameSynthesizer() {
    }

    /** Largest frame {@link #build} writes. */
    public static final int MAX_FRAME = ETHERNET_HEADER + 40 + 8 + 20 + PayloadHash.SYNTHETIC_PAYLOAD_BYTES;

    /** Length of the frame {@link #build} writes for {@code r}. */
    public static int frameLength(PacketRecord r) {
        int len = ETHERNET_HEADER + (r.ipVersion() == 6 ? 40 + (r.isFragment() ? 8 : 0) : 20);
        len += l4Header(r);
        return len + (r.payloadHash() != 0 ? PayloadHash.SYNTHETIC_PAYLOAD_BYTES : 0);
    }

    /** The wire length the frame claims: the record's, raised to the frame length if shorter. */
    public static int wireLength(PacketRecord r) {
        return Math.max(r.wireLength(), frameLength(r));
    }

    private static int l4Header(PacketRecord r) {
        if (r.isLaterFragment()) {
            return 0;
        }
        switch (r.protocol()) {
            case PacketRecord.PROTO_TCP:
                return 20;
            case PacketRecord.PROTO_UDP:
            case PacketRecord.PROTO_ICMP:
            case PacketRecord.PROTO_ICMPV6:
                return 8;
            default:
                return 0;
        }
    }

    /** Writes the frame for an IPv4/IPv6 record at {@code off}; returns its length. */
    public static int build(PacketRecord r, MutableDirectBuffer b, int off) {
        if (r.ipVersion() != 4 && r.ipVersion() != 6) {
            throw new IllegalArgumentException("record is not IPv4 or IPv6: " + r);
        }
        int frame = frameLength(r);
        int wire = Math.max(r.wireLength(), frame);
        b.setMemory(off, frame, (byte) 0);
        putMac(b, off, DST_MAC);
        putMac(b, off + 6, SRC_MAC);
        int p = off + ETHERNET_HEADER;
        int ipTotal = Math.min(wire - ETHERNET_HEADER, MAX_IP_LENGTH);
        if (r.ipVersion() == 4) {
            b.putShort(off + 12, (short) PacketDecoder.ETHERTYPE_IPV4, BE);
            b.putByte(p, (byte) 0x45);
            b.putShort(p + 2, (short) ipTotal, BE);
            b.putShort(p + 4, (short) r.ipId(), BE);
            int frag = 0;
            if (r.isLaterFragment()) {
                frag = LATER_FRAGMENT_OFFSET_UNITS;
            } else if (r.isFragment()) {
                frag = 0x2000;
            }
            b.putShort(p + 6, (short) frag, BE);
            b.putByte(p + 8, (byte) r.ttl());
            b.putByte(p + 9, (byte) r.protocol());
            b.putInt(p + 12, r.srcIpv4(), BE);
            b.putInt(p + 16, r.dstIpv4(), BE);
            b.putShort(p + 10, (short) ipv4Checksum(b, p), BE);
            p += 20;
        } else {
            b.putShort(off + 12, (short) PacketDecoder.ETHERTYPE_IPV6, BE);
            b.putInt(p, 0x60000000, BE);
            b.putShort(p + 4, (short) Math.max(0, ipTotal - 40), BE);
            b.putByte(p + 6, (byte) (r.isFragment() ? 44 : r.protocol()));
            b.putByte(p + 7, (byte) r.ttl());
            b.putLong(p + 8, r.srcIpv6Hi(), BE);
            b.putLong(p + 16, r.srcIpv6Lo(), BE);
            b.putLong(p + 24, r.dstIpv6Hi(), BE);
            b.putLong(p + 32, r.dstIpv6Lo(), BE);
            p += 40;
            if (r.isFragment()) {
                b.putByte(p, (byte) r.protocol());
                b.putShort(p + 2, (short) (r.isLaterFragment() ? LATER_FRAGMENT_OFFSET_UNITS << 3 : 1), BE);
                b.putInt(p + 4, r.ipId(), BE);
                p += 8;
            }
        }
        if (!r.isLaterFragment()) {
            switch (r.protocol()) {
                case PacketRecord.PROTO_TCP:
                    b.putShort(p, (short) r.srcPort(), BE);
                    b.putShort(p + 2, (short) r.dstPort(), BE);
                    b.putInt(p + 4, r.tcpSeq(), BE);
                    b.putByte(p + 12, (byte) 0x50);
                    b.putByte(p + 13, (byte) r.tcpFlags());
                    b.putShort(p + 14, (short) 0xFFFF, BE);
                    p += 20;
                    break;
                case PacketRecord.PROTO_UDP:
                    b.putShort(p, (short) r.srcPort(), BE);
                    b.putShort(p + 2, (short) r.dstPort(), BE);
                    b.putShort(p + 4, (short) Math.max(8, Math.min(ipTotal - (p - off - ETHERNET_HEADER), 0xFFFF)), BE);
                    p += 8;
                    break;
                case PacketRecord.PROTO_ICMP:
                case PacketRecord.PROTO_ICMPV6:
                    b.putByte(p, (byte) r.srcPort());
                    b.putByte(p + 1, (byte) r.dstPort());
                    p += 8;
                    break;
                default:
                    break;
            }
        }
        if (r.payloadHash() != 0) {
            b.putInt(p, PayloadHash.payloadFor(r.payloadHash()), BE);
            p += PayloadHash.SYNTHETIC_PAYLOAD_BYTES;
        }
        return p - off;
    }

    private static void putMac(MutableDirectBuffer b, int off, long mac) {
        b.putShort(off, (short) (mac >>> 32), BE);
        b.putInt(off + 2, (int) mac, BE);
    }

    private static int ipv4Checksum(MutableDirectBuffer b, int p) {
        int sum = 0;
        for (int i = 0; i < 20; i += 2) {
            sum += b.getShort(p + i, BE) & 0xFFFF;
        }
        while ((sum >>> 16) != 0) {
            sum = (sum & 0xFFFF) + (sum >>> 16);
        }
        return ~sum & 0xFFFF;
    }
}
