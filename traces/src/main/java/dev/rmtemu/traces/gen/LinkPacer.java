package dev.rmtemu.traces.gen;

import dev.rmtemu.traces.LinkQueueing;

import java.util.Arrays;

/**
 * One link per ingress port at the generator's rate, each sending one frame at a time: a
 * frame starts when the flow model wants it or, if the link is still busy, at the first
 * whole ns after the previous frame on that link has left (the packet queues). Starts never
 * go back in time, so the order of the packets is kept. Counts the packets it delayed and by
 * how much. Times are ns relative to the trace start; no allocation per packet.
 */
final class LinkPacer {
    /** Bytes on the wire around each frame: preamble + SFD (8) and inter-frame gap (12). */
    static final int WIRE_OVERHEAD_BYTES = 20;
    private static final double BITS_PER_BYTE = 8.0;

    private final double gbps;
    /** Per link, the time its last frame has left (exact, fractional ns). */
    private final double[] freeAtNs;
    private long lastStartNs = Long.MIN_VALUE;
    private long packets;
    private long delayed;
    private long totalDelayNs;
    private long maxDelayNs;

    LinkPacer(double gbps, int links) {
        this.gbps = gbps;
        this.freeAtNs = new double[links];
        Arrays.fill(freeAtNs, Double.NEGATIVE_INFINITY);
    }

    /** Time a frame of {@code wireBytes} takes on a link of {@code gbps}, overhead included (division keeps whole results exact). */
    static double serialisationNs(int wireBytes, double gbps) {
        return (wireBytes + WIRE_OVERHEAD_BYTES) * BITS_PER_BYTE / gbps;
    }

    /** Start of a frame of {@code wireBytes} on {@code link} that the flow model wants at {@code wantedNs}. */
    long start(long wantedNs, int link, int wireBytes) {
        long t = wantedNs;
        double free = freeAtNs[link];
        if (t < free) {
            t = (long) Math.ceil(free);
        }
        if (t < lastStartNs) {
            t = lastStartNs;
        }
        if (t > wantedNs) {
            long d = t - wantedNs;
            delayed++;
            totalDelayNs += d;
            maxDelayNs = Math.max(maxDelayNs, d);
        }
        freeAtNs[link] = t + serialisationNs(wireBytes, gbps);
        lastStartNs = t;
        packets++;
        return t;
    }

    /** The first whole ns at which {@code link} is free ({@link Long#MIN_VALUE} before its first frame). */
    long earliestStartNs(int link) {
        double free = freeAtNs[link];
        return free == Double.NEGATIVE_INFINITY ? Long.MIN_VALUE : (long) Math.ceil(free);
    }

    /** When the frame started last on {@code link} has left. */
    double freeAtNs(int link) {
        return freeAtNs[link];
    }

    LinkQueueing stats() {
        return new LinkQueueing(gbps, freeAtNs.length, packets, delayed, totalDelayNs, maxDelayNs);
    }
}
