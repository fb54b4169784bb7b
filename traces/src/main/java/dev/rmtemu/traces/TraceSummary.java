package dev.rmtemu.traces;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.LongConsumer;

/**
 * What {@code rmtemu trace info} reports about a trace: packets, bytes, time span,
 * flows, IP versions, protocol mix, skipped frames and the largest flows, and the
 * statistics that compare a trace with a real capture: the share of packets in the top
 * 1 / 10 / 100 / 1000 flows, the flow-size CCDF, new flows per interval and the mean
 * packet size. Computed in one pass; memory is proportional to the number of flows.
 */
public final class TraceSummary {
    /** How often (in packets) the progress callback is told the count. */
    public static final int PROGRESS_EVERY = 65_536;
    /** The top-n flows whose share of the packets is reported. */
    public static final int[] TOP_SHARES = {1, 10, 100, 1000};
    /** Flow sizes (packets) at which the CCDF is reported: decades, as the papers plot it. */
    public static final long[] CCDF_PACKETS = {1, 2, 10, 100, 1_000, 10_000, 100_000, 1_000_000};
    /** Equal time intervals the span is cut into for new flows per interval. */
    public static final int NEW_FLOW_INTERVALS = 10;

    /** Share of the packets the {@code top} largest flows hold. */
    public record TopShare(int top, double packetShare) {
    }

    /** Flows of at least {@code packets} packets: their count and share of all flows. */
    public record CcdfPoint(long packets, long flows, double share) {
    }

    /** One of the largest flows. */
    public record Flow(int ipVersion, String src, String dst, int protocol, int srcPort, int dstPort, long packets,
                       long bytes) {
    }

    private String source;
    private long packets;
    private long bytes;
    private long firstNs;
    private long lastNs;
    private long minNs = Long.MAX_VALUE;
    private long maxNs = Long.MIN_VALUE;
    private int flows;
    private final long[] perProtocol = new long[256];
    private long ipv4;
    private long ipv6;
    private long fragments;
    private long nonIp;
    private Map<String, Long> skipped;
    private LinkQueueing linkQueueing;
    private Flow[] top;
    private TopShare[] topShares;
    private CcdfPoint[] ccdf;
    private long newFlowIntervalNs;
    private long[] newFlows;

    private TraceSummary() {
    }

    /** Reads {@code src} to the end; {@code progress} (may be null) gets the running count. */
    public static TraceSummary of(PacketSource src, int topN, LongConsumer progress) {
        TraceSummary s = new TraceSummary();
        FlowTable table = new FlowTable();
        PacketRecord r = PacketRecord.allocate();
        long[] firstSeen = new long[1024];
        while (src.next(r)) {
            long ts = r.timestampNs();
            if (s.packets == 0) {
                s.firstNs = ts;
            }
            s.lastNs = ts;
            s.minNs = Math.min(s.minNs, ts);
            s.maxNs = Math.max(s.maxNs, ts);
            s.packets++;
            s.bytes += r.wireLength();
            if (r.ipVersion() == 0) {
                // ARP and other frames that are not IP: replayed like any packet, but no 5-tuple flow
                s.nonIp++;
                if (progress != null && (s.packets % PROGRESS_EVERY) == 0) {
                    progress.accept(s.packets);
                }
                continue;
            }
            s.perProtocol[r.protocol()]++;
            if (r.ipVersion() == 4) {
                s.ipv4++;
            } else if (r.ipVersion() == 6) {
                s.ipv6++;
            }
            if (r.isFragment()) {
                s.fragments++;
            }
            int e = table.add(r, r.wireLength());
            if (e == table.size() - 1 && table.packets(e) == 1) {
                if (e == firstSeen.length) {
                    firstSeen = Arrays.copyOf(firstSeen, e * 2);
                }
                firstSeen[e] = ts;
            }
            if (progress != null && (s.packets % PROGRESS_EVERY) == 0) {
                progress.accept(s.packets);
            }
        }
        s.source = src.describe();
        s.flows = table.size();
        s.skipped = src.skipped().asMap();
        s.linkQueueing = src.linkQueueing();
        int[] t = table.top(topN);
        s.flowStatistics(table, firstSeen);
        s.top = new Flow[t.length];
        for (int i = 0; i < t.length; i++) {
            PacketRecord k = table.key(t[i]);
            s.top[i] = new Flow(k.ipVersion(), Addresses.format(k, true), Addresses.format(k, false), k.protocol(),
                    k.srcPort(), k.dstPort(), table.packets(t[i]), table.bytes(t[i]));
        }
        return s;
    }

