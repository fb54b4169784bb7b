package dev.rmtemu.bench;

import dev.rmtemu.model.target.TargetProfiles;
import dev.rmtemu.programs.lds.program.LdsConfig;
import dev.rmtemu.programs.lds.control.LdsPacketKeys;
import dev.rmtemu.programs.lds.control.LdsSketch;
import dev.rmtemu.programs.lds.control.LdsSwitch;
import dev.rmtemu.traces.PacketRecord;
import dev.rmtemu.traces.PacketSource;
import dev.rmtemu.traces.spec.TraceSpec;
import dev.rmtemu.traces.PackedRecords;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.Setup;


/**
 * LDS end to end on tofino1: the sender sketch in ingress and the receiver sketch in egress
 * of one switch (the defaults: R = 4 rows of 8,192 cells, k = 5, a power of two per row on tofino1), flows
 * spread over 2 output ports with 20 % in the priority queue, an ISP-like trace at 60 % of
 * 100 Gb/s. One operation = one trace packet through both measurement points, so the score
 * is packets per second. {@code reference} is the plain-Java sketch pair: each end hashes the
 * packet and updates its sketch (the receiver with the send time plus a delay), no pipeline,
 * no traffic manager.
 */
public class LdsBenchmark extends EngineBenchmark {
    static final int PACKETS = 1 << 18;
    static final String TRACE = "gen:isp?packets=" + PACKETS + "&flows=10000&ipv6=0&seed=11&load=0.6&dist=zipf&gbps=100";
    static final int PATHS = 2;
    static final double PRIORITY_SHARE = 0.2;
    static final double OUT_GBPS = 100;
    static final int QUEUE_CELLS = 12_500;
    static final int INPUTS = 4;
    /** Delay the reference's receiver adds (any constant does the same work). */
    static final long REFERENCE_DELAY_NS = 25_000;

    private PackedRecords trace;
    private final PacketRecord view = new PacketRecord();
    private final LdsConfig cfg = LdsConfig.defaults();
    private LdsSwitch sw;
    private LdsSketch tx;
    private LdsSketch rx;
    private LdsPacketKeys txKeys;
    private LdsPacketKeys rxKeys;
    private long startNs;

    @Setup(Level.Trial)
    public void generate() {
        trace = InMemoryTrace.load(TraceSpec.open(TRACE), PACKETS);
        startNs = trace.get(0, view).timestampNs();
    }

    @Setup(Level.Iteration)
    public void fresh() {
        sw = new LdsSwitch(cfg, TargetProfiles.builtIn("tofino1"), PATHS, PRIORITY_SHARE, OUT_GBPS, QUEUE_CELLS, INPUTS);
        tx = new LdsSketch(cfg);
        rx = new LdsSketch(cfg);
        txKeys = new LdsPacketKeys(cfg);
        rxKeys = new LdsPacketKeys(cfg);
    }

    @Benchmark
    @OperationsPerInvocation(PACKETS)
    public long engine() {
        long base = startNs - sw.engine().clock().cyclesToNs(sw.engine().now() + 1);
        for (int i = 0; i < PACKETS; i++) {
            sw.arrive(trace.get(i, view), base);
        }
        sw.drain();
        return sw.engine().counters().packetsOut();
    }

    @Benchmark
    @OperationsPerInvocation(PACKETS)
    public long reference() {
        for (int i = 0; i < PACKETS; i++) {
            PacketRecord r = trace.get(i, view);
            long ts = r.timestampNs();
            tx.record(txKeys.of(r), ts);
            rx.record(rxKeys.of(r), ts + REFERENCE_DELAY_NS);
        }
        return tx.count(0, 0) + rx.count(0, 0);
    }
}
