package dev.rmtemu.programs.midst.experiment;

import dev.rmtemu.traces.pcap.FrameSynthesizer;
import org.agrona.concurrent.UnsafeBuffer;
import dev.rmtemu.traces.PacketRecord;

import java.util.SplittableRandom;

/**
 * Bursty incast traffic towards one port: {@code bursts} bursts, {@code burstIntervalNs}
 * apart, each of {@code packetsPerBurst} packets arriving at {@code overload} × the output
 * port's rate (Poisson gaps), from {@code flows} flows with Zipf(s) popularity spread over
 * the input ports; between bursts the queue drains. Flow f is src 10.128.0.0 + f; each
 * packet carries its flow's arrival sequence number (1, 2, ...) in the TCP sequence
 * field and its global arrival index in the payload hash, so ground truth needs no
 * lookup tables. Seeded and deterministic.
 */
public final class MidstTraffic {
    /** Takes a frame whose headers do not fit a record's capacity (a tiny snap length). */
    private final UnsafeBuffer frameScratch = new UnsafeBuffer(new byte[FrameSynthesizer.MAX_MIN_FRAME]);
    public static final int FLOW_BASE = 0x0A800000;
    public static final int DST = 0x0A000001;
    public static final int DST_PORT = 5001;
    public static final int SRC_PORT_BASE = 20_000;
    /** Ethernet preamble + inter-frame gap, as the traffic manager counts it. */
    private static final int WIRE_OVERHEAD_BYTES = 20;

    /**
     * @param flows           distinct flows
     * @param zipf            Zipf exponent of flow popularity (0 = uniform)
     * @param packetBytes     frame size of every packet
     * @param outputGbps      rate of the monitored port
     * @param overload        arrival rate during a burst / output rate
     * @param packetsPerBurst packets per burst
     * @param bursts          number of bursts
     * @param burstIntervalNs time between burst starts
     * @param inputPorts      front-panel ports the flows come in on (flow f uses inputPorts[f % n])
     * @param seed            random seed
     */
    public record Spec(int flows, double zipf, int packetBytes, double outputGbps, double overload,
                       int packetsPerBurst, int bursts, long burstIntervalNs, int[] inputPorts, long seed) {
        public long totalPackets() {
            return (long) packetsPerBurst * bursts;
        }
    }

    private final Spec spec;
    private final SplittableRandom rnd;
    private final double[] cdf;
    private final int[] seq;
    private final double meanGapNs;
    private int burst;
    private int inBurst;
    private double clockNs;
    private long index;

    public MidstTraffic(Spec spec) {
        this.spec = spec;
        this.rnd = new SplittableRandom(spec.seed());
        this.cdf = new double[spec.flows()];
        double sum = 0;
        for (int f = 0; f < spec.flows(); f++) {
            sum += 1.0 / Math.pow(f + 1, spec.zipf());
            cdf[f] = sum;
        }
        for (int f = 0; f < spec.flows(); f++) {
            cdf[f] /= sum;
        }
        this.seq = new int[spec.flows()];
        double serialisationNs = (spec.packetBytes() + WIRE_OVERHEAD_BYTES) * 8 / spec.outputGbps();
        this.meanGapNs = serialisationNs / spec.overload();
    }

    public static int flowOf(PacketRecord r) {
        return r.srcIpv4() - FLOW_BASE;
    }

    /** Fills the next packet (timestamp = arrival ns, ingress port set); false at the end. */
    public boolean next(PacketRecord r) {
        if (burst >= spec.bursts()) {
            return false;
        }
        if (inBurst == 0) {
            // a burst starts on its interval, or right after the previous one if that ran over
            clockNs = Math.max(clockNs, (double) burst * spec.burstIntervalNs());
        } else {
            clockNs += -Math.log(1 - rnd.nextDouble()) * meanGapNs;
        }
        int f = pick(rnd.nextDouble());
        seq[f]++;
        r.clear();
        r.timestampNs((long) clockNs).wireLength(spec.packetBytes()).ipVersion(4).protocol(PacketRecord.PROTO_TCP)
                .srcIpv4(FLOW_BASE + f).dstIpv4(DST).srcPort(SRC_PORT_BASE + (f & 0x7FFF)).dstPort(DST_PORT)
                .ttl(64).tcpSeq(seq[f]).payloadHash((int) index)
                .ingressPort(spec.inputPorts()[f % spec.inputPorts().length]);
        FrameSynthesizer.putFrame(r, frameScratch); // the frame the switch parses
        index++;
        if (++inBurst == spec.packetsPerBurst()) {
            inBurst = 0;
            burst++;
        }
        return true;
    }

    private int pick(double u) {
        int lo = 0;
        int hi = cdf.length - 1;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (cdf[mid] < u) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /** Arrivals of flow f so far. */
    public int arrivals(int f) {
        return seq[f];
    }
}
