package dev.rmtemu.traces.pcap;

import dev.rmtemu.traces.HostMac;
import dev.rmtemu.traces.PacketRecord;
import dev.rmtemu.traces.PayloadHash;
import org.agrona.MutableDirectBuffer;

import java.nio.ByteOrder;

/**
 * Builds the Ethernet frame of a record, as a host would have sent it: Ethernet II from the
 * source host's MAC to the destination host's ({@link HostMac}), IPv4 (20-byte header with a
 * valid checksum) or IPv6 (plus a fragment header for fragments), then TCP (20 bytes), UDP (8),
 * ICMP/ICMPv6 (8, type and code from the record's ports) or nothing for other protocols and
 * later fragments, then the payload.
 *
 * <p>Lengths: the IP total/payload length and the UDP length describe the whole wire length
 * (the IP datagram is capped at 65,535 bytes; wire bytes past it are zero trailer). The payload
 * is zeros except its first 4 bytes, chosen so the payload hash of the captured payload reads
 * back as the record's ({@link PayloadHash#leadingWordFor}). A record with payload hash 0 has no
 * known payload: up to the 64-byte Ethernet minimum its datagram is just the headers and the rest
 * is Ethernet padding (a SYN, a pure ACK); above it the frame is written truncated after the
 * headers (the payload was never captured), its IP length still the wire length's.
 *
 * <p>Checksums: the IPv4 header checksum always; the TCP, UDP and ICMP checksums (with the IPv4
 * or IPv6 pseudo-header for TCP, UDP and ICMPv6) over the whole segment as it is on the wire,
 * also when the frame is written truncated to a snap length: the bytes past the snap length are
 * zeros, which add nothing to a ones' complement sum, so a truncated frame carries the checksum
 * of its whole frame, as a capture of it would. Fragments carry L4 checksum 0: their checksum
 * covers the whole datagram, which one fragment does not hold.
 *
 * <p>Decoding a frame written here (whole or truncated) yields the same record.
 */
public final class FrameSynthesizer {
    /** Offset (in 8-byte units) written for later fragments; any non-zero value works. */
    static final int LATER_FRAGMENT_OFFSET_UNITS = 185;
    static final int ETHERNET_HEADER = 14;
    static final int MAX_IP_LENGTH = 65_535;
    /**
     * Ethernet's minimum frame: a frame this short may carry padding after its IP datagram,
     * so a record without payload up to this wire length is headers plus padding.
     */
    public static final int ETHERNET_MIN_FRAME = 64;
    /** Snap length that keeps every frame whole (tcpdump's default, the readers' largest caplen). */
    public static final int WHOLE_FRAME = CaptureReader.MAX_CAPLEN;
    /** Longest headers plus payload word: the shortest snap length (shorter ones are raised to a frame's headers). */
    public static final int MAX_MIN_FRAME = ETHERNET_HEADER + 40 + 8 + 20 + PayloadHash.SYNTHETIC_PAYLOAD_BYTES;
    private static final int IPV4_HEADER = 20;
    private static final int IPV6_HEADER = 40;
    private static final int IPV6_FRAGMENT_HEADER = 8;
    private static final int TCP_HEADER = 20;
    private static final int TCP_DATA_OFFSET_5 = 0x50;
    private static final int TCP_WINDOW = 0xFFFF;
    private static final int SMALL_L4_HEADER = 8;
    private static final ByteOrder BE = ByteOrder.BIG_ENDIAN;

    private FrameSynthesizer() {
    }

    /** Ethernet, IP and L4 header bytes of {@code r}'s frame. */
    static int headerLength(PacketRecord r) {
        int len = ETHERNET_HEADER + (r.ipVersion() == 6 ? IPV6_HEADER + (r.isFragment() ? IPV6_FRAGMENT_HEADER : 0)
                : IPV4_HEADER);
        return len + l4Header(r);
    }

    /** Length of the shortest frame for {@code r}: its headers and, with a payload hash, the 4-byte payload word. */
    public static int frameLength(PacketRecord r) {
        return headerLength(r) + (r.payloadHash() != 0 ? PayloadHash.SYNTHETIC_PAYLOAD_BYTES : 0);
    }

    /** The wire length the frame claims: the record's, raised to the shortest frame if shorter. */
    public static int wireLength(PacketRecord r) {
        return Math.max(r.wireLength(), frameLength(r));
    }

    /**
     * Bytes of {@code r}'s frame {@link #build} writes at snap length {@code snap}: the whole
     * frame when it fits, never less than {@link #frameLength} (the payload word is needed for the
     * hash), only the headers when the payload is not known (see the class comment).
     */
    public static int capturedLength(PacketRecord r, int snap) {
        int wire = wireLength(r);
        if (r.payloadHash() == 0 && wire > ETHERNET_MIN_FRAME) {
            return headerLength(r);
        }
        return Math.min(wire, Math.max(snap, frameLength(r)));
    }

    /** Bytes of the IP datagram (header included) in the frame {@link #build} writes for an IPv4/IPv6 record. */
    public static int ipLength(PacketRecord r) {
        return ipLength(r, wireLength(r));
    }

