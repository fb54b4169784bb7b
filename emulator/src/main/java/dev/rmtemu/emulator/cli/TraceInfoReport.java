package dev.rmtemu.emulator.cli;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.rmtemu.traces.TraceSummary;

import java.util.List;
import java.util.Map;

/**
 * What {@code rmtemu trace info --json} prints (docs/schema/trace-info.schema.json). A record, so
 * further statistics are further components; {@code stopped_early} is null unless a lenient read
 * stopped at a corrupt tail.
 */
public record TraceInfoReport(String source, long packets, long flows, long bytes, long firstNs, long lastNs,
                       long durationNs, long ipv4, long ipv6, long fragments, Map<String, Long> protocols,
                       Map<String, Long> skipped,
                       @JsonInclude(JsonInclude.Include.ALWAYS) String stoppedEarly,
                       List<TraceSummary.Flow> topFlows) {

    public static TraceInfoReport of(TraceSummary s, String stopReason) {
        return new TraceInfoReport(s.source(), s.packets(), s.flows(), s.bytes(), s.firstNs(), s.lastNs(),
                s.durationNs(), s.ipv4(), s.ipv6(), s.fragments(), s.protocols(), s.skipped(), stopReason,
                List.of(s.top()));
    }
}
