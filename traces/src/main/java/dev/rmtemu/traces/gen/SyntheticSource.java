package dev.rmtemu.traces.gen;

import dev.rmtemu.traces.pcap.FrameSynthesizer;

import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import dev.rmtemu.traces.LinkQueueing;
import dev.rmtemu.traces.PacketRecord;
import dev.rmtemu.traces.PacketSource;
import dev.rmtemu.traces.SkipCounters;

import java.util.Arrays;

/**
 * A seeded synthetic trace ({@link GeneratorConfig}) as a {@link PacketSource}.
 *
 * <p>Flow model (all kinds but incast): flow i gets a weight (Zipf 1/(i+1)^s, Pareto
 * u^(-1/α), or 1), and the packet count is shared out exactly: every flow gets one
 * packet plus its weight's share of the rest, rounding remainders going to the lowest
 * flow indices. Packets are then drawn one at a time from the flows in proportion to
 * the packets each has left (a Fenwick tree), so flows interleave and every flow's
 * packets are spread over the trace. Memory is proportional to the flow count, not
 * the packet count. A flow's 5-tuple, protocol, IP version and ingress port are a
 * hash of (seed, flow index).
 *
 * <p>Packets of a flow: consecutive IPv4 IDs from a random start; TCP flows start
 * with a SYN (no payload), end with FIN|ACK (when they have two or more packets), and
 * advance the sequence number by each packet's payload; every packet with payload has
 * a non-zero payload hash unique to (seed, packet index).
 *
 * <p>Timestamps: packet k is sent after packet k-1's serialisation time at the link
 * rate ((bytes + 20) × 8 / Gb/s, counting preamble and inter-frame gap) plus an
 * exponential idle time whose mean makes the average utilisation equal to the load.
 *
 * <p>Links: every kind claims {@code gbps}, one link per ingress port, and no frame starts
 * before the previous frame on its link has left ({@link LinkPacer}): where the model wants a
 * packet earlier (flows of the backbone model overlapping, senders sharing a port, timestamps
 * rounded down to whole ns), the packet queues: its timestamp moves later, the order is kept,
 * and {@link #linkQueueing()} counts it.
 *
 * <p>{@code dist=backbone} (the ISP preset) instead lets flows arrive, run and end through the
 * trace ({@link BackboneFlows}, {@link BackboneArrivals}); timestamps are the flows' packet
 * times, and memory is proportional to the flows running at once.
 *
 * <p>Incast: {@code senders} TCP flows to one receiver, sender j on ingress port j mod
 * {@code ports}; in each of {@code bursts} bursts, starting every {@code interval} ns (or
 * when the previous burst ended), every sender sends its share of the packets back to back
 * at the link rate (each frame at the first whole ns after its previous one left), all
 * senders at once; senders sharing a port queue there. Packets are emitted in timestamp
 * order, ties by sender index.
 */
public final class SyntheticSource implements PacketSource {
    /** Takes a frame whose headers do not fit a record's capacity (a tiny snap length). */
    private final UnsafeBuffer frameScratch = new UnsafeBuffer(new byte[FrameSynthesizer.MAX_MIN_FRAME]);
    /** Bytes on the wire around each frame: preamble + SFD (8) and inter-frame gap (12). */
    public static final int WIRE_OVERHEAD_BYTES = LinkPacer.WIRE_OVERHEAD_BYTES;
    /** Payload bytes the minimal data packet carries (the writers' synthetic payload). */
    static final int MIN_PAYLOAD = 4;
    static final int ETHERNET = 14;
    /** Incast receiver 10.0.0.1:5001 (the iperf port) and sender base address 10.1.0.0. */
    static final int INCAST_RECEIVER = 0x0A000001;
    static final int INCAST_RECEIVER_PORT = 5001;
    static final int INCAST_SENDER_BASE = 0x0A010000;
    static final int INCAST_SENDER_PORT_BASE = 10_000;
    /** Initial TTLs of common stacks, minus up to {@link #MAX_HOPS} hops. */
    private static final int[] INITIAL_TTLS = {64, 128, 255};
    private static final int MAX_HOPS = 16;
    /** Well-known destination ports of generated TCP flows (web weighted up, mail, ssh). */
    private static final int[] TCP_SERVICE_PORTS = {80, 443, 443, 443, 25, 22, 8080, 993};
    /** Well-known destination ports of generated UDP flows (DNS, NTP, QUIC, STUN). */
    private static final int[] UDP_SERVICE_PORTS = {53, 53, 123, 443, 443, 3478};
    private static final int EPHEMERAL_BASE = 32_768;
    private static final int EPHEMERAL_RANGE = 28_232;
    private static final int ICMP_ECHO_REQUEST = 8;
    private static final int STREAM_TUPLE = 1;
    private static final int STREAM_SIZES = 2;
    private static final int STREAM_WEIGHTS = 3;
    private static final int STREAM_PICK = 4;
    private static final int STREAM_PAYLOAD = 5;
    private static final int STREAM_ARRIVALS = 6;