    /** Bytes of the IP datagram (header included) in a frame of {@code wire} bytes. */
    private static int ipLength(PacketRecord r, int wire) {
        if (r.payloadHash() == 0 && wire <= ETHERNET_MIN_FRAME) {
            return headerLength(r) - ETHERNET_HEADER;
        }
        return Math.min(wire - ETHERNET_HEADER, MAX_IP_LENGTH);
    }

    private static int l4Header(PacketRecord r) {
        if (r.isLaterFragment()) {
            return 0;
        }
        switch (r.protocol()) {
            case PacketRecord.PROTO_TCP:
                return TCP_HEADER;
            case PacketRecord.PROTO_UDP:
            case PacketRecord.PROTO_ICMP:
            case PacketRecord.PROTO_ICMPV6:
                return SMALL_L4_HEADER;
            default:
                return 0;
        }
    }

    /**
     * Puts {@code r}'s frame into the record itself, as a capture at snap length
     * {@link PacketRecord#frameCapacity()} holds it: the bytes {@link #build} writes at that snap
     * length, truncated to the capacity when even the headers do not fit it. The wire length is
     * raised to the frame's ({@link #wireLength}) so the captured length never exceeds it.
     * {@code scratch} (at least {@link #MAX_MIN_FRAME} bytes) takes the frame when the capacity
     * is below its headers; no allocation.
     */
    public static void putFrame(PacketRecord r, MutableDirectBuffer scratch) {
        int capacity = r.frameCapacity();
        r.wireLength(wireLength(r));
        if (capacity == 0) {
            r.noFrame();
            return;
        }
        int n = capturedLength(r, capacity);
        if (n <= capacity) {
            build(r, r.buffer(), r.offset() + PacketRecord.FRAME_OFFSET, capacity);
            r.capturedLength(n);
        } else {
            build(r, scratch, 0, capacity);
            r.putFrame(scratch, 0, n);
        }
    }

    /**
     * Rebuilds an IP record's frame from its decoded fields after a tool rewrote them (a
     * network's host map assigning its hosts' addresses, an experiment steering a packet to a
     * queue): the bytes it carried describe the old fields, and the switch parses the bytes.
     * A non-IP record keeps its bytes. Returns the record's captured length.
     */
    public static int rebuildFrame(PacketRecord r) {
        if (r.ipVersion() != 4 && r.ipVersion() != 6) {
            return r.capturedLength();
        }
        r.noFrame();
        return attachFrame(r);
    }

    /**
     * Gives a record that carries no frame bytes (one built from decoded fields by a generator,
     * a tool or a test) the frame those fields describe, as {@link #build} writes it to a pcap,
     * up to the record's frame capacity; its wire length is raised to the frame's when shorter.
     * A record that carries bytes, a non-IP record, or one whose headers do not fit the capacity
     * is left as it is. Returns the record's captured length.
     */
    public static int attachFrame(PacketRecord r) {
        int carried = r.capturedLength();
        if (carried != 0 || (r.ipVersion() != 4 && r.ipVersion() != 6) || frameLength(r) > r.frameCapacity()) {
            return carried;
        }
        r.wireLength(wireLength(r));
        int n = build(r, r.buffer(), r.offset() + PacketRecord.FRAME_OFFSET, r.frameCapacity());
        r.buffer().putInt(r.offset() + PacketRecord.CAPTURED_LENGTH_OFFSET, n, ByteOrder.LITTLE_ENDIAN);
        return n;
    }

    /** Writes the whole frame for an IPv4/IPv6 record at {@code off}; returns its length. */
    public static int build(PacketRecord r, MutableDirectBuffer b, int off) {
        return build(r, b, off, WHOLE_FRAME);
    }

