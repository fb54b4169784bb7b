package dev.rmtemu.bench;

import dev.rmtemu.emulator.engine.SwitchConfig;
import dev.rmtemu.emulator.engine.SwitchEngine;
import dev.rmtemu.emulator.tm.PortConfig;
import dev.rmtemu.model.target.TargetProfiles;
import dev.rmtemu.programs.lossradar.program.LossRadarConfig;
import dev.rmtemu.programs.lossradar.reference.LossRadarMeter;
import dev.rmtemu.programs.lossradar.program.LossRadarProgram;
import dev.rmtemu.programs.lossradar.program.MeterDigest;
import dev.rmtemu.programs.lossradar.program.Signature;
import dev.rmtemu.traces.PacketRecord;
import dev.rmtemu.traces.PacketSource;
import dev.rmtemu.traces.spec.TraceSpec;
import dev.rmtemu.traces.PackedRecords;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.Setup;


/**
 * LossRadar on tofino1: one switch running {@code lossradar} (the downstream meter and
 * ACL, then the upstream meter: 31 register arrays over 10 ingress stages, default 96
 * cells, k = 3), enforcement on, fed a TCP trace in memory at its own timing, every
 * packet out of the UM's port. One operation = one packet, so the score is packets per
 * second through UM + DM. {@code reference} is the plain-Java meters doing the same
 * work per packet: the DM insertion and the UM insertion (signature, k CRC-32 indices,
 * xor and count).
 */
public class LossRadarBenchmark extends EngineBenchmark {
    static final int PACKETS = 1 << 18;

    private PackedRecords trace;
    private final PacketRecord view = new PacketRecord();
    private LossRadarConfig cfg;
    private SwitchEngine sw;
    private LossRadarMeter um;
    private LossRadarMeter dm;

    @Setup(Level.Trial)
    public void generate() {
        trace = InMemoryTrace.load(TraceSpec.open("gen:tcp?packets=" + PACKETS + "&flows=4000&load=0.5&start=0&seed=7"),
                PACKETS);
        cfg = LossRadarConfig.defaults();
    }

    @Setup(Level.Iteration)
    public void freshSwitch() {
        sw = new SwitchEngine(new SwitchConfig(TargetProfiles.builtIn("tofino1"),
                new LossRadarProgram().build(cfg, LossRadarProgram.DEFAULT_ACL_ENTRIES, null), cfg.ports(),
                PortConfig.strictPriority(100), true));
        um = new LossRadarMeter(cfg, 0, MeterDigest.UM);
        dm = new LossRadarMeter(cfg, 0, MeterDigest.DM);
    }

    @Benchmark
    @OperationsPerInvocation(PACKETS)
    public long engine() {
        long base = sw.now() + 1;
        for (int i = 0; i < PACKETS; i++) {
            PacketRecord r = trace.get(i, view);
            sw.arrive(base + sw.clock().nsToCycles(r.timestampNs()), 0, r);
        }
        sw.drain();
        return sw.counters().packetsOut();
    }

    @Benchmark
    @OperationsPerInvocation(PACKETS)
    public long reference() {
        long n = 0;
        for (int i = 0; i < PACKETS; i++) {
            PacketRecord r = trace.get(i, view);
            long ns = r.timestampNs();
            dm.downstream(r, 0, 0, Signature.timestamp(ns));
            um.upstream(r, cfg.port(), ns);
            n++;
        }
        return n;
    }
}
