package dev.rmtemu.model.target;

/**
 * How many cycles a packet spends in a pipeline, from the target's published
 * rules. Tofino 1: a match-dependent stage costs {@code matchStageCycles} (20),
 * +{@code statefulAluCycles} (4) when it uses a stateful ALU, +{@code tcamCycles} (2)
 * when it uses TCAM; a stage that only action-depends on the previous one costs
 * {@code actionDependentCycles} (2), a concurrent one {@code concurrentCycles} (1);
 * a gress never takes fewer than its minimum (egress: 160).
 * Parser, deparser and traffic-manager traversal latencies are not published;
 * the profile names the values the emulator assumes.
 */
public record StageLatencyModel(
        int matchStageCycles,
        int statefulAluCycles,
        int tcamCycles,
        int actionDependentCycles,
        int concurrentCycles,
        int minIngressCycles,
        int minEgressCycles,
        int parserCycles,
        int deparserCycles,
        int trafficManagerCycles) {
}
