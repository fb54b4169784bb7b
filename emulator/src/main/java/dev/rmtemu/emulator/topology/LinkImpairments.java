package dev.rmtemu.emulator.topology;

import dev.rmtemu.model.UserError;
import dev.rmtemu.traces.impair.Impairment;
import dev.rmtemu.traces.impair.ImpairmentChain;
import dev.rmtemu.traces.impair.Impairments;

import java.util.List;
import java.util.function.IntToLongFunction;

/**
 * A link direction's impairment spec as a chain of impairments. Loading a
 * topology ({@link TopologySpec#parse}) builds every chain once and throws it
 * away, so {@code rmtemu topo} refuses exactly the specs a replay would refuse.
 */
public final class LinkImpairments {
    /** Seed for the load-time check: parsing does not depend on it. */
    private static final long CHECK_SEED = 0;

    private LinkImpairments() {
    }

    /** The chain for {@code spec} on link {@code l}; impairment i draws from {@code seedOf(i)}. Errors name the link. */
    public static ImpairmentChain chain(Link l, KeyValues spec, IntToLongFunction seedOf) {
        List<KeyValues.Entry> entries = spec.entries();
        Impairment[] parts = new Impairment[entries.size()];
        for (int i = 0; i < parts.length; i++) {
            KeyValues.Entry e = entries.get(i);
            try {
                parts[i] = Impairments.parse(e.key(), e.value(), seedOf.applyAsLong(i));
            } catch (UserError err) {
                throw new UserError(l + ": " + err.getMessage(), err);
            }
        }
        return new ImpairmentChain(parts);
    }

    /** Builds (and drops) the chain of both directions of every link of {@code t}; errors name its source too. */
    public static void check(Topology t) {
        try {
            for (Link l : t.links()) {
                chain(l, l.impairAtoB(), i -> CHECK_SEED);
                chain(l, l.impairBtoA(), i -> CHECK_SEED);
            }
        } catch (UserError e) {
            throw new UserError(t.source() + ": " + e.getMessage(), e);
        }
    }
}
