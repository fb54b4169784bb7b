package dev.rmtemu.bench;

import dev.rmtemu.emulator.spi.ProgramPlugins;
import dev.rmtemu.emulator.engine.SwitchConfig;
import dev.rmtemu.emulator.engine.FrameParser;
import dev.rmtemu.emulator.engine.HeaderParser;
import dev.rmtemu.emulator.engine.SwitchEngine;
import dev.rmtemu.model.runtime.PassExecutor;
import dev.rmtemu.model.runtime.Phv;
import dev.rmtemu.model.runtime.PipelineState;
import dev.rmtemu.emulator.tm.PortConfig;
import dev.rmtemu.model.program.StageProgram;
import dev.rmtemu.model.target.TargetProfile;
import dev.rmtemu.model.target.TargetProfiles;
import dev.rmtemu.programs.hashpipe.program.FlowKeys;
import dev.rmtemu.programs.hashpipe.program.HashPipeConfig;
import dev.rmtemu.programs.hashpipe.reference.HashPipeReference;
import dev.rmtemu.programs.hashpipe.program.KeyKind;
import dev.rmtemu.traces.PacketRecord;
import dev.rmtemu.traces.PackedRecords;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;

import java.util.Map;

/**
 * HashPipe (d = 6, 4500 counters, fingerprint key) end to end: an ISP-like
 * trace held in memory through one tofino1 switch at 100 Gb/s, with and without
 * the per-packet hardware checks; and the plain-Java reference of the same
 * algorithm (same fingerprint and stage hashes) over the same records. One
 * operation = one packet, so scores are packets per second.
 */
public class HashPipeBenchmark extends EngineBenchmark {
    /** Packets per invocation. */
    static final int PACKETS = 1 << 20;
    /** The ISP preset's packets-per-flow ratio (10 M / 400 K). */
    static final int FLOWS = 40_000;

    @Param({"true", "false"})
    public boolean enforce;

    private PackedRecords trace;
    private StageProgram prog;
    private TargetProfile profile;
    private SwitchEngine engine;
    private final PacketRecord view = new PacketRecord();
    private HashPipeReference reference;
    private FlowKeys keys;
    private PipelineState passState;
    private PassExecutor pass;
    private HeaderParser parser;
    private FrameParser frames;
    private Phv passPhv;

    @Setup(Level.Trial)
    public void generate() {
        trace = InMemoryTrace.isp(PACKETS, FLOWS);
        profile = TargetProfiles.builtIn("tofino1");
        prog = ProgramPlugins.registry().build("hashpipe", Map.of());
        keys = new FlowKeys(KeyKind.FINGERPRINT);
    }

    @Setup(Level.Iteration)
    public void fresh() {
        engine = new SwitchEngine(new SwitchConfig(profile, prog, SwitchConfig.defaultPorts(profile),
                PortConfig.strictPriority(100), enforce));
        reference = new HashPipeReference(HashPipeConfig.defaults());
        passState = new PipelineState(prog, 1);
        pass = new PassExecutor(passState, enforce);
        parser = new HeaderParser(prog);
        frames = new FrameParser(prog, profile.parser().windowBytes());
        passPhv = new Phv(prog.fields().size());
    }

    /** The pass alone runs every packet in pipe 0 (its state has one pipe). */
    private static final int[] ONE_PIPE = new int[InMemoryTrace.PORTS];

    @Benchmark
    @OperationsPerInvocation(PACKETS)
    public long replay() {
        return InMemoryTrace.replay(engine, trace, PACKETS, view);
    }

    /** The ingress pass alone (parser + the 7 HashPipe stages), no traffic manager or egress: the program's own cost. */
    @Benchmark
    @OperationsPerInvocation(PACKETS)
    public long ingressPass() {
        InMemoryTrace.ingressPasses(trace, PACKETS, view, parser, frames, passPhv, pass, ONE_PIPE);
        return passState.readRegisterHi(0, "hashpipe_s0", 0);
    }

    @Benchmark
    @OperationsPerInvocation(PACKETS)
    public long reference() {
        for (int i = 0; i < PACKETS; i++) {
            PacketRecord r = trace.get(i, view);
            keys.load(r);
            reference.update(keys.lo(), keys.hi(), 1);
        }
        return reference.counts(0)[0];
    }
}