    /**
     * Writes the frame for an IPv4/IPv6 record at {@code off}, truncated to
     * {@link #capturedLength capturedLength(r, snap)} bytes; returns that length.
     */
    public static int build(PacketRecord r, MutableDirectBuffer b, int off, int snap) {
        if (r.ipVersion() != 4 && r.ipVersion() != 6) {
            throw new IllegalArgumentException("record is not IPv4 or IPv6: " + r);
        }
        int wire = wireLength(r);
        int cap = capturedLength(r, snap);
        int ipLen = ipLength(r, wire);
        b.setMemory(off, cap, (byte) 0);
        putMac(b, off, HostMac.of(r, false));
        putMac(b, off + 6, HostMac.of(r, true));
        int ip = off + ETHERNET_HEADER;
        int p = ip;
        if (r.ipVersion() == 4) {
            b.putShort(off + 12, (short) PacketDecoder.ETHERTYPE_IPV4, BE);
            b.putByte(p, (byte) 0x45);
            b.putShort(p + 2, (short) ipLen, BE);
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
            b.putShort(p + 10, (short) ~onesSum(b, p, IPV4_HEADER, 0), BE);
            p += IPV4_HEADER;
        } else {
            b.putShort(off + 12, (short) PacketDecoder.ETHERTYPE_IPV6, BE);
            b.putInt(p, 0x60000000, BE);
            b.putShort(p + 4, (short) (ipLen - IPV6_HEADER), BE);
            b.putByte(p + 6, (byte) (r.isFragment() ? 44 : r.protocol()));
            b.putByte(p + 7, (byte) r.ttl());
            b.putLong(p + 8, r.srcIpv6Hi(), BE);
            b.putLong(p + 16, r.srcIpv6Lo(), BE);
            b.putLong(p + 24, r.dstIpv6Hi(), BE);
            b.putLong(p + 32, r.dstIpv6Lo(), BE);
            p += IPV6_HEADER;
            if (r.isFragment()) {
                b.putByte(p, (byte) r.protocol());
                b.putShort(p + 2, (short) (r.isLaterFragment() ? LATER_FRAGMENT_OFFSET_UNITS << 3 : 1), BE);
                b.putInt(p + 4, r.ipId(), BE);
                p += IPV6_FRAGMENT_HEADER;
            }
        }
        int l4 = p;
        int l4Len = ip + ipLen - l4;
        int payload = l4 + l4Header(r);
        if (r.payloadHash() != 0) {
            int captured = Math.min(ip + ipLen, off + cap) - payload;
            b.putInt(payload, PayloadHash.leadingWordFor(r.payloadHash(), captured), BE);
        }
        if (r.isLaterFragment()) {
            return cap;
        }
        int checksumAt = -1;
        switch (r.protocol()) {
            case PacketRecord.PROTO_TCP:
                b.putShort(l4, (short) r.srcPort(), BE);
                b.putShort(l4 + 2, (short) r.dstPort(), BE);
                b.putInt(l4 + 4, r.tcpSeq(), BE);
                b.putByte(l4 + 12, (byte) TCP_DATA_OFFSET_5);
                b.putByte(l4 + 13, (byte) r.tcpFlags());
                b.putShort(l4 + 14, (short) TCP_WINDOW, BE);
                checksumAt = l4 + 16;
                break;
            case PacketRecord.PROTO_UDP:
                b.putShort(l4, (short) r.srcPort(), BE);
                b.putShort(l4 + 2, (short) r.dstPort(), BE);
                b.putShort(l4 + 4, (short) l4Len, BE);
                checksumAt = l4 + 6;
                break;
            case PacketRecord.PROTO_ICMP:
            case PacketRecord.PROTO_ICMPV6:
                b.putByte(l4, (byte) r.srcPort());
                b.putByte(l4 + 1, (byte) r.dstPort());
                checksumAt = l4 + 2;
                break;
            default:
                break;
        }
        if (checksumAt >= 0 && !r.isFragment()) {
            int sum = r.protocol() == PacketRecord.PROTO_ICMP ? 0 : pseudoHeaderSum(r, b, ip, l4Len);
            // past the header and the payload's leading word the captured bytes are zeros, which add nothing
            int summed = Math.min(Math.min(l4Len, off + cap - l4),
                    payload - l4 + (r.payloadHash() != 0 ? PayloadHash.SYNTHETIC_PAYLOAD_BYTES : 0));
            int checksum = ~onesSum(b, l4, summed, sum) & 0xFFFF;
            if (checksum == 0 && r.protocol() == PacketRecord.PROTO_UDP) {
                checksum = 0xFFFF; // RFC 768: a computed 0 is sent as all ones (0 means "no checksum")
            }
            b.putShort(checksumAt, (short) checksum, BE);
        }
        return cap;
    }

    /** Ones' complement sum of the IPv4 (RFC 793) or IPv6 (RFC 8200 §8.1) pseudo-header. */
    private static int pseudoHeaderSum(PacketRecord r, MutableDirectBuffer b, int ip, int l4Len) {
        if (r.ipVersion() == 4) {
            return onesSum(b, ip + 12, 8, r.protocol() + l4Len);
        }
        return onesSum(b, ip + 8, 32, r.protocol() + (l4Len >>> 16) + (l4Len & 0xFFFF));
    }

    /** {@code initial} plus the 16-bit big-endian words of {@code len} bytes (an odd last byte padded), folded to 16 bits. */
    private static int onesSum(MutableDirectBuffer b, int from, int len, int initial) {
        long sum = initial;
        int i = 0;
        // four bytes per read: the sum of 16-bit words is the same in any grouping
        for (; i + 3 < len; i += 4) {
            int w = b.getInt(from + i, BE);
            sum += (w >>> 16) + (w & 0xFFFF);
        }
        if (i + 1 < len) {
            sum += b.getShort(from + i, BE) & 0xFFFF;
            i += 2;
        }
        if (i < len) {
            sum += (b.getByte(from + i) & 0xFF) << 8;
        }
        while ((sum >>> 16) != 0) {
            sum = (sum & 0xFFFF) + (sum >>> 16);
        }
        return (int) sum;
    }

    private static void putMac(MutableDirectBuffer b, int off, long mac) {
        b.putShort(off, (short) (mac >>> 32), BE);
        b.putInt(off + 2, (int) mac, BE);
    }
}
