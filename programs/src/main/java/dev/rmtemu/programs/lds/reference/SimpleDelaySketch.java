package dev.rmtemu.programs.lds.reference;

import dev.rmtemu.programs.lds.program.LdsConfig;

import dev.rmtemu.model.UserError;

/**
 * The Simple Delay Sketch variant (paper §3): the sender writes its timestamp into every
 * packet, so the receiver alone keeps a count-min-shaped sketch of R rows × C cells of
 * (delay sum, count), one cell per flow per row; a flow's estimate is the sum / count of
 * its row cell with the smallest count (the least shared one). Loss costs nothing here
 * (each packet carries its own send time), at the price of a timestamp in every packet.
 */
public final class SimpleDelaySketch {
    private final int rows;
    private final int cells;
    private final long[][] sum;
    private final long[][] count;

    public SimpleDelaySketch(int rows, int cells) {
        if (rows < 1 || rows > LdsConfig.MAX_ROWS || cells < 1) {
            throw new UserError("simple delay sketch: rows 1.." + LdsConfig.MAX_ROWS + " and cells >= 1");
        }
        this.rows = rows;
        this.cells = cells;
        this.sum = new long[rows][cells];
        this.count = new long[rows][cells];
    }

    /** A received packet of the flow with row hashes {@code flowHash} and carried delay {@code delayNs}. */
    public void record(long[] flowHash, long delayNs) {
        for (int r = 0; r < rows; r++) {
            int c = (int) (flowHash[r] % cells);
            sum[r][c] += delayNs;
            count[r][c]++;
        }
    }

    /** Mean delay of the flow's least-shared cell; NaN when the flow was never seen. */
    public double estimate(long[] flowHash) {
        long best = Long.MAX_VALUE;
        long bestSum = 0;
        for (int r = 0; r < rows; r++) {
            int c = (int) (flowHash[r] % cells);
            if (count[r][c] < best) {
                best = count[r][c];
                bestSum = sum[r][c];
            }
        }
        return best == 0 ? Double.NaN : (double) bestSum / best;
    }
}
