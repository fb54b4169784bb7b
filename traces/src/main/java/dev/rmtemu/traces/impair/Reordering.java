package dev.rmtemu.traces.impair;

import dev.rmtemu.model.UserError;
import dev.rmtemu.traces.PacketRecord;
import dev.rmtemu.traces.gen.SplitMix64;

/**
 * With probability p a packet is held back so that d later packets overtake it, with
 * d = max(1, round(|N(0, σ)|)) capped at {@code maxDisplacement}: a displacement
 * distribution in packets, as netem's reorder-with-gap and measurement papers use.
 */
public final class Reordering implements Impairment {
    /** Default cap on the displacement, which also bounds the stream adapter's buffer. */
    public static final int DEFAULT_MAX_DISPLACEMENT = 64;

    private final double p;
    private final double sigma;
    private final int maxDisplacement;
    private final long seed;

    public Reordering(double p, double sigma, int maxDisplacement, long seed) {
        Checks.probability("reorder probability", p);
        Checks.nonNegative("reorder sigma", sigma);
        if (maxDisplacement < 1) {
            throw new UserError("reorder max displacement " + maxDisplacement + " must be >= 1");
        }
        this.p = p;
        this.sigma = sigma;
        this.maxDisplacement = maxDisplacement;
        this.seed = seed;
    }

    @Override
    public void decide(PacketRecord rec, long packetIndex, ImpairmentDecision out) {
        if (SplitMix64.doubleAt(seed, 3 * packetIndex) >= p) {
            return;
        }
        double z = Distributions.gaussian(seed, 3 * packetIndex + 1);
        long d = Math.round(Math.abs(z) * sigma);
        out.hold((int) Math.max(1, Math.min(maxDisplacement, d)));
    }

    public int maxDisplacement() {
        return maxDisplacement;
    }

    @Override
    public String describe() {
        return "reorder(p=" + p + ", sigma=" + sigma + ", max=" + maxDisplacement + ")";
    }
}
