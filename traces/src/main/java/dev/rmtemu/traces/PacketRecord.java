package dev.rmtemu.traces;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteOrder;

/**
 * A packet record: 72 bytes of metadata followed by the first bytes of the frame, the
 * unit every reader, generator, store and the engine's packet ring exchange. This class
 * is a flyweight: {@link #wrap} points it at a record of an Agrona buffer with room for
 * {@link #frameCapacity()} frame bytes, and the accessors read and write those bytes in
 * place, so no object is created per packet.
 *
 * <p>The decoded fields (bytes 0..63) serve trace statistics, generators, impairments and
 * the plain-Java references; the switch reads the frame. A record occupies
 * {@link #METADATA_BYTES} + {@link #capturedLength()} bytes wherever it is copied (ring,
 * pool, store): {@link #recordBytes()}. A frame longer than the capacity it is copied
 * into is truncated to that capacity and keeps its wire length, as a pcap snap length does.
 *
 * <h2>Byte layout (all multi-byte fields little-endian)</h2>
 * <pre>
 * offset size field
 *  0      8   timestamp, ns since the epoch of the trace (signed long)
 *  8      4   wire length in bytes: the frame's original length (pcap orig_len)
 * 12      2   ingress port (unsigned 16 bit; pcapng interface id, generator port)
 * 14      1   low nibble: IP version (0 none, 4, 6); high nibble: flags
 *               0x10 FRAGMENT       part of a fragmented datagram
 *               0x20 LATER_FRAGMENT fragment offset != 0: no L4 header, ports are 0
 * 15      1   IP protocol / IPv6 final next header (6 TCP, 17 UDP, 1 ICMP, 58 ICMPv6)
 * 16      1   TTL / hop limit
 * 17      1   TCP flags (FIN 0x01 SYN 0x02 RST 0x04 PSH 0x08 ACK 0x10 URG 0x20 ECE 0x40 CWR 0x80)
 * 18      2   IP identification (IPv4 ID; IPv6: low 16 bits of the fragment header's id)
 * 20      2   source port (TCP/UDP; ICMP: type)
 * 22      2   destination port (TCP/UDP; ICMP: code)
 * 24      4   TCP sequence number
 * 28      4   payload hash ({@link PayloadHash}; 0 when no payload was captured)
 * 32     16   source address: IPv4 as an int at 32 (bytes 36..47 zero); IPv6 as two
 *             longs, high half (first 8 address bytes, big-endian value) at 32, low at 40
 * 48     16   destination address, same encoding at 48 / 56
 * 64      4   captured length: frame bytes carried from 72 on (<= wire length, <= frame capacity)
 * 68      4   reserved, zero
 * 72      n   the frame's first n = captured length bytes, as on the wire
 * </pre>
 * IPv4 addresses are held as the int whose big-endian bytes are the dotted quad
 * (10.0.0.1 is 0x0A000001). IPv6 halves are the longs whose big-endian bytes are the
 * address bytes.
 */
public final class PacketRecord {
    /** Bytes of metadata before the frame: the decoded fields, the captured length, reserved. */
    public static final int METADATA_BYTES = 72;
    /** Where the frame's bytes start. */
    public static final int FRAME_OFFSET = METADATA_BYTES;
    /** The captured length (u32): frame bytes the record carries. */
    public static final int CAPTURED_LENGTH_OFFSET = 64;
    /** Four reserved bytes, zero. */
    public static final int RESERVED_OFFSET = 68;
    /** Bytes of decoded fields (the eight words {@link #word} reads). */
    public static final int DECODED_BYTES = 64;
    /** The largest frame a record can carry: pcap's largest snap length. */
    public static final int MAX_FRAME_BYTES = 65_535;
    /**
     * Frame capacity of {@link #allocate()}: the parser window of the built-in Tofino profiles
     * ({@code "parser": {"windowBytes": 256}}), enough for Ethernet, two 802.1Q tags, IPv6 with
     * extension headers and TCP with options.
     */
    public static final int DEFAULT_FRAME_CAPACITY = 256;

