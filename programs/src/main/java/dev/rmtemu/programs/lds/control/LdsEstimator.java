package dev.rmtemu.programs.lds.control;

import dev.rmtemu.programs.lds.program.LdsConfig;
import dev.rmtemu.programs.lds.program.LdsHashes;

import java.util.Arrays;

/**
 * The receiver side of LDS: given the sender's sketch (exported at the end of the
 * interval) and its own, estimates a flow's mean delay by the paper's Fig. 6:
 * <ol>
 *   <li>collect the usable cells (equal n and d at both ends) of the flow's vLDAs in
 *       every row, each with its delay sum Δs = s_recv − s_send and count n scaled by 1/p_r;</li>
 *   <li>N_min = the smallest scaled count; keep the cells whose scaled count is below
 *       (1 + α)·N_min (a cell shared with another flow has a larger count);</li>
 *   <li>return Σ Δs / Σ n over the kept cells.</li>
 * </ol>
 * Also the flow's size and loss (count-min over rows of its vLDA counts) and a delay
 * variance from the spread of the kept cells' averages within a row (averaged over rows): with m cells
 * holding n_i of the flow's packets each, Σ n_i (μ_i − μ)² / (m − 1) estimates σ² (the
 * between-group sum of squares of a random partition). No allocation per query.
 */
public final class LdsEstimator {
    /** How cells are filtered and combined. */
    public enum Filter {
        /** Paper Fig. 6: one N_min over the scaled counts of all rows; Σ scaled Δs / Σ scaled n. */
        PAPER,
        /**
         * A variant for sampled rows: N_min per row (so a sparsely sampled row, whose scaled
         * counts are noisy, does not set the bar for the others), and the kept cells combined
         * unscaled, so every sampled packet counts once.
         */
        PER_ROW
    }

    private final Filter filter;
    private final double[] rowMin = new double[LdsConfig.MAX_ROWS];
    private final LdsConfig cfg;
    private final LdsSketch sender;
    private final LdsSketch receiver;
    private final double[] scaledCount;
    private final double[] scaledSum;
    private final int[] cellRow;
    private final long[] rawCount;
    private final long[] rawSum;
    private final long[] flowScratch = new long[LdsConfig.MAX_ROWS];

    public LdsEstimator(LdsSketch sender, LdsSketch receiver) {
        this(sender, receiver, Filter.PAPER);
    }

    public LdsEstimator(LdsSketch sender, LdsSketch receiver, Filter filter) {
        this.filter = filter;
        if (!sender.config().equals(receiver.config())) {
            throw new IllegalArgumentException("sender and receiver sketches differ in shape");
        }
        this.cfg = sender.config();
        this.sender = sender;
        this.receiver = receiver;
        int max = cfg.rows() * cfg.ldaCells();
        scaledCount = new double[max];
        scaledSum = new double[max];
        cellRow = new int[max];
        rawCount = new long[max];
        rawSum = new long[max];
    }

    /** The estimate for an IPv4 5-tuple. */
    public FlowEstimate estimate(int src, int dst, int proto, int srcPort, int dstPort, FlowEstimate out) {
        for (int r = 0; r < cfg.rows(); r++) {
            flowScratch[r] = LdsHashes.flow(LdsHashes.row(r), src, dst, proto, srcPort, dstPort);
        }
        return estimate(flowScratch, LdsHashes.flow(LdsHashes.flowClass(), src, dst, proto, srcPort, dstPort), out);
    }

    /** The estimate from the flow's row hashes h_r (32-bit) and class hash. */
    public FlowEstimate estimate(long[] flowHash, long classHash, FlowEstimate out) {
        out.clear();
        int rows = cfg.rows();
        int c = cfg.cells();
        int k = cfg.ldaCells();
        long w = cfg.weights().weightOf(classHash);
        int m = 0;
        double nMin = Double.POSITIVE_INFINITY;
        Arrays.fill(rowMin, Double.POSITIVE_INFINITY);
        double minSent = Double.POSITIVE_INFINITY;
        double minLost = Double.POSITIVE_INFINITY;
        for (int r = 0; r < rows; r++) {
            double scale = 1.0 / cfg.samplingRate(r);
            int base = (int) (flowHash[r] % c);
            long sent = 0;
            long lost = 0;
            for (int j = 0; j < k; j++) {
                int cell = base + j < c ? base + j : base + j - c;
                long ns = sender.count(r, cell);
                long nr = receiver.count(r, cell);
                sent += ns;
                lost += ns > nr ? ns - nr : 0;
                if (LdsSketch.usable(sender, receiver, r, cell)) {
                    long delta = receiver.sum(r, cell) - sender.sum(r, cell);
                    scaledCount[m] = ns * scale;
                    scaledSum[m] = delta * scale;
                    rawCount[m] = ns;
                    rawSum[m] = delta;
                    cellRow[m] = r;
                    nMin = Math.min(nMin, scaledCount[m]);
                    rowMin[r] = Math.min(rowMin[r], scaledCount[m]);
                    m++;
                }
            }
            minSent = Math.min(minSent, sent * scale);
            minLost = Math.min(minLost, lost * scale);
        }
        out.packetsSent = minSent / w;
        out.packetsLost = minLost / w;
        out.usableCells = m;
        if (m == 0) {
            return out;
        }
        double sumS = 0;
        double sumN = 0;
        int kept = 0;
        boolean perRow = filter == Filter.PER_ROW;
        for (int i = 0; i < m; i++) {
            double min = perRow ? rowMin[cellRow[i]] : nMin;
            if (scaledCount[i] < (1 + cfg.alpha()) * min || scaledCount[i] == min) {
                sumS += perRow ? rawSum[i] : scaledSum[i];
                sumN += perRow ? rawCount[i] : scaledCount[i];
                cellRow[kept] = cellRow[i];
                rawCount[kept] = rawCount[i];
                rawSum[kept] = rawSum[i];
                kept++;
            }
        }
        out.keptCells = kept;
        out.meanDelayNs = sumS / sumN;
        out.delayVariance = variance(kept, w);
        return out;
    }

    /**
     * Between-cell variance: per row with at least two kept cells, Σ n_i (μ_i − μ)² / (m − 1)
     * over its kept cells; the rows' estimates (each row partitions the same packets
     * differently) are averaged.
     */
    private double variance(int kept, long w) {
        double total = 0;
        int rowsUsed = 0;
        for (int r = 0; r < cfg.rows(); r++) {
            int cells = 0;
            double n = 0;
            double s = 0;
            for (int i = 0; i < kept; i++) {
                if (cellRow[i] == r) {
                    cells++;
                    n += rawCount[i];
                    s += rawSum[i];
                }
            }
            if (cells < 2) {
                continue;
            }
            double mean = s / n;
            double ssb = 0;
            for (int i = 0; i < kept; i++) {
                if (cellRow[i] == r) {
                    double mu = (double) rawSum[i] / rawCount[i];
                    ssb += rawCount[i] * (mu - mean) * (mu - mean);
                }
            }
            // counts are in units of w per packet: divide to get per-packet terms
            total += ssb / w / (cells - 1);
            rowsUsed++;
        }
        return rowsUsed == 0 ? Double.NaN : total / rowsUsed;
    }
}
