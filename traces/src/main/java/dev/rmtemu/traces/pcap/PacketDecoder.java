package dev.rmtemu.traces.pcap;

import dev.rmtemu.traces.HostMac;
import dev.rmtemu.traces.PacketRecord;
import dev.rmtemu.traces.PayloadHash;
import dev.rmtemu.traces.SkipCounters;
import dev.rmtemu.traces.SkipReason;
import org.agrona.DirectBuffer;

import java.nio.ByteOrder;

/**
 * Turns one captured frame into a {@link PacketRecord}: its bytes, as an Ethernet frame, and
 * its decoded L3/L4 fields (link layer → IPv4/IPv6 → TCP/UDP/ICMP) when it is an IP packet.
 * A frame that is not one (ARP, another ethertype, VLAN or MPLS tags carrying neither, an IP
 * header that is malformed or captured short) is still a packet on the wire: it becomes a record
 * with IP version 0 and its bytes, counted by why in the reader's not-IP counters. Only a frame
 * that cannot be framed as Ethernet at all (an unknown link type, a link header cut short, a raw
 * or loopback frame of another family) is skipped. Every read is checked against the captured
 * length, never an exception. The caller sets timestamp, wire length and ingress port.
 *
 * <p>IP packets of other protocols (GRE, ESP, SCTP, ...) become records with ports 0
 * and the payload hash over the bytes after the IP header: the switch forwards them
 * too. Later fragments carry no L4 header and get ports 0.
 */
public final class PacketDecoder {
    /** Most VLAN tags plus MPLS labels followed before a frame is skipped (QinQ needs 2). */
    public static final int MAX_TAGS = 8;
    /** Most IPv6 extension headers followed before a packet is skipped as malformed. */
    public static final int MAX_IPV6_EXTENSION_HEADERS = 8;

    static final int ETHERTYPE_IPV4 = 0x0800;
    static final int ETHERTYPE_IPV6 = 0x86DD;
    static final int ETHERTYPE_ARP = 0x0806;
    static final int ETHERTYPE_RARP = 0x8035;
    static final int ETHERTYPE_VLAN = 0x8100;
    static final int ETHERTYPE_QINQ = 0x88A8;
    static final int ETHERTYPE_QINQ_OLD = 0x9100;
    static final int ETHERTYPE_MPLS = 0x8847;
    static final int ETHERTYPE_MPLS_MULTICAST = 0x8848;

    private static final int ETHERNET_HEADER = 14;
    private static final int SLL_HEADER = 16;
    private static final int SLL2_HEADER = 20;
    private static final int LOOPBACK_HEADER = 4;
    private static final int IPV4_MIN_HEADER = 20;
    private static final int IPV6_HEADER = 40;
    private static final int TCP_MIN_HEADER = 20;
    private static final int UDP_HEADER = 8;
    private static final int ICMP_HEADER = 8;
    private static final int BSD_AF_INET = 2;

    private static final ByteOrder BE = ByteOrder.BIG_ENDIAN;

    private PacketDecoder() {
    }

