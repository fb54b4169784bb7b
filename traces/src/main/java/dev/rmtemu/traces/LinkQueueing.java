package dev.rmtemu.traces;

/**
 * How a generator that claims a link rate kept its frames apart: a frame never starts before
 * the previous frame on its link has left ((wire bytes + 20) × 8 / Gb/s, preamble, SFD and
 * inter-frame gap counted), so where the flow model wants a packet earlier, the packet waits
 * (its timestamp moves later, the order of packets is kept).
 *
 * @param gbps         the link rate claimed
 * @param links        links (one per ingress port)
 * @param packets      packets generated so far
 * @param delayed      packets whose timestamp moved later than the flow model wanted
 * @param totalDelayNs the delays added up, ns
 * @param maxDelayNs   the largest delay, ns
 */
public record LinkQueueing(double gbps, int links, long packets, long delayed, long totalDelayNs, long maxDelayNs) {
}
