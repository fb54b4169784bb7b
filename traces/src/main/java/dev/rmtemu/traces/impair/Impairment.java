package dev.rmtemu.traces.impair;

import dev.rmtemu.traces.PacketRecord;

/**
 * One link impairment. {@link #decide} is called once per packet, in packet order,
 * with the packet's index on the link; it adds its effect to {@code out} and must not
 * allocate. Decisions are seeded: the same seed and packet sequence give the same
 * decisions. Stateless impairments draw their randomness from (seed, packet index)
 * only, so they are independent of each other and of what else is in a chain.
 */
public interface Impairment {
    /** Adds this impairment's effect on packet {@code packetIndex} to {@code out}. */
    void decide(PacketRecord rec, long packetIndex, ImpairmentDecision out);

    /** Short description with parameters, e.g. {@code bernoulli(p=0.01)}. */
    String describe();

    /** Sets this impairment's position in its chain (reported as the drop cause). */
    default void position(int position) {
    }
}
