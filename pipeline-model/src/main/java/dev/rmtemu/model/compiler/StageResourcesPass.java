package dev.rmtemu.model.compiler;

import dev.rmtemu.model.check.ResourceChecker;
import dev.rmtemu.model.check.ResourceReport;

/**
 * Per-stage budgets (memory blocks and RAM layout, stateful ALUs and their
 * templates and inputs, hash functions, logical tables, gateways, action data
 * bus, instruction memory, stages, PHV containers): the resource checker's
 * placement, fed the stage logic counted from the IR; the compilation keeps its report.
 */
final class StageResourcesPass implements CompilerPass {
    private ResourceReport report;

    @Override
    public String name() {
        return "stage-resources";
    }

    @Override
    public String rule() {
        return "per-stage RAMs (data, spare, map, sides), TCAMs, stateful ALUs and their inputs, hash functions, "
                + "logical tables, gateways, action data bus, instruction memory, stages and PHV containers (metadata overlaid where lives do not overlap) fit the target";
    }

    @Override
    public void run(PassInput in, Refusals out) {
        report = ResourceChecker.check(in.program(), in.target(), StageLogicCount.of(in.program(), in.target()),
                PhvLiveness.demands(in.program()));
        for (String f : report.failures()) {
            out.program(f);
        }
    }

    ResourceReport report() {
        return report;
    }
}
