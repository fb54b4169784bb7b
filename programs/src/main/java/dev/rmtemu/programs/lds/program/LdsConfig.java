package dev.rmtemu.programs.lds.program;

import dev.rmtemu.model.UserError;

import java.util.Arrays;

/**
 * One lossy difference sketch's shape, shared by the sender, the receiver, the estimator
 * and the stage programs (both ends must agree on all of it).
 *
 * @param rows     R: rows, each with its own flow hash h_r and packet hash h'_r
 * @param cells    C: cells per row (each cell = timestamp sum s, count n, XOR digest d)
 * @param ldaCells k: a flow's virtual LDA in row r is cells h_r(f) .. h_r(f)+k-1 (mod C)
 * @param sampling p_r: the share of packets row r keeps (consistent hash, the same at both ends);
 *                 one rate for every row is the single-rate sketch, distinct rates the multi-bank one
 * @param alpha    estimator slack: keep cells whose scaled count is below (1 + α)·N_min
 * @param weights  flow classes and their weights w (s += w·t, n += w)
 */
public record LdsConfig(int rows, int cells, int ldaCells, double[] sampling, double alpha, LdsWeights weights) {
    /** Most rows: the packet hash gives each row its own 8-bit slice of a 32-bit hash, and tofino1 has 4 stateful ALUs a stage. */
    public static final int MAX_ROWS = 4;
    /** Paper's setting for the accuracy experiments: R = 4 rows. */
    public static final int DEFAULT_ROWS = 4;
    /**
     * The largest power of two C whose 4 n/d pair registers (two banks, 2C cells of 64 b) fit one
     * tofino1 stage's 48 map RAMs: 4 x (8 + 1 spare) = 36 (C = 16,384 needs 4 x 17 = 68). A power of
     * two because tofino1 has no divider: the cell is a mask of hash bits. The paper's 70,000
     * counters (C = 17,500) need 76.
     */
    public static final int DEFAULT_CELLS = 8_192;
    /** Virtual LDA length k (paper's multi-bank setting: k = 5). */
    public static final int DEFAULT_LDA_CELLS = 5;
    /** Largest k: h'_r is an 8-bit slice of the packet hash, reduced mod k. */
    public static final int MAX_LDA_CELLS = 256;
    /** Paper's α = 0.1: cells within 10 % of the smallest count are taken as collision-free. */
    public static final double DEFAULT_ALPHA = 0.1;
    /** The paper's multi-bank rates, one per row. */
    public static final double[] MULTI_BANK_RATES = {0.01, 0.1, 0.5, 1.0};
    /** Sampling thresholds are compared with a 32-bit hash. */
    public static final long SAMPLE_SPACE = 1L << 32;

    public LdsConfig {
        if (rows < 1 || rows > MAX_ROWS) {
            throw new UserError("lds: rows must be 1.." + MAX_ROWS + ", got " + rows);
        }
        if (cells < 1) {
            throw new UserError("lds: cells per row must be positive, got " + cells);
        }
        if (ldaCells < 1 || ldaCells > MAX_LDA_CELLS || ldaCells > cells) {
            throw new UserError("lds: virtual LDA length k must be 1.." + Math.min(MAX_LDA_CELLS, cells) + ", got " + ldaCells);
        }
        if (sampling == null || sampling.length != rows) {
            throw new UserError("lds: need one sampling rate per row (" + rows + ")");
        }
        for (double p : sampling) {
            if (!(p > 0 && p <= 1)) {
                throw new UserError("lds: sampling rate " + p + " outside (0, 1]");
            }
        }
        if (!(alpha >= 0)) {
            throw new UserError("lds: alpha must be non-negative, got " + alpha);
        }
        sampling = sampling.clone();
    }

    /** Every row keeps a share p of the packets. */
    public static LdsConfig singleRate(int rows, int cells, int ldaCells, double p) {
        double[] s = new double[rows];
        Arrays.fill(s, p);
        return new LdsConfig(rows, cells, ldaCells, s, DEFAULT_ALPHA, LdsWeights.NONE);
    }

    /** One row per rate of {@link #MULTI_BANK_RATES}. */
    public static LdsConfig multiBank(int cells, int ldaCells) {
        return new LdsConfig(MULTI_BANK_RATES.length, cells, ldaCells, MULTI_BANK_RATES, DEFAULT_ALPHA, LdsWeights.NONE);
    }

    public static LdsConfig defaults() {
        return singleRate(DEFAULT_ROWS, DEFAULT_CELLS, DEFAULT_LDA_CELLS, 1.0);
    }

    public LdsConfig withWeights(LdsWeights w) {
        return new LdsConfig(rows, cells, ldaCells, sampling, alpha, w);
    }

    public LdsConfig withCells(int c) {
        return new LdsConfig(rows, c, Math.min(ldaCells, c), sampling, alpha, weights);
    }

    @Override
    public double[] sampling() {
        return sampling.clone();
    }

    public double samplingRate(int row) {
        return sampling[row];
    }

    /** Row r keeps a packet when its 32-bit sampling hash is below this. */
    public long sampleThreshold(int row) {
        return Math.min(SAMPLE_SPACE, Math.round(sampling[row] * SAMPLE_SPACE));
    }

    public long totalCells() {
        return (long) rows * cells;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof LdsConfig c && c.rows == rows && c.cells == cells && c.ldaCells == ldaCells
                && Arrays.equals(c.sampling, sampling) && Double.compare(c.alpha, alpha) == 0 && c.weights.equals(weights);
    }

    @Override
    public int hashCode() {
        return ((rows * 31 + cells) * 31 + ldaCells) * 31 + Arrays.hashCode(sampling);
    }

    @Override
    public String toString() {
        return "LdsConfig[R=" + rows + ", C=" + cells + ", k=" + ldaCells + ", p=" + Arrays.toString(sampling)
                + ", alpha=" + alpha + ", weights=" + weights + "]";
    }
}
