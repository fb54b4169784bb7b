package dev.rmtemu.programs.wbmon.control;

import java.util.Arrays;

/**
 * NetBouncer's failure inference (Tan et al., NSDI 2019, Algorithm 1): link
 * success probabilities x from path success rates y by regularised least squares,
 *
 * <pre>  minimise Σ_j (y_j − Π_{i∈j} x_i)² + λ Σ_i x_i (1 − x_i),   0 ≤ x ≤ 1,</pre>
 *
 * by coordinate descent. Initially x_i is the packet-weighted mean of y over the
 * paths through i. For link i, with a_j = Π_{k∈j, k≠i} x_k over the paths j through i,
 * the objective in x_i is (R/2) x_i² − S x_i + const with R = 2Σ a_j² − 2λ and
 * S = 2Σ y_j a_j − λ, T = S / R. R &gt; 0: x_i = T clamped to [0, 1]; R &lt; 0 (concave):
 * the better end, 1 if T ≤ ½ else 0; R = 0: 1 if S ≥ 0 else 0. A tie (T = ½, or R = S = 0)
 * keeps the link healthy: that is what happens to every link sharing its paths with a link
 * already at 0 (all a_j = 0 gives T = ½), and resolving it to 0 would blame them all. Sweeps over all links
 * repeat until the objective improves by less than ε.
 *
 * <p>Paths are given as link-index lists over links 0..L−1. Not a per-packet path.
 */
public final class NetBouncer {
    /** Named defaults of the solver. */
    public record Params(double lambda, double epsilon, int maxSweeps) {
        /**
         * λ small against the paths per link, so a 1 %-lossy link is not pulled to 1;
         * ε far below the squared error of one packet in 10^4.
         */
        public static final Params DEFAULTS = new Params(1e-4, 1e-12, 10_000);
    }

    /** The solution: x per link, sweeps done, final objective. */
    public record Result(double[] x, int sweeps, double objective) {
    }

    private NetBouncer() {
    }

    /**
     * @param links   number of links
     * @param paths   per path, the links it crosses
     * @param y       per path, its success rate
     * @param weight  per path, its packet count (for the initial guess only)
     */
    public static Result solve(int links, int[][] paths, double[] y, double[] weight, Params p) {
        int[][] through = pathsThrough(links, paths);
        double[] x = new double[links];
        for (int i = 0; i < links; i++) {
            double num = 0;
            double den = 0;
            for (int j : through[i]) {
                num += weight[j] * y[j];
                den += weight[j];
            }
            x[i] = den > 0 ? num / den : 1.0;
        }
        double loss = objective(x, paths, y, p.lambda());
        int[] order = sweepOrder(through);
        int sweeps = 0;
        while (sweeps < p.maxSweeps()) {
            sweeps++;
            for (int i : order) {
                if (through[i].length == 0) {
                    continue; // no path observes it: it keeps its initial 1
                }
                double sumA2 = 0;
                double sumYA = 0;
                for (int j : through[i]) {
                    double a = 1.0;
                    for (int k : paths[j]) {
                        if (k != i) {
                            a *= x[k];
                        }
                    }
                    sumA2 += a * a;
                    sumYA += y[j] * a;
                }
                double r = 2 * sumA2 - 2 * p.lambda();
                double s = 2 * sumYA - p.lambda();
                x[i] = update(r, s);
            }
            double next = objective(x, paths, y, p.lambda());
            boolean done = loss - next < p.epsilon();
            loss = next;
            if (done) {
                break;
            }
        }
        return new Result(x, sweeps, loss);
    }

    /**
     * Links in the order a sweep updates them: fewest paths first, then by index. Algorithm 1
     * leaves the order open, and it decides which explanation of a dead path wins: every
     * link on a path whose success is 0 starts at 0, and the first of them updated sees
     * a_j = 0, ties and goes back to 1. Updating the links on few paths first leaves the
     * link shared by the most dead paths at 0 (one dead link, not one per dead path).
     */
    static int[] sweepOrder(int[][] through) {
        Integer[] idx = new Integer[through.length];
        for (int i = 0; i < idx.length; i++) {
            idx[i] = i;
        }
        Arrays.sort(idx, (a, b) -> through[a].length != through[b].length
                ? Integer.compare(through[a].length, through[b].length) : Integer.compare(a, b));
        int[] out = new int[idx.length];
        for (int i = 0; i < out.length; i++) {
            out[i] = idx[i];
        }
        return out;
    }

    /** The published update for one coordinate. */
    static double update(double r, double s) {
        if (r > 0) {
            return Math.max(0.0, Math.min(1.0, s / r));
        }
        if (r < 0) {
            return s / r <= 0.5 ? 1.0 : 0.0;
        }
        return s >= 0 ? 1.0 : 0.0;
    }

    public static double objective(double[] x, int[][] paths, double[] y, double lambda) {
        double f = 0;
        for (int j = 0; j < paths.length; j++) {
            double prod = 1.0;
            for (int k : paths[j]) {
                prod *= x[k];
            }
            double d = y[j] - prod;
            f += d * d;
        }
        for (double xi : x) {
            f += lambda * xi * (1 - xi);
        }
        return f;
    }

    static int[][] pathsThrough(int links, int[][] paths) {
        int[] count = new int[links];
        for (int[] path : paths) {
            for (int k : path) {
                count[k]++;
            }
        }
        int[][] out = new int[links][];
        for (int i = 0; i < links; i++) {
            out[i] = new int[count[i]];
            count[i] = 0;
        }
        for (int j = 0; j < paths.length; j++) {
            for (int k : paths[j]) {
                out[k][count[k]++] = j;
            }
        }
        return out;
    }
}
