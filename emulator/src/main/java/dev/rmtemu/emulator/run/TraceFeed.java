package dev.rmtemu.emulator.run;

import dev.rmtemu.emulator.engine.ArrivalTiming;
import dev.rmtemu.emulator.ring.PacketRing;
import dev.rmtemu.emulator.ring.RecordHandler;
import dev.rmtemu.emulator.ring.RecordProducer;
import dev.rmtemu.traces.PacketRecord;
import dev.rmtemu.traces.PacketSource;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Both ends of a replay's packet ring: the reader side fills ring slots from a
 * trace (up to a packet limit), the engine side turns each record into an
 * arrival cycle with the replay timing and hands it to {@link #deliver}. Counts
 * packets, remembers the first and last arrival and reports progress every
 * {@link Replay#PROGRESS_EVERY} packets.
 */
abstract class TraceFeed implements RecordHandler {
    private final ArrivalTiming timing;
    private final Replay.Progress progress;
    private final PacketRecord view = new PacketRecord();
    private UnsafeBuffer copy = new UnsafeBuffer(new byte[0]);
    long packets;
    long firstArrival = -1;
    long lastArrival;

    TraceFeed(ArrivalTiming timing, Replay.Progress progress) {
        this.timing = timing;
        this.progress = progress;
    }

    /** The engine takes one packet arriving at {@code cycle}. */
    abstract void deliver(long cycle, PacketRecord r);

    /** Called every {@link Replay#PROGRESS_EVERY} packets, before progress is reported. */
    void chunkDone() {
    }

    /**
     * The reader side: at most {@code max} records (0 = all) of {@code source}, each with the
     * frame bytes the ring's record length leaves room for (the snap length).
     */
    static RecordProducer producer(PacketSource source, long max) {
        PacketRecord into = new PacketRecord();
        long[] produced = {0};
        return (buf, offset, maxLength) -> {
            if (max > 0 && produced[0] >= max) {
                return PacketRing.END;
            }
            into.wrap(buf, offset, maxLength - PacketRecord.METADATA_BYTES);
            if (!source.next(into)) {
                return PacketRing.END;
            }
            produced[0]++;
            return into.recordBytes();
        };
    }

    @Override
    public final void onRecord(DirectBuffer buf, int offset, int length) {
        PacketRecord r;
        int frame = length - PacketRecord.METADATA_BYTES;
        if (buf instanceof MutableDirectBuffer m) {
            r = view.wrap(m, offset, frame);
        } else {
            if (copy.capacity() < length) {
                copy = new UnsafeBuffer(new byte[length]); // never: the ring's buffer is mutable
            }
            copy.putBytes(0, buf, offset, length);
            r = view.wrap(copy, 0, frame);
        }
        long at = timing.next(r.timestampNs(), r.wireLength());
        if (firstArrival < 0) {
            firstArrival = at;
        }
        lastArrival = at;
        deliver(at, r);
        packets++;
        if ((packets & (Replay.PROGRESS_EVERY - 1)) == 0) {
            chunkDone();
            if (progress != null) {
                progress.update(packets);
            }
        }
    }
}
