package dev.rmtemu.emulator.engine;

import dev.rmtemu.traces.PacketRecord;
import org.junit.jupiter.api.Test;

import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;

/** A pool slot keeps its record and frame in one heap array, through growth and copies. */
class PacketPoolFramesTest {
    private static byte[] frame(int n, int seed) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) (seed * 31 + i);
        }
        return b;
    }

    private static PacketRecord packet(int i) {
        int len = 20 + (i * 13) % 300; // some longer than the pool's 128-byte capacity
        return PacketRecord.allocate(400).wireLength(len + 4).ipId(i).putFrame(frame(len, i), 0, len);
    }

    @Test
    void framesSurviveGrowthAndAreReadableInPlace() {
        PacketPool pool = new PacketPool(4, 16, 128);
        byte[] before = pool.frameArray();
        int[] slots = new int[200];
        for (int i = 0; i < slots.length; i++) {
            slots[i] = pool.acquire();
            pool.storeRecord(slots[i], packet(i));
        }
        assertNotSame(before, pool.frameArray(), "200 packets in flight grow a 16-slot pool");
        for (int i = 0; i < slots.length; i++) {
            PacketRecord want = packet(i);
            int kept = Math.min(want.capturedLength(), 128);
            PacketRecord got = pool.record(slots[i]);
            assertEquals(i, got.ipId());
            assertEquals(want.wireLength(), got.wireLength()); // truncated, with its wire length
            assertEquals(kept, got.capturedLength());
            assertEquals(kept, pool.capturedLength(slots[i]));
            int at = pool.frameOffset(slots[i]);
            assertArrayEquals(Arrays.copyOf(want.frameBytes(), kept),
                    Arrays.copyOfRange(pool.frameArray(), at, at + kept), "packet " + i);
        }
    }

    @Test
    void copyCarriesTheFrame() {
        PacketPool pool = new PacketPool(4, 16, 128);
        int a = pool.acquire();
        int b = pool.acquire();
        pool.storeRecord(a, packet(7));
        pool.storeRecord(b, packet(8));
        pool.copy(a, b);
        assertEquals(7, pool.record(b).ipId());
        assertArrayEquals(packet(7).frameBytes(), pool.record(b).frameBytes());
    }
}
