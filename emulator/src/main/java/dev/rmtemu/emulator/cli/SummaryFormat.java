package dev.rmtemu.emulator.cli;

import dev.rmtemu.traces.TraceSummary;

import java.util.Locale;
import java.util.Map;

/** Renders a {@link TraceSummary} as a terminal table or as JSON (fixed key order). */
final class SummaryFormat {
    private SummaryFormat() {
    }

    static String table(TraceSummary s, String stopReason) {
        StringBuilder b = new StringBuilder();
        b.append("source     ").append(s.source()).append('\n');
        b.append(String.format(Locale.ROOT, "packets    %,d%n", s.packets()));
        b.append(String.format(Locale.ROOT, "flows      %,d (5-tuples)%n", s.flows()));
        b.append(String.format(Locale.ROOT, "bytes      %,d (wire length)%n", s.bytes()));
        b.append(String.format(Locale.ROOT, "duration   %.9f s (first %d ns, last %d ns)%n", s.durationNs() / 1e9,
                s.firstNs(), s.lastNs()));
        b.append(String.format(Locale.ROOT, "ip         v4 %,d  v6 %,d  fragments %,d%n", s.ipv4(), s.ipv6(),
                s.fragments()));
        b.append("protocols ");
        for (Map.Entry<String, Long> e : s.protocols().entrySet()) {
            b.append(String.format(Locale.ROOT, " %s %,d (%.1f%%)", e.getKey(), e.getValue(),
                    100.0 * e.getValue() / Math.max(1, s.packets())));
        }
        b.append('\n');
        b.append("skipped   ");
        if (s.skipped().isEmpty()) {
            b.append(" none");
        }
        for (Map.Entry<String, Long> e : s.skipped().entrySet()) {
            b.append(String.format(Locale.ROOT, " %s %,d", e.getKey(), e.getValue()));
        }
        b.append('\n');
        if (stopReason != null) {
            b.append("stopped    early: ").append(stopReason).append('\n');
        }
        b.append(String.format(Locale.ROOT, "mean size  %.1f B per packet%n", s.meanPacketBytes()));
        b.append("top flows ");
        for (TraceSummary.TopShare t : s.topShares()) {
            b.append(String.format(Locale.ROOT, " top %d %.2f%%", t.top(), 100 * t.packetShare()));
        }
        b.append(" of packets\n");
        b.append("flow CCDF ");
        for (TraceSummary.CcdfPoint c : s.flowSizeCcdf()) {
            b.append(String.format(Locale.ROOT, " >=%d %,d (%.4f%%)", c.packets(), c.flows(), 100 * c.share()));
        }
        b.append(" flows of at least N packets\n");
        b.append(String.format(Locale.ROOT, "new flows  per %.6f s:", s.newFlowIntervalNs() / 1e9));
        for (long n : s.newFlowsPerInterval()) {
            b.append(String.format(Locale.ROOT, " %,d", n));
        }
        b.append('\n');
        TraceSummary.Flow[] top = s.top();
        if (top.length > 0) {
            int w = "destination".length();
            for (TraceSummary.Flow f : top) {
                w = Math.max(w, Math.max(f.src().length(), f.dst().length()));
            }
            String head = "%-4s %-" + w + "s %-" + w + "s %-6s %7s %7s %12s %14s%n";
            String row = "%-4d %-" + w + "s %-" + w + "s %-6s %7d %7d %,12d %,14d%n";
            b.append('\n').append(String.format(Locale.ROOT, head, "#", "source", "destination", "proto", "sport",
                    "dport", "packets", "bytes"));
            for (int i = 0; i < top.length; i++) {
                TraceSummary.Flow f = top[i];
                b.append(String.format(Locale.ROOT, row, i + 1, f.src(), f.dst(),
                        TraceSummary.protocolName(f.protocol()), f.srcPort(), f.dstPort(), f.packets(), f.bytes()));
            }
        }
        return b.toString();
    }

