package dev.rmtemu.emulator.run;

import dev.rmtemu.emulator.spi.ProgramControlPlane;
import dev.rmtemu.emulator.engine.RunStopped;
import dev.rmtemu.emulator.journal.ExportJournal;
import dev.rmtemu.emulator.ring.PacketRing;
import dev.rmtemu.emulator.ring.RingConfig;
import dev.rmtemu.emulator.rundir.StopRequest;
import dev.rmtemu.traces.PacketSource;

import java.util.List;
import java.util.function.LongSupplier;

/**
 * The part of a run that a single-switch and a network replay share: the trace through
 * the packet ring into the engine, the control planes told the input is done, the engine
 * drained, the control planes finished, the journal closed. A stop request ends the run at
 * the next drain batch, or inside one (and inside the drain) at the engine's next look at it
 * between two events ({@link RunStopped}); nothing more is processed, and the journal's end
 * message is then marked aborted, as it is when the run fails.
 */
final class RunLoop {
    private RunLoop() {
    }

    /**
     * Runs to the end and returns null, or returns the stop request's reason when it stopped
     * the run early. Closes {@code source} and {@code journal} (may be null).
     */
    static String run(PacketSource source, long maxPackets, int snapLength, TraceFeed feed,
                      List<ProgramControlPlane.Session> sessions, Runnable drain, LongSupplier now, ExportJournal journal,
                      StopRequest stop) {
        boolean finished = false;
        String stoppedBy = null;
        try {
            try (source; PacketRing ring = new PacketRing(RingConfig.DEFAULT.forSnapLength(snapLength),
                    TraceFeed.producer(source, maxPackets))) {
                ring.start();
                ring.drainAll(feed, stop == null ? () -> false : stop::requested);
                if (!ring.isEnded()) {
                    stoppedBy = stop.reason();
                }
            } catch (RunStopped e) {
                // the engine saw the stop between two events, inside a batch
                stoppedBy = stop.reason();
            }
            if (stoppedBy == null) {
                for (ProgramControlPlane.Session s : sessions) {
                    s.inputDone(feed.lastArrival);
                }
                try {
                    drain.run();
                } catch (RunStopped e) {
                    stoppedBy = stop.reason();
                }
            }
            if (stoppedBy == null) {
                for (ProgramControlPlane.Session s : sessions) {
                    s.finish(now.getAsLong());
                }
                finished = true;
            }
        } catch (InternalError e) {
            // a fault in a memory-mapped write that surfaced outside the journal's own call: a full disk?
            if (journal == null) {
                throw e;
            }
            throw journal.mappedWriteFailure(e);
        } finally {
            // after the drain: control operations during it may still export
            if (journal != null) {
                if (finished) {
                    journal.close();
                } else {
                    journal.closeAborted();
                }
            }
        }
        return stoppedBy;
    }
}
