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
        zero(b, off, cap);
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
            // the header's 16-bit words from the fields just written (checksum field 0): the
            // same sum as reading the 20 bytes back
            long ipSum = 0x4500L + (ipLen & 0xFFFF) + (r.ipId() & 0xFFFF) + frag
                    + ((r.ttl() & 0xFF) << 8) + (r.protocol() & 0xFF) + words(r.srcIpv4()) + words(r.dstIpv4());
            b.putShort(p + 10, (short) ~fold(ipSum), BE);
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
        int payloadWord = 0;
        if (r.payloadHash() != 0) {
            int captured = Math.min(ip + ipLen, off + cap) - payload;
            payloadWord = PayloadHash.leadingWordFor(r.payloadHash(), captured);
            b.putInt(payload, payloadWord, BE);
        }
        if (r.isLaterFragment()) {
            return cap;
        }
        int checksumAt = -1;
        // the L4 header's 16-bit words as written here (checksum field 0, the rest of the header
        // zeros), summed from the fields instead of read back from the buffer
        long l4Sum;
        switch (r.protocol()) {
            case PacketRecord.PROTO_TCP:
                b.putShort(l4, (short) r.srcPort(), BE);
                b.putShort(l4 + 2, (short) r.dstPort(), BE);
                b.putInt(l4 + 4, r.tcpSeq(), BE);
                b.putByte(l4 + 12, (byte) TCP_DATA_OFFSET_5);
                b.putByte(l4 + 13, (byte) r.tcpFlags());
                b.putShort(l4 + 14, (short) TCP_WINDOW, BE);
                checksumAt = l4 + 16;
                l4Sum = (r.srcPort() & 0xFFFF) + (r.dstPort() & 0xFFFF) + words(r.tcpSeq())
                        + (TCP_DATA_OFFSET_5 << 8) + (r.tcpFlags() & 0xFF) + TCP_WINDOW;
                break;
            case PacketRecord.PROTO_UDP:
                b.putShort(l4, (short) r.srcPort(), BE);
                b.putShort(l4 + 2, (short) r.dstPort(), BE);
                b.putShort(l4 + 4, (short) l4Len, BE);
                checksumAt = l4 + 6;
                l4Sum = (r.srcPort() & 0xFFFF) + (r.dstPort() & 0xFFFF) + (l4Len & 0xFFFF);
                break;
            case PacketRecord.PROTO_ICMP:
            case PacketRecord.PROTO_ICMPV6:
                b.putByte(l4, (byte) r.srcPort());
                b.putByte(l4 + 1, (byte) r.dstPort());
                checksumAt = l4 + 2;
                l4Sum = ((r.srcPort() & 0xFF) << 8) + (r.dstPort() & 0xFF);
                break;
            default:
                l4Sum = 0;
                break;
        }
        if (checksumAt >= 0 && !r.isFragment()) {
            long sum = r.protocol() == PacketRecord.PROTO_ICMP ? 0 : pseudoHeaderSum(r, l4Len);
            // the checksummed bytes are the L4 header and, with a payload hash, the payload's leading
            // word (a frame is never cut inside them: capturedLength keeps at least frameLength, or the
            // headers when there is no payload); past them the bytes are zeros, which add nothing
            int checksum = ~fold(sum + l4Sum + words(payloadWord)) & 0xFFFF;
            if (checksum == 0 && r.protocol() == PacketRecord.PROTO_UDP) {
                checksum = 0xFFFF; // RFC 768: a computed 0 is sent as all ones (0 means "no checksum")
            }
            b.putShort(checksumAt, (short) checksum, BE);
        }
        return cap;
    }

    /**
     * Ones' complement sum (unfolded) of the IPv4 (RFC 793) or IPv6 (RFC 8200 §8.1)
     * pseudo-header: the addresses' 16-bit words, the protocol and the L4 length.
     */
    private static long pseudoHeaderSum(PacketRecord r, int l4Len) {
        if (r.ipVersion() == 4) {
            return words(r.srcIpv4()) + words(r.dstIpv4()) + r.protocol() + l4Len;
        }
        return words(r.srcIpv6Hi()) + words(r.srcIpv6Lo()) + words(r.dstIpv6Hi()) + words(r.dstIpv6Lo())
                + r.protocol() + (l4Len >>> 16) + (l4Len & 0xFFFF);
    }

    /** The sum of the two big-endian 16-bit words of {@code v}. */
    private static long words(int v) {
        return (v >>> 16) + (v & 0xFFFF);
    }

    /** The sum of the four big-endian 16-bit words of {@code v}. */
    private static long words(long v) {
        return words((int) (v >>> 32)) + words((int) v);
    }

    /**
     * A sum of 16-bit words folded to 16 bits with end-around carry. Folding is exact at any
     * point of the sum (a positive sum folds to the value in 1..0xFFFF congruent to it mod
     * 0xFFFF), so a sum folded once at the end equals one folded word by word.
     */
    private static int fold(long sum) {
        while ((sum >>> 16) != 0) {
            sum = (sum & 0xFFFF) + (sum >>> 16);
        }
        return (int) sum;
    }

    /**
     * Zeroes {@code len} bytes at {@code off}, a word at a time: a frame is at most a snap length
     * long, where setMemory's native call costs more than the stores.
     */
    private static void zero(MutableDirectBuffer b, int off, int len) {
        int i = 0;
        for (; i + Long.BYTES <= len; i += Long.BYTES) {
            b.putLong(off + i, 0L);
        }
        for (; i < len; i++) {
            b.putByte(off + i, (byte) 0);
        }
    }

    private static void putMac(MutableDirectBuffer b, int off, long mac) {
        b.putShort(off, (short) (mac >>> 32), BE);
        b.putInt(off + 2, (int) mac, BE);
    }
}
