package dev.rmtemu.model.table;

/**
 * What a table declares beyond its key, size and actions: an idle timeout, and an algorithmic
 * TCAM shape (ALPM or ATCAM). Neither changes which entry a packet hits; the idle timeout adds
 * per-entry hit times and aging, the shape changes the resources.
 *
 * @param idleTimeout the idle timeout, or null
 * @param algorithmic the ALPM or ATCAM shape, or null for a plain table
 */
public record TableOptions(IdleTimeout idleTimeout, AlgorithmicTcam algorithmic) {
    /** A plain table. */
    public static final TableOptions NONE = new TableOptions(null, null);

    /** With an idle timeout. */
    public TableOptions withIdleTimeout(IdleTimeout t) {
        return new TableOptions(t, algorithmic);
    }

    /** With an ALPM or ATCAM shape. */
    public TableOptions withAlgorithmic(AlgorithmicTcam a) {
        return new TableOptions(idleTimeout, a);
    }
}
