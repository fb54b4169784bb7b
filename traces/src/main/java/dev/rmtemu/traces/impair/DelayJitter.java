package dev.rmtemu.traces.impair;

import dev.rmtemu.traces.PacketRecord;
import dev.rmtemu.traces.gen.SplitMix64;

/**
 * Extra per-packet delay drawn from one of three models (all in ns, negative draws
 * clamped to 0):
 * <ul>
 *   <li>{@link #normal}: N(mean, σ) — constant delay with Gaussian jitter;</li>
 *   <li>{@link #mixture}: with probability w from N(m1, s1), else N(m2, s2) — the
 *       two-mode delay of a path that sometimes takes a slow branch (e.g. a queue
 *       that is sometimes congested);</li>
 *   <li>{@link #constantPlusExponential}: c + Exp(mean) — a base propagation delay
 *       plus queueing.</li>
 * </ul>
 */
public final class DelayJitter implements Impairment {
    private enum Model { NORMAL, MIXTURE, CONSTANT_EXPONENTIAL }

    private final Model model;
    private final double a;
    private final double b;
    private final double c;
    private final double d;
    private final double w;
    private final long seed;

    private DelayJitter(Model model, double w, double a, double b, double c, double d, long seed) {
        this.model = model;
        this.w = w;
        this.a = a;
        this.b = b;
        this.c = c;
        this.d = d;
        this.seed = seed;
    }

    public static DelayJitter normal(double meanNs, double sigmaNs, long seed) {
        Checks.nonNegative("delay mean", meanNs);
        Checks.nonNegative("delay sigma", sigmaNs);
        return new DelayJitter(Model.NORMAL, 1, meanNs, sigmaNs, 0, 0, seed);
    }

    public static DelayJitter mixture(double weightFirst, double mean1Ns, double sigma1Ns, double mean2Ns,
                                      double sigma2Ns, long seed) {
        Checks.probability("delay mixture weight", weightFirst);
        Checks.nonNegative("delay mean 1", mean1Ns);
        Checks.nonNegative("delay sigma 1", sigma1Ns);
        Checks.nonNegative("delay mean 2", mean2Ns);
        Checks.nonNegative("delay sigma 2", sigma2Ns);
        return new DelayJitter(Model.MIXTURE, weightFirst, mean1Ns, sigma1Ns, mean2Ns, sigma2Ns, seed);
    }

    public static DelayJitter constantPlusExponential(double constantNs, double meanNs, long seed) {
        Checks.nonNegative("delay constant", constantNs);
        Checks.nonNegative("delay exponential mean", meanNs);
        return new DelayJitter(Model.CONSTANT_EXPONENTIAL, 1, constantNs, meanNs, 0, 0, seed);
    }

    /** The delay for packet {@code k} in ns. */
    public long delayNs(long k) {
        double v;
        switch (model) {
            case NORMAL:
                v = a + b * Distributions.gaussian(seed, 2 * k);
                break;
            case MIXTURE:
                v = SplitMix64.doubleAt(seed ^ 0x2545F4914F6CDD1DL, k) < w
                        ? a + b * Distributions.gaussian(seed, 2 * k)
                        : c + d * Distributions.gaussian(seed, 2 * k);
                break;
            default:
                v = a + Distributions.exponential(seed, 2 * k, b);
        }
        return v <= 0 ? 0 : Math.round(v);
    }

    @Override
    public void decide(PacketRecord rec, long packetIndex, ImpairmentDecision out) {
        out.addDelayNs(delayNs(packetIndex));
    }

    @Override
    public String describe() {
        switch (model) {
            case NORMAL:
                return "delay-normal(mean=" + a + "ns, sigma=" + b + "ns)";
            case MIXTURE:
                return "delay-mixture(w=" + w + ", N(" + a + "," + b + "), N(" + c + "," + d + ") ns)";
            default:
                return "delay-const-exp(c=" + a + "ns, mean=" + b + "ns)";
        }
    }
}
