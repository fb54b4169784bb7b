package dev.rmtemu.model.table;

/**
 * The emulated time of the packet pass a switch is running, in ns, which a table lookup
 * stamps on the entry it hits (idle timeout). One per switch, set before every pass; reading
 * and writing it allocates nothing.
 */
public final class HitClock {
    private long nowNs;

    /** The pass's emulated time in ns. */
    public long nowNs() {
        return nowNs;
    }

    /** Sets the emulated time of the pass about to run. */
    public void nowNs(long ns) {
        this.nowNs = ns;
    }
}