    private final GeneratorConfig cfg;
    private final SkipCounters skips = new SkipCounters();
    private final SplitMix64 sizeRng;
    private final SplitMix64 pickRng;
    private final long tupleSeed;
    private final long payloadSeed;
    private final double nsPerByte;
    private final double idleFactor;
    private final long total;
    private final LinkPacer pacer;
    private long emitted;
    private double clockNs;

    // flow model
    private final int flowCount;
    private final long[] remaining;
    private final long[] fenwick;
    private final int fenwickTop;
    private long remainingTotal;
    private final int[] nextSeq;
    private final char[] nextIpId;
    private final boolean[] started;
    /** Packets per flow as longs: a spec may ask for more than 2^31 packets of one flow. */
    private final long[] flowSize;

    // backbone (flows arriving through the trace); null otherwise
    private final BackboneArrivals arrivals;
    /**
     * Per backbone flow slot, the record's metadata as {@link #fillTuple} leaves it for the
     * flow in the slot (a pure function of the flow id), and that flow's id (-1: none yet). A
     * flow's tuple is then derived once, at its first packet, and copied for the rest: the
     * hashing and the three divisions it takes are a tenth of a generated packet's cost.
     */
    private long[] tupleWords = new long[0];
    private long[] tupleFlow = new long[0];
    private static final int TUPLE_WORDS = PacketRecord.METADATA_BYTES / Long.BYTES;

    // incast
    private final long[] burstShare;
    private final double[] senderClock;
    /**
     * Per sender, the first whole ns after its last frame would have left its NIC, had that frame
     * not queued: a sender sends one frame at a time, so its next frame wants to start then.
     */
    private final long[] senderFreeNs;
    private int burst;
    private double burstStart;
    private double burstEnd;

    public SyntheticSource(GeneratorConfig config) {
        this.cfg = config.validated();
        this.total = cfg.packets();
        this.sizeRng = new SplitMix64(SplitMix64.derive(cfg.seed(), STREAM_SIZES));
        this.pickRng = new SplitMix64(SplitMix64.derive(cfg.seed(), STREAM_PICK));
        this.tupleSeed = SplitMix64.derive(cfg.seed(), STREAM_TUPLE);
        this.payloadSeed = SplitMix64.derive(cfg.seed(), STREAM_PAYLOAD);
        this.nsPerByte = 8.0 / cfg.linkGbps();
        this.idleFactor = (1.0 - cfg.load()) / cfg.load();
        this.pacer = new LinkPacer(cfg.linkGbps(), cfg.ports());
        boolean incast = cfg.kind() == GeneratorKind.INCAST;
        boolean backbone = !incast && cfg.flowSizes() == GeneratorConfig.FlowSizes.BACKBONE;
        this.arrivals = backbone ? new BackboneArrivals(cfg, SplitMix64.derive(cfg.seed(), STREAM_ARRIVALS), tupleSeed)
                : null;
        this.flowCount = incast ? cfg.senders() : backbone ? 0
                : (int) Math.max(1, Math.min(cfg.effectiveFlows(), Math.max(total, 1)));
        this.nextSeq = new int[flowCount];
        this.nextIpId = new char[flowCount];
        this.started = new boolean[flowCount];
        for (int f = 0; f < flowCount; f++) {
            long h = SplitMix64.at(tupleSeed ^ 0x5EED, f);
            nextSeq[f] = (int) h;
            nextIpId[f] = (char) (h >>> 32);
        }
        if (incast) {
            remaining = new long[flowCount];
            flowSize = null;
            fenwick = null;
            fenwickTop = 0;
            burstShare = new long[cfg.bursts()];
            for (int b = 0; b < cfg.bursts(); b++) {
                burstShare[b] = total / cfg.bursts() + (b < total % cfg.bursts() ? 1 : 0);
            }
            senderClock = new double[flowCount];
            senderFreeNs = new long[flowCount];
            Arrays.fill(senderFreeNs, Long.MIN_VALUE);
            burst = -1;
            burstEnd = 0;
        } else if (backbone) {
            burstShare = null;
            senderClock = null;
            senderFreeNs = null;
            flowSize = null;
            remaining = null;
            fenwick = null;
            fenwickTop = 0;
        } else {
            burstShare = null;
            senderClock = null;
            senderFreeNs = null;
            flowSize = shareOut();
            remaining = flowSize.clone();
            int top = 1;
            while (top * 2 <= flowCount) {
                top *= 2;
            }
            fenwickTop = top;
            fenwick = new long[flowCount + 1];
            for (int i = 1; i <= flowCount; i++) {
                fenwick[i] += remaining[i - 1];
                int parent = i + (i & -i);
                if (parent <= flowCount) {
                    fenwick[parent] += fenwick[i];
                }
            }
            remainingTotal = total;
        }
    }