    public static final int TIMESTAMP_OFFSET = 0;
    public static final int WIRE_LENGTH_OFFSET = 8;
    public static final int INGRESS_PORT_OFFSET = 12;
    public static final int VERSION_FLAGS_OFFSET = 14;
    public static final int PROTOCOL_OFFSET = 15;
    public static final int TTL_OFFSET = 16;
    public static final int TCP_FLAGS_OFFSET = 17;
    public static final int IP_ID_OFFSET = 18;
    public static final int SRC_PORT_OFFSET = 20;
    public static final int DST_PORT_OFFSET = 22;
    public static final int TCP_SEQ_OFFSET = 24;
    public static final int PAYLOAD_HASH_OFFSET = 28;
    public static final int SRC_ADDR_OFFSET = 32;
    public static final int DST_ADDR_OFFSET = 48;

    /** Flag bit in the version/flags byte: the packet is one fragment of a datagram. */
    public static final int FLAG_FRAGMENT = 0x10;
    /** Flag bit: a fragment other than the first (no L4 header, ports are 0). */
    public static final int FLAG_LATER_FRAGMENT = 0x20;

    public static final int PROTO_ICMP = 1;
    public static final int PROTO_TCP = 6;
    public static final int PROTO_UDP = 17;
    public static final int PROTO_ICMPV6 = 58;

    public static final int TCP_FIN = 0x01;
    public static final int TCP_SYN = 0x02;
    public static final int TCP_RST = 0x04;
    public static final int TCP_PSH = 0x08;
    public static final int TCP_ACK = 0x10;

    private static final ByteOrder LE = ByteOrder.LITTLE_ENDIAN;

    private MutableDirectBuffer buffer;
    private int offset;
    private int frameCapacity;

    /**
     * A record over a fresh heap buffer with room for {@link #DEFAULT_FRAME_CAPACITY} frame
     * bytes (for tools and tests; not per packet).
     */
    public static PacketRecord allocate() {
        return allocate(DEFAULT_FRAME_CAPACITY);
    }

    /**
     * A record over a fresh heap buffer with room for {@code frameCapacity} frame bytes; 0 keeps
     * only the metadata (for code that holds many records and reads only their decoded fields).
     */
    public static PacketRecord allocate(int frameCapacity) {
        checkCapacity(frameCapacity);
        PacketRecord r = new PacketRecord();
        r.wrap(new UnsafeBuffer(new byte[METADATA_BYTES + frameCapacity]), 0, frameCapacity);
        return r;
    }

    /** Bytes one record with room for {@code frameCapacity} frame bytes occupies: a stride. */
    public static int stride(int frameCapacity) {
        checkCapacity(frameCapacity);
        return METADATA_BYTES + frameCapacity;
    }

    private static void checkCapacity(int frameCapacity) {
        if (frameCapacity < 0 || frameCapacity > MAX_FRAME_BYTES) {
            throw new IllegalArgumentException("frame capacity " + frameCapacity + " outside 0.." + MAX_FRAME_BYTES);
        }
    }

    /**
     * Points this flyweight at the record of {@code buffer} at {@code offset}, which has room for
     * {@code frameCapacity} frame bytes after its metadata.
     */
    public PacketRecord wrap(MutableDirectBuffer buffer, int offset, int frameCapacity) {
        this.buffer = buffer;
        this.offset = offset;
        this.frameCapacity = frameCapacity;
        return this;
    }

    public MutableDirectBuffer buffer() {
        return buffer;
    }

    public int offset() {
        return offset;
    }

    /** Room for frame bytes after the metadata of the record this flyweight points at. */
    public int frameCapacity() {
        return frameCapacity;
    }

