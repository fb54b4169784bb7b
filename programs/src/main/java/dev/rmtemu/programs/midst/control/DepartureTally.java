package dev.rmtemu.programs.midst.control;

import dev.rmtemu.programs.midst.program.MidstPipeline;

import dev.rmtemu.emulator.engine.PacketPool;
import dev.rmtemu.emulator.journal.ExportJournal;
import dev.rmtemu.model.runtime.Phv;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Ground truth for a replay's report, not a data-plane export: how many packets of each
 * IPv4 5-tuple left the monitored port (the emulator sees every departure). With the
 * trace's arrivals it gives each flow's true loss, against which the collector's heavy
 * losers are checked. Counting allocates only when the table grows.
 */
final class DepartureTally {
    /** Journal kind of the per-flow departure counts (written after the drain). */
    static final String KIND = "midst.truth_departed";
    /** Payload: src, dst (4 B each), proto (1), ports (2 + 2), departures (8). */
    static final int PAYLOAD_BYTES = 21;

    private final MidstPipeline p;
    private final FlowEpochTable departed = new FlowEpochTable();

    DepartureTally(MidstPipeline pipeline) {
        this.p = pipeline;
    }

    /** Counts a departure from {@code port} if it is the monitored port. */
    void departed(int port, int slot, PacketPool pool) {
        if (port != p.config.dataPort()) {
            return;
        }
        Phv phv = pool.phv(slot);
        departed.add(FlowEpochTable.key1(phv.get(p.tuple.src()), phv.get(p.tuple.dst())),
                FlowEpochTable.key2(phv.get(p.tuple.proto()), phv.get(p.tuple.srcPort()), phv.get(p.tuple.dstPort()), 0), 1);
    }

    /** Appends one message per flow, in 5-tuple order. */
    void writeTo(ExportJournal journal, long cycle, int switchId) {
        int kind = journal.kinds().id(KIND);
        UnsafeBuffer buf = new UnsafeBuffer(new byte[PAYLOAD_BYTES]);
        for (int s : departed.sortedSlots()) {
            long a = departed.k1(s);
            long b = departed.k2(s);
            buf.putInt(0, (int) (a >>> 32));
            buf.putInt(4, (int) a);
            buf.putByte(8, (byte) (b >>> 16));
            buf.putShort(9, (short) (b >>> 40));
            buf.putShort(11, (short) (b >>> 24));
            buf.putLong(13, departed.loss(s));
            journal.append(kind, cycle, switchId, 0, buf, 0, PAYLOAD_BYTES);
        }
    }
}