    static String json(TraceSummary s, String stopReason) {
        StringBuilder b = new StringBuilder("{\n");
        b.append("  \"source\": ").append(str(s.source())).append(",\n");
        b.append("  \"packets\": ").append(s.packets()).append(",\n");
        b.append("  \"flows\": ").append(s.flows()).append(",\n");
        b.append("  \"bytes\": ").append(s.bytes()).append(",\n");
        b.append("  \"first_ns\": ").append(s.firstNs()).append(",\n");
        b.append("  \"last_ns\": ").append(s.lastNs()).append(",\n");
        b.append("  \"duration_ns\": ").append(s.durationNs()).append(",\n");
        b.append("  \"ipv4\": ").append(s.ipv4()).append(",\n");
        b.append("  \"ipv6\": ").append(s.ipv6()).append(",\n");
        b.append("  \"fragments\": ").append(s.fragments()).append(",\n");
        b.append("  \"protocols\": ").append(map(s.protocols())).append(",\n");
        b.append("  \"skipped\": ").append(map(s.skipped())).append(",\n");
        b.append("  \"stopped_early\": ").append(stopReason == null ? "null" : str(stopReason)).append(",\n");
        b.append("  \"mean_packet_bytes\": ").append(String.format(Locale.ROOT, "%.3f", s.meanPacketBytes())).append(",\n");
        b.append("  \"top_flow_packet_share\": {");
        TraceSummary.TopShare[] shares = s.topShares();
        for (int i = 0; i < shares.length; i++) {
            b.append(i == 0 ? "" : ", ").append('"').append(shares[i].top()).append("\": ")
                    .append(String.format(Locale.ROOT, "%.6f", shares[i].packetShare()));
        }
        b.append("},\n");
        b.append("  \"flow_size_ccdf\": [");
        TraceSummary.CcdfPoint[] ccdf = s.flowSizeCcdf();
        for (int i = 0; i < ccdf.length; i++) {
            b.append(i == 0 ? "" : ", ").append("{\"packets_at_least\": ").append(ccdf[i].packets())
                    .append(", \"flows\": ").append(ccdf[i].flows())
                    .append(", \"share\": ").append(String.format(Locale.ROOT, "%.6f", ccdf[i].share())).append('}');
        }
        b.append("],\n");
        b.append("  \"new_flows_interval_ns\": ").append(s.newFlowIntervalNs()).append(",\n");
        b.append("  \"new_flows_per_interval\": [");
        long[] nf = s.newFlowsPerInterval();
        for (int i = 0; i < nf.length; i++) {
            b.append(i == 0 ? "" : ", ").append(nf[i]);
        }
        b.append("],\n");
        b.append("  \"top_flows\": [");
        TraceSummary.Flow[] top = s.top();
        for (int i = 0; i < top.length; i++) {
            TraceSummary.Flow f = top[i];
            b.append(i == 0 ? "\n" : ",\n");
            b.append("    {\"ip_version\": ").append(f.ipVersion())
                    .append(", \"src\": ").append(str(f.src()))
                    .append(", \"dst\": ").append(str(f.dst()))
                    .append(", \"protocol\": ").append(f.protocol())
                    .append(", \"src_port\": ").append(f.srcPort())
                    .append(", \"dst_port\": ").append(f.dstPort())
                    .append(", \"packets\": ").append(f.packets())
                    .append(", \"bytes\": ").append(f.bytes()).append('}');
        }
        b.append(top.length == 0 ? "]\n" : "\n  ]\n");
        return b.append("}\n").toString();
    }

    private static String map(Map<String, Long> m) {
        StringBuilder b = new StringBuilder("{");
        boolean first = true;
        for (Map.Entry<String, Long> e : m.entrySet()) {
            b.append(first ? "" : ", ").append(str(e.getKey())).append(": ").append(e.getValue());
            first = false;
        }
        return b.append('}').toString();
    }

    static String str(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                default -> {
                    if (c < 0x20) {
                        b.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        return b.append('"').toString();
    }
}
