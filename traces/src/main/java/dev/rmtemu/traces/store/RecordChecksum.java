package dev.rmtemu.traces.store;

import dev.rmtemu.traces.PacketRecord;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.zip.CRC32C;

/**
 * CRC32C over a store's records as stored: each record's eight words as
 * little-endian longs, records in order. The writer puts it in the manifest; the
 * reader recomputes it while reading and compares at the end.
 */
final class RecordChecksum {
    private final CRC32C crc = new CRC32C();
    private final ByteBuffer record = ByteBuffer.allocate(PacketRecord.DECODED_BYTES).order(ByteOrder.LITTLE_ENDIAN);

    /** The next word of the current record. */
    void word(long w) {
        record.putLong(w);
        if (!record.hasRemaining()) {
            record.flip();
            crc.update(record);
            record.clear();
        }
    }

    long value() {
        return crc.getValue();
    }
}
