package dev.rmtemu.emulator.run;

import dev.rmtemu.emulator.spi.ProgramPlugins;
import dev.rmtemu.emulator.spi.ProgramControlPlane;
import dev.rmtemu.emulator.spi.ProgramReport;
import dev.rmtemu.emulator.spi.ReplayOptions;
import dev.rmtemu.emulator.spi.ReplayResult;
import dev.rmtemu.emulator.engine.ArrivalTiming;
import dev.rmtemu.emulator.host.DiskFull;
import dev.rmtemu.emulator.host.HostClock;
import dev.rmtemu.emulator.engine.SwitchConfig;
import dev.rmtemu.emulator.engine.SwitchEngine;
import dev.rmtemu.emulator.journal.ExportJournal;
import dev.rmtemu.emulator.journal.JournalKinds;
import dev.rmtemu.emulator.tm.PortConfig;
import dev.rmtemu.model.program.StageProgram;
import dev.rmtemu.model.target.TargetProfile;
import dev.rmtemu.model.target.TargetProfiles;
import dev.rmtemu.traces.PacketRecord;
import dev.rmtemu.traces.PacketSource;
import dev.rmtemu.traces.spec.TraceSpec;

import dev.rmtemu.emulator.spi.RunResults;
import dev.rmtemu.emulator.capture.RunCaptures;
import dev.rmtemu.emulator.rundir.RunDirectory;
import dev.rmtemu.emulator.rundir.StopRequest;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * Replays a trace through one switch: a reader thread feeds packet records
 * through the packet ring, the engine thread turns them into arrivals and runs
 * the timeline, and at the end the run directory gets report.json,
 * resources.json, latency histograms (.hgrm), the export journal and report.html.
 * The program's control plane ({@link ProgramControlPlane}), if it has one, starts
 * before the first packet and finishes after the drain, before the journal closes.
 */
public final class Replay {
    /** Records handed to the engine per ring drain. */
    public static final int DRAIN_BATCH = 256;

    /** Observes progress (host side); called every {@link #PROGRESS_EVERY} packets. */
    public interface Progress {
        void update(long packets);

        void done(long packets);

        /** The packets the run will read, once the trace is open (negative: not known in advance). */
        default void total(long packets) {
        }
    }

    /**
     * The packets a run of {@code source} reads: its known count, capped by {@code maxPackets}
     * (0 = no cap); {@code maxPackets} alone when the count is not known; negative when neither is.
     */
    static long expectedPackets(PacketSource source, long maxPackets) {
        long known = source.knownCount();
        if (maxPackets <= 0) {
            return known;
        }
        return known < 0 ? maxPackets : Math.min(known, maxPackets);
    }

    /** Packets between progress callbacks. */
    public static final long PROGRESS_EVERY = 1 << 16;

    private Replay() {
    }

    public static ReplayResult run(ReplayOptions o, Progress progress) {
        return run(o, progress, (StopRequest) null);
    }

    /** As {@link #run(ReplayOptions, Progress)}, stopping early (report marked incomplete) when {@code stop} asks. */
    public static ReplayResult run(ReplayOptions o, Progress progress, StopRequest stop) {
        return run(o, progress, ProgramControlPlane.forPrograms(List.of(o.program())), stop);
    }

    /** As {@link #run(ReplayOptions, Progress)} with the given control planes instead of the registered ones. */
    static ReplayResult run(ReplayOptions o, Progress progress, List<ProgramControlPlane> planes) {
        return run(o, progress, planes, null);
    }

    static ReplayResult run(ReplayOptions o, Progress progress, List<ProgramControlPlane> planes, StopRequest stop) {
        return run(o, progress, planes, stop, true);
    }

