package dev.rmtemu.emulator.ring;

import org.agrona.MutableDirectBuffer;

/**
 * The reader side of the packet ring: a trace reader or generator that writes one
 * fixed-size packet record at a time. The ring calls it on its own reader thread.
 *
 * <p>{@link #fill} writes exactly {@link PacketRing#RECORD_BYTES} bytes at
 * {@code [offset, offset + RECORD_BYTES)} of {@code buf}, which is the ring's own memory
 * (the record is written in place: copy once, from the trace into the ring). It returns
 * {@code false}, writing nothing, when the trace has ended. Any exception it throws
 * (a corrupt file, an I/O error) stops the reader and is rethrown, as the same object,
 * on the consumer after the records published before it.
 */
@FunctionalInterface
public interface RecordProducer {
    boolean fill(MutableDirectBuffer buf, int offset);
}
