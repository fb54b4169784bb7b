package dev.rmtemu.programs.lds.program;

import dev.rmtemu.model.UserError;

import java.util.Arrays;

/**
 * Flow weighting (paper §5): flows fall into classes by a hash of their 5-tuple (the
 * policy "by header fields" both ends apply identically); a packet of a class-i flow adds
 * w_i·t to s and w_i to n, so a heavily weighted flow dominates the cells it shares with
 * lighter ones.
 *
 * @param shares  share of flows in each class (sums to 1)
 * @param weights w of each class
 * @param names   class names for reports
 */
public record LdsWeights(double[] shares, long[] weights, String[] names) {
    /** Every flow weighs 1. */
    public static final LdsWeights NONE = new LdsWeights(new double[] {1.0}, new long[] {1}, new String[] {"all"});
    /** Bronze / silver / gold: 90 / 9 / 1 % of flows (paper's weighting experiment). */
    public static final double[] BRONZE_SILVER_GOLD = {0.90, 0.09, 0.01};
    public static final String[] CLASS_NAMES = {"bronze", "silver", "gold"};
    /** The paper's three weightings of bronze/silver/gold. */
    public static final long[][] PAPER_WEIGHTINGS = {{1, 25, 100}, {1, 10, 100}, {1, 50, 2500}};
    /** Largest weight: w·t must stay within a 64-bit sum and n within 32 bits. */
    public static final long MAX_WEIGHT = 1 << 16;
    /**
     * Power-of-two classes a switch can apply as shifts (w·t = t &lt;&lt; log2 w), in the
     * spirit of the paper's three weightings: a factor ~16–32 between classes.
     */
    public static final long[][] SHIFT_WEIGHTINGS = {{1, 16, 128}, {1, 8, 128}, {1, 32, 2048}};

    public LdsWeights {
        if (shares.length == 0 || shares.length != weights.length || names.length != weights.length) {
            throw new UserError("lds: weights need one share, weight and name per class");
        }
        double sum = 0;
        for (int i = 0; i < shares.length; i++) {
            if (!(shares[i] >= 0) || weights[i] < 1 || weights[i] > MAX_WEIGHT) {
                throw new UserError("lds: class " + names[i] + ": share must be >= 0 and weight 1.." + MAX_WEIGHT);
            }
            sum += shares[i];
        }
        if (Math.abs(sum - 1) > 1e-9) {
            throw new UserError("lds: class shares must sum to 1, got " + sum);
        }
        shares = shares.clone();
        weights = weights.clone();
        names = names.clone();
    }

    public static LdsWeights bronzeSilverGold(long bronze, long silver, long gold) {
        return new LdsWeights(BRONZE_SILVER_GOLD, new long[] {bronze, silver, gold}, CLASS_NAMES);
    }

    public int classes() {
        return weights.length;
    }

    /** Class of a flow from its 32-bit class hash: the first class whose cumulative share exceeds hash / 2^32. */
    public int classOf(long classHash) {
        long h = classHash & 0xFFFFFFFFL;
        double acc = 0;
        for (int i = 0; i < shares.length - 1; i++) {
            acc += shares[i];
            if (h < (long) Math.floor(acc * LdsConfig.SAMPLE_SPACE)) {
                return i;
            }
        }
        return shares.length - 1;
    }

    public long weightOf(long classHash) {
        return weights[classOf(classHash)];
    }

    /** True when every weight is a power of two, so a switch can apply it as a shift. */
    public boolean shiftable() {
        for (long w : weights) {
            if (Long.bitCount(w) != 1) {
                return false;
            }
        }
        return true;
    }

    /** log2 of each class's weight; a one-line error when one is not a power of two. */
    public int[] shifts() {
        int[] out = new int[weights.length];
        for (int i = 0; i < weights.length; i++) {
            if (Long.bitCount(weights[i]) != 1) {
                throw new UserError("lds: weight " + weights[i] + " (" + names[i] + ") is not a power of two: a switch stage"
                        + " has no multiplier and applies w·t as t << log2 w (use e.g. 1/16/128)");
            }
            out[i] = Long.numberOfTrailingZeros(weights[i]);
        }
        return out;
    }

    /**
     * Class boundaries on the 32-bit class hash: class i holds hashes below bound(i) (the
     * last class the rest). A switch matches the hash against these ranges in a table.
     */
    public long[] classBounds() {
        long[] out = new long[shares.length - 1];
        double acc = 0;
        for (int i = 0; i < out.length; i++) {
            acc += shares[i];
            out[i] = (long) Math.floor(acc * LdsConfig.SAMPLE_SPACE);
        }
        return out;
    }

    public long weight(int cls) {
        return weights[cls];
    }

    public String name(int cls) {
        return names[cls];
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof LdsWeights w && Arrays.equals(w.shares, shares) && Arrays.equals(w.weights, weights);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(weights);
    }

    @Override
    public String toString() {
        return weights.length == 1 ? "none" : Arrays.toString(weights);
    }
}
