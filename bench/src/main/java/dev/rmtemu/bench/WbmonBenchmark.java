package dev.rmtemu.bench;

import dev.rmtemu.emulator.engine.SwitchConfig;
import dev.rmtemu.emulator.engine.SwitchEngine;
import dev.rmtemu.emulator.tm.PortConfig;
import dev.rmtemu.model.register.RegisterArray;
import dev.rmtemu.model.target.TargetProfiles;
import dev.rmtemu.programs.wbmon.program.WbmonConfig;
import dev.rmtemu.programs.wbmon.program.WbmonHeader;
import dev.rmtemu.programs.wbmon.program.WbmonPipeline;
import dev.rmtemu.programs.wbmon.reference.WindowMonitor;
import dev.rmtemu.traces.PacketRecord;
import dev.rmtemu.traces.pcap.FrameSynthesizer;
import dev.rmtemu.traces.gen.SplitMix64;
import dev.rmtemu.traces.PackedRecords;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.Warmup;


/**
 * WBMon's downstream m-switch on tofino1 (the thesis build: 256 vconns, N = 4, W = 32,
 * tws = 2), enforcement on: packets of 256 vconns, each with its own sequence numbers,
 * 1 % lost and 2 % swapped with their successor, arrive on port 0 at one 1000-byte
 * packet per 100 cycles (≈ 98 Gb/s) and leave on port 1. One operation = one packet.
 * {@code reference} runs the plain-Java {@link WindowMonitor} over the same (vconn,
 * sequence) pairs. Registers (and the reference) start empty every invocation.
 */
@Warmup(iterations = 4, time = 2)
@Measurement(iterations = 5, time = 2)
public class WbmonBenchmark extends EngineBenchmark {
    static final int PACKETS = 1 << 18;
    static final int BYTES = 1000;
    static final long SPACING_CYCLES = 100;
    static final double LOSS = 0.01;
    static final double SWAP = 0.02;

    private PackedRecords trace;
    private final PacketRecord view = new PacketRecord();
    private final WbmonConfig cfg = WbmonConfig.defaults();
    private final int[] vconn = new int[PACKETS];
    private final long[] seq = new long[PACKETS];
    private SwitchEngine engine;
    private String[] arrays;

    @Setup(Level.Trial)
    public void generate() {
        trace = new PackedRecords(PACKETS);
        SplitMix64 rnd = new SplitMix64(9);
        long[] next = new long[cfg.vconns()];
        int i = 0;
        while (i < PACKETS) {
            int v = rnd.nextInt(cfg.vconns());
            long sn = next[v]++;
            if (rnd.nextDouble() < LOSS) {
                continue;
            }
            vconn[i] = v;
            seq[i] = sn;
            if (i > 0 && rnd.nextDouble() < SWAP) { // arrives before its predecessor
                vconn[i] = vconn[i - 1];
                seq[i] = seq[i - 1];
                vconn[i - 1] = v;
                seq[i - 1] = sn;
            }
            i++;
        }
        for (i = 0; i < PACKETS; i++) {
            PacketRecord r = PacketRecord.allocate(FrameSynthesizer.MAX_MIN_FRAME);
            r.wireLength(BYTES).ipVersion(4).protocol(PacketRecord.PROTO_UDP).srcIpv4(0x0A000001).dstIpv4(0x0A000002)
                    .srcPort(1000).dstPort(2000);
            FrameSynthesizer.attachFrame(r); // the headers' bytes, as a header capture keeps them
            WbmonHeader.push(r, vconn[i], seq[i]); // the upstream m-switch's header on the wire
            trace.add(r);
        }
        WbmonPipeline p = new WbmonPipeline(cfg);
        engine = new SwitchEngine(new SwitchConfig(TargetProfiles.builtIn("tofino1"), p.program, 4, PortConfig.strictPriority(100), true));
        engine.forwarding((in, rec) -> 1);
        engine.onDeparture((c, port, s, pool) -> { });
        WbmonPipeline.addIncomingPort(engine.state(), 0);
        arrays = p.program.registers().stream().map(RegisterArray::name).toArray(String[]::new);
    }

    @Benchmark
    @OperationsPerInvocation(PACKETS)
    public long engine() {
        for (String a : arrays) {
            engine.state().resetRegister(a);
        }
        long base = engine.now() + SPACING_CYCLES;
        for (int i = 0; i < PACKETS; i++) {
            engine.arrive(base + i * SPACING_CYCLES, 0, trace.get(i, view));
        }
        engine.drain();
        return WbmonPipeline.readDrops(engine, cfg, 7);
    }

    @Benchmark
    @OperationsPerInvocation(PACKETS)
    public long reference() {
        WindowMonitor m = new WindowMonitor(cfg);
        for (int i = 0; i < PACKETS; i++) {
            m.receive(vconn[i], seq[i]);
        }
        return m.drops(7);
    }
}