    /** Packets per flow (exactly {@code packets} in total, each flow at least one). */
    private long[] shareOut() {
        int n = flowCount;
        double[] w = new double[n];
        SplitMix64 rng = new SplitMix64(SplitMix64.derive(cfg.seed(), STREAM_WEIGHTS));
        double sum = 0;
        for (int i = 0; i < n; i++) {
            switch (cfg.flowSizes()) {
                case ZIPF:
                    w[i] = 1.0 / StrictMath.pow(i + 1, cfg.zipfExponent());
                    break;
                case PARETO:
                    w[i] = StrictMath.pow(rng.nextOpenDouble(), -1.0 / cfg.paretoShape());
                    break;
                default:
                    w[i] = 1.0;
            }
            sum += w[i];
        }
        long[] size = new long[n];
        if (total == 0) {
            return size;
        }
        long extra = total - n;
        long assigned = 0;
        for (int i = 0; i < n; i++) {
            size[i] = 1 + (long) Math.floor(extra * (w[i] / sum));
            assigned += size[i];
        }
        // the floors leave fewer than n packets over; at totals beyond 2^53 the doubles may round
        // the other way, so the surplus is also taken back, one packet per flow of two or more
        long left = total - assigned;
        for (int i = 0; left > 0; i = (i + 1) % n) {
            size[i]++;
            left--;
        }
        for (int i = 0; left < 0; i = (i + 1) % n) {
            if (size[i] > 1) {
                size[i]--;
                left++;
            }
        }
        return size;
    }

    /** Packets flow {@code f} will send in total (flow model only). */
    public long flowSize(int f) {
        return flowSize[f];
    }

    /** Flow slots the backbone model has allocated (the most flows running at once, rounded up); 0 otherwise. */
    int backboneSlots() {
        return arrivals == null ? 0 : arrivals.flowId.length;
    }

    /** Flows of the flow model (0 for dist=backbone, whose flows arrive while the trace runs). */
    public int flowCount() {
        return flowCount;
    }

    @Override
    public boolean next(PacketRecord into) {
        if (emitted >= total) {
            return false;
        }
        if (burstShare != null) {
            nextIncast(into);
        } else if (arrivals != null) {
            nextBackbonePacket(into);
        } else {
            nextFlowPacket(into);
        }
        // the frame a capture of it holds at the record's snap length: what the switch parses
        FrameSynthesizer.putFrame(into, frameScratch);
        emitted++;
        return true;
    }

    private void nextFlowPacket(PacketRecord r) {
        int f = pick(Math.floorMod(pickRng.nextLong(), remainingTotal));
        remainingTotal--;
        long left = --remaining[f];
        for (int i = f + 1; i <= flowCount; i += i & -i) {
            fenwick[i]--;
        }
        fillTuple(r, f);
        int size = fillPacket(r, nextSeq, nextIpId, started, f, left == 0 && flowSize[f] >= 2);
        r.timestampNs(cfg.startNs() + pacer.start((long) clockNs, r.ingressPort(), size));
        double serialisation = (size + WIRE_OVERHEAD_BYTES) * nsPerByte;
        clockNs += serialisation + (idleFactor > 0 ? sizeRng.nextExponential(serialisation * idleFactor) : 0);
    }

    private void nextBackbonePacket(PacketRecord r) {
        BackboneArrivals a = arrivals;
        a.advance();
        int k = a.slot;
        backboneTuple(r, k, a.flowId[k]);
        fillPacket(r, a.seq, a.ipId, a.started, k, a.last && a.size[k] >= 2);
        r.timestampNs(cfg.startNs() + pacer.start((long) a.timeNs, r.ingressPort(), r.wireLength()));
        a.release();
    }

