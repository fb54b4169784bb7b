package dev.rmtemu.emulator.output;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rmtemu.emulator.metrics.PercentileSummary;
import dev.rmtemu.emulator.network.NetworkEngine;

import java.util.List;
import java.util.Map;

/**
 * The records report.json is written from ({@link dev.rmtemu.emulator.json.Json}: keys are the
 * components in snake_case, in this order). {@link dev.rmtemu.emulator.rundir.RunDirectory}
 * puts {@code schema_version}, {@code complete} (and {@code interrupted_by}) before these
 * fields and the manifest {@code files} after them. The documented schema is
 * docs/schema/report.schema.json; a test validates every kind of run against it.
 */
public final class RunReport {
    private RunReport() {
    }

    /**
     * The report of a single-switch replay. {@code host} is the only part that depends on the machine;
     * {@code results} is each program's results ({@link dev.rmtemu.emulator.spi.RunResults#json()},
     * written from the programs' own records).
     */
    public record SwitchRun(Inputs inputs, Trace trace, List<String> warnings, Counters counters,
                            EmulatedTime emulatedTime, Map<String, PercentileSummary> latencyNs,
                            Map<String, PortCounters> ports, Map<String, RegisterArrayReport> registers,
                            ObjectNode results, Resources resources, Host host) {
    }

    /** The report of a network replay. */
    public record NetworkRun(Inputs inputs, Trace trace, List<String> warnings, Network network,
                             EmulatedTime emulatedTime, ObjectNode results, Host host) {
    }

    /**
     * The inputs as given, with what a single-switch run resolved (the program's default params,
     * the profile's name, the port count). Absent keys: a network run has {@code topology} and
     * {@code max_hops} instead of {@code target}, {@code ports} and {@code port_gbps}; {@code loop} is there
     * only when the trace was replayed more than once.
     */
    public record Inputs(@JsonInclude(JsonInclude.Include.ALWAYS) String program, Map<String, String> params,
                         @JsonInclude(JsonInclude.Include.NON_NULL) String topology,
                         @JsonInclude(JsonInclude.Include.NON_NULL) String target, String trace, String timing,
                         long seed, @JsonInclude(JsonInclude.Include.NON_NULL) Integer ports,
                         @JsonInclude(JsonInclude.Include.NON_NULL) Double portGbps,
                         @JsonInclude(JsonInclude.Include.NON_NULL) Integer maxHops, boolean enforce, long maxPackets,
                         @JsonInclude(JsonInclude.Include.NON_NULL) Boolean saveRegisters,
                         @JsonInclude(JsonInclude.Include.NON_NULL) String control,
                         @JsonInclude(JsonInclude.Include.NON_NULL) Integer loop) {
    }

    /** Packets read from the trace, and frames skipped by reason. */
    public record Trace(long packets, Map<String, Long> skipped) {
    }

    /**
     * {@code parser_errors}: the {@code parser_error} drops by kind, present (non-null) after one only.
     * {@code mirrored} and {@code replicated}: the copies the switch made (mirror sessions; the
     * replication engine's copies beyond the packet itself), so that
     * in + mirrored + replicated = out + dropped + in_flight.
     */
    public record Counters(long in, long mirrored, long replicated, long out, long dropped, long recirculated, long inFlight,
                           Map<String, Long> droppedByCause,
                           @JsonInclude(JsonInclude.Include.NON_NULL) Map<String, Long> parserErrors) {
    }

    /** Emulated time in target clock cycles; the two pipeline offsets only in a single-switch run. */
    public record EmulatedTime(long clockHz, long firstArrivalCycle, long lastArrivalCycle, long lastEventCycle,
                               long durationNs, @JsonInclude(JsonInclude.Include.NON_NULL) Integer ingressToTmCycles,
                               @JsonInclude(JsonInclude.Include.NON_NULL) Integer egressToWireCycles) {
    }

    /** One egress port's traffic-manager counters, summed over its queues. */
    public record PortCounters(long enqueued, long dequeued, long bytes, long tmDropped) {
    }

    /** A register array after the run: where it sits, and per pipe a digest of its cells. */
    public record RegisterArrayReport(String gress, int stage, @JsonInclude(JsonInclude.Include.NON_NULL) String file,
                                      List<PipeCells> pipes) {
    }

    /** SHA-256 over the pipe's lo then hi words (big-endian longs), and how many lo words are non-zero. */
    public record PipeCells(int pipe, String sha256, long nonzero) {
    }

    /** Whether the program fits its target, and the pipeline latency per gress. */
    public record Resources(boolean fits, Map<String, Integer> pipelineCycles) {
    }

    /** What the host measured: differs between runs and machines, everything else does not. */
    public record Host(long wallMs, double mpps, String java, int cores,
                       @JsonInclude(JsonInclude.Include.NON_NULL) Long processingNsPerPacketP50,
                       @JsonInclude(JsonInclude.Include.NON_NULL) Long processingNsPerPacketP99) {
    }

    /** The network section: totals, end-to-end latency, then each switch, link direction and host. */
    public record Network(long clockHz, Totals totals, PercentileSummary latencyNs, Map<String, SwitchSection> switches,
                          List<LinkDirection> links, Map<String, HostSection> hosts) {
    }

    /** {@link NetworkEngine.NetworkTotals} plus the switches' drops by cause (non-zero causes only). */
    @JsonPropertyOrder({"injected", "delivered", "misdelivered", "switch_dropped", "link_lost", "link_duplicates",
        "created_in_switches", "unlinked_port_drops", "hop_limit_drops", "in_flight", "switch_dropped_by_cause"})
    public record Totals(long injected, long delivered, long misdelivered, long switchDropped, long linkLost,
                         long linkDuplicates, long createdInSwitches, long unlinkedPortDrops, long hopLimitDrops,
                         long inFlight, Map<String, Long> switchDroppedByCause) {
        static Totals of(NetworkEngine.NetworkTotals t, Map<String, Long> byCause) {
            return new Totals(t.injected(), t.delivered(), t.misdelivered(), t.switchDropped(), t.linkLost(),
                    t.linkDuplicates(), t.createdInSwitches(), t.unlinkedPortDrops(), t.hopLimitDrops(), t.inFlight(),
                    byCause);
        }
    }

    /** One switch of a network run; {@code register_arrays} in program order. */
    public record SwitchSection(String kind, String target, String program, List<String> registerArrays, long in,
                                long out, long dropped, Map<String, Long> droppedByCause,
                                @JsonInclude(JsonInclude.Include.NON_NULL) Map<String, Long> parserErrors, long recirculated,
                                long unlinkedPortDrops, long hopLimitDrops, PercentileSummary latencyNs) {
    }

    /** One direction of a link; {@code lost_by_impairment} keyed "INDEX:DESCRIPTION", only for impaired links. */
    public record LinkDirection(int link, String from, String to, long carried, long lost, long duplicated,
                                long delayed, long reordered, long reordersRefused,
                                @JsonInclude(JsonInclude.Include.NON_NULL) Map<String, Long> lostByImpairment) {
    }

    public record HostSection(String address, String role, long injected, long delivered, long misdelivered) {
    }
}
