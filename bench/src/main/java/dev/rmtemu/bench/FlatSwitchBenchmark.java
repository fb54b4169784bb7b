package dev.rmtemu.bench;

import dev.rmtemu.emulator.engine.ArrivalTiming;
import dev.rmtemu.emulator.engine.SwitchConfig;
import dev.rmtemu.emulator.engine.SwitchEngine;
import dev.rmtemu.emulator.tm.PortConfig;
import dev.rmtemu.model.examples.CounterProgram;
import dev.rmtemu.model.program.ProgramRegistry;
import dev.rmtemu.model.target.TargetProfile;
import dev.rmtemu.model.target.TargetProfiles;
import dev.rmtemu.traces.PacketRecord;
import dev.rmtemu.traces.PackedRecords;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.Setup;

import java.util.Map;

/**
 * The plain-Java whole-switch reference ({@link FlatCounterSwitch}) on the trace, switch and
 * timing of {@link ReplayBenchmark}'s {@code counter} case: the engine's score over this one
 * is what its generality and hardware checks cost. One operation = one packet.
 */
public class FlatSwitchBenchmark extends EngineBenchmark {
    private PackedRecords trace;
    private SwitchEngine model;
    private FlatCounterSwitch flat;
    private final PacketRecord view = new PacketRecord();

    @Setup(Level.Trial)
    public void generate() {
        trace = InMemoryTrace.isp(ReplayBenchmark.PACKETS, ReplayBenchmark.FLOWS);
        TargetProfile profile = TargetProfiles.builtIn("tofino1");
        // the engine only lends its configuration and latencies; it replays nothing here
        model = new SwitchEngine(new SwitchConfig(profile, new ProgramRegistry().build(CounterProgram.NAME, Map.of()),
                SwitchConfig.defaultPorts(profile), PortConfig.strictPriority(100), true));
    }

    @Setup(Level.Iteration)
    public void freshSwitch() {
        flat = new FlatCounterSwitch(model);
    }

    @Benchmark
    @OperationsPerInvocation(ReplayBenchmark.PACKETS)
    public long flatReference() {
        // like InMemoryTrace.replay: after everything the switch already did (the flat one keeps no clock, so from its last departure on)
        return flat.replay(trace, ReplayBenchmark.PACKETS, flat.lastCycle() + 1,
                ArrivalTiming.parse(InMemoryTrace.TIMING, model.clock()), InMemoryTrace.PORTS, view);
    }
}
