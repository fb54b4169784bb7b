package dev.rmtemu.emulator.network;

import dev.rmtemu.emulator.engine.SwitchEngine;
import dev.rmtemu.emulator.topology.Topology;
import dev.rmtemu.traces.PacketRecord;
import dev.rmtemu.model.UserError;
import dev.rmtemu.model.program.StageProgram;
import dev.rmtemu.model.register.RegisterArray;

import java.util.Locale;

/**
 * What a network costs in heap before its first packet, estimated from the topology and
 * the switches' programs before anything is allocated, so a topology that cannot fit is
 * refused with one line instead of dying in an {@link OutOfMemoryError} half-way through.
 * The terms are upper bounds of what {@link NetworkEngine#build} allocates (a test holds
 * them to that): a fixed cost per idle switch, the routing tables (two ints per node and
 * destination host), each link direction's counters, and every switch's register arrays.
 *
 * @param bytes          the whole estimate
 * @param switchBytes    idle switches (engine, traffic manager, pools, metrics)
 * @param routingBytes   shortest-path tables
 * @param registerBytes  register arrays of every switch, all pipes
 */
public record NetworkMemoryEstimate(long bytes, long switchBytes, long routingBytes, long registerBytes) {
    /**
     * Heap one idle switch takes (engine, traffic manager, packet pool, metrics) besides its pool's
     * frames ({@link #idlePoolBytes}): the bytes
     * allocated while building one, measured 150-167 KiB on the built-in topologies once the
     * engine gained mirrors, digests, the replication engine and range tables (see
     * NetworkMemoryEstimateTest; 131-140 KiB before; 82-94 KiB before the compiler's warnings,
     * stop checks and typed program parameters), rounded up with room for the JIT's state
     * (the figure is heap allocated during the build, so a colder JVM allocates more).
     */
    public static final long IDLE_SWITCH_BYTES = 192 * 1024;
    /** Routing: distance and ECMP group per node and destination host (two ints), with headroom for the groups. */
    static final long ROUTING_BYTES_PER_NODE_AND_HOST = 3 * Integer.BYTES;
    /** Per link direction: about 16 counters and references of 8 bytes, rounded up. */
    static final long LINK_DIRECTION_BYTES = 256;
    /** Per host: injected/delivered counters and address maps. */
    static final long HOST_BYTES = 128;
    /**
     * Share of the heap limit the network may take before its first packet: the rest is for
     * packets in flight, the packet ring and the report at the end.
     */
    static final double USABLE_HEAP_SHARE = 0.5;
    private static final long MIB = 1024 * 1024;
    private static final long GIB = 1024 * MIB;

    /** The estimate for {@code t} whose switches run {@code programs}, packets keeping the default frame capacity. */
    public static NetworkMemoryEstimate of(Topology t, StageProgram[] programs) {
        return of(t, programs, PacketRecord.DEFAULT_FRAME_CAPACITY);
    }

    /**
     * The estimate for {@code t} whose switches run {@code programs} (in switch order), each
     * packet keeping {@code frameCapacity} frame bytes: an idle switch's packet pool starts with
     * {@link SwitchEngine#INITIAL_POOL_SLOTS} slots of that stride.
     */
    public static NetworkMemoryEstimate of(Topology t, StageProgram[] programs, int frameCapacity) {
        long nodes = t.nodes().size();
        long hosts = t.hosts().size();
        long switchBytes = (long) programs.length * (IDLE_SWITCH_BYTES + idlePoolBytes(frameCapacity));
        long routing = nodes * hosts * ROUTING_BYTES_PER_NODE_AND_HOST;
        long links = 2L * t.links().size() * LINK_DIRECTION_BYTES + hosts * HOST_BYTES;
        long registers = 0;
        for (StageProgram p : programs) {
            registers += registerBytes(p, t);
        }
        return new NetworkMemoryEstimate(switchBytes + routing + links + registers, switchBytes, routing, registers);
    }

    /** The frames of an idle switch's packet pool (its first slots' heap array). */
    public static long idlePoolBytes(int frameCapacity) {
        return (long) SwitchEngine.INITIAL_POOL_SLOTS * PacketRecord.stride(frameCapacity);
    }

    /** Register arrays of one switch: a word per cell (two for pairs), in every pipe of its target. */
    private static long registerBytes(StageProgram p, Topology t) {
        long cells = 0;
        for (RegisterArray a : p.registers()) {
            cells += (long) a.size() * (a.pair() ? 2 : 1);
        }
        return cells * Long.BYTES * MAX_PIPES;
    }

    /** Pipes per switch assumed for register arrays: the most any built-in target has. */
    static final int MAX_PIPES = 4;

    /**
     * Refuses (exit 2, one line) when the estimate does not fit {@link #USABLE_HEAP_SHARE} of
     * {@code maxHeapBytes}, naming the estimate and the heap option that would fit it.
     */
    public void check(String topology, long maxHeapBytes) {
        if (bytes <= maxHeapBytes * USABLE_HEAP_SHARE) {
            return;
        }
        long needGb = Math.max(1, (long) Math.ceil(bytes / USABLE_HEAP_SHARE / GIB));
        throw new UserError(String.format(Locale.ROOT, "topology %s needs about %d MB before its first packet "
                        + "(switches %d MB, routing %d MB, registers %d MB), more than the %d MB it may take: half of "
                        + "this JVM's %d MB heap (the other half is for packets in flight, the ring and the report); "
                        + "run with RMTEMU_JAVA_OPTS=-Xmx%dg", topology, bytes / MIB, switchBytes / MIB,
                routingBytes / MIB, registerBytes / MIB, (long) (maxHeapBytes * USABLE_HEAP_SHARE) / MIB,
                maxHeapBytes / MIB, needGb));
    }
}
