package dev.rmtemu.emulator.tm;

/**
 * One queue's FIFO of packet descriptors in a single ring of longs, three words per
 * packet (enq_tstamp; handle and bytes; cells and enq_qdepth), so a push or a head read
 * touches one cache line instead of one per field. It starts without a ring, takes a small one
 * on its first packet and doubles only when
 * full, so at steady state nothing is allocated per packet; its capacity never needs to
 * exceed the queue's limit in cells, since every packet takes at least one cell.
 */
final class PacketFifo {
    /** Initial ring capacity in packets; grows geometrically (x2) when needed. */
    static final int INITIAL_CAPACITY = 16;
    /** Words per packet descriptor (a power of two, so the ring index is a shift). */
    private static final int STRIDE = 4;
    private static final int SHIFT = 2;

    private long[] ring;
    private int head;
    private int size;
    private int mask;

    private static final long[] NONE = new long[0];

    /** Empty, without a ring: most queues of a large network never hold a packet. */
    PacketFifo() {
        ring = NONE;
        mask = -1;
    }

    int size() {
        return size;
    }

    int capacity() {
        return mask + 1;
    }

    void push(int handle, int packetBytes, int packetCells, int enqDepth, long enqTstamp) {
        if (size == mask + 1) {
            grow();
        }
        int at = ((head + size) & mask) << SHIFT;
        long[] r = ring;
        r[at] = enqTstamp;
        r[at + 1] = ((long) handle << 32) | (packetBytes & 0xFFFFFFFFL);
        r[at + 2] = ((long) packetCells << 32) | (enqDepth & 0xFFFFFFFFL);
        size++;
    }

    private void grow() {
        int cap = mask + 1;
        int newCap = cap == 0 ? INITIAL_CAPACITY : cap * 2;
        long[] bigger = new long[newCap * STRIDE];
        for (int i = 0; i < size; i++) {
            System.arraycopy(ring, ((head + i) & mask) << SHIFT, bigger, i << SHIFT, STRIDE);
        }
        ring = bigger;
        head = 0;
        mask = newCap - 1;
    }

    int headHandle() {
        return (int) (ring[(head << SHIFT) + 1] >>> 32);
    }

    int headBytes() {
        return (int) ring[(head << SHIFT) + 1];
    }

    int headCells() {
        return (int) (ring[(head << SHIFT) + 2] >>> 32);
    }

    int headEnqDepth() {
        return (int) ring[(head << SHIFT) + 2];
    }

    long headEnqTstamp() {
        return ring[head << SHIFT];
    }

    void pop() {
        head = (head + 1) & mask;
        size--;
    }
}
