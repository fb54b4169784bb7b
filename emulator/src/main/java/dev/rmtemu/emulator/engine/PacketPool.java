package dev.rmtemu.emulator.engine;

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
    private long[] packetNumber;
    private long[] arrivalCycle;
    private int[] ingressPort;
    private int[] resubmits;
    private int[] hops;
    private long[] shim;
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
        this.packetNumber = new long[0];
        this.arrivalCycle = new long[0];
        this.ingressPort = new int[0];
        this.resubmits = new int[0];
        this.hops = new int[0];
        this.shim = new long[0];
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
        packetNumber = Arrays.copyOf(packetNumber, newCapacity);
        arrivalCycle = Arrays.copyOf(arrivalCycle, newCapacity);
        ingressPort = Arrays.copyOf(ingressPort, newCapacity);
        resubmits = Arrays.copyOf(resubmits, newCapacity);
        hops = Arrays.copyOf(hops, newCapacity);
        shim = Arrays.copyOf(shim, newCapacity);
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
        resubmits[s] = 0;
        hops[s] = 0;
        shim[s] = 0;
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
        org.agrona.DirectBuffer src = from.buffer();
        int s = from.offset();
        int d = slot * PacketRecord.LENGTH;
        for (int i = 0; i < PacketRecord.LENGTH; i += Long.BYTES) {
            records.putLong(d + i, src.getLong(s + i));
        }
    }

    public void copy(int fromSlot, int toSlot) {
        records.putBytes(toSlot * PacketRecord.LENGTH, records, fromSlot * PacketRecord.LENGTH, PacketRecord.LENGTH);
        phvs[toSlot].copyFrom(phvs[fromSlot]);
        packetNumber[toSlot] = packetNumber[fromSlot];
        arrivalCycle[toSlot] = arrivalCycle[fromSlot];
        ingressPort[toSlot] = ingressPort[fromSlot];
        shim[toSlot] = shim[fromSlot];
        hops[toSlot] = hops[fromSlot];
    }

    /** Switches the packet passed through before this one (in a network; 0 for a trace packet). */
    public int hops(int slot) {
        return hops[slot];
    }

    public void hops(int slot, int n) {
        hops[slot] = n;
    }

    /** The packet's shim header word (see {@code ParsedField.SHIM}): as it arrived, or as the deparser emitted it at departure. */
    public long shim(int slot) {
        return shim[slot];
    }

    public void shim(int slot, long word) {
        shim[slot] = word;
    }

    public long packetNumber(int slot) {
        return packetNumber[slot];
    }

    public void packetNumber(int slot, long n) {
        packetNumber[slot] = n;
    }

    public long arrivalCycle(int slot) {
        return arrivalCycle[slot];
    }

    public void arrivalCycle(int slot, long c) {
        arrivalCycle[slot] = c;
    }

    public int ingressPort(int slot) {
        return ingressPort[slot];
    }

    public void ingressPort(int slot, int port) {
        ingressPort[slot] = port;
    }

    public int resubmits(int slot) {
        return resubmits[slot];
    }

    public void resubmitted(int slot) {
        resubmits[slot]++;
    }
}
