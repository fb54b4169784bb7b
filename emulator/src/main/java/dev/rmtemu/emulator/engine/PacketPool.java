package dev.rmtemu.emulator.engine;

import org.agrona.DirectBuffer;
import dev.rmtemu.model.runtime.Phv;
import dev.rmtemu.traces.PacketRecord;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * In-flight packets of one switch, as struct-of-arrays slots: each has a PHV,
 * a copy of its 64-byte record, its packet number, arrival cycle and ports.
 * Slots are recycled through a free list; the pool grows (geometrically) only
 * while warming up, so steady-state replay allocates nothing.
 */
public final class PacketPool {
    private final int phvSlots;
    private Phv[] phvs;
    private UnsafeBuffer records;
    /**
     * A slot's small state in one stride of {@value #META} longs (packet number, arrival cycle,
     * shim word, ingress port, resubmits, hops): a packet that waited in a deep queue costs one
     * cache miss to account for at departure, not one per array.
     */
    private long[] meta;
    private static final int META = 8;
    private static final int PACKET_NUMBER = 0;
    private static final int ARRIVAL = 1;
    private static final int SHIM = 2;
    private static final int INGRESS_PORT = 3;
    private static final int RESUBMITS = 4;
    private static final int HOPS = 5;
    private int[] free;
    private int freeCount;
    private int capacity;
    private int inUse;
    private final PacketRecord view = new PacketRecord();

    public PacketPool(int phvSlots, int initialCapacity) {
        this.phvSlots = phvSlots;
        this.capacity = 0;
        this.phvs = new Phv[0];
        this.records = new UnsafeBuffer(ByteBuffer.allocateDirect(0));
        this.meta = new long[0];
        this.free = new int[0];
        grow(Math.max(16, initialCapacity));
    }

    private void grow(int newCapacity) {
        phvs = Arrays.copyOf(phvs, newCapacity);
        for (int i = capacity; i < newCapacity; i++) {
            phvs[i] = new Phv(phvSlots);
        }
        UnsafeBuffer bigger = new UnsafeBuffer(ByteBuffer.allocateDirect(newCapacity * PacketRecord.LENGTH));
        bigger.putBytes(0, records, 0, capacity * PacketRecord.LENGTH);
        records = bigger;
        meta = Arrays.copyOf(meta, newCapacity * META);
        int[] f = new int[newCapacity];
        System.arraycopy(free, 0, f, 0, freeCount);
        for (int i = newCapacity - 1; i >= capacity; i--) {
            f[freeCount++] = i;
        }
        free = f;
        capacity = newCapacity;
    }

    /** Takes a free slot. */
    public int acquire() {
        if (freeCount == 0) {
            grow(capacity * 2);
        }
        inUse++;
        int s = free[--freeCount];
        int m = s * META;
        meta[m + RESUBMITS] = 0;
        meta[m + HOPS] = 0;
        meta[m + SHIM] = 0;
        return s;
    }

    public void release(int slot) {
        inUse--;
        free[freeCount++] = slot;
    }

    public int inUse() {
        return inUse;
    }

    public Phv phv(int slot) {
        return phvs[slot];
    }

    /** A flyweight over the slot's record copy (valid until the next call). */
    public PacketRecord record(int slot) {
        return view.wrap(records, slot * PacketRecord.LENGTH);
    }

    public void storeRecord(int slot, PacketRecord from) {
        // eight word moves: cheaper than a 64-byte copyMemory call per packet
        DirectBuffer src = from.buffer();
        int s = from.offset();
        int d = slot * PacketRecord.LENGTH;
        for (int i = 0; i < PacketRecord.LENGTH; i += Long.BYTES) {
            records.putLong(d + i, src.getLong(s + i));
        }
    }

    public void copy(int fromSlot, int toSlot) {
        records.putBytes(toSlot * PacketRecord.LENGTH, records, fromSlot * PacketRecord.LENGTH, PacketRecord.LENGTH);
        phvs[toSlot].copyFrom(phvs[fromSlot]);
        int from = fromSlot * META;
        int to = toSlot * META;
        meta[to + PACKET_NUMBER] = meta[from + PACKET_NUMBER];
        meta[to + ARRIVAL] = meta[from + ARRIVAL];
        meta[to + INGRESS_PORT] = meta[from + INGRESS_PORT];
        meta[to + SHIM] = meta[from + SHIM];
        meta[to + HOPS] = meta[from + HOPS];
    }

    /** Switches the packet passed through before this one (in a network; 0 for a trace packet). */
    public int hops(int slot) {
        return (int) meta[slot * META + HOPS];
    }

    public void hops(int slot, int n) {
        meta[slot * META + HOPS] = n;
    }

    /** The packet's shim header word (see {@code ParsedField.SHIM}): as it arrived, or as the deparser emitted it at departure. */
    public long shim(int slot) {
        return meta[slot * META + SHIM];
    }

    public void shim(int slot, long word) {
        meta[slot * META + SHIM] = word;
    }

    public long packetNumber(int slot) {
        return meta[slot * META + PACKET_NUMBER];
    }

    public void packetNumber(int slot, long n) {
        meta[slot * META + PACKET_NUMBER] = n;
    }

    public long arrivalCycle(int slot) {
        return meta[slot * META + ARRIVAL];
    }

    public void arrivalCycle(int slot, long c) {
        meta[slot * META + ARRIVAL] = c;
    }

    public int ingressPort(int slot) {
        return (int) meta[slot * META + INGRESS_PORT];
    }

    public void ingressPort(int slot, int port) {
        meta[slot * META + INGRESS_PORT] = port;
    }

    public int resubmits(int slot) {
        return (int) meta[slot * META + RESUBMITS];
    }

    public void resubmitted(int slot) {
        meta[slot * META + RESUBMITS]++;
    }
}