    /**
     * Makes {@code rec} from the {@code caplen} bytes at {@code off} of a frame of link type
     * {@code linkType} whose wire length the caller set. Returns true when {@code rec} is a
     * record (IP or not: {@code notIp} counts why one is not), false when the frame cannot be
     * a packet ({@code skips} counts why). A frame of another link type gets an Ethernet header
     * in place of its own (zero MACs, or the hosts' MACs of an IP packet; the ethertype its link
     * header or IP version names), its wire length changed by the difference, as
     * {@code tcprewrite --dlt=enet} does, because the switch receives Ethernet frames.
     */
    public static boolean toRecord(DirectBuffer b, int off, int caplen, int linkType, PacketRecord rec,
                                   SkipCounters skips, SkipCounters notIp) {
        SkipReason why = decode(b, off, caplen, linkType, rec);
        if (linkType == LinkType.ETHERNET) {
            if (why != null) {
                notDecoded(rec);
                notIp.increment(why);
            }
            rec.putFrame(b, off, caplen);
            return true;
        }
        int header;
        int etherType;
        switch (linkType) {
            case LinkType.RAW:
            case LinkType.RAW_12:
            case LinkType.RAW_14:
                header = 0;
                etherType = caplen < 1 ? -1 : etherTypeOfVersion((b.getByte(off) >> 4) & 0xF);
                break;
            case LinkType.IPV4:
                header = 0;
                etherType = ETHERTYPE_IPV4;
                break;
            case LinkType.IPV6:
                header = 0;
                etherType = ETHERTYPE_IPV6;
                break;
            case LinkType.LINUX_SLL:
                header = SLL_HEADER;
                etherType = caplen < SLL_HEADER ? -1 : u16(b, off + 14);
                break;
            case LinkType.LINUX_SLL2:
                header = SLL2_HEADER;
                etherType = caplen < SLL2_HEADER ? -1 : u16(b, off);
                break;
            case LinkType.NULL:
            case LinkType.LOOP:
                header = LOOPBACK_HEADER;
                etherType = caplen < LOOPBACK_HEADER ? -1 : etherTypeOfFamily(b, off);
                break;
            default:
                skips.increment(SkipReason.UNSUPPORTED_LINK_TYPE);
                return false;
        }
        if (etherType < 0) {
            skips.increment(caplen < Math.max(1, header) ? (header == 0 ? SkipReason.TRUNCATED_L3 : SkipReason.TRUNCATED_L2)
                    : SkipReason.NOT_IP);
            return false;
        }
        if (why != null) {
            notDecoded(rec);
            notIp.increment(why);
        }
        writeEthernet(rec, etherType);
        int room = Math.max(0, rec.frameCapacity() - ETHERNET_HEADER);
        int body = Math.min(caplen - header, room);
        rec.buffer().putBytes(rec.offset() + PacketRecord.FRAME_OFFSET + ETHERNET_HEADER, b, off + header, body);
        rec.capturedLength(Math.min(rec.frameCapacity(), ETHERNET_HEADER) + body);
        rec.wireLength(rec.wireLength() - header + ETHERNET_HEADER);
        return true;
    }

    /** Clears the decoded fields of a frame that is not (or not a well-formed) IP packet: IP version 0. */
    private static void notDecoded(PacketRecord rec) {
        rec.buffer().setMemory(rec.offset() + PacketRecord.VERSION_FLAGS_OFFSET,
                PacketRecord.DECODED_BYTES - PacketRecord.VERSION_FLAGS_OFFSET, (byte) 0);
    }

    private static int etherTypeOfVersion(int version) {
        return version == 4 ? ETHERTYPE_IPV4 : version == 6 ? ETHERTYPE_IPV6 : -1;
    }

    private static int etherTypeOfFamily(DirectBuffer b, int off) {
        int family = b.getInt(off, BE);
        if ((family & 0xFFFF0000) != 0) {
            family = Integer.reverseBytes(family);
        }
        if (family == BSD_AF_INET) {
            return ETHERTYPE_IPV4;
        }
        return family == 10 || family == 24 || family == 28 || family == 30 ? ETHERTYPE_IPV6 : -1;
    }

    /** The Ethernet header put in front of a frame of another link type (up to the record's capacity). */
    private static void writeEthernet(PacketRecord rec, int etherType) {
        int n = Math.min(rec.frameCapacity(), ETHERNET_HEADER);
        long dst = rec.ipVersion() != 0 ? HostMac.of(rec, false) : 0;
        long src = rec.ipVersion() != 0 ? HostMac.of(rec, true) : 0;
        int at = rec.offset() + PacketRecord.FRAME_OFFSET;
        for (int i = 0; i < n; i++) { // byte by byte: the capacity may end inside the header
            long v = i < 6 ? dst >>> (40 - 8 * i) : i < 12 ? src >>> (40 - 8 * (i - 6)) : etherType >>> (8 * (13 - i));
            rec.buffer().putByte(at + i, (byte) v);
        }
    }

