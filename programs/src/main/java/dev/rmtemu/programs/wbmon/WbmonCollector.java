package dev.rmtemu.programs.wbmon;

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
 * The analyser's input: per vconn, the packets and drops its downstream m-switch
 * counted. {@link #export} reads the counters from the m-switches (control-plane
 * register reads, every pipe) and appends one {@value #KIND} message per vconn to the
 * export journal; {@link #read} gets them back, in this or another process.
 */
public final class WbmonCollector {
    public static final String KIND = "wbmon.vconn_counters";
    /** vconn id (int), packets (long), drops (long). */
    public static final int PAYLOAD_BYTES = 20;

    /** What the downstream m-switch counted on one vconn. */
    public record VconnCounters(int vconn, long packets, long drops) {
        /** Packets the upstream sent as seen from downstream: received plus detected drops. */
        public long sent() {
            return packets + drops;
        }

        /** The vconn's success rate y = packets / (packets + drops), 1 when nothing was seen. */
        public double successRate() {
            return sent() == 0 ? 1.0 : (double) packets / sent();
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
            VconnCounters c = new VconnCounters(id, WbmonDeployment.readAllPipes(down, WbmonPipeline.PACKETS, id),
                    WbmonDeployment.readAllPipes(down, WbmonPipeline.DROPS, id));
            buf.putInt(0, id);
            buf.putLong(4, c.packets());
            buf.putLong(12, c.drops());
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
                    out.add(new VconnCounters(payload.getInt(off), payload.getLong(off + 4), payload.getLong(off + 12)));
                }
            });
        }
        return out;
    }
}
