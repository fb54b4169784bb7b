package dev.rmtemu.programs.lossradar.program;

import dev.rmtemu.traces.PacketRecord;

/**
 * A packet's LossRadar signature as 32-bit words: src, dst, (sport·dport),
 * (proto·IP ID·flags byte), and optionally a 14-bit timestamp. The words are the
 * bytes of header fields in order, so a hash unit reads them straight from the
 * PHV: the flags byte holds the TTL bit in bit 0 and the TCP SYN flag where TCP
 * has it (bit 1), each one VLIW operation on tofino1; the timestamp counts
 * 2^10 ns units (a shift: tofino1 has no divider for the paper's µs). The upstream
 * meter uses the packet as it leaves ingress; the downstream meter normalises the
 * mutable fields (TTL + decrements in between, the timestamp the UM carried).
 */
public final class Signature {
    private static final int PROTO_SHIFT = 24;
    private static final int IPID_SHIFT = 8;
    /** The timestamp's unit: 2^10 ns = 1.024 µs, a shift of the ingress timestamp. */
    public static final int TIMESTAMP_UNIT_SHIFT = 10;
    private static final int PORT_SHIFT = 16;
    private static final int SHORT_MASK = 0xFFFF;
    private static final int BYTE_MASK = 0xFF;

    private Signature() {
    }

    /** Word 2: source and destination ports. */
    public static int ports(int srcPort, int dstPort) {
        return ((srcPort & SHORT_MASK) << PORT_SHIFT) | (dstPort & SHORT_MASK);
    }

    /** Word 3: protocol, IP ID, and the optional TTL bit and SYN flag. */
    public static int protoId(int proto, int ipId, int ttl, int tcpFlags, LossRadarConfig c) {
        int w = ((proto & BYTE_MASK) << PROTO_SHIFT) | ((ipId & SHORT_MASK) << IPID_SHIFT);
        if (c.ttlBit()) {
            w |= ttl & 1;
        }
        if (c.synBit()) {
            w |= tcpFlags & PacketRecord.TCP_SYN;
        }
        return w;
    }

    /** The timestamp word: the low 14 bits of the time in 1.024 µs units (16.8 ms before it wraps, above T). */
    public static int timestamp(long ns) {
        return (int) ((ns >>> TIMESTAMP_UNIT_SHIFT) & ((1 << LossRadarConfig.TIMESTAMP_BITS) - 1));
    }

    /**
     * Fills {@code out} with the signature of {@code r} as seen with TTL {@code ttl}
     * and timestamp word {@code ts} (ignored unless the config has timestamps).
     */
    public static void of(PacketRecord r, int ttl, int ts, LossRadarConfig c, int[] out) {
        out[0] = r.srcIpv4();
        out[1] = r.dstIpv4();
        out[2] = ports(r.srcPort(), r.dstPort());
        out[3] = protoId(r.protocol(), r.ipId(), ttl, r.tcpFlags(), c);
        if (c.timestamp()) {
            out[4] = ts;
        }
    }

    /** The IP ID of a signature. */
    public static int ipId(int[] sig) {
        return (sig[3] >>> IPID_SHIFT) & SHORT_MASK;
    }

    public static int proto(int[] sig) {
        return (sig[3] >>> PROTO_SHIFT) & BYTE_MASK;
    }

    public static int srcPort(int[] sig) {
        return (sig[2] >>> PORT_SHIFT) & SHORT_MASK;
    }

    public static int dstPort(int[] sig) {
        return sig[2] & SHORT_MASK;
    }

    public static boolean syn(int[] sig) {
        return (sig[3] & PacketRecord.TCP_SYN) != 0;
    }

    public static int ttlBit(int[] sig) {
        return sig[3] & 1;
    }
}
