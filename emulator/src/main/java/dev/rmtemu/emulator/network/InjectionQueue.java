package dev.rmtemu.emulator.network;

import dev.rmtemu.traces.PacketRecord;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.Arrays;

/**
 * Trace packets the caller injected, waiting for the part that owns their source host's link
 * (the part of the switch at its far end): copies of the records, their host map already applied,
 * with the injection cycle and the host's channel, in injection order. The caller fills it between
 * two windows; the owning part empties it at the start of its next window (its thread then builds
 * each frame and sends it on the link), so a part's injection work runs beside the others' instead
 * of on the caller. Grows geometrically while warming up, then allocates nothing.
 */
final class InjectionQueue {
    private static final int INITIAL = 64;

    private final int frameCapacity;
    private final int stride;
    private final PacketRecord view = new PacketRecord();
    private UnsafeBuffer records;
    private long[] cycle = new long[INITIAL];
    private int[] channel = new int[INITIAL];
    private int size;

    InjectionQueue(int frameCapacity) {
        this.frameCapacity = frameCapacity;
        this.stride = PacketRecord.stride(frameCapacity);
        this.records = new UnsafeBuffer(new byte[INITIAL * stride]);
    }

    void add(long injectionCycle, int hostChannel, PacketRecord rec) {
        if (size == cycle.length) {
            grow();
        }
        int i = size++;
        view.wrap(records, i * stride, frameCapacity).copyFrom(rec);
        cycle[i] = injectionCycle;
        channel[i] = hostChannel;
    }

    private void grow() {
        int n = cycle.length * 2;
        UnsafeBuffer bigger = new UnsafeBuffer(new byte[Math.multiplyExact(n, stride)]);
        bigger.putBytes(0, records, 0, size * stride);
        records = bigger;
        cycle = Arrays.copyOf(cycle, n);
        channel = Arrays.copyOf(channel, n);
    }

    int size() {
        return size;
    }

    long cycle(int i) {
        return cycle[i];
    }

    int channel(int i) {
        return channel[i];
    }

    /** Entry {@code i}'s record (a view valid until the next call), which its owner may rewrite in place. */
    PacketRecord record(int i) {
        return view.wrap(records, i * stride, frameCapacity);
    }

    void clear() {
        size = 0;
    }
}