    /**
     * Decodes the L3/L4 fields of {@code caplen} bytes at {@code off} into {@code rec}; returns
     * null when it is an IP packet, else why it is not (its decoded fields are then partial).
     */
    static SkipReason decode(DirectBuffer b, int off, int caplen, int linkType, PacketRecord rec) {
        rec.buffer().setMemory(rec.offset() + PacketRecord.VERSION_FLAGS_OFFSET,
                PacketRecord.DECODED_BYTES - PacketRecord.VERSION_FLAGS_OFFSET, (byte) 0);
        SkipReason why;
        switch (linkType) {
            case LinkType.ETHERNET:
                why = caplen < ETHERNET_HEADER ? SkipReason.TRUNCATED_L2
                        : etherPayload(b, off + ETHERNET_HEADER, caplen - ETHERNET_HEADER,
                        u16(b, off + 12), rec);
                break;
            case LinkType.RAW:
            case LinkType.RAW_12:
            case LinkType.RAW_14:
                why = rawIp(b, off, caplen, rec);
                break;
            case LinkType.IPV4:
                why = ipv4(b, off, caplen, rec);
                break;
            case LinkType.IPV6:
                why = ipv6(b, off, caplen, rec);
                break;
            case LinkType.LINUX_SLL:
                why = caplen < SLL_HEADER ? SkipReason.TRUNCATED_L2
                        : etherPayload(b, off + SLL_HEADER, caplen - SLL_HEADER, u16(b, off + 14), rec);
                break;
            case LinkType.LINUX_SLL2:
                why = caplen < SLL2_HEADER ? SkipReason.TRUNCATED_L2
                        : etherPayload(b, off + SLL2_HEADER, caplen - SLL2_HEADER, u16(b, off), rec);
                break;
            case LinkType.NULL:
            case LinkType.LOOP:
                why = loopback(b, off, caplen, rec);
                break;
            default:
                why = SkipReason.UNSUPPORTED_LINK_TYPE;
        }
        return why;
    }

    private static SkipReason loopback(DirectBuffer b, int off, int len, PacketRecord rec) {
        if (len < LOOPBACK_HEADER) {
            return SkipReason.TRUNCATED_L2;
        }
        // The family is in the capturing host's byte order; families are small numbers.
        int family = b.getInt(off, BE);
        if ((family & 0xFFFF0000) != 0) {
            family = Integer.reverseBytes(family);
        }
        if (family == BSD_AF_INET) {
            return ipv4(b, off + LOOPBACK_HEADER, len - LOOPBACK_HEADER, rec);
        }
        // AF_INET6 is 10 (Linux), 24 (NetBSD/OpenBSD), 28 (FreeBSD), 30 (macOS).
        if (family == 10 || family == 24 || family == 28 || family == 30) {
            return ipv6(b, off + LOOPBACK_HEADER, len - LOOPBACK_HEADER, rec);
        }
        return SkipReason.NOT_IP;
    }

    private static SkipReason rawIp(DirectBuffer b, int off, int len, PacketRecord rec) {
        if (len < 1) {
            return SkipReason.TRUNCATED_L3;
        }
        int version = (b.getByte(off) >> 4) & 0xF;
        if (version == 4) {
            return ipv4(b, off, len, rec);
        }
        if (version == 6) {
            return ipv6(b, off, len, rec);
        }
        return SkipReason.NOT_IP;
    }

