package dev.rmtemu.emulator.network;

import dev.rmtemu.traces.PacketRecord;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Packets a link direction holds back so that later packets overtake them (the
 * reorder impairment): a fixed buffer of records in arrival order, each with the
 * number of overtakes still wanted. Sized by the largest displacement the
 * impairments can ask for; a hold asked when it is full is refused (the packet
 * passes in order) and counted, as in {@code ImpairedSource}. No allocation.
 */
final class LinkHold {
    private final UnsafeBuffer records;
    private final PacketRecord view = new PacketRecord();
    private final long[] index;
    private final long[] ownArrival;
    private final int[] left;
    private final int[] wanted;
    private final int[] copies;
    private final int[] hops;
    private final int capacity;
    private int count;
    private long refused;

    private final int frameCapacity;
    private final int stride;

    LinkHold(int capacity, int frameCapacity) {
        this.capacity = Math.max(1, capacity);
        this.frameCapacity = frameCapacity;
        this.stride = PacketRecord.stride(frameCapacity);
        this.records = new UnsafeBuffer(new byte[this.capacity * stride]);
        this.index = new long[this.capacity];
        this.ownArrival = new long[this.capacity];
        this.left = new int[this.capacity];
        this.wanted = new int[this.capacity];
        this.copies = new int[this.capacity];
        this.hops = new int[this.capacity];
    }

    /** Holds a copy of {@code rec} until {@code overtakes} later packets passed; false if full. */
    boolean hold(PacketRecord rec, int hopCount, long linkIndex, int overtakes, int extraCopies,
                 long arrivalCycle) {
        if (count == capacity) {
            refused++;
            return false;
        }
        int s = count++;
        view.wrap(records, s * stride, frameCapacity).copyFrom(rec);
        index[s] = linkIndex;
        ownArrival[s] = arrivalCycle;
        left[s] = overtakes;
        wanted[s] = overtakes;
        copies[s] = extraCopies;
        hops[s] = hopCount;
        return true;
    }

    /** One later packet passed every held packet. */
    void overtaken() {
        for (int s = 0; s < count; s++) {
            left[s]--;
        }
    }

    /** First held slot whose overtakes are complete, or -1. */
    int due() {
        for (int s = 0; s < count; s++) {
            if (left[s] <= 0) {
                return s;
            }
        }
        return -1;
    }

    int count() {
        return count;
    }

    PacketRecord record(int s) {
        return view.wrap(records, s * stride, frameCapacity);
    }

    long linkIndex(int s) {
        return index[s];
    }

    long ownArrival(int s) {
        return ownArrival[s];
    }

    int overtakes(int s) {
        return wanted[s] - Math.max(0, left[s]);
    }

    int copies(int s) {
        return copies[s];
    }

    /** Switches the held packet has passed through. */
    int hops(int s) {
        return hops[s];
    }

    /** Removes slot {@code s}, keeping the others in arrival order. */
    void remove(int s) {
        int last = count - 1;
        if (s < last) {
            records.putBytes(s * stride, records, (s + 1) * stride, (last - s) * stride);
            System.arraycopy(index, s + 1, index, s, last - s);
            System.arraycopy(ownArrival, s + 1, ownArrival, s, last - s);
            System.arraycopy(left, s + 1, left, s, last - s);
            System.arraycopy(wanted, s + 1, wanted, s, last - s);
            System.arraycopy(copies, s + 1, copies, s, last - s);
            System.arraycopy(hops, s + 1, hops, s, last - s);
        }
        count = last;
    }

    /** Holds refused because the buffer was full. */
    long refused() {
        return refused;
    }
}
