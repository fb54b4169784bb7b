package dev.rmtemu.traces.store;

import dev.rmtemu.traces.PacketRecord;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.zip.CRC32C;

/**
 * CRC32C over a store's records as stored: each record's metadata as nine little-endian
 * longs, then its frame bytes, records in order. The writer puts it in the manifest; the
 * reader recomputes it while reading and compares at the end.
 */
final class RecordChecksum {
    private final CRC32C crc = new CRC32C();
    private final ByteBuffer metadata = ByteBuffer.allocate(PacketRecord.METADATA_BYTES).order(ByteOrder.LITTLE_ENDIAN);

    /** The next metadata word of the current record. */
    void word(long w) {
        metadata.putLong(w);
        if (!metadata.hasRemaining()) {
            metadata.flip();
            crc.update(metadata);
            metadata.clear();
        }
    }

    /** The current record's frame bytes, after its metadata words. */
    void frame(byte[] frame, int length) {
        crc.update(frame, 0, length);
    }

    /**
     * A whole record as stored, its metadata's bytes then its frame's: the same checksum as
     * its nine words then its frame (the words are stored little-endian, as they are summed).
     */
    void record(byte[] stored, int length) {
        crc.update(stored, 0, length);
    }

    long value() {
        return crc.getValue();
    }

    /** Back to the checksum of no record. */
    void reset() {
        crc.reset();
        metadata.clear();
    }
}
