package dev.rmtemu.emulator.network;

import java.util.Map;
import java.util.TreeMap;

/**
 * How a network is built from a topology, besides the topology itself.
 *
 * @param program  stage program for every programmable switch, overriding the
 *                 topology's per-node programs; null = each node's own program
 *                 (a node without one forwards by routing only)
 * @param params   parameters of {@code program} (ignored when it is null)
 * @param enforce  check the per-packet hardware rules in every switch
 * @param seed     seed of every random decision (link impairments)
 */
public record NetworkOptions(String program, Map<String, String> params, boolean enforce, long seed) {
    public NetworkOptions {
        params = new TreeMap<>(params == null ? Map.of() : params);
    }

    /** Each switch runs its topology program; rules enforced. */
    public static NetworkOptions of(long seed) {
        return new NetworkOptions(null, Map.of(), true, seed);
    }
}
