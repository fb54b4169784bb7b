package dev.rmtemu.programs.midst.program;

import dev.rmtemu.model.parse.EtherTypeShim;
import dev.rmtemu.model.parse.HeaderField;
import dev.rmtemu.programs.common.ShimFrames;
import dev.rmtemu.traces.PacketRecord;

/**
 * MIDST's two headers on the wire, shims after Ethernet announced by EtherTypes of a MIDST
 * deployment's own (IEEE 802's Local Experimental EtherTypes; LossRadar, LDS and WBMon use the
 * same values, and no parse graph holds two of these programs):
 * <ul>
 *   <li>the probe (section 3.1 of the paper: a recirculated packet that piggybacks the queue
 *       depth from egress back to ingress; section 3.2: the packet that recirculates until
 *       cleaning is done): P4's {@code header midst_probe_h { bit<8> kind; bit<5> rsvd;
 *       bit<19> qdepth; bit<1> eg_done; bit<1> cleaning; bit<1> holder; bit<5> rsvd2;
 *       bit<16> epoch; bit<8> home; bit<16> ether_type; }} (10 bytes), in the frame the packet
 *       generator sends (so a probe keeps its 64 bytes), rewritten by every pass and read by
 *       the collector when a probe leaves through the collector port;</li>
 *   <li>the report (section 2: "the egress pipeline can take immediate action such as
 *       generating a report"): {@code header midst_rep_h { bit<8> flags; bit<16> epoch;
 *       bit<32> loss; bit<32> burst; bit<16> ether_type; }} (12 bytes), added by egress to a
 *       data packet it flags as a heavy loser's or a bursty flow's, so the collector on the wire
 *       reads it; it lengthens that packet on the wire.</li>
 * </ul>
 * The counts ingress hands egress inside one switch are not on the wire: they are the bridged
 * header ({@code midst_br}), which ingress emits and egress removes.
 */
public final class MidstHeaders {
    public static final String PROBE = "midst_probe";
    public static final String REPORT = "midst_rep";
    /** IEEE 802 Local Experimental EtherType 1: a MIDST probe follows. */
    public static final int PROBE_ETHER_TYPE = 0x88B5;
    /** IEEE 802 Local Experimental EtherType 2: a MIDST report follows. */
    public static final int REPORT_ETHER_TYPE = 0x88B6;
    /** The queue depth field: Tofino's 19-bit enq/deq_qdepth. */
    static final int DEPTH_BITS = 19;
    static final int EPOCH_BITS = 16;
    private static final int KIND_BITS = 8;
    private static final int HOME_BITS = 8;
    private static final int FLAGS_BITS = 8;
    private static final int RESERVED_DEPTH_BITS = 24 - DEPTH_BITS;
    private static final int RESERVED_FLAG_BITS = 5;

    public static final EtherTypeShim PROBE_SHIM = new EtherTypeShim(PROBE, EtherTypeShim.type("midst_probe_h",
            new HeaderField("kind", KIND_BITS),
            new HeaderField("rsvd", RESERVED_DEPTH_BITS),
            new HeaderField("qdepth", DEPTH_BITS),
            new HeaderField("eg_done", 1),
            new HeaderField("cleaning", 1),
            new HeaderField("holder", 1),
            new HeaderField("rsvd2", RESERVED_FLAG_BITS),
            new HeaderField("epoch", EPOCH_BITS),
            new HeaderField("home", HOME_BITS)), PROBE_ETHER_TYPE);
    public static final EtherTypeShim REPORT_SHIM = new EtherTypeShim(REPORT, EtherTypeShim.type("midst_rep_h",
            new HeaderField("flags", FLAGS_BITS),
            new HeaderField("epoch", EPOCH_BITS),
            new HeaderField("loss", MidstConfig.COUNTER_BITS),
            new HeaderField("burst", MidstConfig.COUNTER_BITS)), REPORT_ETHER_TYPE);
    /** Bytes each header adds to a frame. */
    public static final int PROBE_HEADER_BYTES = PROBE_SHIM.type().fixedBytes();
    public static final int REPORT_HEADER_BYTES = REPORT_SHIM.type().fixedBytes();
    /** Bit offsets in the headers, for reading them from a frame. */
    private static final int KIND_AT = 0;
    private static final int DEPTH_AT = KIND_BITS + RESERVED_DEPTH_BITS;
    private static final int FLAGS_AT = 0;
    private static final int LOSS_AT = FLAGS_BITS + EPOCH_BITS;

    private MidstHeaders() {
    }

    /** Gives a probe's frame (synthesised from the record when it has none) a fresh probe header: kind 0, all zero. */
    public static void pushProbe(PacketRecord r) {
        ShimFrames.insert(r, PROBE_SHIM, new byte[PROBE_HEADER_BYTES - Short.BYTES]);
    }

    /** The probe kind the frame carries, or -1 without a probe header. */
    public static int probeKind(PacketRecord r) {
        int at = ShimFrames.find(r, PROBE_SHIM);
        return at < 0 ? -1 : (int) ShimFrames.field(r, at, KIND_AT, KIND_BITS);
    }

    /** The queue depth a probe carries (cells), 0 without a probe header. */
    public static long probeDepth(PacketRecord r) {
        int at = ShimFrames.find(r, PROBE_SHIM);
        return at < 0 ? 0 : ShimFrames.field(r, at, DEPTH_AT, DEPTH_BITS);
    }

    /** The report flags the frame carries, or -1 without a report header. */
    public static int reportFlags(PacketRecord r) {
        int at = ShimFrames.find(r, REPORT_SHIM);
        return at < 0 ? -1 : (int) ShimFrames.field(r, at, FLAGS_AT, FLAGS_BITS);
    }

    /** The loss estimate a report carries, 0 without a report header. */
    public static long reportLoss(PacketRecord r) {
        int at = ShimFrames.find(r, REPORT_SHIM);
        return at < 0 ? 0 : ShimFrames.field(r, at, LOSS_AT, MidstConfig.COUNTER_BITS);
    }
}
