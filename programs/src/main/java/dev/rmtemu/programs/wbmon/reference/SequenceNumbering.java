package dev.rmtemu.programs.wbmon.reference;

import dev.rmtemu.programs.wbmon.program.WbmonConfig;

/**
 * The upstream m-switch's half: the next sequence number of every outgoing
 * vconn (one register cell per vconn; the stage program's {@code wbmon_next_seq}).
 * Numbers wrap at 2^{@value WbmonConfig#SEQ_BITS} like the header field.
 */
public final class SequenceNumbering {
    private static final long SEQ_MASK = (1L << WbmonConfig.SEQ_BITS) - 1;
    private final long[] next;

    public SequenceNumbering(int vconns) {
        this.next = new long[vconns];
    }

    /** The sequence number of the next packet sent on vconn {@code v}. */
    public long stamp(int v) {
        long sn = next[v];
        next[v] = (sn + 1) & SEQ_MASK;
        return sn;
    }

    /** Packets numbered so far on vconn {@code v} (mod 2^32). */
    public long sent(int v) {
        return next[v];
    }
}
