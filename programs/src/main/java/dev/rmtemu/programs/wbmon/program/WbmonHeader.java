package dev.rmtemu.programs.wbmon.program;

/**
 * The WBMon header as it crosses a vconn: a shim header (the engine's
 * {@code ParsedField.SHIM} word, fields packed in declaration order from the least
 * significant bit) of vconn id, sequence number and a valid bit. The upstream
 * m-switch's egress writes it for a packet leaving on a vconn and removes it
 * (valid 0) for a packet leaving towards a host; the downstream m-switch's ingress
 * consumes it. The packet's own headers (IP ID, TCP sequence) are left alone.
 */
public final class WbmonHeader {
    public static final String VCONN = "wbmon.vconn";
    public static final String SEQ = "wbmon.seq";
    public static final String VALID = "wbmon.valid";
    /** Width of the valid bit (the parser's "header present"). */
    public static final int VALID_BITS = 1;
    private static final int SEQ_SHIFT = WbmonConfig.VCONN_ID_BITS;
    private static final int VALID_SHIFT = SEQ_SHIFT + WbmonConfig.SEQ_BITS;
    private static final long VCONN_MASK = (1L << WbmonConfig.VCONN_ID_BITS) - 1;
    private static final long SEQ_MASK = (1L << WbmonConfig.SEQ_BITS) - 1;

    private WbmonHeader() {
    }

    /** True when the shim word carries a WBMon header. */
    public static boolean valid(long shim) {
        return ((shim >>> VALID_SHIFT) & 1) != 0;
    }

    public static int vconn(long shim) {
        return (int) (shim & VCONN_MASK);
    }

    public static long seq(long shim) {
        return (shim >>> SEQ_SHIFT) & SEQ_MASK;
    }

    /** The shim word of a valid header (what the upstream's deparser emits). */
    public static long word(int vconn, long seq) {
        return (vconn & VCONN_MASK) | (seq & SEQ_MASK) << SEQ_SHIFT | 1L << VALID_SHIFT;
    }
}
