package dev.rmtemu.emulator.ring;

import org.agrona.DirectBuffer;

/**
 * The engine side of the packet ring: called once per record, in the producer's order.
 * The record is {@code length} bytes at {@code offset} in {@code buf} (as the producer wrote
 * them) and is valid only during the call (it lives in the ring and is reclaimed after the
 * batch): read it in place, copy what must outlive the call.
 */
@FunctionalInterface
public interface RecordHandler {
    void onRecord(DirectBuffer buf, int offset, int length);
}
