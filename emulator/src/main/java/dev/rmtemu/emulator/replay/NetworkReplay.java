package dev.rmtemu.emulator.replay;

import dev.rmtemu.emulator.engine.ArrivalTiming;
import dev.rmtemu.emulator.host.HostClock;
import dev.rmtemu.emulator.journal.ExportJournal;
import dev.rmtemu.emulator.network.NetworkEngine;
import dev.rmtemu.emulator.network.NetworkOptions;
import dev.rmtemu.emulator.ring.PacketRing;
import dev.rmtemu.emulator.ring.RingConfig;
import dev.rmtemu.emulator.topology.Topology;
import dev.rmtemu.emulator.topology.TopologySpec;
import dev.rmtemu.model.UserError;
import dev.rmtemu.traces.PacketRecord;
import dev.rmtemu.traces.PacketSource;
import dev.rmtemu.traces.SkipCounters;
import dev.rmtemu.traces.TraceSpec;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;

/**
 * Replays a trace through a network ({@code --topology}): the reader thread feeds
 * records through the packet ring as in {@link Replay}; the engine thread injects
 * each at its arrival cycle (the replay timing applied to the whole trace) into
 * a {@link NetworkEngine}, drains it at the end and checks network conservation.
 * The run directory gets what {@link NetworkReport} writes, the export journal and
 * report.html; {@code --control} lines name their switch ({@code on SWITCH}). The
 * control planes of the switches' programs ({@link ProgramControlPlane}) start after
 * the control script and before the first packet, and finish before the journal closes.
 */
public final class NetworkReplay {
    private NetworkReplay() {
    }

    /** What a network replay produced. */
    public record Result(ReplayOptions options, NetworkEngine network, long packetsRead, SkipCounters skipped,
                         long hostNanos, long firstArrivalCycle, long lastArrivalCycle) {
        /** Host throughput in millions of trace packets per second of wall time. */
        public double hostMpps() {
            return hostNanos == 0 ? 0 : packetsRead * 1e3 / hostNanos;
        }
    }

    public static Result run(ReplayOptions o, Replay.Progress progress) {
        return run(o, progress, null);
    }

    /** As {@link #run(ReplayOptions, Replay.Progress)} with the given control planes (null: the registered ones). */
    static Result run(ReplayOptions o, Replay.Progress progress, List<ProgramControlPlane> given) {
        if (o.topology() == null) {
            throw new IllegalArgumentException("network replay without a topology");
        }
        Topology topology = TopologySpec.parse(o.topology());
        NetworkEngine net = NetworkEngine.build(topology, new NetworkOptions(o.program(), o.params(), o.enforce(), o.seed()));
        if (o.control() != null) {
            ControlScript.apply(o.control(), net);
        }
        ArrivalTiming timing = ArrivalTiming.parse(o.timing(), net.clock());
        java.util.TreeSet<String> programs = new java.util.TreeSet<>();
        for (int s = 0; s < net.switchCount(); s++) {
            programs.add(net.switchProgram(s));
        }
        List<ProgramControlPlane> planes = given != null ? given : ProgramControlPlane.forPrograms(programs);
        ExportJournal journal = Replay.openRunDirectory(o.out(), ProgramControlPlane.kinds(planes));
        Injector injector = new Injector(net, timing, progress);
        long hostStart = HostClock.nanos();
        PacketSource source = TraceSpec.open(o.trace());
        try {
            List<ProgramControlPlane.Session> sessions = new ArrayList<>();
            for (ProgramControlPlane c : planes) {
                sessions.add(c.startNetwork(net, o, journal));
            }
            try (source; PacketRing ring = new PacketRing(RingConfig.DEFAULT, TraceFeed.producer(source, o.maxPackets()))) {
                ring.start();
                ring.drainAll(injector);
            }
            for (ProgramControlPlane.Session s : sessions) {
                s.inputDone(injector.lastArrival);
            }
            net.drain();
            for (ProgramControlPlane.Session s : sessions) {
                s.finish(net.now());
            }
        } finally {
            // after the drain: control operations during it may still export
            if (journal != null) {
                journal.close();
            }
        }
        long hostNs = HostClock.nanos() - hostStart;
        net.checkConservation();
        if (progress != null) {
            progress.done(injector.packets);
        }
        Result r = new Result(o, net, injector.packets, source.skipped(), hostNs, injector.firstArrival, injector.lastArrival);
        if (o.out() != null) {
            try {
                NetworkReport.write(r, o.out());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return r;
    }

    /** The engine side of the ring: records in, injections out. */
    private static final class Injector extends TraceFeed {
        private final NetworkEngine net;

        Injector(NetworkEngine net, ArrivalTiming timing, Replay.Progress progress) {
            super(timing, progress);
            this.net = net;
        }

        @Override
        void deliver(long cycle, PacketRecord r) {
            net.inject(cycle, r);
        }
    }
}
