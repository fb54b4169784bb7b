package dev.rmtemu.programs.lds.program;

import dev.rmtemu.model.UserError;

/**
 * Measurement intervals of the switch path. An interval is 2^shift ns of the sender's
 * ingress timestamp (a bit slice, so no divider is needed); the sender stamps the interval
 * id into a shim header and the receiver files the packet under that id, so a packet in
 * flight across a boundary still lands in the interval it was sent in.
 *
 * <p>Each sketch is double-buffered: register arrays hold {@value #BANKS} banks of C cells and
 * the interval id's low bit picks the bank. While packets of interval i+1 fill the other bank,
 * the control plane reads bank i (sender: exports it through the journal; receiver: keeps it
 * for the estimate) and zeroes it, {@link #readDelayNs()} after the interval's end, when the
 * stragglers of interval i have arrived. A real deployment does the same: the control plane
 * cannot read and clear 2 × R × C cells atomically between two packets, so a single bank
 * would mix intervals.
 *
 * @param shift interval length 2^shift ns
 */
public record LdsIntervals(int shift) {
    /** 2^30 ns ≈ 1.07 s, the order of the paper's measurement intervals. */
    public static final int DEFAULT_SHIFT = 30;
    public static final int MIN_SHIFT = 10;
    /** The 48-bit timestamps wrap beyond this. */
    public static final int MAX_SHIFT = 40;
    /** Banks per register array: the interval id's low bit picks one. */
    public static final int BANKS = 2;
    /** Bits of the interval id the sender stamps into the shim header. */
    public static final int ID_BITS = 8;
    public static final long ID_MASK = (1L << ID_BITS) - 1;
    /** The control plane closes interval i this share of an interval after it ends (packets slower than that are lost to it). */
    public static final double READ_DELAY_SHARE = 0.5;

    public static final LdsIntervals DEFAULT = new LdsIntervals(DEFAULT_SHIFT);

    public LdsIntervals {
        if (shift < MIN_SHIFT || shift > MAX_SHIFT) {
            throw new UserError("lds: interval_shift must be " + MIN_SHIFT + ".." + MAX_SHIFT + " (interval 2^N ns), got " + shift);
        }
    }

    public long lengthNs() {
        return 1L << shift;
    }

    /** When the control plane reads and clears the bank of the interval that just ended. */
    public long readDelayNs() {
        return (long) (READ_DELAY_SHARE * lengthNs());
    }

    /** The interval id a packet stamped at {@code ns} carries (its low {@link #ID_BITS} bits). */
    public long stampedId(long ns) {
        return (ns >>> shift) & ID_MASK;
    }

    /** The full interval index of time {@code ns}. */
    public long index(long ns) {
        return ns >>> shift;
    }

    public static int bank(long intervalId) {
        return (int) (intervalId & 1);
    }
}
