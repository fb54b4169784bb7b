package dev.rmtemu.traces.impair;

import dev.rmtemu.traces.PacketRecord;

/**
 * Several impairments on one link, applied in order to the same decision. Every
 * impairment sees every packet (even ones an earlier impairment dropped), so adding
 * one impairment does not change what the others decide.
 */
public final class ImpairmentChain implements Impairment {
    private final Impairment[] parts;

    public ImpairmentChain(Impairment... parts) {
        this.parts = parts.clone();
        for (int i = 0; i < this.parts.length; i++) {
            this.parts[i].position(i);
        }
    }

    /** Resets {@code out} and fills it with the combined decision for one packet. */
    @Override
    public void decide(PacketRecord rec, long packetIndex, ImpairmentDecision out) {
        out.reset();
        for (Impairment p : parts) {
            p.decide(rec, packetIndex, out);
        }
    }

    public int size() {
        return parts.length;
    }

    public Impairment part(int i) {
        return parts[i];
    }

    /** Largest hold any part can ask for (bounds the stream adapter's buffer). */
    public int maxHold() {
        int m = 0;
        for (Impairment p : parts) {
            if (p instanceof Reordering r) {
                m = Math.max(m, r.maxDisplacement());
            }
        }
        return m;
    }

    @Override
    public String describe() {
        StringBuilder sb = new StringBuilder();
        for (Impairment p : parts) {
            if (sb.length() > 0) {
                sb.append(" + ");
            }
            sb.append(p.describe());
        }
        return sb.length() == 0 ? "none" : sb.toString();
    }
}
