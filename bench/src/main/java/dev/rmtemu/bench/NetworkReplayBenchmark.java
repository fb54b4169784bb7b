package dev.rmtemu.bench;

import dev.rmtemu.emulator.engine.ArrivalTiming;
import dev.rmtemu.emulator.network.NetworkEngine;
import dev.rmtemu.emulator.network.NetworkOptions;
import dev.rmtemu.emulator.topology.Topology;
import dev.rmtemu.emulator.topology.TopologySpec;
import dev.rmtemu.traces.PacketRecord;
import dev.rmtemu.traces.PackedRecords;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;


/**
 * Network replay throughput: an ISP-like generated trace (held in memory) injected
 * at 40 Gb/s into a network, drained at the end. One operation = one trace packet
 * (which crosses up to five switches in a k=4 fat tree), so the score is trace
 * packets per second; the secondary score {@code switchHops} is packet-hops per second
 * (packets entering a switch), the figure to set beside one switch's packets per second.
 * {@code threads}: the network's worker threads (the output is the same for every count).
 */
public class NetworkReplayBenchmark extends EngineBenchmark {
    /** Packets per invocation. */
    static final int PACKETS = 1 << 18;
    static final int FLOWS = 20_000;

    @Param({"builtin:fattree?k=4", "builtin:fattree?k=8", "builtin:chain?m=2&regular=3", "builtin:single"})
    public String topology;

    @Param({"1", "2"})
    public int threads;

    /** Packet-hops: packets that entered a switch, reported by JMH as a rate beside the primary score. */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.OPERATIONS)
    public static class Hops {
        public long switchHops;
    }

    private PackedRecords trace;
    private Topology topo;
    private NetworkEngine net;
    private final PacketRecord view = new PacketRecord();

    @Setup(Level.Trial)
    public void generate() {
        trace = InMemoryTrace.isp(PACKETS, FLOWS);
        topo = TopologySpec.parse(topology);
    }

    @Setup(Level.Iteration)
    public void freshNetwork() {
        net = NetworkEngine.build(topo, NetworkOptions.of(1).withThreads(threads));
        hopsSoFar = 0;
    }

    private long hopsSoFar;

    @Benchmark
    @OperationsPerInvocation(PACKETS)
    public long replay(Hops hops) {
        ArrivalTiming timing = ArrivalTiming.parse("rate:40G", net.clock());
        long base = net.now() + 1;
        for (int i = 0; i < PACKETS; i++) {
            PacketRecord r = trace.get(i, view);
            net.inject(base + timing.next(r.timestampNs(), r.wireLength()), r);
        }
        net.drain();
        long in = 0;
        for (int s = 0; s < net.switchCount(); s++) {
            in += net.switchEngine(s).counters().packetsIn();
        }
        hops.switchHops += in - hopsSoFar;
        hopsSoFar = in;
        return net.totals().delivered();
    }
}
