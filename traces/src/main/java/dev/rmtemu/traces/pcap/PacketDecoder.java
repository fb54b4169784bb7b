package dev.rmtemu.traces.pcap;

import dev.rmtemu.traces.PacketRecord;
import dev.rmtemu.traces.PayloadHash;
import dev.rmtemu.traces.SkipCounters;
import dev.rmtemu.traces.SkipReason;
import org.agrona.DirectBuffer;

import java.nio.ByteOrder;

/**
 * Decodes one captured frame (link layer → IPv4/IPv6 → TCP/UDP/ICMP) into the L3/L4
 * fields of a {@link PacketRecord}. Every read is checked against the captured
 * length, so a corrupt frame is counted as skipped, never an exception. The caller
 * sets timestamp, wire length and ingress port; this fills bytes 14..63.
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
     * Decodes {@code caplen} bytes at {@code off}; returns true when {@code rec} holds
     * an IP packet, false (after counting the reason in {@code skips}) otherwise.
     */
    public static boolean decode(DirectBuffer b, int off, int caplen, int linkType, PacketRecord rec,
                                 SkipCounters skips) {
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
        if (why != null) {
            skips.increment(why);
            return false;
        }
        return true;
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