    /** {@link #fillTuple} of flow {@code flow} in backbone slot {@code k}, from the slot's template once it has one. */
    private void backboneTuple(PacketRecord r, int k, long flow) {
        if (k >= tupleFlow.length) {
            int n = Math.max(arrivals.flowId.length, k + 1);
            int old = tupleFlow.length;
            tupleFlow = Arrays.copyOf(tupleFlow, n);
            Arrays.fill(tupleFlow, old, n, -1L);
            tupleWords = Arrays.copyOf(tupleWords, n * TUPLE_WORDS);
        }
        MutableDirectBuffer b = r.buffer();
        int off = r.offset();
        int at = k * TUPLE_WORDS;
        if (tupleFlow[k] != flow) {
            fillTuple(r, flow);
            for (int i = 0; i < TUPLE_WORDS; i++) {
                tupleWords[at + i] = b.getLong(off + i * Long.BYTES);
            }
            tupleFlow[k] = flow;
            return;
        }
        // the same bytes fillTuple writes: it clears the record, then sets the flow's fields
        for (int i = 0; i < TUPLE_WORDS; i++) {
            b.putLong(off + i * Long.BYTES, tupleWords[at + i]);
        }
    }

    /** Flow index holding the {@code target}-th remaining packet (Fenwick descent). */
    private int pick(long target) {
        int pos = 0;
        for (int step = fenwickTop; step > 0; step >>= 1) {
            int next = pos + step;
            if (next <= flowCount && fenwick[next] <= target) {
                pos = next;
                target -= fenwick[next];
            }
        }
        return pos;
    }

    private void nextIncast(PacketRecord r) {
        int n = flowCount;
        if (burst < 0 || allSent()) {
            do {
                burst++;
            } while (burstShare[burst] == 0);
            burstStart = Math.max((double) burst * cfg.burstIntervalNs(), burstEnd);
            long share = burstShare[burst];
            for (int j = 0; j < n; j++) {
                remaining[j] = share / n + (j < share % n ? 1 : 0);
                senderClock[j] = 0;
            }
        }
        // the sender whose next frame starts first (when it wants to send, or when its port's link is
        // free); on a tie, the frame that has waited longest (first in, first out), then the lower index
        int j = -1;
        long jStart = 0;
        long jWanted = 0;
        for (int s = 0; s < n; s++) {
            if (remaining[s] > 0) {
                long wanted = incastWantedNs(s);
                long start = Math.max(wanted, pacer.earliestStartNs(s % cfg.ports()));
                if (j < 0 || start < jStart || (start == jStart && wanted < jWanted)) {
                    j = s;
                    jStart = start;
                    jWanted = wanted;
                }
            }
        }
        remaining[j]--;
        r.clear();
        r.ipVersion(4).protocol(PacketRecord.PROTO_TCP)
                .srcIpv4(INCAST_SENDER_BASE + j).dstIpv4(INCAST_RECEIVER)
                .srcPort(INCAST_SENDER_PORT_BASE + j).dstPort(INCAST_RECEIVER_PORT)
                .ttl(INITIAL_TTLS[0]).ingressPort(j % cfg.ports());
        int size = fillPacket(r, nextSeq, nextIpId, started, j, false);
        int link = r.ingressPort();
        long wanted = incastWantedNs(j);
        r.timestampNs(cfg.startNs() + pacer.start(wanted, link, size));
        senderFreeNs[j] = (long) Math.ceil(wanted + LinkPacer.serialisationNs(size, cfg.linkGbps()));
        senderClock[j] += (size + WIRE_OVERHEAD_BYTES) * nsPerByte;
        // a burst ends when its sender is done and its frames have left the shared link
        burstEnd = Math.max(burstEnd, Math.max(burstStart + senderClock[j], pacer.freeAtNs(link)));
    }

    /** When sender {@code s} wants to start its next frame: its place in the burst, once its NIC is free. */
    private long incastWantedNs(int s) {
        return Math.max((long) (burstStart + senderClock[s]), senderFreeNs[s]);
    }

    private boolean allSent() {
        for (long v : remaining) {
            if (v > 0) {
                return false;
            }
        }
        return true;
    }

