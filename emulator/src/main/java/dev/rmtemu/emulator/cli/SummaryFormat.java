package dev.rmtemu.emulator.cli;

import dev.rmtemu.emulator.json.Json;
import dev.rmtemu.traces.LinkQueueing;
import dev.rmtemu.traces.TraceSummary;
import dev.rmtemu.traces.parse.ProtocolHierarchy;

import java.util.Locale;
import java.util.Map;

/** Renders a {@link TraceSummary} as a terminal table or as JSON ({@link TraceInfoReport}). */
final class SummaryFormat {
    private SummaryFormat() {
    }

    /** The table, then the protocol hierarchy when there is one (a capture's frames were parsed). */
    static String table(TraceSummary s, String stopReason, ProtocolHierarchy.Summary hierarchy) {
        String table = flowTable(s, stopReason);
        return hierarchy == null ? table : table + hierarchy(hierarchy);
    }

    static String hierarchy(ProtocolHierarchy.Summary h) {
        StringBuilder b = new StringBuilder();
        b.append(String.format(Locale.ROOT, "%nprotocol hierarchy (parse graph %s, %d-byte window): %,d frames, %,d accepted",
                h.parseGraph(), h.windowBytes(), h.frames(), h.accepted()));
        if (h.otherLinkFrames() > 0) {
            b.append(String.format(Locale.ROOT, ", %,d of other link types not parsed", h.otherLinkFrames()));
        }
        b.append('\n');
        int w = 0;
        for (ProtocolHierarchy.Row r : h.hierarchy()) {
            w = Math.max(w, 2 * r.depth() + r.header().length());
        }
        for (ProtocolHierarchy.Row r : h.hierarchy()) {
            String name = "  ".repeat(r.depth()) + r.header();
            b.append(String.format(Locale.ROOT, "  %-" + w + "s %,12d frames %6.2f%% %,16d bytes%n", name, r.frames(),
                    100.0 * r.frames() / Math.max(1, h.frames()), r.bytes()));
        }
        b.append("headers   ");
        for (Map.Entry<String, Long> e : h.headers().entrySet()) {
            b.append(String.format(Locale.ROOT, " %s %,d", e.getKey(), e.getValue()));
        }
        b.append(h.headers().isEmpty() ? " none\n" : "\n");
        b.append("parser errors");
        for (Map.Entry<String, Long> e : h.parserErrors().entrySet()) {
            b.append(String.format(Locale.ROOT, " %s %,d", e.getKey(), e.getValue()));
        }
        b.append(h.parserErrors().isEmpty() ? " none\n" : "\n");
        return b.toString();
    }

    private static String flowTable(TraceSummary s, String stopReason) {
        StringBuilder b = new StringBuilder();
        b.append("source     ").append(s.source()).append('\n');
        b.append(String.format(Locale.ROOT, "packets    %,d%n", s.packets()));
        b.append(String.format(Locale.ROOT, "flows      %,d (5-tuples)%n", s.flows()));
        b.append(String.format(Locale.ROOT, "bytes      %,d (wire length)%n", s.bytes()));
        b.append(String.format(Locale.ROOT, "duration   %.9f s (first %d ns, last %d ns)%n", s.durationNs() / 1e9,
                s.firstNs(), s.lastNs()));
        b.append(String.format(Locale.ROOT, "ip         v4 %,d  v6 %,d  fragments %,d%n", s.ipv4(), s.ipv6(),
                s.fragments()));
        if (s.nonIp() > 0) {
            b.append(String.format(Locale.ROOT, "not ip     %,d (ARP and other frames: replayed, outside flows and protocols)%n",
                    s.nonIp()));
        }
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
        LinkQueueing q = s.linkQueueing();
        if (q != null) {
            b.append(String.format(Locale.ROOT, "link queue %,d packets delayed to fit %s Gb/s per link: %,d ns in total, %,d ns at most%n",
                    q.delayed(), rate(q.gbps()), q.totalDelayNs(), q.maxDelayNs()));
        }
        if (stopReason != null) {
            b.append("stopped    early: ").append(stopReason).append('\n');
        }
        b.append(String.format(Locale.ROOT, "mean size  %.1f B per packet%n", s.meanPacketBytes()));
        b.append("top flows ");
        for (TraceSummary.TopShare t : s.topShares()) {
            b.append(String.format(Locale.ROOT, " top %d %.2f%%", t.top(), 100 * t.packetShare()));
        }
        b.append(s.nonIp() > 0 ? " of IP packets\n" : " of packets\n");
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

    /** 10 for 10.0, 2.5 for 2.5. */
    private static String rate(double gbps) {
        return gbps == Math.rint(gbps) ? Long.toString((long) gbps) : Double.toString(gbps);
    }

    static String json(TraceSummary s, String stopReason, ProtocolHierarchy.Summary hierarchy) {
        return Json.write(TraceInfoReport.of(s, stopReason, hierarchy));
    }
}
