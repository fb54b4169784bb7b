package dev.rmtemu.bench;

import dev.rmtemu.emulator.engine.SwitchConfig;
import dev.rmtemu.emulator.engine.SwitchEngine;
import dev.rmtemu.emulator.tm.PortConfig;
import dev.rmtemu.model.compiler.ProgramCompiler;
import dev.rmtemu.model.p4.lower.P4Programs;
import dev.rmtemu.model.p4.preprocess.PreprocessorOptions;
import dev.rmtemu.model.program.StageProgram;
import dev.rmtemu.model.target.TargetProfile;
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
 * sequence) pairs; {@code engineP4} runs {@code programs/p4/wbmon.p4}, the same m-switch
 * written in P4 (its twin test finds the same departures and registers), on the same trace, so
 * that one run compares the P4 program with its Java IR twin (issue 32: within 10 %).
 * Registers (and the reference) start empty every invocation.
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
    private SwitchEngine engineP4;
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
        TargetProfile tofino1 = TargetProfiles.builtIn("tofino1");
        engine = mSwitch(tofino1, p.program);
        StageProgram p4 = ProgramCompiler.compile(P4Programs.text("wbmon.p4", P4TwinBenchmark.source("wbmon.p4"),
                PreprocessorOptions.defaults()).require(), tofino1).requireAccepted().program();
        engineP4 = mSwitch(tofino1, p4);
        arrays = p.program.registers().stream().map(RegisterArray::name).toArray(String[]::new);
    }

    /** The downstream m-switch running {@code program}: everything to port 1, port 0 an incoming vconn port. */
    private static SwitchEngine mSwitch(TargetProfile profile, StageProgram program) {
        SwitchEngine e = new SwitchEngine(new SwitchConfig(profile, program, 4, PortConfig.strictPriority(100), true));
        e.forwarding((in, rec) -> 1);
        e.onDeparture((c, port, s, pool) -> { });
        WbmonPipeline.addIncomingPort(e.state(), 0);
        return e;
    }

    @Benchmark
    @OperationsPerInvocation(PACKETS)
    public long engine() {
        return replay(engine);
    }

    @Benchmark
    @OperationsPerInvocation(PACKETS)
    public long engineP4() {
        return replay(engineP4);
    }

    private long replay(SwitchEngine e) {
        for (String a : arrays) {
            e.state().resetRegister(a);
        }
        long base = e.now() + SPACING_CYCLES;
        for (int i = 0; i < PACKETS; i++) {
            e.arrive(base + i * SPACING_CYCLES, 0, trace.get(i, view));
        }
        e.drain();
        return WbmonPipeline.readDrops(e, cfg, 7);
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