    /** Writes the 5-tuple, version, TTL and ingress port of flow {@code f}. */
    private void fillTuple(PacketRecord r, long f) {
        long h1 = SplitMix64.at(tupleSeed, f);
        long h2 = SplitMix64.mix(h1 + 0x9E3779B97F4A7C15L);
        r.clear();
        double kind = (h2 >>> 11) * 0x1.0p-53;
        int proto = kind < cfg.tcpFraction() ? PacketRecord.PROTO_TCP
                : kind < cfg.tcpFraction() + cfg.udpFraction() ? PacketRecord.PROTO_UDP : -1;
        boolean v6 = ((h1 >>> 11) * 0x1.0p-53) < cfg.ipv6Fraction();
        if (v6) {
            // 2001:db8::/32 documentation prefix, the rest from the flow hash.
            r.ipVersion(6).srcIpv6(0x20010DB800000000L | (h1 >>> 40), h2)
                    .dstIpv6(0x20010DB800010000L | ((h2 >>> 48) & 0xFFFF), SplitMix64.mix(h2));
        } else {
            r.ipVersion(4).srcIpv4(0x0A000000 | (int) (h1 & 0xFFFFFF))
                    .dstIpv4(0x64000000 + (int) ((h1 >>> 24) & 0x3FFFFFFF));
        }
        if (proto < 0) {
            proto = v6 ? PacketRecord.PROTO_ICMPV6 : PacketRecord.PROTO_ICMP;
            r.srcPort(v6 ? 128 : ICMP_ECHO_REQUEST).dstPort(0);
        } else {
            int[] services = proto == PacketRecord.PROTO_TCP ? TCP_SERVICE_PORTS : UDP_SERVICE_PORTS;
            r.srcPort(EPHEMERAL_BASE + (int) Long.remainderUnsigned(h2 >>> 16, EPHEMERAL_RANGE))
                    .dstPort(services[(int) Long.remainderUnsigned(h2 >>> 40, services.length)]);
        }
        r.protocol(proto);
        r.ttl(INITIAL_TTLS[(int) ((h1 >>> 54) % INITIAL_TTLS.length)] - (int) ((h1 >>> 58) % MAX_HOPS));
        r.ingressPort((int) Long.remainderUnsigned(SplitMix64.mix(h1 ^ h2), cfg.ports()));
    }

    /** Fills size, IP ID, TCP state and payload hash from flow {@code f}'s entry in the arrays; returns the wire size. */
    private int fillPacket(PacketRecord r, int[] nextSeq, char[] nextIpId, boolean[] started, int f, boolean last) {
        int headers = ETHERNET + (r.ipVersion() == 6 ? 40 : 20)
                + (r.protocol() == PacketRecord.PROTO_TCP ? 20 : 8);
        int size = Math.max(cfg.sizes().draw(sizeRng.nextDouble()), headers + MIN_PAYLOAD);
        boolean first = !started[f];
        started[f] = true;
        if (r.ipVersion() == 4) {
            r.ipId(nextIpId[f]++);
        }
        boolean payload = true;
        if (r.protocol() == PacketRecord.PROTO_TCP) {
            int seq = nextSeq[f];
            r.tcpSeq(seq);
            if (first) {
                r.tcpFlags(PacketRecord.TCP_SYN);
                payload = false;
                nextSeq[f] = seq + 1;
            } else if (last) {
                r.tcpFlags(PacketRecord.TCP_FIN | PacketRecord.TCP_ACK);
                payload = false;
                nextSeq[f] = seq + 1;
            } else {
                r.tcpFlags(PacketRecord.TCP_ACK);
                nextSeq[f] = seq + (size - headers);
            }
        }
        if (payload) {
            int h = (int) SplitMix64.at(payloadSeed, emitted);
            r.payloadHash(h == 0 ? 1 : h);
        } else {
            size = Math.max(PacketSizeMix.MIN_FRAME, headers);
        }
        r.wireLength(size);
        return size;
    }

    /** Packets queued on their link so far, and for how long. */
    @Override
    public LinkQueueing linkQueueing() {
        return pacer.stats();
    }

    /** Exactly {@code packets} of the config. */
    @Override
    public long knownCount() {
        return total;
    }

    @Override
    public SkipCounters skipped() {
        return skips;
    }

    @Override
    public String describe() {
        return cfg.toSpec();
    }

    public GeneratorConfig config() {
        return cfg;
    }

    @Override
    public void close() {
        // nothing held but arrays
    }
}