    private static SkipReason etherPayload(DirectBuffer b, int off, int len, int etherType, PacketRecord rec) {
        int tags = 0;
        while (true) {
            switch (etherType) {
                case ETHERTYPE_IPV4:
                    return ipv4(b, off, len, rec);
                case ETHERTYPE_IPV6:
                    return ipv6(b, off, len, rec);
                case ETHERTYPE_ARP:
                case ETHERTYPE_RARP:
                    return SkipReason.ARP;
                case ETHERTYPE_VLAN:
                case ETHERTYPE_QINQ:
                case ETHERTYPE_QINQ_OLD:
                    if (++tags > MAX_TAGS) {
                        return SkipReason.TOO_MANY_TAGS;
                    }
                    if (len < 4) {
                        return SkipReason.TRUNCATED_L2;
                    }
                    etherType = u16(b, off + 2);
                    off += 4;
                    len -= 4;
                    break;
                case ETHERTYPE_MPLS:
                case ETHERTYPE_MPLS_MULTICAST:
                    while (true) {
                        if (++tags > MAX_TAGS) {
                            return SkipReason.TOO_MANY_TAGS;
                        }
                        if (len < 4) {
                            return SkipReason.TRUNCATED_L2;
                        }
                        boolean bottom = (b.getByte(off + 2) & 1) != 0;
                        off += 4;
                        len -= 4;
                        if (bottom) {
                            break;
                        }
                    }
                    if (len < 1) {
                        return SkipReason.TRUNCATED_L3;
                    }
                    int nibble = (b.getByte(off) >> 4) & 0xF;
                    if (nibble == 4) {
                        return ipv4(b, off, len, rec);
                    }
                    if (nibble == 6) {
                        return ipv6(b, off, len, rec);
                    }
                    return SkipReason.MPLS_NON_IP;
                default:
                    return SkipReason.NON_IP_ETHERTYPE;
            }
        }
    }

    private static SkipReason ipv4(DirectBuffer b, int off, int len, PacketRecord rec) {
        if (len < IPV4_MIN_HEADER) {
            return SkipReason.TRUNCATED_L3;
        }
        int vihl = b.getByte(off) & 0xFF;
        int ihl = (vihl & 0xF) * 4;
        if ((vihl >> 4) != 4 || ihl < IPV4_MIN_HEADER) {
            return SkipReason.BAD_IP_HEADER;
        }
        if (len < ihl) {
            return SkipReason.TRUNCATED_L3;
        }
        int totalLength = u16(b, off + 2);
        // Total length 0 is what TSO/GSO captures show; take the captured length then.
        if (totalLength != 0 && totalLength < ihl) {
            return SkipReason.BAD_IP_HEADER;
        }
        int ipLen = totalLength == 0 ? len : Math.min(totalLength, len);
        int frag = u16(b, off + 6);
        int fragOffset = frag & 0x1FFF;
        boolean moreFragments = (frag & 0x2000) != 0;
        int flags = 0;
        if (moreFragments || fragOffset != 0) {
            flags |= PacketRecord.FLAG_FRAGMENT;
        }
        if (fragOffset != 0) {
            flags |= PacketRecord.FLAG_LATER_FRAGMENT;
        }
        rec.ipVersion(4).flags(flags).ipId(u16(b, off + 4)).ttl(b.getByte(off + 8) & 0xFF)
                .srcIpv4(b.getInt(off + 12, BE)).dstIpv4(b.getInt(off + 16, BE));
        return transport(b, off + ihl, ipLen - ihl, b.getByte(off + 9) & 0xFF, fragOffset != 0, rec);
    }

