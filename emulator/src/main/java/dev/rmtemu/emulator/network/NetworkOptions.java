package dev.rmtemu.emulator.network;

import dev.rmtemu.model.UserError;
import dev.rmtemu.traces.PacketRecord;
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
 * @param maxHops  switch hops a packet may take before it is dropped as {@code hop_limit}
 * @param snapLength frame bytes every packet keeps through the network (switch pools, links);
 *                 {@link #WINDOW_SNAP} = the largest parser window of the network's targets
 * @param threads  threads that run the switches ({@link #AUTO_THREADS} = the cores available); the
 *                 output does not depend on it (see {@link NetworkEngine}, "Threads")
 */
public record NetworkOptions(String program, Map<String, String> params, boolean enforce, long seed, int maxHops,
                             int snapLength, int threads) {
    /** {@link #threads()} meaning: as many threads as the JVM has cores available. */
    public static final int AUTO_THREADS = 0;

    /** {@link #snapLength()} meaning: the largest parser window among the network's targets. */
    public static final int WINDOW_SNAP = 0;

    /**
     * Switch hops a packet may take before the network drops it as {@code hop_limit}: the
     * common initial IP TTL, so a packet that a router network would carry is never cut short.
     */
    public static final int DEFAULT_MAX_HOPS = 64;

    public NetworkOptions {
        params = new TreeMap<>(params == null ? Map.of() : params);
        if (maxHops < 1) {
            throw new UserError("--max-hops must be at least 1, got " + maxHops);
        }
        if (snapLength < 0 || snapLength > PacketRecord.MAX_FRAME_BYTES) {
            throw new UserError("--snaplen must be in 1.." + PacketRecord.MAX_FRAME_BYTES + ", got " + snapLength);
        }
        if (threads < 0) {
            throw new UserError("--threads must be at least 1, got " + threads);
        }
    }

    /** With as many threads as cores. */
    public NetworkOptions(String program, Map<String, String> params, boolean enforce, long seed, int maxHops,
                          int snapLength) {
        this(program, params, enforce, seed, maxHops, snapLength, AUTO_THREADS);
    }

    /** These options with {@code n} threads ({@link #AUTO_THREADS}: the cores available). */
    public NetworkOptions withThreads(int n) {
        return new NetworkOptions(program, params, enforce, seed, maxHops, snapLength, n);
    }

    /** The threads to run on: {@link #threads()}, or the cores available when it is {@link #AUTO_THREADS}. */
    public int threadsToUse() {
        return threads == AUTO_THREADS ? Runtime.getRuntime().availableProcessors() : threads;
    }

    /** With the parser windows' snap length. */
    public NetworkOptions(String program, Map<String, String> params, boolean enforce, long seed, int maxHops) {
        this(program, params, enforce, seed, maxHops, WINDOW_SNAP);
    }

    /** With the default hop budget. */
    public NetworkOptions(String program, Map<String, String> params, boolean enforce, long seed) {
        this(program, params, enforce, seed, DEFAULT_MAX_HOPS);
    }

    /** Each switch runs its topology program; rules enforced. */
    public static NetworkOptions of(long seed) {
        return new NetworkOptions(null, Map.of(), true, seed);
    }
}
