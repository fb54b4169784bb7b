package dev.rmtemu.emulator.tm;

/**
 * One queue's FIFO of packet descriptors as parallel primitive ring buffers (handle,
 * bytes, cells, enq_qdepth, enq_tstamp); cells are kept so dequeue need not divide again. It starts small and doubles only when full, so at steady
 * state nothing is allocated per packet; its capacity never needs to exceed the queue's
 * limit in cells, since every packet takes at least one cell.
 */
final class PacketFifo {
    /** Initial ring capacity in packets; grows geometrically (x2) when needed. */
    static final int INITIAL_CAPACITY = 16;

    private int[] handles;
    private int[] bytes;
    private int[] cells;
    private int[] enqDepths;
    private long[] enqTstamps;
    private int head;
    private int size;
    private int mask;

    PacketFifo() {
        allocate(INITIAL_CAPACITY);
    }

    private void allocate(int capacity) {
        handles = new int[capacity];
        bytes = new int[capacity];
        cells = new int[capacity];
        enqDepths = new int[capacity];
        enqTstamps = new long[capacity];
        mask = capacity - 1;
        head = 0;
    }

    int size() {
        return size;
    }

    int capacity() {
        return handles.length;
    }

    void push(int handle, int packetBytes, int packetCells, int enqDepth, long enqTstamp) {
        if (size == handles.length) {
            grow();
        }
        int slot = (head + size) & mask;
        handles[slot] = handle;
        bytes[slot] = packetBytes;
        cells[slot] = packetCells;
        enqDepths[slot] = enqDepth;
        enqTstamps[slot] = enqTstamp;
        size++;
    }

    private void grow() {
        int[] oldHandles = handles;
        int[] oldBytes = bytes;
        int[] oldCells = cells;
        int[] oldDepths = enqDepths;
        long[] oldTstamps = enqTstamps;
        int oldHead = head;
        int oldMask = mask;
        int n = size;
        allocate(oldHandles.length << 1);
        for (int i = 0; i < n; i++) {
            int from = (oldHead + i) & oldMask;
            handles[i] = oldHandles[from];
            bytes[i] = oldBytes[from];
            cells[i] = oldCells[from];
            enqDepths[i] = oldDepths[from];
            enqTstamps[i] = oldTstamps[from];
        }
    }

    int headHandle() {
        return handles[head];
    }

    int headBytes() {
        return bytes[head];
    }

    int headCells() {
        return cells[head];
    }

    int headEnqDepth() {
        return enqDepths[head];
    }

    long headEnqTstamp() {
        return enqTstamps[head];
    }

    void pop() {
        head = (head + 1) & mask;
        size--;
    }
}
