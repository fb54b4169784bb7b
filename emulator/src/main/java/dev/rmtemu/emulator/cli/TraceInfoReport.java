package dev.rmtemu.emulator.cli;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.rmtemu.traces.LinkQueueing;
import dev.rmtemu.traces.TraceSummary;
import dev.rmtemu.traces.parse.ProtocolHierarchy;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What {@code rmtemu trace info --json} prints (docs/schema/trace-info.schema.json). A record, so
 * further statistics are further components; {@code stopped_early} is null unless a lenient read
 * stopped at a corrupt tail. Shares are rounded to 6 decimals and the mean packet size to 3, the
 * digits the terminal table shows too.
 *
 * @param nonIp               records that are not IP (ARP, other ethertypes, malformed IP): replayed,
 *                            but outside flows, protocols and the flow shares
 * @param topFlowPacketShare  share of the IP packets in the N largest flows, keyed by N
 * @param flowSizeCcdf        flows with at least {@code packets_at_least} packets, and their share
 * @param newFlowsPerInterval flows first seen in each interval of {@code new_flows_interval_ns}
 * @param linkQueueing        a generator's packets queued on their links (null for captures and stores)
 * @param protocolHierarchy   for a capture file: the default parse graph's view of the frames' bytes
 *                            (absent for generated traces and trace stores, which keep no frame bytes)
 */
public record TraceInfoReport(String source, long packets, long flows, long bytes, long firstNs, long lastNs,
                              long durationNs, long ipv4, long ipv6, long nonIp, long fragments, Map<String, Long> protocols,
                              Map<String, Long> skipped,
                              @JsonInclude(JsonInclude.Include.ALWAYS) String stoppedEarly,
                              double meanPacketBytes, Map<String, Double> topFlowPacketShare,
                              List<CcdfPoint> flowSizeCcdf, long newFlowsIntervalNs, long[] newFlowsPerInterval,
                              List<TraceSummary.Flow> topFlows,
                              @JsonInclude(JsonInclude.Include.ALWAYS) LinkQueueing linkQueueing,
                              @JsonInclude(JsonInclude.Include.NON_NULL) ProtocolHierarchy.Summary protocolHierarchy) {

    /** One point of the flow-size CCDF. */
    public record CcdfPoint(long packetsAtLeast, long flows, double share) {
    }

    public static TraceInfoReport of(TraceSummary s, String stopReason, ProtocolHierarchy.Summary hierarchy) {
        Map<String, Double> shares = new LinkedHashMap<>();
        for (TraceSummary.TopShare t : s.topShares()) {
            shares.put(Integer.toString(t.top()), round(t.packetShare(), 1e6));
        }
        List<CcdfPoint> ccdf = new ArrayList<>();
        for (TraceSummary.CcdfPoint p : s.flowSizeCcdf()) {
            ccdf.add(new CcdfPoint(p.packets(), p.flows(), round(p.share(), 1e6)));
        }
        return new TraceInfoReport(s.source(), s.packets(), s.flows(), s.bytes(), s.firstNs(), s.lastNs(),
                s.durationNs(), s.ipv4(), s.ipv6(), s.nonIp(), s.fragments(), s.protocols(), s.skipped(), stopReason,
                round(s.meanPacketBytes(), 1e3), shares, ccdf, s.newFlowIntervalNs(), s.newFlowsPerInterval(),
                List.of(s.top()), s.linkQueueing(), hierarchy);
    }

    private static double round(double v, double scale) {
        return Math.round(v * scale) / scale;
    }
}
