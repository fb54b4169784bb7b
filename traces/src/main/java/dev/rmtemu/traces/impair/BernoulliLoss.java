package dev.rmtemu.traces.impair;

import dev.rmtemu.traces.PacketRecord;
import dev.rmtemu.traces.gen.SplitMix64;

/** Independent loss: each packet is dropped with probability p. */
public final class BernoulliLoss implements Impairment {
    private final double p;
    private final long seed;
    private int position;

    public BernoulliLoss(double p, long seed) {
        Checks.probability("loss probability", p);
        this.p = p;
        this.seed = seed;
    }

    @Override
    public void decide(PacketRecord rec, long packetIndex, ImpairmentDecision out) {
        if (SplitMix64.doubleAt(seed, packetIndex) < p) {
            out.drop(position);
        }
    }

    @Override
    public void position(int position) {
        this.position = position;
    }

    @Override
    public String describe() {
        return "bernoulli(p=" + p + ")";
    }
}
