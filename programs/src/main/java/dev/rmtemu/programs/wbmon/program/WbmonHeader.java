package dev.rmtemu.programs.wbmon.program;

import dev.rmtemu.model.parse.EtherTypeShim;
import dev.rmtemu.model.parse.HeaderField;
import dev.rmtemu.programs.common.ShimFrames;
import dev.rmtemu.traces.PacketRecord;

/**
 * The WBMon header as it crosses a vconn: a shim after Ethernet, P4's
 * {@code header wbmon_h { bit<16> vconn_id; bit<32> seq_no; bit<16> ether_type; }}
 * (8 bytes), announced by EtherType {@value #ETHER_TYPE} (IEEE 802's Local Experimental
 * EtherType 2, which needs no registration: WBMon's paper leaves the encoding open and a
 * tag after Ethernet keeps the IP header, its checksum and the 5-tuple untouched). The
 * upstream m-switch's egress adds it (or rewrites it) for a packet leaving on a vconn and
 * removes it for a packet leaving towards a host; the downstream m-switch's parser extracts
 * it and its ingress consumes it. The packet's own headers (IP ID, TCP sequence) are left alone.
 */
public final class WbmonHeader {
    /** The header instance (P4 name), its fields' names in the parse graph. */
    public static final String HEADER = "wbmon";
    public static final String VCONN = HEADER + ".vconn_id";
    public static final String SEQ = HEADER + ".seq_no";
    /** IEEE 802 Local Experimental EtherType 2. */
    public static final int ETHER_TYPE = 0x88B6;
    private static final int VCONN_AT = 0;
    private static final int SEQ_AT = WbmonConfig.VCONN_ID_BITS;
    public static final EtherTypeShim SHIM = new EtherTypeShim(HEADER, EtherTypeShim.type("wbmon_h",
            new HeaderField("vconn_id", WbmonConfig.VCONN_ID_BITS), new HeaderField("seq_no", WbmonConfig.SEQ_BITS)),
            ETHER_TYPE);
    /** Bytes the header adds to a frame. */
    public static final int BYTES = SHIM.type().fixedBytes();

    private WbmonHeader() {
    }

    /** True when the record's frame carries a WBMon header. */
    public static boolean present(PacketRecord r) {
        return ShimFrames.find(r, SHIM) >= 0;
    }

    /** The header's vconn id (the frame must carry one: {@link #present}). */
    public static int vconn(PacketRecord r) {
        return (int) ShimFrames.field(r, at(r), VCONN_AT, WbmonConfig.VCONN_ID_BITS);
    }

    /** The header's sequence number (the frame must carry one: {@link #present}). */
    public static long seq(PacketRecord r) {
        return ShimFrames.field(r, at(r), SEQ_AT, WbmonConfig.SEQ_BITS);
    }

    private static int at(PacketRecord r) {
        int at = ShimFrames.find(r, SHIM);
        if (at < 0) {
            throw new IllegalArgumentException("the frame carries no WBMon header");
        }
        return at;
    }

    /** Gives the record's frame a WBMon header (as an upstream m-switch's deparser emits it): 8 more bytes on the wire. */
    public static void push(PacketRecord r, int vconn, long seq) {
        byte[] f = new byte[BYTES - Short.BYTES];
        f[0] = (byte) (vconn >>> 8);
        f[1] = (byte) vconn;
        for (int i = 0; i < Integer.BYTES; i++) {
            f[2 + i] = (byte) (seq >>> (Byte.SIZE * (Integer.BYTES - 1 - i)));
        }
        ShimFrames.insert(r, SHIM, f);
    }
}
