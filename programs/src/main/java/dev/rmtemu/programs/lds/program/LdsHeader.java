package dev.rmtemu.programs.lds.program;

import dev.rmtemu.model.parse.EtherTypeShim;
import dev.rmtemu.model.parse.HeaderField;
import dev.rmtemu.programs.common.ShimFrames;
import dev.rmtemu.traces.PacketRecord;

/**
 * LDS's header from the sender to the receiver: the sender's measurement interval id, so a
 * packet that crosses an interval boundary is filed under the same interval at both ends
 * (the paper's single-stream assumption needs the two ends to agree on which packets form an
 * interval). A shim after Ethernet, P4's
 * {@code header lds_h { bit<8> interval_id; bit<16> ether_type; }} (3 bytes), announced by
 * EtherType {@value #ETHER_TYPE} (IEEE 802's Local Experimental EtherType 1: an LDS
 * deployment's own; LossRadar's program uses the same value, and no parse graph holds both).
 * The sender's ingress adds it; the receiver removes it.
 */
public final class LdsHeader {
    public static final String HEADER = "lds";
    public static final String INTERVAL = HEADER + ".interval_id";
    /** IEEE 802 Local Experimental EtherType 1. */
    public static final int ETHER_TYPE = 0x88B5;
    public static final EtherTypeShim SHIM = new EtherTypeShim(HEADER, EtherTypeShim.type("lds_h",
            new HeaderField("interval_id", LdsIntervals.ID_BITS)), ETHER_TYPE);
    /** Bytes the header adds to a frame. */
    public static final int BYTES = SHIM.type().fixedBytes();

    private LdsHeader() {
    }

    /** The carried interval id, or -1 when the frame carries no LDS header. */
    public static int interval(PacketRecord r) {
        int at = ShimFrames.find(r, SHIM);
        return at < 0 ? -1 : (int) ShimFrames.field(r, at, 0, LdsIntervals.ID_BITS);
    }
}