    private static SkipReason ipv6(DirectBuffer b, int off, int len, PacketRecord rec) {
        if (len < IPV6_HEADER) {
            return SkipReason.TRUNCATED_L3;
        }
        if (((b.getByte(off) >> 4) & 0xF) != 6) {
            return SkipReason.BAD_IP_HEADER;
        }
        int payloadLength = u16(b, off + 4);
        // Payload length 0 marks a jumbogram (or a TSO capture): use what was captured.
        int ipLen = payloadLength == 0 ? len : Math.min(IPV6_HEADER + payloadLength, len);
        int next = b.getByte(off + 6) & 0xFF;
        rec.ipVersion(6).ttl(b.getByte(off + 7) & 0xFF)
                .srcIpv6(b.getLong(off + 8, BE), b.getLong(off + 16, BE))
                .dstIpv6(b.getLong(off + 24, BE), b.getLong(off + 32, BE));
        int p = off + IPV6_HEADER;
        int end = off + ipLen;
        boolean later = false;
        int flags = 0;
        for (int n = 0; ; n++) {
            int hdrLen;
            switch (next) {
                case 0:   // hop-by-hop options
                case 43:  // routing
                case 60:  // destination options
                    if (end - p < 2) {
                        return SkipReason.TRUNCATED_L3;
                    }
                    hdrLen = ((b.getByte(p + 1) & 0xFF) + 1) * 8;
                    break;
                case 44: { // fragment
                    hdrLen = 8;
                    if (end - p < hdrLen) {
                        return SkipReason.TRUNCATED_L3;
                    }
                    int fragField = u16(b, p + 2);
                    later = (fragField >>> 3) != 0;
                    flags |= PacketRecord.FLAG_FRAGMENT | (later ? PacketRecord.FLAG_LATER_FRAGMENT : 0);
                    rec.ipId(u16(b, p + 6));
                    break;
                }
                case 51:  // authentication header: length in 4-byte units, minus 2
                    if (end - p < 2) {
                        return SkipReason.TRUNCATED_L3;
                    }
                    hdrLen = ((b.getByte(p + 1) & 0xFF) + 2) * 4;
                    break;
                default:
                    rec.flags(flags);
                    return transport(b, p, end - p, next, later, rec);
            }
            if (n >= MAX_IPV6_EXTENSION_HEADERS) {
                return SkipReason.BAD_IP_HEADER;
            }
            if (end - p < hdrLen) {
                return SkipReason.TRUNCATED_L3;
            }
            next = b.getByte(p) & 0xFF;
            p += hdrLen;
        }
    }

    private static SkipReason transport(DirectBuffer b, int p, int len, int protocol, boolean laterFragment,
                                        PacketRecord rec) {
        rec.protocol(protocol);
        int header;
        if (laterFragment) {
            header = 0;
        } else {
            switch (protocol) {
                case PacketRecord.PROTO_TCP: {
                    if (len < TCP_MIN_HEADER) {
                        return SkipReason.TRUNCATED_L4;
                    }
                    header = Math.max(TCP_MIN_HEADER, ((b.getByte(p + 12) >> 4) & 0xF) * 4);
                    if (len < header) {
                        return SkipReason.TRUNCATED_L4;
                    }
                    rec.srcPort(u16(b, p)).dstPort(u16(b, p + 2)).tcpSeq(b.getInt(p + 4, BE))
                            .tcpFlags(b.getByte(p + 13) & 0xFF);
                    break;
                }
                case PacketRecord.PROTO_UDP:
                    if (len < UDP_HEADER) {
                        return SkipReason.TRUNCATED_L4;
                    }
                    header = UDP_HEADER;
                    rec.srcPort(u16(b, p)).dstPort(u16(b, p + 2));
                    break;
                case PacketRecord.PROTO_ICMP:
                case PacketRecord.PROTO_ICMPV6:
                    if (len < ICMP_HEADER) {
                        return SkipReason.TRUNCATED_L4;
                    }
                    header = ICMP_HEADER;
                    rec.srcPort(b.getByte(p) & 0xFF).dstPort(b.getByte(p + 1) & 0xFF);
                    break;
                default:
                    header = 0;
            }
        }
        rec.payloadHash(PayloadHash.hash(b, p + header, len - header));
        return null;
    }

    private static int u16(DirectBuffer b, int off) {
        return b.getShort(off, BE) & 0xFFFF;
    }
}
