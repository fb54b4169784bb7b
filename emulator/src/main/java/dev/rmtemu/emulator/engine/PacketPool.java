package dev.rmtemu.emulator.engine;

import org.agrona.DirectBuffer;
import dev.rmtemu.model.UserError;
import dev.rmtemu.model.runtime.Phv;
import dev.rmtemu.traces.PacketRecord;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * In-flight packets of one switch, as struct-of-arrays slots: each has a PHV,
 * a copy of its record (metadata and up to {@link #frameCapacity()} frame bytes),
 * its packet number, arrival cycle and ports. Records and frames live in one heap
 * byte array with a stride of {@code METADATA_BYTES + frameCapacity}, so a parser
 * reads a slot's frame in place ({@link #frameArray()}, {@link #frameOffset(int)}).
 * Slots are recycled through a free list; the pool grows (geometrically) only
 * while warming up, so steady-state replay allocates nothing.
 */
public final class PacketPool {
    private final int phvSlots;
    private final int frameCapacity;
    private final int stride;
    private Phv[] phvs;
    private UnsafeBuffer records;
    /**
     * A slot's small state in one stride of {@value #META} longs (packet number, arrival cycle,
     * ingress port, resubmits, hops): a packet that waited in a deep queue costs one
     * cache miss to account for at departure, not one per array.
     */
    private long[] meta;
    private static final int META = 8;
    private static final int PACKET_NUMBER = 0;
    private static final int ARRIVAL = 1;
    private static final int INGRESS_PORT = 2;
    private static final int RESUBMITS = 3;
    private static final int HOPS = 4;
    private static final int MIRROR_SESSION = 5;
    /**
     * The resubmit_type of a resubmitted packet until its next ingress pass reads it (0: none), in
     * the word's low {@value #RESUBMIT_TYPE_BITS} bits, the cycle its ingress MAC stamped it above
     * them; and its header's bits.
     */
    private static final int RESUBMIT_TYPE = 6;
    /** resubmit_type is 3 bits (TNA's ResubmitType_t). */
    private static final int RESUBMIT_TYPE_BITS = 3;
    private static final int RESUBMIT_DATA = 7;
    /**
     * Per slot: whether the frame parser kept the layout of the slot's frame as it is now
     * ({@link FrameParser#keepLayout}); false for a slot just taken, until the engine says so.
     */
    private boolean[] layoutKept;
    private int[] free;
    private int freeCount;
    private int capacity;
    private int inUse;
    private final PacketRecord view = new PacketRecord();
    /** The largest Java array a pool may hold, a little under Integer.MAX_VALUE as the JDK's own limit. */
    private static final long MAX_ARRAY_BYTES = Integer.MAX_VALUE - 8;

    /**
     * @param frameCapacity frame bytes each slot keeps (the replay's snap length); a longer frame
     *                      is truncated to it, keeping its wire length
     */
    public PacketPool(int phvSlots, int initialCapacity, int frameCapacity) {
        this.phvSlots = phvSlots;
        this.frameCapacity = frameCapacity;
        this.stride = PacketRecord.stride(frameCapacity);
        this.capacity = 0;
        this.phvs = new Phv[0];
        this.records = new UnsafeBuffer(new byte[0]);
        this.meta = new long[0];
        this.layoutKept = new boolean[0];
        this.free = new int[0];
        grow(Math.max(16, initialCapacity));
    }

    private void grow(int newCapacity) {
        phvs = Arrays.copyOf(phvs, newCapacity);
        for (int i = capacity; i < newCapacity; i++) {
            phvs[i] = new Phv(phvSlots);
        }
        long bytes = (long) newCapacity * stride;
        if (bytes > MAX_ARRAY_BYTES) {
            throw new UserError("packet pool: " + newCapacity + " packets in flight of " + stride
                    + " bytes each exceed one Java array (" + MAX_ARRAY_BYTES + " bytes); a smaller --snaplen keeps"
                    + " fewer bytes per packet");
        }
        UnsafeBuffer bigger = new UnsafeBuffer(new byte[(int) bytes]);
        bigger.putBytes(0, records, 0, capacity * stride);
        records = bigger;
        meta = Arrays.copyOf(meta, newCapacity * META);
        layoutKept = Arrays.copyOf(layoutKept, newCapacity);
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
        meta[m + MIRROR_SESSION] = 0;
        meta[m + RESUBMIT_TYPE] = 0;
        layoutKept[s] = false;
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
        return view.wrap(records, slot * stride, frameCapacity);
    }

    /** Frame bytes a slot keeps: the snap length. */
    public int frameCapacity() {
        return frameCapacity;
    }

    /** The heap array holding every slot's record and frame (it changes when the pool grows). */
    public byte[] frameArray() {
        return records.byteArray();
    }

    /** Where slot {@code slot}'s frame starts in {@link #frameArray()}. */
    public int frameOffset(int slot) {
        return slot * stride + PacketRecord.FRAME_OFFSET;
    }

    /**
     * The slot's frame length on the wire ({@link PacketRecord#wireLength()}), read straight
     * from the pool's array: the per-packet path reads it several times, and a read through
     * {@link #record}'s flyweight re-points the flyweight first.
     */
    public int wireLength(int slot) {
        return records.getInt(slot * stride + PacketRecord.WIRE_LENGTH_OFFSET, ByteOrder.LITTLE_ENDIAN);
    }

    /** Frame bytes slot {@code slot} carries. */
    public int capturedLength(int slot) {
        return records.getInt(slot * stride + PacketRecord.CAPTURED_LENGTH_OFFSET, ByteOrder.LITTLE_ENDIAN);
    }

    /**
     * Copies {@code from}'s metadata and frame into the slot; a frame longer than the pool's
     * capacity is truncated to it (captured length says so, the wire length stays).
     */
    public void storeRecord(int slot, PacketRecord from) {
        DirectBuffer src = from.buffer();
        int s = from.offset();
        int d = slot * stride;
        int n = from.capturedLength();
        if (n > frameCapacity) {
            n = frameCapacity;
        }
        copyWords(src, s, d, PacketRecord.METADATA_BYTES + n);
        if (n != from.capturedLength()) {
            records.putInt(d + PacketRecord.CAPTURED_LENGTH_OFFSET, n, ByteOrder.LITTLE_ENDIAN);
        }
    }

    /**
     * Copies {@code len} (at least {@link PacketRecord#METADATA_BYTES}) bytes from {@code src} at
     * {@code s} to the records at {@code d}: from a heap array by {@link System#arraycopy} (an
     * intrinsic, no call), from off-heap memory (the ring) by one bulk copy; nothing outside the
     * {@code len} bytes is read or written.
     */
    private void copyWords(DirectBuffer src, int s, int d, int len) {
        byte[] from = src.byteArray();
        if (from != null) {
            // both on the heap (an in-memory trace, another slot): the JIT's vectorised array copy
            System.arraycopy(from, src.wrapAdjustment() + s, records.byteArray(), d, len);
            return;
        }
        // off the heap (the replay's packet ring): a record is metadata plus up to a parser window
        // (72 + 256 bytes), where one copyMemory call beats a bounds-checked loop of 41 word moves
        src.getBytes(s, records.byteArray(), d, len);
    }

    public void copy(int fromSlot, int toSlot) {
        copyWords(records, fromSlot * stride, toSlot * stride, PacketRecord.METADATA_BYTES + capturedLength(fromSlot));
        phvs[toSlot].copyFrom(phvs[fromSlot]);
        int from = fromSlot * META;
        int to = toSlot * META;
        meta[to + PACKET_NUMBER] = meta[from + PACKET_NUMBER];
        meta[to + ARRIVAL] = meta[from + ARRIVAL];
        meta[to + INGRESS_PORT] = meta[from + INGRESS_PORT];
        meta[to + HOPS] = meta[from + HOPS];
    }

    /** Whether the frame parser holds the layout of the slot's frame as it is now. */
    public boolean layoutKept(int slot) {
        return layoutKept[slot];
    }

    /** The frame parser kept the layout of the slot's frame (true), or the frame changed since (false). */
    public void layoutKept(int slot, boolean kept) {
        layoutKept[slot] = kept;
    }

    /** Switches the packet passed through before this one (in a network; 0 for a trace packet). */
    public int hops(int slot) {
        return (int) meta[slot * META + HOPS];
    }

    public void hops(int slot, int n) {
        meta[slot * META + HOPS] = n;
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

    /** The mirror session a mirrored copy was made for; 0 for a packet that is no mirrored copy. */
    public int mirrorSession(int slot) {
        return (int) meta[slot * META + MIRROR_SESSION];
    }

    public void mirrorSession(int slot, int session) {
        meta[slot * META + MIRROR_SESSION] = session;
    }

    public int resubmits(int slot) {
        return (int) meta[slot * META + RESUBMITS];
    }

    public void resubmitted(int slot) {
        meta[slot * META + RESUBMITS]++;
    }

    /** The resubmit_type the packet was resubmitted with, for its next ingress pass (0: it was not). */
    public int resubmitType(int slot) {
        return (int) (meta[slot * META + RESUBMIT_TYPE] & (1 << RESUBMIT_TYPE_BITS) - 1);
    }

    /** The cycle the ingress MAC stamped a resubmitted packet (on its first pass), for its next pass. */
    public long resubmitMacCycle(int slot) {
        return meta[slot * META + RESUBMIT_TYPE] >>> RESUBMIT_TYPE_BITS;
    }

    /** The resubmit header's bits the packet carries to its next ingress pass. */
    public long resubmitData(int slot) {
        return meta[slot * META + RESUBMIT_DATA];
    }

    /**
     * The packet carries resubmit_type {@code type} (0: none; below 2^{@value #RESUBMIT_TYPE_BITS}), its
     * header's {@code bits} and the cycle {@code macCycle} its ingress MAC stamped it to its next ingress pass.
     */
    public void resubmitHeader(int slot, int type, long bits, long macCycle) {
        meta[slot * META + RESUBMIT_TYPE] = macCycle << RESUBMIT_TYPE_BITS | type;
        meta[slot * META + RESUBMIT_DATA] = bits;
    }
}
