package dev.rmtemu.traces.impair;

/**
 * What a link does to one packet, filled by {@link Impairment#decide}: drop it, add
 * delay, send extra copies, or hold it back behind later packets. One instance is
 * reused for every packet. Impairments combine: drop is OR-ed, delays add, copies add,
 * hold is the largest asked.
 */
public final class ImpairmentDecision {
    /** No impairment dropped the packet. */
    public static final int NO_CAUSE = -1;

    private boolean drop;
    private int dropCause = NO_CAUSE;
    private long extraDelayNs;
    private int copies;
    private int hold;

    public void reset() {
        drop = false;
        dropCause = NO_CAUSE;
        extraDelayNs = 0;
        copies = 0;
        hold = 0;
    }

    /** Marks the packet dropped by the impairment at position {@code cause} of its chain. */
    public void drop(int cause) {
        if (!drop) {
            drop = true;
            dropCause = cause;
        }
    }

    public void addDelayNs(long ns) {
        extraDelayNs += ns;
    }

    public void addCopies(int n) {
        copies += n;
    }

    public void hold(int packets) {
        hold = Math.max(hold, packets);
    }

    public boolean dropped() {
        return drop;
    }

    /** Chain position of the first impairment that dropped the packet, or {@link #NO_CAUSE}. */
    public int dropCause() {
        return dropCause;
    }

    public long extraDelayNs() {
        return extraDelayNs;
    }

    /** Extra copies to send after the packet (0 = just the packet). */
    public int copies() {
        return copies;
    }

    /** Number of later packets that should overtake this one (0 = keep order). */
    public int holdPackets() {
        return hold;
    }
}
