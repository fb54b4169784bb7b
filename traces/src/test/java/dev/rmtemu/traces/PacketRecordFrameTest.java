package dev.rmtemu.traces;

import dev.rmtemu.model.target.TargetProfiles;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The frame bytes a record carries after its 72 bytes of metadata. */
class PacketRecordFrameTest {
    private static byte[] frame(int n, int seed) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) (seed + i * 7);
        }
        return b;
    }

    @Test
    void theLayoutIsTheContract() {
        assertEquals(72, PacketRecord.METADATA_BYTES);
        assertEquals(72, PacketRecord.FRAME_OFFSET);
        assertEquals(64, PacketRecord.CAPTURED_LENGTH_OFFSET);
        assertEquals(68, PacketRecord.RESERVED_OFFSET);
        PacketRecord r = PacketRecord.allocate(8).putFrame(frame(5, 1), 0, 5);
        // captured length u32 little-endian at 64, reserved zero, the frame from 72
        assertEquals(5, r.buffer().getByte(64));
        assertEquals(0, r.buffer().getInt(68));
        assertEquals(frame(5, 1)[0], r.buffer().getByte(72));
        assertEquals(frame(5, 1)[4], r.buffer().getByte(76));
        assertEquals(77, r.recordBytes());
    }

    @Test
    void theDefaultCapacityIsTheTofinoParserWindow() {
        assertEquals(TargetProfiles.builtIn("tofino1").parser().windowBytes(), PacketRecord.DEFAULT_FRAME_CAPACITY);
        assertEquals(PacketRecord.DEFAULT_FRAME_CAPACITY, PacketRecord.allocate().frameCapacity());
        assertEquals(0, PacketRecord.allocate(0).frameCapacity());
        assertEquals(72, PacketRecord.allocate(0).buffer().capacity()); // a metadata-only record: 72 bytes
    }

    @Test
    void putFrameKeepsAtMostTheCapacityAndNeverWritesPastIt() {
        UnsafeBuffer b = new UnsafeBuffer(new byte[2 * PacketRecord.stride(10)]);
        PacketRecord first = new PacketRecord().wrap(b, 0, 10);
        PacketRecord second = new PacketRecord().wrap(b, PacketRecord.stride(10), 10);
        second.putFrame(frame(10, 100), 0, 10);
        first.wireLength(1500).putFrame(frame(1500, 3), 0, 1500);
        assertEquals(10, first.capturedLength());
        assertEquals(1500, first.wireLength()); // the wire length is the caller's, untouched
        assertArrayEquals(Arrays.copyOf(frame(1500, 3), 10), first.frameBytes());
        assertArrayEquals(frame(10, 100), second.frameBytes()); // the neighbour is intact
        assertEquals(0, second.word(0));
    }

    @Test
    void copyFromTruncatesToTheTargetsCapacityAndKeepsTheWireLength() {
        PacketRecord big = PacketRecord.allocate(1500).wireLength(1514).ipVersion(4).srcPort(80);
        big.putFrame(frame(1514, 9), 0, 1514);
        assertEquals(1500, big.capturedLength());
        PacketRecord small = PacketRecord.allocate(64).copyFrom(big);
        assertEquals(64, small.capturedLength()); // as a 64-byte snap length would keep it
        assertEquals(1514, small.wireLength());
        assertEquals(80, small.srcPort());
        assertArrayEquals(Arrays.copyOf(frame(1514, 9), 64), small.frameBytes());
        PacketRecord metadataOnly = PacketRecord.allocate(0).copyFrom(big);
        assertEquals(0, metadataOnly.capturedLength());
        assertEquals(1514, metadataOnly.wireLength());
        PacketRecord same = PacketRecord.allocate(1500).copyFrom(big);
        assertTrue(same.contentEquals(big));
        assertFalse(small.contentEquals(big)); // a shorter captured length is another record
    }

    @Test
    void contentEqualsLooksAtTheFrameBytes() {
        PacketRecord a = PacketRecord.allocate(16).putFrame(frame(16, 1), 0, 16);
        PacketRecord b = PacketRecord.allocate(16).copyFrom(a);
        assertTrue(a.contentEquals(b));
        b.buffer().putByte(b.offset() + PacketRecord.FRAME_OFFSET + 15, (byte) 0);
        assertFalse(a.contentEquals(b));
    }

    @Test
    void clearDropsTheFrame() {
        PacketRecord r = PacketRecord.allocate(16).putFrame(frame(16, 1), 0, 16).wireLength(60);
        r.clear();
        assertEquals(0, r.capturedLength());
        assertEquals(0, r.wireLength());
        assertEquals(PacketRecord.METADATA_BYTES, r.recordBytes());
    }

    @Test
    void aCapacityOutsideThePcapRangeIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> PacketRecord.allocate(-1));
        assertThrows(IllegalArgumentException.class, () -> PacketRecord.allocate(65_536));
        assertEquals(72 + 65_535, PacketRecord.stride(65_535));
    }

    @Test
    void packedRecordsKeepEachRecordsOwnLength() {
        PackedRecords p = new PackedRecords(1);
        for (int i = 0; i < 100; i++) {
            PacketRecord r = PacketRecord.allocate(200).wireLength(1000 + i);
            r.putFrame(frame(i * 2, i), 0, i * 2);
            p.add(r);
        }
        assertEquals(100, p.size());
        long bytes = 0;
        for (int i = 0; i < 100; i++) {
            PacketRecord r = p.get(i);
            assertEquals(1000 + i, r.wireLength());
            assertEquals(i * 2, r.frameCapacity()); // a write cannot reach the next record
            assertArrayEquals(frame(i * 2, i), r.frameBytes());
            bytes += 72 + i * 2;
        }
        assertEquals(bytes, p.bytesUsed());
    }
}
