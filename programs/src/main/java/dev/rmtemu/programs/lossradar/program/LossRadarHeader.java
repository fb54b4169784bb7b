package dev.rmtemu.programs.lossradar.program;

import dev.rmtemu.model.parse.EtherTypeShim;
import dev.rmtemu.model.parse.HeaderField;
import dev.rmtemu.programs.common.ShimFrames;
import dev.rmtemu.traces.PacketRecord;

/**
 * LossRadar's header between an upstream meter and the next hop's downstream meter: a shim
 * after Ethernet, P4's
 * {@code header lossradar_h { bit<16> batch_id; bit<2> rsvd; bit<14> tstamp; bit<8> meter_id; bit<8> rsvd2; bit<16> ether_type; }}
 * (8 bytes), announced by EtherType {@value #ETHER_TYPE} (IEEE 802's Local Experimental
 * EtherType 1). The paper (section 6.1) carries the batch ID, and optionally the UM's
 * timestamp and meter ID, "in unused header fields (e.g. VLAN, DSCP) or [in] a header" with
 * a parser for it: a header of its own keeps the packet's own fields, which are the
 * signature, untouched, and an EtherType tag is the cheapest parser branch. The layout is
 * fixed whatever the configuration uses (a field the program does not write is 0).
 */
public final class LossRadarHeader {
    public static final String HEADER = "lossradar";
    public static final String BATCH = HEADER + ".batch_id";
    public static final String TSTAMP = HEADER + ".tstamp";
    public static final String METER = HEADER + ".meter_id";
    /** IEEE 802 Local Experimental EtherType 1. */
    public static final int ETHER_TYPE = 0x88B5;
    private static final int TSTAMP_FIELD_BITS = 16;
    private static final int BATCH_AT = 0;
    private static final int TSTAMP_AT = LossRadarConfig.BATCH_BITS + TSTAMP_FIELD_BITS - LossRadarConfig.TIMESTAMP_BITS;
    private static final int METER_AT = LossRadarConfig.BATCH_BITS + TSTAMP_FIELD_BITS;
    private static final int RESERVED2_BITS = 8;
    public static final EtherTypeShim SHIM = new EtherTypeShim(HEADER, EtherTypeShim.type("lossradar_h",
            new HeaderField("batch_id", LossRadarConfig.BATCH_BITS),
            new HeaderField("rsvd", TSTAMP_FIELD_BITS - LossRadarConfig.TIMESTAMP_BITS),
            new HeaderField("tstamp", LossRadarConfig.TIMESTAMP_BITS),
            new HeaderField("meter_id", LossRadarConfig.METER_BITS),
            new HeaderField("rsvd2", RESERVED2_BITS)), ETHER_TYPE);
    /** Bytes the header adds to a frame. */
    public static final int BYTES = SHIM.type().fixedBytes();

    private LossRadarHeader() {
    }

    /** True when the record's frame carries a LossRadar header. */
    public static boolean present(PacketRecord r) {
        return ShimFrames.find(r, SHIM) >= 0;
    }

    /** The carried batch ID, 0 when the frame carries no header (as the switch's parser leaves the field). */
    public static long batch(PacketRecord r) {
        int at = ShimFrames.find(r, SHIM);
        return at < 0 ? 0 : ShimFrames.field(r, at, BATCH_AT, LossRadarConfig.BATCH_BITS);
    }

    /** The carried timestamp (µs units), 0 without a header. */
    public static int tstamp(PacketRecord r) {
        int at = ShimFrames.find(r, SHIM);
        return at < 0 ? 0 : (int) ShimFrames.field(r, at, TSTAMP_AT, LossRadarConfig.TIMESTAMP_BITS);
    }

    /** The carried upstream meter ID, 0 without a header. */
    public static int meter(PacketRecord r) {
        int at = ShimFrames.find(r, SHIM);
        return at < 0 ? 0 : (int) ShimFrames.field(r, at, METER_AT, LossRadarConfig.METER_BITS);
    }

    /** Gives the record's frame a LossRadar header as an upstream meter emits it: 8 more bytes on the wire. */
    public static void push(PacketRecord r, long batch, int tstamp, int meter) {
        byte[] f = new byte[BYTES - Short.BYTES];
        f[0] = (byte) (batch >>> 8);
        f[1] = (byte) batch;
        f[2] = (byte) ((tstamp >>> 8) & ((1 << (LossRadarConfig.TIMESTAMP_BITS - Byte.SIZE)) - 1));
        f[3] = (byte) tstamp;
        f[4] = (byte) meter;
        ShimFrames.insert(r, SHIM, f);
    }
}
