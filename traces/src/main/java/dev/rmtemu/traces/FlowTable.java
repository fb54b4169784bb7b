package dev.rmtemu.traces;

import org.agrona.concurrent.UnsafeBuffer;

import java.util.Arrays;

/**
 * Per-flow packet and byte counts keyed by 5-tuple ({@link FlowKey}), in an
 * open-addressing table with the keys stored as 64-byte records. Adding a packet of a
 * known flow allocates nothing; the table doubles when half full. Entries are numbered
 * in first-seen order, which is deterministic for a given trace.
 */
public final class FlowTable {
    private static final int INITIAL_ENTRIES = 1024;
    /** A key is a record's metadata only: flows are told apart by decoded fields, not bytes. */
    private static final int KEY_BYTES = PacketRecord.stride(0);

    private int[] index;        // slot -> entry + 1, 0 = empty
    private long[] hashes;
    private long[] packets;
    private long[] bytes;
    private UnsafeBuffer keys;
    private final PacketRecord keyView = new PacketRecord();
    private int size;

    public FlowTable() {
        index = new int[INITIAL_ENTRIES * 2];
        hashes = new long[INITIAL_ENTRIES];
        packets = new long[INITIAL_ENTRIES];
        bytes = new long[INITIAL_ENTRIES];
        keys = new UnsafeBuffer(new byte[INITIAL_ENTRIES * KEY_BYTES]);
    }

    /** Counts one packet of {@code wireBytes} for the record's flow; returns the flow's entry number. */
    public int add(PacketRecord r, long wireBytes) {
        long h = FlowKey.hash(r);
        int mask = index.length - 1;
        int slot = (int) h & mask;
        while (true) {
            int e = index[slot];
            if (e == 0) {
                break;
            }
            if (hashes[e - 1] == h && FlowKey.sameFlow(key(e - 1), r)) {
                packets[e - 1]++;
                bytes[e - 1] += wireBytes;
                return e - 1;
            }
            slot = (slot + 1) & mask;
        }
        if (size == hashes.length) {
            grow();
            return add(r, wireBytes);
        }
        int e = size++;
        hashes[e] = h;
        packets[e] = 1;
        bytes[e] = wireBytes;
        FlowKey.copyKey(r, keyView.wrap(keys, e * KEY_BYTES, 0));
        index[slot] = e + 1;
        return e;
    }

    private void grow() {
        int n = hashes.length * 2;
        hashes = Arrays.copyOf(hashes, n);
        packets = Arrays.copyOf(packets, n);
        bytes = Arrays.copyOf(bytes, n);
        UnsafeBuffer k = new UnsafeBuffer(new byte[n * KEY_BYTES]);
        k.putBytes(0, keys, 0, size * KEY_BYTES);
        keys = k;
        index = new int[n * 2];
        int mask = index.length - 1;
        for (int e = 0; e < size; e++) {
            int slot = (int) hashes[e] & mask;
            while (index[slot] != 0) {
                slot = (slot + 1) & mask;
            }
            index[slot] = e + 1;
        }
    }

    /** Number of distinct flows. */
    public int size() {
        return size;
    }

    /** The 5-tuple of entry {@code e} as a record view (other fields zero; reused on each call). */
    public PacketRecord key(int e) {
        return keyView.wrap(keys, e * KEY_BYTES, 0);
    }

    public long packets(int e) {
        return packets[e];
    }

    public long bytes(int e) {
        return bytes[e];
    }

    /**
     * Entry numbers of the {@code n} largest flows by packets, then bytes, then first-seen
     * order (a total, deterministic order).
     */
    public int[] top(int n) {
        Integer[] order = new Integer[size];
        for (int i = 0; i < size; i++) {
            order[i] = i;
        }
        Arrays.sort(order, (a, b) -> {
            int c = Long.compare(packets[b], packets[a]);
            if (c == 0) {
                c = Long.compare(bytes[b], bytes[a]);
            }
            return c != 0 ? c : Integer.compare(a, b);
        });
        int k = Math.min(n, size);
        int[] out = new int[k];
        for (int i = 0; i < k; i++) {
            out[i] = order[i];
        }
        return out;
    }
}
