package dev.rmtemu.traces.impair;

import dev.rmtemu.traces.PacketRecord;
import dev.rmtemu.traces.gen.SplitMix64;

/**
 * Bursty loss, the Gilbert–Elliott two-state Markov model: in the good state a packet
 * is lost with probability {@code lossGood}, in the bad state with {@code lossBad};
 * after each packet the chain moves good→bad with probability p and bad→good with r.
 * The bad state lasts 1/r packets on average; with lossGood 0 and lossBad 1 (the
 * Gilbert model) loss bursts have mean length 1/r and the loss rate is p/(p+r).
 * The state depends on every earlier packet, so call it in packet order.
 */
public final class GilbertElliottLoss implements Impairment {
    private final double p;
    private final double r;
    private final double lossGood;
    private final double lossBad;
    private final long seed;
    private boolean bad;
    private int position;

    public GilbertElliottLoss(double p, double r, double lossGood, double lossBad, long seed) {
        Checks.probability("Gilbert-Elliott p (good to bad)", p);
        Checks.probability("Gilbert-Elliott r (bad to good)", r);
        Checks.probability("Gilbert-Elliott loss in good state", lossGood);
        Checks.probability("Gilbert-Elliott loss in bad state", lossBad);
        this.p = p;
        this.r = r;
        this.lossGood = lossGood;
        this.lossBad = lossBad;
        this.seed = seed;
    }

    @Override
    public void decide(PacketRecord rec, long packetIndex, ImpairmentDecision out) {
        double lossDraw = SplitMix64.doubleAt(seed, 2 * packetIndex);
        if (lossDraw < (bad ? lossBad : lossGood)) {
            out.drop(position);
        }
        double moveDraw = SplitMix64.doubleAt(seed, 2 * packetIndex + 1);
        bad = bad ? moveDraw >= r : moveDraw < p;
    }

    /** Whether the chain is in the bad state (for the next packet). */
    public boolean inBadState() {
        return bad;
    }

    @Override
    public void position(int position) {
        this.position = position;
    }

    @Override
    public String describe() {
        return "gilbert-elliott(p=" + p + ", r=" + r + ", lossGood=" + lossGood + ", lossBad=" + lossBad + ")";
    }
}