    /** As {@link #run(ReplayOptions, Progress, List, StopRequest)}, the switch's cut-through on or off (the tests' A/B). */
    static ReplayResult run(ReplayOptions o, Progress progress, List<ProgramControlPlane> planes, StopRequest stop,
                            boolean cutThrough) {
        // every input is checked before the run directory is touched
        TargetProfile profile = TargetProfiles.load(o.target());
        StageProgram program = ProgramPlugins.registry(o.p4Options(), o.seed()).build(o.program(), o.params());
        int ports = o.ports() == 0 ? SwitchConfig.defaultPorts(profile) : o.ports();
        SwitchConfig cfg = new SwitchConfig(profile, program, ports, PortConfig.strictPriority(o.portGbps()), o.enforce());
        int snap = o.snapLength() == ReplayOptions.WINDOW_SNAP ? profile.parser().windowBytes() : o.snapLength();
        SwitchEngine engine = new SwitchEngine(cfg, snap);
        engine.cutThrough(cutThrough);
        if (o.control() != null) {
            ControlScript.apply(o.control(), engine);
        }
        ArrivalTiming timing = ArrivalTiming.parse(o.timing(), engine.clock(), o.portGbps());
        for (ProgramControlPlane c : planes) {
            c.check(engine, o);
        }
        // with outputs, the whole trace before the run directory is touched: damage found only at its
        // end (a cut-off capture, a store record that fails its checksum) must not cost the previous run
        PacketSource first = o.out() != null ? TraceSpec.openVerified(o.trace()) : TraceSpec.open(o.trace());
        PacketSource source = LoopedSource.of(first, () -> TraceSpec.open(o.trace()), o.loops());
        if (progress != null) {
            progress.total(expectedPackets(source, o.maxPackets()));
        }
        engine.stopWhen(stop == null ? null : stop::requested);
        RunCaptures captures = null;
        try (RunDirectory rd = openRunDirectory(o, source)) {
            try {
                JournalKinds kinds = ProgramControlPlane.kinds(planes);
                DigestExport.register(kinds, engine.state().program());
                IdleSweep.register(kinds, engine.state().program());
                ExportJournal journal = rd == null ? null : rd.createJournal(kinds);
                engine.onDigest(DigestExport.of(journal, 0, engine.state().program()));
                captures = Replay.captures(rd, o, () -> RunCaptures.forSwitch(rd, o.capture(), engine));
                Feeder feeder = new Feeder(engine, timing, ports, progress);
                long hostStart = HostClock.nanos();
                List<ProgramControlPlane.Session> sessions = new ArrayList<>();
                for (ProgramControlPlane c : planes) {
                    sessions.add(c.start(engine, o, journal));
                }
                IdleSweep.start(engine, journal);
                String stoppedBy = RunLoop.run(source, o.maxPackets(), engine.frameCapacity(), feeder, sessions, engine::drain, engine::now, journal, stop);
                long hostNs = HostClock.nanos() - hostStart;
                // the captures close before the report lists the run's files: stopped or not, they are whole
                List<String> captureWarnings = captures == null ? List.of() : captures.finish();
                engine.checkConservation();
                if (progress != null) {
                    progress.done(feeder.packets);
                }
                ReplayResult run = ReplayResult.ofSwitch(o, engine, feeder.packets, source.skipped(), hostNs,
                        feeder.firstArrival, feeder.lastArrival, stoppedBy, RunResults.NONE)
                        .withOutputWarnings(captureWarnings);
                // read from the switch (and the closed journal) once, for report.json, results/*.csv and the summary
                ReplayResult result = stoppedBy != null ? run : run.withResults(ProgramReport.collect(run));
                if (rd != null) {
                    RunRecorder.installed().write(result, rd);
                }
                return result;
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

    /** The captures and packet log {@code o} asks for, started in {@code rd}; null when it asks for none. */
    static RunCaptures captures(RunDirectory rd, ReplayOptions o, Supplier<RunCaptures> start) {
        if (!o.capture().any()) {
            return null;
        }
        if (rd == null) {
            throw new IllegalArgumentException("captures and a packet log need a run directory (out)");
        }
        return start.get();
    }

    /**
     * Takes the run directory of {@code o} (null: no outputs) once the inputs are checked;
     * closes {@code source} if it is refused.
     */
    static RunDirectory openRunDirectory(ReplayOptions o, PacketSource source) {
        if (o.out() == null) {
            return null;
        }
        try {
            return RunDirectory.open(o.out(), o.force(), RunRecorder.installed().inputs(o));
        } catch (RuntimeException e) {
            source.close();
            throw e;
        }
    }

    /** The engine side of the ring: records in, arrivals out. */
    private static final class Feeder extends TraceFeed {
        private final SwitchEngine engine;
        private final int ports;
        private long chunkStart;

        Feeder(SwitchEngine engine, ArrivalTiming timing, int ports, Progress progress) {
            super(timing, progress);
            this.engine = engine;
            this.ports = ports;
        }

        @Override
        void deliver(long cycle, PacketRecord r) {
            // a trace port beyond the switch's front panel wraps around
            engine.arrive(cycle, r.ingressPort() % ports, r);
        }

        @Override
        void chunkDone() {
            // host time per packet, averaged over the chunk (a host metric, kept apart)
            long t = HostClock.nanos();
            if (chunkStart != 0) {
                engine.metrics().recordHostProcessingNs((t - chunkStart) / PROGRESS_EVERY);
            }
            chunkStart = t;
        }
    }
}
