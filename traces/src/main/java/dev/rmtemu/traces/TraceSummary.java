package dev.rmtemu.traces;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.LongConsumer;

/**
 * What {@code rmtemu trace info} reports about a trace: packets, bytes, time span,
 * flows, IP versions, protocol mix, skipped frames and the largest flows. Computed in
 * one pass; memory is proportional to the number of flows.
 */
public final class TraceSummary {
    /** How often (in packets) the progress callback is told the count. */
    public static final int PROGRESS_EVERY = 65_536;

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
    private Map<String, Long> skipped;
    private Flow[] top;

    private TraceSummary() {
    }

    /** Reads {@code src} to the end; {@code progress} (may be null) gets the running count. */
    public static TraceSummary of(PacketSource src, int topN, LongConsumer progress) {
        TraceSummary s = new TraceSummary();
        FlowTable table = new FlowTable();
        PacketRecord r = PacketRecord.allocate();
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
            s.perProtocol[r.protocol()]++;
            if (r.ipVersion() == 4) {
                s.ipv4++;
            } else if (r.ipVersion() == 6) {
                s.ipv6++;
            }
            if (r.isFragment()) {
                s.fragments++;
            }
            table.add(r, r.wireLength());
            if (progress != null && (s.packets % PROGRESS_EVERY) == 0) {
                progress.accept(s.packets);
            }
        }
        s.source = src.describe();
        s.flows = table.size();
        s.skipped = src.skipped().asMap();
        int[] t = table.top(topN);
        s.top = new Flow[t.length];
        for (int i = 0; i < t.length; i++) {
            PacketRecord k = table.key(t[i]);
            s.top[i] = new Flow(k.ipVersion(), Addresses.format(k, true), Addresses.format(k, false), k.protocol(),
                    k.srcPort(), k.dstPort(), table.packets(t[i]), table.bytes(t[i]));
        }
        return s;
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
