package dev.rmtemu.emulator.run;

import dev.rmtemu.emulator.spi.ProgramPlugins;
import java.util.TreeSet;
import dev.rmtemu.emulator.spi.ProgramControlPlane;
import dev.rmtemu.emulator.spi.ProgramReport;
import dev.rmtemu.emulator.spi.ReplayOptions;
import dev.rmtemu.emulator.spi.ReplayResult;
import dev.rmtemu.emulator.engine.ArrivalTiming;
import dev.rmtemu.emulator.host.DiskFull;
import dev.rmtemu.emulator.host.HostClock;
import dev.rmtemu.emulator.engine.SwitchEngine;
import dev.rmtemu.emulator.journal.ExportJournal;
import dev.rmtemu.emulator.journal.JournalKinds;
import dev.rmtemu.emulator.network.NetworkEngine;
import dev.rmtemu.emulator.network.NetworkOptions;
import dev.rmtemu.emulator.topology.Topology;
import dev.rmtemu.emulator.topology.TopologySpec;
import dev.rmtemu.model.UserError;
import dev.rmtemu.traces.PacketRecord;
import dev.rmtemu.traces.PacketSource;
import dev.rmtemu.traces.spec.TraceSpec;

import dev.rmtemu.emulator.spi.RunResults;
import dev.rmtemu.emulator.capture.RunCaptures;
import dev.rmtemu.emulator.rundir.RunDirectory;
import dev.rmtemu.emulator.rundir.StopRequest;

import java.util.ArrayList;
import java.util.List;

/**
 * Replays a trace through a network ({@code --topology}): the reader thread feeds
 * records through the packet ring as in {@link Replay}; the engine thread injects
 * each at its arrival cycle (the replay timing applied to the whole trace) into
 * a {@link NetworkEngine}, drains it at the end and checks network conservation.
 * The run directory gets what the {@link RunRecorder} writes for a network, the export journal and
 * report.html; {@code --control} lines name their switch ({@code on SWITCH}). The
 * control planes of the switches' programs ({@link ProgramControlPlane}) start after
 * the control script and before the first packet, and finish before the journal closes.
 */
public final class NetworkReplay {
    private NetworkReplay() {
    }

    public static ReplayResult run(ReplayOptions o, Replay.Progress progress) {
        return run(o, progress, null, null);
    }

    /** As {@link #run(ReplayOptions, Replay.Progress)}, stopping early (report marked incomplete) when {@code stop} asks. */
    public static ReplayResult run(ReplayOptions o, Replay.Progress progress, StopRequest stop) {
        return run(o, progress, null, stop);
    }

    /** As {@link #run(ReplayOptions, Replay.Progress)} with the given control planes (null: the registered ones). */
    static ReplayResult run(ReplayOptions o, Replay.Progress progress, List<ProgramControlPlane> given) {
        return run(o, progress, given, null);
    }

    static ReplayResult run(ReplayOptions o, Replay.Progress progress, List<ProgramControlPlane> given, StopRequest stop) {
        if (o.topology() == null) {
            throw new IllegalArgumentException("network replay without a topology");
        }
        // every input is checked before the run directory is touched
        Topology topology = TopologySpec.parse(o.topology());
        NetworkEngine net = NetworkEngine.build(topology,
                new NetworkOptions(o.program(), o.params(), o.enforce(), o.seed(), o.maxHops(), o.snapLength(), o.threads()), ProgramPlugins.registry());
        if (o.control() != null) {
            ControlScript.apply(o.control(), net);
        }
        ArrivalTiming timing = ArrivalTiming.parse(o.timing(), net.clock());
        TreeSet<String> programs = new TreeSet<>();
        for (int s = 0; s < net.switchCount(); s++) {
            programs.add(net.switchProgram(s));
        }
        List<ProgramControlPlane> planes = given != null ? given : ProgramControlPlane.forPrograms(programs);
        for (ProgramControlPlane c : planes) {
            c.checkNetwork(net, o);
        }
        // with outputs, the whole trace before the run directory is touched: damage found only at its
        // end (a cut-off capture, a store record that fails its checksum) must not cost the previous run
        PacketSource first = o.out() != null ? TraceSpec.openVerified(o.trace()) : TraceSpec.open(o.trace());
        PacketSource source = LoopedSource.of(first, () -> TraceSpec.open(o.trace()), o.loops());
        if (progress != null) {
            progress.total(Replay.expectedPackets(source, o.maxPackets()));
        }
        net.stopWhen(stop == null ? null : stop::requested);
        RunCaptures captures = null;
        try (RunDirectory rd = Replay.openRunDirectory(o, source)) {
            try {
                JournalKinds kinds = ProgramControlPlane.kinds(planes);
                for (int s = 0; s < net.switchCount(); s++) {
                    DigestExport.register(kinds, net.switchEngine(s).state().program());
                    IdleSweep.register(kinds, net.switchEngine(s).state().program());
                }
                ExportJournal journal = rd == null ? null : rd.createJournal(kinds);
                for (int s = 0; s < net.switchCount(); s++) {
                    // each switch's digests and aged-out entries, named by its ordinal (as the control planes name it)
                    SwitchEngine e = net.switchEngine(s);
                    e.onDigest(DigestExport.of(journal, s, e.state().program()));
                    IdleSweep.start(e, journal, s);
                }
                captures = Replay.captures(rd, o, () -> RunCaptures.forNetwork(rd, o.capture(), net));
                Injector injector = new Injector(net, timing, progress);
                long hostStart = HostClock.nanos();
                List<ProgramControlPlane.Session> sessions = new ArrayList<>();
                for (ProgramControlPlane c : planes) {
                    sessions.add(c.startNetwork(net, o, journal));
                }
                String stoppedBy = RunLoop.run(source, o.maxPackets(), net.frameCapacity(), injector, sessions, net::drain, net::now, journal, stop);
                long hostNs = HostClock.nanos() - hostStart;
                // the captures close before the report lists the run's files: stopped or not, they are whole
                List<String> captureWarnings = captures == null ? List.of() : captures.finish();
                net.checkConservation(stoppedBy == null);
                if (progress != null) {
                    progress.done(injector.packets);
                }
                ReplayResult run = ReplayResult.ofNetwork(o, net, injector.packets, source.skipped(), hostNs, injector.firstArrival,
                        injector.lastArrival, stoppedBy, RunResults.NONE)
                        .withOutputWarnings(captureWarnings);
                // read from the switches (and the closed journal) once, for report.json, results/*.csv and the summary
                ReplayResult r = stoppedBy != null ? run : run.withResults(ProgramReport.collectNetwork(run));
                if (rd != null) {
                    RunRecorder.installed().write(r, rd);
                }
                return r;
            } catch (DiskFull e) {
                // a full file system ends the run as a stop does: report.json says complete: false and why
                if (captures != null) {
                    captures.close();
                }
                if (rd != null) {
                    rd.failed(e);
                }
                throw e;
            } finally {
                if (captures != null) {
                    captures.close(); // after a failure; a no-op once finished
                }
            }
        }
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
