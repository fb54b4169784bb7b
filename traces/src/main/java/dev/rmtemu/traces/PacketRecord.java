package dev.rmtemu.traces;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteOrder;

/**
 * A fixed 64-byte packet record: the unit every reader, generator, store and the
 * engine's packet ring exchange. This class is a flyweight: {@link #wrap} points it
 * at 64 bytes of an Agrona buffer and the accessors read and write those bytes in
 * place, so no object is created per packet.
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
 * </pre>
 * IPv4 addresses are held as the int whose big-endian bytes are the dotted quad
 * (10.0.0.1 is 0x0A000001). IPv6 halves are the longs whose big-endian bytes are the
 * address bytes.
 */
public final class PacketRecord {
    /** Size of one record in bytes. */
    public static final int LENGTH = 64;

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

    /** A record over a fresh 64-byte heap buffer (for tools and tests; not per packet). */
    public static PacketRecord allocate() {
        PacketRecord r = new PacketRecord();
        r.wrap(new UnsafeBuffer(new byte[LENGTH]), 0);
        return r;
    }

    /** Points this flyweight at {@code LENGTH} bytes of {@code buffer} from {@code offset}. */
    public PacketRecord wrap(MutableDirectBuffer buffer, int offset) {
        this.buffer = buffer;
        this.offset = offset;
        return this;
    }

    public MutableDirectBuffer buffer() {
        return buffer;
    }

    public int offset() {
        return offset;
    }

    /** Sets all 64 bytes to zero. */
    public PacketRecord clear() {
        buffer.setMemory(offset, LENGTH, (byte) 0);
        return this;
    }

    /** Copies the 64 bytes of {@code other} into this record. */
    public PacketRecord copyFrom(PacketRecord other) {
        buffer.putBytes(offset, other.buffer, other.offset, LENGTH);
        return this;
    }

    /** Copies 64 bytes from a buffer position into this record. */
    public PacketRecord copyFrom(DirectBuffer src, int srcOffset) {
        buffer.putBytes(offset, src, srcOffset, LENGTH);
        return this;
    }

    /** Byte-wise equality of the two records' 64 bytes. */
    public boolean contentEquals(PacketRecord other) {
        for (int i = 0; i < LENGTH; i += 8) {
            if (buffer.getLong(offset + i, LE) != other.buffer.getLong(other.offset + i, LE)) {
                return false;
            }
        }
        return true;
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

    /** Raw 64-bit word {@code i} (0..7) of the record, for hashing and copying. */
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
                + " hash=0x" + Integer.toHexString(payloadHash()) + "]";
    }
}
