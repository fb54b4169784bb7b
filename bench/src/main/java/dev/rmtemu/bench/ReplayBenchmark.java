package dev.rmtemu.bench;

import dev.rmtemu.emulator.spi.ProgramPlugins;
import dev.rmtemu.emulator.engine.FrameParser;
import dev.rmtemu.emulator.engine.HeaderParser;
import dev.rmtemu.emulator.engine.SwitchConfig;
import dev.rmtemu.model.hash.Crc;
import dev.rmtemu.model.hash.PositionalCrc;
import dev.rmtemu.model.runtime.PassExecutor;
import dev.rmtemu.model.runtime.Phv;
import dev.rmtemu.model.runtime.PipelineState;
import dev.rmtemu.emulator.engine.SwitchEngine;
import dev.rmtemu.emulator.tm.PortConfig;
import dev.rmtemu.model.program.StageProgram;
import dev.rmtemu.model.target.TargetProfile;
import dev.rmtemu.model.target.TargetProfiles;
import dev.rmtemu.traces.HostMac;
import dev.rmtemu.traces.PacketRecord;
import dev.rmtemu.traces.PackedRecords;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;

import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * End-to-end engine throughput: an ISP-like generated trace (held in memory,
 * so the generator is not measured) through one tofino1 switch running
 * {@code counter} or {@code l2fwd}, at 100 Gb/s line rate, with and without
 * the per-packet hardware checks. One operation = one packet, so the score is
 * packets per second. {@code referenceCounter} is the plain-Java baseline: the
 * same CRC-32 5-tuple hash and counter array, no pipeline.
 */
public class ReplayBenchmark extends EngineBenchmark {
    /** Packets per invocation; large enough that one invocation is ~0.1 s. */
    static final int PACKETS = 1 << 20;
    static final int FLOWS = 40_000;

    @Param({"counter", "l2fwd"})
    public String program;

    @Param({"true", "false"})
    public boolean enforce;

    private PackedRecords trace;
    private StageProgram prog;
    private TargetProfile profile;
    private SwitchEngine engine;
    private final PacketRecord view = new PacketRecord();
    private long[] counters;
    private PassExecutor pass;
    private HeaderParser passParser;
    private FrameParser passFrames;
    private Phv passPhv;
    private int[] pipeOfPort;
    /** CRC-32 over the 5-tuple, one table lookup per byte: the same primitive the emulator's hash unit uses. */
    private final PositionalCrc crc = new PositionalCrc(Crc.named("crc32"), 4, 4, 1, 2, 2);

    @Setup(Level.Trial)
    public void generate() {
        trace = InMemoryTrace.isp(PACKETS, FLOWS);
        profile = TargetProfiles.builtIn("tofino1");
        prog = ProgramPlugins.registry().build(program, Map.of());
        counters = new long[65536];
        PipelineState passState = new PipelineState(prog, profile.pipes());
        pass = new PassExecutor(passState, enforce);
        passParser = new HeaderParser(prog);
        passFrames = new FrameParser(prog, profile.parser().windowBytes());
        passPhv = new Phv(prog.fields().size());
        pipeOfPort = new int[InMemoryTrace.PORTS];
        for (int p = 0; p < pipeOfPort.length; p++) {
            pipeOfPort[p] = p / profile.portsPerPipe();
        }
        if (program.equals("l2fwd")) {
            // one entry is enough here: this times the pass (a lookup per packet), not where packets go
            passState.addExact("l2_fwd", new long[] {HostMac.ofIpv4(trace.get(0, view).dstIpv4())}, 1, 1);
        }
    }

    @Setup(Level.Iteration)
    public void freshSwitch() {
        engine = new SwitchEngine(new SwitchConfig(profile, prog, SwitchConfig.defaultPorts(profile),
                PortConfig.strictPriority(100), enforce));
        if (program.equals("l2fwd")) {
            // forward every destination of the trace that fits the table to port 1
            Set<Integer> dsts = new LinkedHashSet<>();
            for (int i = 0; i < PACKETS && dsts.size() < prog.table("l2_fwd").size(); i++) {
                dsts.add(trace.get(i, view).dstIpv4());
            }
            for (int d : dsts) {
                engine.state().addExact("l2_fwd", new long[] {HostMac.ofIpv4(d)}, 1, 1); // the host's MAC
            }
        }
    }

    @Benchmark
    @OperationsPerInvocation(PACKETS)
    public long replay() {
        return InMemoryTrace.replay(engine, trace, PACKETS, view);
    }

    /**
     * The ingress pass alone, as the engine runs it (parser into the PHV, every stage through
     * the checked StageContext), without arrival, traffic manager or egress: what the stage
     * program model costs next to {@link #referenceCounter}'s inline hash and update.
     */
    @Benchmark
    @OperationsPerInvocation(PACKETS)
    public long ingressPass() {
        InMemoryTrace.ingressPasses(trace, PACKETS, view, passParser, passFrames, passPhv, pass, pipeOfPort);
        return passPhv.values()[0];
    }

    @Benchmark
    @OperationsPerInvocation(PACKETS)
    public long referenceCounter() {
        long[] c = counters;
        long sum = 0;
        for (int i = 0; i < PACKETS; i++) {
            PacketRecord r = trace.get(i, view);
            PositionalCrc h = crc;
            long hash = h.finish(h.field(0, r.srcIpv4()) ^ h.field(1, r.dstIpv4()) ^ h.field(2, r.protocol())
                    ^ h.field(3, r.srcPort()) ^ h.field(4, r.dstPort()));
            int idx = (int) (hash & 0xFFFF);
            sum += ++c[idx];
        }
        return sum;
    }
}