    /** Sets the metadata to zero (so the captured length too: no frame bytes). */
    public PacketRecord clear() {
        // nine word stores: a generator clears a record per packet, and setMemory's native call
        // costs more than the stores on a 72-byte block
        for (int i = 0; i < METADATA_BYTES; i += Long.BYTES) {
            buffer.putLong(offset + i, 0L);
        }
        return this;
    }

    /**
     * Copies {@code other}'s metadata and frame into this record. A frame longer than this
     * record's capacity is truncated to it (the captured length says so; the wire length stays),
     * as a snap length truncates a capture: never written past the capacity.
     */
    public PacketRecord copyFrom(PacketRecord other) {
        return copyFrom(other.buffer, other.offset);
    }

    /**
     * Copies the record at {@code srcOffset} of {@code src} (its metadata and the
     * captured length's frame bytes) into this record, truncating the frame to this record's
     * capacity as {@link #copyFrom(PacketRecord)} does.
     */
    public PacketRecord copyFrom(DirectBuffer src, int srcOffset) {
        // unsigned: a negative (corrupt) length is large, so at most the capacity is read
        int c = src.getInt(srcOffset + CAPTURED_LENGTH_OFFSET, LE);
        int n = Integer.compareUnsigned(c, frameCapacity) < 0 ? c : frameCapacity;
        buffer.putBytes(offset, src, srcOffset, FRAME_OFFSET + n);
        buffer.putInt(offset + CAPTURED_LENGTH_OFFSET, n, LE);
        return this;
    }

    /** Byte-wise equality of the two records' metadata and carried frame bytes. */
    public boolean contentEquals(PacketRecord other) {
        for (int i = 0; i < METADATA_BYTES; i += 8) {
            if (buffer.getLong(offset + i, LE) != other.buffer.getLong(other.offset + i, LE)) {
                return false;
            }
        }
        int n = capturedLength();
        for (int i = 0; i < n; i++) {
            if (buffer.getByte(offset + FRAME_OFFSET + i) != other.buffer.getByte(other.offset + FRAME_OFFSET + i)) {
                return false;
            }
        }
        return true;
    }

    /** Frame bytes this record carries (from {@link #FRAME_OFFSET}). */
    public int capturedLength() {
        return buffer.getInt(offset + CAPTURED_LENGTH_OFFSET, LE);
    }

    /** Bytes the record occupies when copied: metadata plus the carried frame bytes. */
    public int recordBytes() {
        return METADATA_BYTES + capturedLength();
    }

    /**
     * Copies the first min({@code length}, {@link #frameCapacity()}) bytes of a frame into this
     * record and sets the captured length to that count. The wire length is the caller's to set.
     */
    public PacketRecord putFrame(byte[] src, int srcOffset, int length) {
        int n = Math.min(length, frameCapacity);
        buffer.putBytes(offset + FRAME_OFFSET, src, srcOffset, n);
        buffer.putInt(offset + CAPTURED_LENGTH_OFFSET, n, LE);
        return this;
    }

    /** As {@link #putFrame(byte[], int, int)}, from a buffer. */
    public PacketRecord putFrame(DirectBuffer src, int srcOffset, int length) {
        int n = Math.min(length, frameCapacity);
        buffer.putBytes(offset + FRAME_OFFSET, src, srcOffset, n);
        buffer.putInt(offset + CAPTURED_LENGTH_OFFSET, n, LE);
        return this;
    }

    /**
     * Sets the captured length after the caller wrote that many frame bytes from
     * {@link #FRAME_OFFSET} itself (at most {@link #frameCapacity()}).
     */
    public PacketRecord capturedLength(int n) {
        if (n < 0 || n > frameCapacity) {
            throw new IllegalArgumentException("captured length " + n + " outside 0.." + frameCapacity);
        }
        buffer.putInt(offset + CAPTURED_LENGTH_OFFSET, n, LE);
        return this;
    }

    /** Drops the frame bytes (captured length 0), keeping the metadata. */
    public PacketRecord noFrame() {
        buffer.putInt(offset + CAPTURED_LENGTH_OFFSET, 0, LE);
        return this;
    }

