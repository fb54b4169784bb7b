package dev.rmtemu.bench;

import dev.rmtemu.emulator.engine.ArrivalTiming;
import dev.rmtemu.emulator.engine.SwitchConfig;
import dev.rmtemu.emulator.engine.SwitchEngine;
import dev.rmtemu.emulator.host.HostClock;
import dev.rmtemu.emulator.network.NetworkEngine;
import dev.rmtemu.emulator.network.NetworkOptions;
import dev.rmtemu.emulator.spi.ProgramPlugins;
import dev.rmtemu.emulator.tm.PortConfig;
import dev.rmtemu.emulator.topology.Topology;
import dev.rmtemu.emulator.topology.TopologySpec;
import dev.rmtemu.model.program.StageProgram;
import dev.rmtemu.model.target.TargetProfile;
import dev.rmtemu.model.target.TargetProfiles;
import dev.rmtemu.traces.PackedRecords;
import dev.rmtemu.traces.PacketRecord;

import com.sun.management.OperatingSystemMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import java.util.Locale;
import java.util.Map;

/**
 * The network's speed-ups measured as ratios on a shared machine: JMH runs its parameters
 * one after another, minutes apart, and on a loaded host the load changes between them. Here
 * every round runs, back to back on the same in-memory trace as {@link NetworkReplayBenchmark}:
 * one switch ({@link ReplayBenchmark}'s {@code counter} set-up, packets/s), the network's
 * event-by-event loop, and its windows on one thread and on two (packet-hops/s); the ratios of
 * each round are computed within the round and their medians printed. The one-thread figures
 * are per second of the thread's CPU time, which other processes on the host do not change; the
 * two-thread run is timed by the wall clock (its gain is its elapsed time), beside the CPU time
 * its threads used together (the caller's and the worker's, spinning included), as a share of
 * the one-thread run's. Usage: {@code java -cp benchmarks.jar dev.rmtemu.bench.NetworkThreadsPairs
 * TOPOLOGY [ROUNDS]}.
 */
public final class NetworkThreadsPairs {
    private static final int PACKETS = NetworkReplayBenchmark.PACKETS;
    private static final int WARMUP_ROUNDS = 3;
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    private static final OperatingSystemMXBean OS =
            (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

    private NetworkThreadsPairs() {
    }

    public static void main(String[] args) {
        String topology = args.length > 0 ? args[0] : "builtin:fattree?k=8";
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 10;
        PackedRecords trace = InMemoryTrace.isp(PACKETS, NetworkReplayBenchmark.FLOWS);
        Topology topo = TopologySpec.parse(topology);
        double[] hopsPerSwitch = new double[rounds];
        double[] twoPerOne = new double[rounds];
        double[] windowsPerLoop = new double[rounds];
        double[] cpuTwoPerOne = new double[rounds];
        for (int r = -WARMUP_ROUNDS; r < rounds; r++) {
            double single = singleSwitch(trace);
            Run loop = network(topo, trace, 1, true);
            Run one = network(topo, trace, 1, false);
            Run two = network(topo, trace, 2, false);
            if (r >= 0) {
                hopsPerSwitch[r] = one.hopsPerCpuSecond() / single;
                windowsPerLoop[r] = one.hopsPerCpuSecond() / loop.hopsPerCpuSecond();
                twoPerOne[r] = (double) one.wallNs / two.wallNs;
                cpuTwoPerOne[r] = (double) two.processCpuNs / one.callerCpuNs;
                System.out.printf(Locale.ROOT, "round %d: one switch %.0f packets/CPU-s; network hops/CPU-s: event loop"
                        + " %.0f, windows 1 thread %.0f; wall hops/s 1 thread %.0f, 2 threads %.0f (CPU %.2fx)%n", r, single,
                        loop.hopsPerCpuSecond(), one.hopsPerCpuSecond(), one.hopsPerWallSecond(),
                        two.hopsPerWallSecond(), cpuTwoPerOne[r]);
            }
        }
        System.out.printf(Locale.ROOT, "%s, medians of %d rounds (load average %.2f): network hops per CPU-s on 1 thread"
                + " / one switch's packets per CPU-s = %.2f; windows / event loop (1 thread, CPU) = %.2f; 2 threads / 1"
                + " thread (wall) = %.2f, using %.2fx the CPU time%n", topology, rounds, OS.getSystemLoadAverage(),
                median(hopsPerSwitch), median(windowsPerLoop), median(twoPerOne), median(cpuTwoPerOne));
    }

    /** One network run: its packet-hops, elapsed time, the caller's CPU time and the process's. */
    private record Run(long hops, long wallNs, long callerCpuNs, long processCpuNs) {
        double hopsPerCpuSecond() {
            return hops * 1e9 / callerCpuNs;
        }

        double hopsPerWallSecond() {
            return hops * 1e9 / wallNs;
        }
    }

    private static double median(double[] v) {
        double[] s = v.clone();
        Arrays.sort(s);
        return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
    }

    /** Packets per CPU-second of one tofino1 switch running {@code counter} at 100 Gb/s, checks on. */
    private static double singleSwitch(PackedRecords trace) {
        TargetProfile profile = TargetProfiles.builtIn("tofino1");
        StageProgram prog = ProgramPlugins.registry().build("counter", Map.of());
        SwitchEngine engine = new SwitchEngine(new SwitchConfig(profile, prog, SwitchConfig.defaultPorts(profile),
                PortConfig.strictPriority(100), true));
        long start = THREADS.getCurrentThreadCpuTime();
        InMemoryTrace.replay(engine, trace, PACKETS, new PacketRecord());
        return PACKETS * 1e9 / (THREADS.getCurrentThreadCpuTime() - start);
    }

    /**
     * The network on {@code threads} threads, the trace injected at 40 Gb/s; with {@code eventLoop},
     * a delivery listener (told nothing) keeps the event-by-event loop.
     */
    private static Run network(Topology topo, PackedRecords trace, int threads, boolean eventLoop) {
        NetworkEngine net = NetworkEngine.build(topo, NetworkOptions.of(1).withThreads(threads));
        if (eventLoop) {
            net.onDelivery((host, cycle, record) -> { });
        }
        ArrivalTiming timing = ArrivalTiming.parse("rate:40G", net.clock());
        PacketRecord view = new PacketRecord();
        long process = OS.getProcessCpuTime();
        long cpu = THREADS.getCurrentThreadCpuTime();
        long start = HostClock.nanos();
        for (int i = 0; i < PACKETS; i++) {
            PacketRecord r = trace.get(i, view);
            net.inject(1 + timing.next(r.timestampNs(), r.wireLength()), r);
        }
        net.drain();
        long ns = HostClock.nanos() - start;
        cpu = THREADS.getCurrentThreadCpuTime() - cpu;
        process = OS.getProcessCpuTime() - process;
        long hops = 0;
        for (int s = 0; s < net.switchCount(); s++) {
            hops += net.switchEngine(s).counters().packetsIn();
        }
        return new Run(hops, ns, cpu, process);
    }
}
