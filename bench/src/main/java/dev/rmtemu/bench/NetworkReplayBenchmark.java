package dev.rmtemu.bench;

import dev.rmtemu.emulator.engine.ArrivalTiming;
import dev.rmtemu.emulator.network.NetworkEngine;
import dev.rmtemu.emulator.network.NetworkOptions;
import dev.rmtemu.emulator.topology.Topology;
import dev.rmtemu.emulator.topology.TopologySpec;
import dev.rmtemu.traces.PacketRecord;
import dev.rmtemu.traces.PackedRecords;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;


/**
 * Network replay throughput: an ISP-like generated trace (held in memory) injected
 * at 40 Gb/s into a network, drained at the end. One operation = one trace packet
 * (which crosses up to five switches in a k=4 fat tree), so the score is trace
 * packets per second.
 */
public class NetworkReplayBenchmark extends EngineBenchmark {
    /** Packets per invocation. */
    static final int PACKETS = 1 << 18;
    static final int FLOWS = 20_000;

    @Param({"builtin:fattree?k=4", "builtin:chain?m=2&regular=3"})
    public String topology;

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
        net = NetworkEngine.build(topo, NetworkOptions.of(1));
    }

    @Benchmark
    @OperationsPerInvocation(PACKETS)
    public long replay() {
        ArrivalTiming timing = ArrivalTiming.parse("rate:40G", net.clock());
        long base = net.now() + 1;
        for (int i = 0; i < PACKETS; i++) {
            PacketRecord r = trace.get(i, view);
            net.inject(base + timing.next(r.timestampNs(), r.wireLength()), r);
        }
        net.drain();
        return net.totals().delivered();
    }
}