    /** Frame byte {@code i} (0 .. captured length - 1), unsigned. */
    public int frameByte(int i) {
        return buffer.getByte(offset + FRAME_OFFSET + i) & 0xFF;
    }

    /** A copy of the carried frame bytes (allocates; for tools, writers and tests). */
    public byte[] frameBytes() {
        byte[] b = new byte[capturedLength()];
        buffer.getBytes(offset + FRAME_OFFSET, b);
        return b;
    }

    public long timestampNs() {
        return buffer.getLong(offset + TIMESTAMP_OFFSET, LE);
    }

    public PacketRecord timestampNs(long v) {
        buffer.putLong(offset + TIMESTAMP_OFFSET, v, LE);
        return this;
    }

    public int wireLength() {
        return buffer.getInt(offset + WIRE_LENGTH_OFFSET, LE);
    }

    public PacketRecord wireLength(int v) {
        buffer.putInt(offset + WIRE_LENGTH_OFFSET, v, LE);
        return this;
    }

    public int ingressPort() {
        return buffer.getShort(offset + INGRESS_PORT_OFFSET, LE) & 0xFFFF;
    }

    public PacketRecord ingressPort(int v) {
        buffer.putShort(offset + INGRESS_PORT_OFFSET, (short) v, LE);
        return this;
    }

    /** 0 (not IP), 4 or 6. */
    public int ipVersion() {
        return buffer.getByte(offset + VERSION_FLAGS_OFFSET) & 0x0F;
    }

    public PacketRecord ipVersion(int v) {
        int b = buffer.getByte(offset + VERSION_FLAGS_OFFSET) & 0xF0;
        buffer.putByte(offset + VERSION_FLAGS_OFFSET, (byte) (b | (v & 0x0F)));
        return this;
    }

    /** The flag bits ({@link #FLAG_FRAGMENT}, {@link #FLAG_LATER_FRAGMENT}). */
    public int flags() {
        return buffer.getByte(offset + VERSION_FLAGS_OFFSET) & 0xF0;
    }

    public PacketRecord flags(int v) {
        int b = buffer.getByte(offset + VERSION_FLAGS_OFFSET) & 0x0F;
        buffer.putByte(offset + VERSION_FLAGS_OFFSET, (byte) (b | (v & 0xF0)));
        return this;
    }

    public boolean isFragment() {
        return (flags() & FLAG_FRAGMENT) != 0;
    }

    public boolean isLaterFragment() {
        return (flags() & FLAG_LATER_FRAGMENT) != 0;
    }

    public int protocol() {
        return buffer.getByte(offset + PROTOCOL_OFFSET) & 0xFF;
    }

    public PacketRecord protocol(int v) {
        buffer.putByte(offset + PROTOCOL_OFFSET, (byte) v);
        return this;
    }

    public int ttl() {
        return buffer.getByte(offset + TTL_OFFSET) & 0xFF;
    }

    public PacketRecord ttl(int v) {
        buffer.putByte(offset + TTL_OFFSET, (byte) v);
        return this;
    }

    public int tcpFlags() {
        return buffer.getByte(offset + TCP_FLAGS_OFFSET) & 0xFF;
    }

    public PacketRecord tcpFlags(int v) {
        buffer.putByte(offset + TCP_FLAGS_OFFSET, (byte) v);
        return this;
    }

    public int ipId() {
        return buffer.getShort(offset + IP_ID_OFFSET, LE) & 0xFFFF;
    }

    public PacketRecord ipId(int v) {
        buffer.putShort(offset + IP_ID_OFFSET, (short) v, LE);
        return this;
    }

    public int srcPort() {
        return buffer.getShort(offset + SRC_PORT_OFFSET, LE) & 0xFFFF;
    }

    public PacketRecord srcPort(int v) {
        buffer.putShort(offset + SRC_PORT_OFFSET, (short) v, LE);
        return this;
    }

