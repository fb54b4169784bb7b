package dev.rmtemu.bench;

import dev.rmtemu.emulator.engine.SwitchConfig;
import dev.rmtemu.emulator.engine.SwitchEngine;
import dev.rmtemu.emulator.spi.ProgramPlugins;
import dev.rmtemu.emulator.tm.PortConfig;
import dev.rmtemu.model.compiler.ProgramCompiler;
import dev.rmtemu.model.examples.L2FwdProgram;
import dev.rmtemu.model.p4.lower.P4Programs;
import dev.rmtemu.model.p4.preprocess.PreprocessorOptions;
import dev.rmtemu.model.program.StageProgram;
import dev.rmtemu.model.target.TargetProfile;
import dev.rmtemu.model.target.TargetProfiles;
import dev.rmtemu.programs.midst.program.MidstPipeline;
import dev.rmtemu.traces.PackedRecords;
import dev.rmtemu.traces.PacketRecord;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * Each P4 program of {@code programs/p4} beside its Java IR twin, in one run: the same
 * ISP-like trace, held in memory, through one tofino1 switch at 100 Gb/s (hardware checks
 * on), one operation a packet. Issue 32 asks the P4 form to run within 10 % of its twin's
 * packets per second. The twins are {@code counter}, {@code l2fwd} (its table holds the first
 * {@value #L2_ENTRIES} destination MACs of the trace, each to a port; the others miss and are
 * dropped), {@code hashpipe} with key=srcip, {@code lossradar} with its defaults (both meters,
 * its ACL empty: every packet is metered twice, 31 stateful ALUs a packet), {@code midst} with its
 * defaults, monitoring held on in every pipe (as {@code register_write midst_monitor 0 1} holds it: no
 * probes, every packet counted in S_in and S_out and bridged, 29 bytes, through the traffic manager)
 * and {@code lds} with its defaults (sender in ingress, receiver in egress: 6 CRC-32s and 12 stateful
 * ALUs at each end; the P4 form sketches IPv4 packets only, the IR hashes the zeros of the others).
 * Run: {@code java -jar bench/target/benchmarks.jar P4Twin -f 1 -wi 3 -i 5}.
 */
public class P4TwinBenchmark extends EngineBenchmark {
    /** Packets per invocation. */
    static final int PACKETS = 1 << 18;
    static final int FLOWS = 10_000;
    /** l2fwd entries installed (its table's default size). */
    static final int L2_ENTRIES = L2FwdProgram.DEFAULT_ENTRIES;

    @Param({"counter", "l2fwd", "hashpipe", "lossradar", "midst", "lds"})
    public String program;

    @Param({"ir", "p4"})
    public String form;

    private PackedRecords trace;
    private StageProgram prog;
    private TargetProfile profile;
    private SwitchEngine engine;
    private final PacketRecord view = new PacketRecord();
    private long[] macs;

    @Setup(Level.Trial)
    public void compile() {
        trace = InMemoryTrace.isp(PACKETS, FLOWS);
        profile = TargetProfiles.builtIn("tofino1");
        if (form.equals("ir")) {
            prog = ProgramPlugins.registry().build(program, program.equals("hashpipe") ? Map.of("key", "srcip") : Map.of());
        } else {
            String name = program + ".p4";
            prog = ProgramCompiler.compile(P4Programs.text(name, source(name), PreprocessorOptions.defaults()).require(), profile)
                    .requireAccepted().program();
        }
        macs = destinationMacs(trace, L2_ENTRIES);
    }

    @Setup(Level.Iteration)
    public void fresh() {
        engine = new SwitchEngine(new SwitchConfig(profile, prog, SwitchConfig.defaultPorts(profile),
                PortConfig.strictPriority(100), true));
        if (program.equals("l2fwd")) {
            for (int i = 0; i < macs.length; i++) {
                engine.state().addExact("l2_fwd", new long[] {macs[i]}, L2FwdProgram.ACTION_FORWARD, 1 + i % 32);
            }
        }
        if (program.equals("midst")) {
            for (int pipe = 0; pipe < profile.pipes(); pipe++) {
                engine.state().writeRegister(pipe, MidstPipeline.MONITOR, 0, 1, 0);
            }
        }
    }

    @Benchmark
    @OperationsPerInvocation(PACKETS)
    public long replay() {
        return InMemoryTrace.replay(engine, trace, PACKETS, view);
    }

    /** The text of {@code programs/p4/NAME} (on the class path from the programs module). */
    static String source(String name) {
        try (InputStream in = P4TwinBenchmark.class.getResourceAsStream("/dev/rmtemu/programs/p4/" + name)) {
            if (in == null) {
                throw new IllegalStateException("no P4 program " + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The first {@code n} distinct destination MACs of the trace's frames, in trace order. */
    private static long[] destinationMacs(PackedRecords trace, int n) {
        Set<Long> seen = new LinkedHashSet<>();
        PacketRecord r = new PacketRecord();
        for (int i = 0; i < trace.size() && seen.size() < n; i++) {
            trace.get(i, r);
            long mac = 0;
            for (int b = 0; b < 6; b++) {
                mac = mac << 8 | (r.buffer().getByte(r.offset() + PacketRecord.FRAME_OFFSET + b) & 0xFF);
            }
            seen.add(mac);
        }
        long[] out = new long[seen.size()];
        int k = 0;
        for (long m : seen) {
            out[k++] = m;
        }
        return out;
    }
}
