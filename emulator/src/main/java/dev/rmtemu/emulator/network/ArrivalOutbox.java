package dev.rmtemu.emulator.network;

import dev.rmtemu.traces.PacketRecord;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.Arrays;

/**
 * Link arrivals one worker's switches sent, during a window, to switches another worker runs:
 * copies of the records with their arrival cycle, destination switch and port and hop
 * count, in the order they were sent. Written by the sending worker inside a window, read by the
 * receiving one after the barrier. Grows geometrically while warming up, then allocates nothing.
 */
final class ArrivalOutbox {
    private static final int INITIAL = 64;

    private final int frameCapacity;
    private final int stride;
    private final PacketRecord view = new PacketRecord();
    private UnsafeBuffer records;
    private long[] at = new long[INITIAL];
    private int[] toSwitch = new int[INITIAL];
    private int[] port = new int[INITIAL];
    private int[] hops = new int[INITIAL];
    private int size;

    ArrivalOutbox(int frameCapacity) {
        this.frameCapacity = frameCapacity;
        this.stride = PacketRecord.stride(frameCapacity);
        this.records = new UnsafeBuffer(new byte[INITIAL * stride]);
    }

    void add(long cycle, int toSwitchOrdinal, int enginePort, PacketRecord rec, int hopCount) {
        if (size == at.length) {
            grow();
        }
        int i = size++;
        view.wrap(records, i * stride, frameCapacity).copyFrom(rec);
        at[i] = cycle;
        toSwitch[i] = toSwitchOrdinal;
        port[i] = enginePort;
        hops[i] = hopCount;
    }

    private void grow() {
        int n = at.length * 2;
        UnsafeBuffer bigger = new UnsafeBuffer(new byte[Math.multiplyExact(n, stride)]);
        bigger.putBytes(0, records, 0, size * stride);
        records = bigger;
        at = Arrays.copyOf(at, n);
        toSwitch = Arrays.copyOf(toSwitch, n);
        port = Arrays.copyOf(port, n);
        hops = Arrays.copyOf(hops, n);
    }

    int size() {
        return size;
    }

    long at(int i) {
        return at[i];
    }

    int toSwitch(int i) {
        return toSwitch[i];
    }

    int port(int i) {
        return port[i];
    }

    int hops(int i) {
        return hops[i];
    }

    /** Entry {@code i}'s record (a view valid until the next call). */
    PacketRecord record(int i) {
        return view.wrap(records, i * stride, frameCapacity);
    }

    void clear() {
        size = 0;
    }
}
