package dev.rmtemu.emulator.engine;

import dev.rmtemu.traces.PacketRecord;
import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A record read in place from off-heap memory (the packet ring's) lands in its pool slot as
 * the same record from the heap does: every metadata and frame byte, truncated at the pool's
 * frame capacity, and not a byte of the neighbouring slots touched (the bulk copy's bounds).
 */
class PacketPoolOffHeapTest {
    private static final int CAPACITY = 128;

    /** A record of {@code len} frame bytes at {@code offset} of {@code memory}, every byte seeded. */
    private static PacketRecord record(UnsafeBuffer memory, int offset, int len, int seed) {
        PacketRecord r = new PacketRecord().wrap(memory, offset, 400);
        r.clear().timestampNs(1_000L * seed).wireLength(len + 9).ipId(seed).ingressPort(seed % 7);
        byte[] frame = new byte[len];
        for (int i = 0; i < len; i++) {
            frame[i] = (byte) (seed * 31 + i * 7);
        }
        return r.putFrame(frame, 0, len);
    }

    @Test
    void offHeapRecordsStoreAsHeapRecordsDo() {
        UnsafeBuffer direct = new UnsafeBuffer(BufferUtil.allocateDirectAligned(1 << 16, 64));
        UnsafeBuffer heap = new UnsafeBuffer(new byte[1 << 16]);
        PacketPool fromDirect = new PacketPool(4, 16, CAPACITY);
        PacketPool fromHeap = new PacketPool(4, 16, CAPACITY);
        // odd offsets and lengths: the copy is not word-aligned on either side
        int[] lengths = {0, 1, 7, 8, 63, 64, 127, 128, 129, 300};
        int[] slots = new int[lengths.length];
        for (int i = 0; i < lengths.length; i++) {
            int at = 3 + i * 480;
            slots[i] = fromDirect.acquire();
            assertEquals(slots[i], fromHeap.acquire());
            fromDirect.storeRecord(slots[i], record(direct, at, lengths[i], i + 1));
            fromHeap.storeRecord(slots[i], record(heap, at, lengths[i], i + 1));
        }
        assertArrayEquals(fromHeap.frameArray(), fromDirect.frameArray(), "the pools' whole arrays");
        for (int i = 0; i < lengths.length; i++) {
            PacketRecord got = fromDirect.record(slots[i]);
            assertEquals(i + 1, got.ipId());
            assertEquals(lengths[i] + 9, got.wireLength());
            assertEquals(Math.min(lengths[i], CAPACITY), got.capturedLength());
            byte[] want = record(heap, 3 + i * 480, lengths[i], i + 1).frameBytes();
            assertArrayEquals(Arrays.copyOf(want, Math.min(lengths[i], CAPACITY)), got.frameBytes(), "record " + i);
        }
    }
}
