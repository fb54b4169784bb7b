package dev.rmtemu.emulator.ring;

import org.agrona.MutableDirectBuffer;

/**
 * The reader side of the packet ring: a trace reader or generator that writes one
 * packet record at a time. The ring calls it on its own reader thread.
 *
 * <p>{@link #fill} writes one record of at most {@code maxLength} bytes at
 * {@code [offset, offset + length)} of {@code buf} and returns its length (a packet record:
 * its metadata and captured frame bytes), or {@link PacketRing#END}, writing nothing, when
 * the trace has ended. The ring publishes exactly those bytes as one message. Any exception
 * it throws (a corrupt file, an I/O error) stops the reader and is rethrown, as the same
 * object, on the consumer after the records published before it.
 */
@FunctionalInterface
public interface RecordProducer {
    int fill(MutableDirectBuffer buf, int offset, int maxLength);
}