    private void flowStatistics(FlowTable table, long[] firstSeen) {
        int n = table.size();
        long[] sizes = new long[n];
        for (int e = 0; e < n; e++) {
            sizes[e] = table.packets(e);
        }
        Arrays.sort(sizes);
        topShares = new TopShare[TOP_SHARES.length];
        for (int i = 0; i < TOP_SHARES.length; i++) {
            long sum = 0;
            for (int j = 0; j < Math.min(TOP_SHARES[i], n); j++) {
                sum += sizes[n - 1 - j];
            }
            long ipPackets = packets - nonIp; // flows are IP 5-tuples: shares of the IP packets
            topShares[i] = new TopShare(TOP_SHARES[i], ipPackets == 0 ? 0 : (double) sum / ipPackets);
        }
        ccdf = new CcdfPoint[CCDF_PACKETS.length];
        for (int i = 0; i < CCDF_PACKETS.length; i++) {
            // sizes is sorted: the flows at or above the threshold are the tail from the first index >= it
            int lo = 0;
            int hi = n;
            while (lo < hi) {
                int mid = (lo + hi) >>> 1;
                if (sizes[mid] < CCDF_PACKETS[i]) {
                    lo = mid + 1;
                } else {
                    hi = mid;
                }
            }
            ccdf[i] = new CcdfPoint(CCDF_PACKETS[i], n - lo, n == 0 ? 0 : (double) (n - lo) / n);
        }
        newFlows = new long[packets == 0 ? 0 : NEW_FLOW_INTERVALS];
        long span = maxNs - minNs;
        // the last interval is closed, so the last timestamp falls in it
        newFlowIntervalNs = packets == 0 ? 0 : Math.max(1, (span + NEW_FLOW_INTERVALS - 1) / NEW_FLOW_INTERVALS);
        for (int e = 0; e < n; e++) {
            long i = (firstSeen[e] - minNs) / newFlowIntervalNs;
            newFlows[(int) Math.min(NEW_FLOW_INTERVALS - 1, i)]++;
        }
    }

    /** Share of the packets in the top 1, 10, 100 and 1000 flows. */
    public TopShare[] topShares() {
        return topShares.clone();
    }

    /** Flow-size CCDF at {@link #CCDF_PACKETS}. */
    public CcdfPoint[] flowSizeCcdf() {
        return ccdf.clone();
    }

    /** Length of the intervals of {@link #newFlowsPerInterval}, ns (the span over {@link #NEW_FLOW_INTERVALS}, rounded up). */
    public long newFlowIntervalNs() {
        return newFlowIntervalNs;
    }

    /** Flows whose first packet falls in each of {@link #NEW_FLOW_INTERVALS} equal intervals of the span. */
    public long[] newFlowsPerInterval() {
        return newFlows.clone();
    }

    /** Mean wire length of a packet, bytes (0 for an empty trace). */
    public double meanPacketBytes() {
        return packets == 0 ? 0 : (double) bytes / packets;
    }

    public String source() {
        return source;
    }

    public long packets() {
        return packets;
    }

    public long bytes() {
        return bytes;
    }

    public int flows() {
        return flows;
    }

    public long firstNs() {
        return firstNs;
    }

    public long lastNs() {
        return lastNs;
    }

    /** Span between the earliest and the latest timestamp (0 for fewer than two packets). */
    public long durationNs() {
        return packets == 0 ? 0 : maxNs - minNs;
    }

    public long ipv4() {
        return ipv4;
    }

    public long ipv6() {
        return ipv6;
    }

    public long fragments() {
        return fragments;
    }

    /** Records that are not IP (IP version 0: ARP, other ethertypes, malformed IP): outside flows and protocols. */
    public long nonIp() {
        return nonIp;
    }

    /** Packets per protocol name (tcp, udp, icmp, icmpv6, or the number), by protocol number. */
    public Map<String, Long> protocols() {
        Map<String, Long> m = new LinkedHashMap<>();
        for (int p = 0; p < perProtocol.length; p++) {
            if (perProtocol[p] != 0) {
                m.put(protocolName(p), perProtocol[p]);
            }
        }
        return m;
    }

    /** A generator's queueing on its links ({@link PacketSource#linkQueueing}), null for other sources. */
    public LinkQueueing linkQueueing() {
        return linkQueueing;
    }

    public Map<String, Long> skipped() {
        return new TreeMap<>(skipped);
    }

    public Flow[] top() {
        return top.clone();
    }

    public static String protocolName(int p) {
        switch (p) {
            case PacketRecord.PROTO_ICMP:
                return "icmp";
            case 2:
                return "igmp";
            case PacketRecord.PROTO_TCP:
                return "tcp";
            case PacketRecord.PROTO_UDP:
                return "udp";
            case 47:
                return "gre";
            case 50:
                return "esp";
            case PacketRecord.PROTO_ICMPV6:
                return "icmpv6";
            case 132:
                return "sctp";
            default:
                return Integer.toString(p);
        }
    }
}
