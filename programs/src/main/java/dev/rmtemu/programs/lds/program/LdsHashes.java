package dev.rmtemu.programs.lds.program;

import dev.rmtemu.model.hash.Crc;
import dev.rmtemu.programs.common.FiveTupleHash;
import dev.rmtemu.traces.PacketRecord;

/**
 * The hash functions both ends of an LDS share, as tofino1 hash units compute them:
 * reflected CRC-32s with distinct published polynomials (init and xorout all ones), over
 * big-endian field bytes in the order the stage program declares them.
 *
 * <ul>
 *   <li>flow hash h_r (row r) over the 5-tuple (13 bytes): the vLDA's first cell;</li>
 *   <li>packet hash over the packet's invariant header fields, 5-tuple, IP ID and TCP sequence number
 *       (19 bytes; the sequence number 0 when the packet is not TCP), as trajectory sampling
 *       identifies a packet at every hop (Duffield &amp; Grossglauser): row r's offset
 *       h'_r(x) is its r-th byte mod k;</li>
 *   <li>digest hash over the same packet bytes: what the cell's d XORs;</li>
 *   <li>sampling hash over the same bytes: row r keeps the packet when it is below p_r·2^32,
 *       so both ends keep the same packets and a lower rate keeps a subset of a higher one;</li>
 *   <li>class hash over the 5-tuple: the flow's weight class.</li>
 * </ul>
 */
public final class LdsHashes {
    /** IEEE 802.3, Castagnoli (32C), Koopman (32K), Koopman 32K2: one per row. */
    static final long[] ROW_POLYNOMIALS = {0x04C11DB7L, 0x1EDC6F41L, 0x741B8CD7L, 0x32583499L};
    static final String[] ROW_NAMES = {"crc32", "crc32c", "crc32k", "crc32k2"};
    /** 32Q (aviation), 32D, AUTOSAR, XFER. */
    static final long PACKET_POLY = 0x814141ABL;
    static final long DIGEST_POLY = 0xA833982BL;
    static final long SAMPLE_POLY = 0xF4ACFB13L;
    static final long CLASS_POLY = 0x000000AFL;
    private static final long ALL_ONES = 0xFFFFFFFFL;
    /** Bits of the packet hash each row's offset takes. */
    public static final int OFFSET_SLICE_BITS = 8;

    private static final Crc[] ROWS = new Crc[LdsConfig.MAX_ROWS];
    private static final Crc PACKET = crc("crc32q", PACKET_POLY);
    private static final Crc DIGEST = crc("crc32d", DIGEST_POLY);
    private static final Crc SAMPLE = crc("crc32_autosar", SAMPLE_POLY);
    private static final Crc CLASS = crc("crc32_xfer", CLASS_POLY);

    static {
        for (int r = 0; r < ROWS.length; r++) {
            ROWS[r] = crc(ROW_NAMES[r], ROW_POLYNOMIALS[r]);
        }
    }

    private LdsHashes() {
    }

    private static Crc crc(String name, long poly) {
        return new Crc(name, 32, poly, ALL_ONES, true, true, ALL_ONES);
    }

    public static Crc row(int r) {
        return ROWS[r];
    }

    public static Crc packet() {
        return PACKET;
    }

    public static Crc digest() {
        return DIGEST;
    }

    public static Crc sample() {
        return SAMPLE;
    }

    public static Crc flowClass() {
        return CLASS;
    }

    /** Row r's offset within the vLDA from the packet hash. */
    public static int offset(long packetHash, int row, int k) {
        return offsetOfSlice((int) ((packetHash >>> (OFFSET_SLICE_BITS * row)) & ((1 << OFFSET_SLICE_BITS) - 1)), k);
    }

    /** h'_r from row r's byte of the packet hash: the byte mod k (the stage program's table of constants holds it). */
    public static int offsetOfSlice(int slice, int k) {
        return slice % k;
    }

    /** h_r over an IPv4 5-tuple. */
    public static long flow(Crc h, int src, int dst, int proto, int srcPort, int dstPort) {
        return FiveTupleHash.ipv4(h, src, dst, proto, srcPort, dstPort);
    }

    public static long flow(Crc h, PacketRecord r) {
        return flow(h, r.srcIpv4(), r.dstIpv4(), r.protocol(), r.srcPort(), r.dstPort());
    }

    /**
     * A hash over the packet's identity: 5-tuple, IP ID, TCP sequence number (0 unless TCP). The
     * paper hashes the payload; a switch parses headers only, so both ends hash the header fields
     * no hop rewrites, which tell the packets of a flow apart as well.
     */
    public static long packet(Crc h, PacketRecord r) {
        long s = h.init();
        s = FiveTupleHash.feed(h, s, r.srcIpv4(), 4);
        s = FiveTupleHash.feed(h, s, r.dstIpv4(), 4);
        s = FiveTupleHash.feed(h, s, r.protocol(), 1);
        s = FiveTupleHash.feed(h, s, r.srcPort(), 2);
        s = FiveTupleHash.feed(h, s, r.dstPort(), 2);
        s = FiveTupleHash.feed(h, s, r.ipId(), 2);
        s = FiveTupleHash.feed(h, s, r.protocol() == PacketRecord.PROTO_TCP ? r.tcpSeq() : 0, 4);
        return h.finish(s);
    }
}
