package dev.rmtemu.programs.lds.control;

/**
 * What the receiver-side estimator says about one flow (a reusable holder).
 * {@code meanDelayNs} is NaN when none of the flow's cells is usable.
 */
public final class FlowEstimate {
    /** Σ s / Σ n over the kept cells (paper Fig. 6), ns. */
    public double meanDelayNs = Double.NaN;
    /** Spread of the kept cells' averages, as an estimate of the per-packet delay variance (ns²); NaN below two cells. */
    public double delayVariance = Double.NaN;
    /** Usable cells of the flow's vLDAs over all rows, and how many passed the (1 + α)·N_min filter. */
    public int usableCells;
    public int keptCells;
    /** Packets the sender saw (count-min over rows of the vLDA sums, scaled by 1/p_r, divided by w). */
    public double packetsSent;
    /** Lost packets: the same count-min on sender − receiver counts. */
    public double packetsLost;

    public boolean hasDelay() {
        return !Double.isNaN(meanDelayNs);
    }

    void clear() {
        meanDelayNs = Double.NaN;
        delayVariance = Double.NaN;
        usableCells = 0;
        keptCells = 0;
        packetsSent = 0;
        packetsLost = 0;
    }
}
