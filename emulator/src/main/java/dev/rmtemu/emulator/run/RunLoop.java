package dev.rmtemu.emulator.run;

import dev.rmtemu.emulator.spi.ProgramControlPlane;
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
 * drained, the control planes finished, the journal closed. A stop request ends the input
 * at the next drain batch and skips the drain (nothing more is processed); the journal's end
 * message is then marked aborted, as it is when the run fails.
 */
final class RunLoop {
    private RunLoop() {
    }

    /**
     * Runs to the end and returns null, or returns the stop request's reason when it stopped
     * the run early. Closes {@code source} and {@code journal} (may be null).
     */
    static String run(PacketSource source, long maxPackets, TraceFeed feed, List<ProgramControlPlane.Session> sessions,
                      Runnable drain, LongSupplier now, ExportJournal journal, StopRequest stop) {
        boolean finished = false;
        String stoppedBy = null;
        try {
            try (source; PacketRing ring = new PacketRing(RingConfig.DEFAULT, TraceFeed.producer(source, maxPackets))) {
                ring.start();
                ring.drainAll(feed, stop == null ? () -> false : stop::requested);
                if (!ring.isEnded()) {
                    stoppedBy = stop.reason();
                }
            }
            if (stoppedBy == null) {
                for (ProgramControlPlane.Session s : sessions) {
                    s.inputDone(feed.lastArrival);
                }
                drain.run();
                for (ProgramControlPlane.Session s : sessions) {
                    s.finish(now.getAsLong());
                }
                finished = true;
            }
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
