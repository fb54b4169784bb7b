package dev.rmtemu.emulator.replay;

import dev.rmtemu.emulator.engine.ArrivalTiming;
import dev.rmtemu.emulator.host.HostClock;
import dev.rmtemu.emulator.engine.SwitchConfig;
import dev.rmtemu.emulator.engine.SwitchEngine;
import dev.rmtemu.emulator.journal.ExportJournal;
import dev.rmtemu.emulator.ring.PacketRing;
import dev.rmtemu.emulator.ring.RingConfig;
import dev.rmtemu.emulator.tm.PortConfig;
import dev.rmtemu.model.UserError;
import dev.rmtemu.model.program.ProgramRegistry;
import dev.rmtemu.model.program.StageProgram;
import dev.rmtemu.model.target.TargetProfile;
import dev.rmtemu.model.target.TargetProfiles;
import dev.rmtemu.traces.PacketRecord;
import dev.rmtemu.traces.PacketSource;
import dev.rmtemu.traces.TraceSpec;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

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
    }

    /** Packets between progress callbacks. */
    public static final long PROGRESS_EVERY = 1 << 16;

    private Replay() {
    }

    public static ReplayResult run(ReplayOptions o, Progress progress) {
        return run(o, progress, ProgramControlPlane.forPrograms(List.of(o.program())));
    }

    /** As {@link #run(ReplayOptions, Progress)} with the given control planes instead of the registered ones. */
    static ReplayResult run(ReplayOptions o, Progress progress, List<ProgramControlPlane> planes) {
        TargetProfile profile = TargetProfiles.load(o.target());
        StageProgram program = new ProgramRegistry().build(o.program(), o.params());
        int ports = o.ports() == 0 ? SwitchConfig.defaultPorts(profile) : o.ports();
        SwitchConfig cfg = new SwitchConfig(profile, program, ports, PortConfig.strictPriority(o.portGbps()), o.enforce());
        SwitchEngine engine = new SwitchEngine(cfg);
        if (o.control() != null) {
            ControlScript.apply(o.control(), engine);
        }
        ArrivalTiming timing = ArrivalTiming.parse(o.timing(), engine.clock());
        ExportJournal journal = openRunDirectory(o.out(), ProgramControlPlane.kinds(planes));
        Feeder feeder = new Feeder(engine, timing, ports, progress);
        long hostStart = HostClock.nanos();
        PacketSource source = TraceSpec.open(o.trace());
        try {
            List<ProgramControlPlane.Session> sessions = new ArrayList<>();
            for (ProgramControlPlane c : planes) {
                sessions.add(c.start(engine, o, journal));
            }
            try (source; PacketRing ring = new PacketRing(RingConfig.DEFAULT, TraceFeed.producer(source, o.maxPackets()))) {
                ring.start();
                ring.drainAll(feeder);
            }
            for (ProgramControlPlane.Session s : sessions) {
                s.inputDone(feeder.lastArrival);
            }
            engine.drain();
            for (ProgramControlPlane.Session s : sessions) {
                s.finish(engine.now());
            }
        } finally {
            // after the drain: control operations during it may still export
            if (journal != null) {
                journal.close();
            }
        }
        long hostNs = HostClock.nanos() - hostStart;
        engine.checkConservation();
        if (progress != null) {
            progress.done(feeder.packets);
        }
        ReplayResult result = new ReplayResult(o, engine, feeder.packets, source.skipped(), hostNs,
                feeder.firstArrival, feeder.lastArrival);
        if (o.out() != null) {
            try {
                RunOutputs.write(result, o.out());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return result;
    }

    /**
     * Creates the run directory (null: no outputs) and its export journal. A run
     * directory is rewritten by the next run into it, so an old journal goes first.
     */
    static ExportJournal openRunDirectory(Path out) {
        return openRunDirectory(out, new dev.rmtemu.emulator.journal.JournalKinds());
    }

    /** As {@link #openRunDirectory(Path)}, the journal registering {@code kinds}. */
    static ExportJournal openRunDirectory(Path out, dev.rmtemu.emulator.journal.JournalKinds kinds) {
        if (out == null) {
            return null;
        }
        try {
            Files.createDirectories(out);
        } catch (IOException e) {
            throw new UserError("cannot create run directory " + out + ": " + OutputPaths.cause(e), e);
        }
        deleteTree(out.resolve("journal"));
        return ExportJournal.create(out, kinds);
    }

    private static void deleteTree(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (java.util.stream.Stream<Path> walk = Files.walk(dir)) {
            for (Path p : walk.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        } catch (IOException e) {
            throw new UserError("cannot clear " + dir + " for a new run: " + e.getMessage(), e);
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
