package dev.rmtemu.emulator.journal;

import org.agrona.DirectBuffer;

/**
 * A collector's callback for export messages, called in journal order. The payload is
 * {@code length} bytes at {@code offset} in {@code payload}, read in place from the queue
 * file and valid only during the call. Name of the kind: {@code reader.kinds().name(kind)}.
 */
@FunctionalInterface
public interface JournalHandler {
    void onMessage(int kind, long cycle, int switchId, int pipe, DirectBuffer payload, int offset, int length);
}