    public int dstPort() {
        return buffer.getShort(offset + DST_PORT_OFFSET, LE) & 0xFFFF;
    }

    public PacketRecord dstPort(int v) {
        buffer.putShort(offset + DST_PORT_OFFSET, (short) v, LE);
        return this;
    }

    public int tcpSeq() {
        return buffer.getInt(offset + TCP_SEQ_OFFSET, LE);
    }

    public PacketRecord tcpSeq(int v) {
        buffer.putInt(offset + TCP_SEQ_OFFSET, v, LE);
        return this;
    }

    public int payloadHash() {
        return buffer.getInt(offset + PAYLOAD_HASH_OFFSET, LE);
    }

    public PacketRecord payloadHash(int v) {
        buffer.putInt(offset + PAYLOAD_HASH_OFFSET, v, LE);
        return this;
    }

    /** IPv4 source address (meaningful when {@link #ipVersion()} is 4). */
    public int srcIpv4() {
        return buffer.getInt(offset + SRC_ADDR_OFFSET, LE);
    }

    /** Sets an IPv4 source address and zeroes the rest of the address slot. */
    public PacketRecord srcIpv4(int v) {
        buffer.putLong(offset + SRC_ADDR_OFFSET, v & 0xFFFFFFFFL, LE);
        buffer.putLong(offset + SRC_ADDR_OFFSET + 8, 0L, LE);
        return this;
    }

    public int dstIpv4() {
        return buffer.getInt(offset + DST_ADDR_OFFSET, LE);
    }

    public PacketRecord dstIpv4(int v) {
        buffer.putLong(offset + DST_ADDR_OFFSET, v & 0xFFFFFFFFL, LE);
        buffer.putLong(offset + DST_ADDR_OFFSET + 8, 0L, LE);
        return this;
    }

    /** High 64 bits of the IPv6 source address. */
    public long srcIpv6Hi() {
        return buffer.getLong(offset + SRC_ADDR_OFFSET, LE);
    }

    public long srcIpv6Lo() {
        return buffer.getLong(offset + SRC_ADDR_OFFSET + 8, LE);
    }

    public PacketRecord srcIpv6(long hi, long lo) {
        buffer.putLong(offset + SRC_ADDR_OFFSET, hi, LE);
        buffer.putLong(offset + SRC_ADDR_OFFSET + 8, lo, LE);
        return this;
    }

    public long dstIpv6Hi() {
        return buffer.getLong(offset + DST_ADDR_OFFSET, LE);
    }

    public long dstIpv6Lo() {
        return buffer.getLong(offset + DST_ADDR_OFFSET + 8, LE);
    }

    public PacketRecord dstIpv6(long hi, long lo) {
        buffer.putLong(offset + DST_ADDR_OFFSET, hi, LE);
        buffer.putLong(offset + DST_ADDR_OFFSET + 8, lo, LE);
        return this;
    }

    /** Raw 64-bit word {@code i} (0..7) of the decoded fields, for hashing and copying. */
    public long word(int i) {
        return buffer.getLong(offset + i * 8, LE);
    }

    /** A one-line human-readable rendering (allocates; for tools and test messages). */
    @Override
    public String toString() {
        if (buffer == null) {
            return "PacketRecord[unwrapped]";
        }
        return "PacketRecord[ts=" + timestampNs() + " len=" + wireLength() + " port=" + ingressPort()
                + " v" + ipVersion() + " flags=0x" + Integer.toHexString(flags()) + " proto=" + protocol()
                + " ttl=" + ttl() + " tcpFlags=0x" + Integer.toHexString(tcpFlags()) + " id=" + ipId()
                + " " + Addresses.format(this, true) + ":" + srcPort() + " > " + Addresses.format(this, false)
                + ":" + dstPort() + " seq=" + Integer.toUnsignedString(tcpSeq())
                + " hash=0x" + Integer.toHexString(payloadHash()) + " caplen=" + capturedLength() + "]";
    }
}
