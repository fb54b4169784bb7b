package dev.rmtemu.emulator.ring;

import org.agrona.DirectBuffer;

/**
 * The engine side of the packet ring: called once per record, in the producer's order.
 * The record is {@link PacketRing#RECORD_BYTES} bytes at {@code offset} in {@code buf}
 * and is valid only during the call (it lives in the ring and is reclaimed after the
 * batch): read it in place, copy what must outlive the call.
 */
@FunctionalInterface
public interface RecordHandler {
    void onRecord(DirectBuffer buf, int offset);
}
