package dev.rmtemu.programs.wbmon.control;

import dev.rmtemu.programs.wbmon.program.WbmonPipeline;

import dev.rmtemu.emulator.engine.SwitchEngine;
import dev.rmtemu.emulator.journal.ExportJournal;
import dev.rmtemu.emulator.journal.JournalKinds;
import dev.rmtemu.emulator.journal.JournalReader;
import dev.rmtemu.emulator.topology.VConn;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The analyser's input: per vconn, the packets its upstream m-switch numbered and the
 * packets and drops its downstream m-switch counted. {@link #export} reads the counters
 * from the m-switches (control-plane register reads, every pipe) and appends one
 * {@value #KIND} message per vconn to the export journal; {@link #read} gets them back,
 * in this or another process.
 *
 * <p>The success rate must come from what was sent: the downstream window only counts
 * drops when a later packet cleans their slot (dissertation Section 4.3), so on a
 * blackholed vconn nothing arrives, nothing is cleaned and received / (received + drops)
 * would read 1.0. The upstream's sequence register ({@link WbmonPipeline#NEXT_SEQ}) says
 * how many packets entered the vconn.
 */
public final class WbmonCollector {
    public static final String KIND = "wbmon.vconn_counters";
    /** vconn id (int), sent (long), packets (long), drops (long). */
    public static final int PAYLOAD_BYTES = 28;

    /**
     * One vconn's counters.
     *
     * @param sent    packets the upstream m-switch numbered on the vconn (its next sequence number)
     * @param packets packets the downstream m-switch received on it (duplicates included)
     * @param drops   drops the downstream window detected (zero bits of cleaned slots)
     */
    public record VconnCounters(int vconn, long sent, long packets, long drops) {
        /**
         * Packets lost on the way: sent minus received, or the window's detected drops when
         * those are more (duplicates inflate the received count; a loss they hide shows as
         * a zero bit); at most what was sent.
         */
        public long lost() {
            return Math.min(sent, Math.max(drops, sent - packets));
        }

        /** The vconn's success rate y = (sent − lost) / sent; 1 when nothing was sent (no evidence). */
        public double successRate() {
            return sent == 0 ? 1.0 : (double) (sent - lost()) / sent;
        }
    }

    private WbmonCollector() {
    }

    public static void registerKinds(JournalKinds kinds) {
        kinds.register(KIND);
    }

    /** Appends the counters of every vconn of the deployment; returns them. */
    public static List<VconnCounters> export(WbmonDeployment d, ExportJournal journal, long cycle) {
        int kind = journal.kinds().id(KIND);
        if (kind < 0) {
            throw new IllegalStateException("wbmon journal kind not registered (call registerKinds first)");
        }
        UnsafeBuffer buf = new UnsafeBuffer(new byte[PAYLOAD_BYTES]);
        List<VconnCounters> out = new ArrayList<>();
        for (int id = 0; id < d.vconns().size(); id++) {
            VConn v = d.vconns().get(id);
            SwitchEngine down = d.downstream(id);
            VconnCounters c = new VconnCounters(id, WbmonPipeline.readAllPipes(d.upstream(id), WbmonPipeline.NEXT_SEQ, id),
                    WbmonPipeline.readAllPipes(down, WbmonPipeline.PACKETS, id),
                    WbmonPipeline.readDrops(down, d.pipeline().config, id));
            buf.putInt(0, id);
            buf.putLong(4, c.sent());
            buf.putLong(12, c.packets());
            buf.putLong(20, c.drops());
            journal.append(kind, cycle, v.to(), 0, buf, 0, PAYLOAD_BYTES);
            out.add(c);
        }
        return out;
    }

    /** The counters in a journal directory, in the order written. */
    public static List<VconnCounters> read(Path journalDir) {
        List<VconnCounters> out = new ArrayList<>();
        try (JournalReader reader = JournalReader.open(journalDir)) {
            reader.tail((kind, cycle, sw, pipe, payload, off, len) -> {
                if (KIND.equals(reader.kinds().name(kind)) && len == PAYLOAD_BYTES) {
                    out.add(new VconnCounters(payload.getInt(off), payload.getLong(off + 4), payload.getLong(off + 12),
                            payload.getLong(off + 20)));
                }
            });
        }
        return out;
    }
}
