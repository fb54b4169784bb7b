package dev.rmtemu.traces.pcap;

import org.agrona.DirectBuffer;

/**
 * Sees every frame a capture reader reads, as bytes, before it is decoded (or
 * skipped): for statistics over the frames themselves, such as the protocol
 * hierarchy of {@code trace info}. The bytes are valid only during the call.
 */
@FunctionalInterface
public interface FrameTap {
    /**
     * @param buffer         holds the frame
     * @param offset         where the frame starts in {@code buffer}
     * @param capturedLength bytes the capture kept
     * @param wireLength     the frame's length on the wire
     * @param linkType       the frame's link-layer type ({@link LinkType})
     */
    void frame(DirectBuffer buffer, int offset, int capturedLength, int wireLength, int linkType);
}
