package dev.rmtemu.programs.hashpipe.program;

import dev.rmtemu.traces.PacketRecord;
import dev.rmtemu.traces.pcap.FrameSynthesizer;
import org.agrona.DirectBuffer;

import java.nio.ByteOrder;

/**
 * The bytes HashPipe's switch counts for a packet with {@code count=bytes}, for the plain-Java
 * reference, the baselines and the ground truth: its IP datagram as the IP header states it
 * (IPv4's total length; IPv6's payload length + its 40-byte header) plus Ethernet's 14-byte
 * header, as {@link HashPipeProgram}'s ingress computes it from the parsed headers. That is the
 * wire length of an untagged IP frame, less a short frame's padding (a bare TCP segment: 54,
 * not 64) and a VLAN tag; a frame that is not IP counts Ethernet's header alone.
 */
public final class CountedBytes {
    private static final int ETHER_TYPE_AT = 12;
    private static final int VLAN_TAG_BYTES = 4;
    private static final int ETHER_TYPE_VLAN = 0x8100;
    private static final int ETHER_TYPE_QINQ = 0x88A8;
    private static final int ETHER_TYPE_IPV4 = 0x0800;
    private static final int ETHER_TYPE_IPV6 = 0x86DD;
    /** Offsets of the length fields in their headers. */
    private static final int IPV4_TOTAL_LEN_AT = 2;
    private static final int IPV6_PAYLOAD_LEN_AT = 4;

    private CountedBytes() {
    }

    /** The bytes counted for {@code r}: read from its frame, or from the frame its decoded fields describe when it carries none. */
    public static int of(PacketRecord r) {
        int cap = r.capturedLength();
        if (cap == 0) {
            boolean ip = r.ipVersion() == 4 || r.ipVersion() == 6;
            return HashPipeProgram.ETHERNET_HEADER_BYTES + (ip ? FrameSynthesizer.ipLength(r) : 0);
        }
        DirectBuffer b = r.buffer();
        int base = r.offset() + PacketRecord.FRAME_OFFSET;
        int at = ETHER_TYPE_AT;
        int type = at + 2 <= cap ? b.getShort(base + at, ByteOrder.BIG_ENDIAN) & 0xFFFF : 0;
        while ((type == ETHER_TYPE_VLAN || type == ETHER_TYPE_QINQ) && at + VLAN_TAG_BYTES + 2 <= cap) {
            at += VLAN_TAG_BYTES;
            type = b.getShort(base + at, ByteOrder.BIG_ENDIAN) & 0xFFFF;
        }
        int ipAt = at + 2;
        int len = 0;
        if (type == ETHER_TYPE_IPV4 && ipAt + IPV4_TOTAL_LEN_AT + 2 <= cap) {
            len = b.getShort(base + ipAt + IPV4_TOTAL_LEN_AT, ByteOrder.BIG_ENDIAN) & 0xFFFF;
        } else if (type == ETHER_TYPE_IPV6 && ipAt + IPV6_PAYLOAD_LEN_AT + 2 <= cap) {
            len = HashPipeProgram.IPV6_HEADER_BYTES
                    + (b.getShort(base + ipAt + IPV6_PAYLOAD_LEN_AT, ByteOrder.BIG_ENDIAN) & 0xFFFF);
        }
        return HashPipeProgram.ETHERNET_HEADER_BYTES + len;
    }
}
