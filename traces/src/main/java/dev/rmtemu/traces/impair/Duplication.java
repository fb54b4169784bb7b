package dev.rmtemu.traces.impair;

import dev.rmtemu.traces.PacketRecord;
import dev.rmtemu.traces.gen.SplitMix64;

/** Each packet is sent twice with probability p (one extra copy right after it). */
public final class Duplication implements Impairment {
    private final double p;
    private final long seed;

    public Duplication(double p, long seed) {
        Checks.probability("duplication probability", p);
        this.p = p;
        this.seed = seed;
    }

    @Override
    public void decide(PacketRecord rec, long packetIndex, ImpairmentDecision out) {
        if (SplitMix64.doubleAt(seed, packetIndex) < p) {
            out.addCopies(1);
        }
    }

    @Override
    public String describe() {
        return "duplicate(p=" + p + ")";
    }
}
