package dev.rmtemu.model.compiler;

import dev.rmtemu.model.check.ResourceChecker;
import dev.rmtemu.model.check.ResourceReport;

/**
 * Per-stage budgets (memory blocks, stateful ALUs and their templates, hash
 * bits, logical tables, stages, PHV containers): the resource checker's
 * placement, whose report the compilation keeps.
 */
final class StageResourcesPass implements CompilerPass {
    private ResourceReport report;

    @Override
    public String name() {
        return "stage-resources";
    }

    @Override
    public String rule() {
        return "per-stage SRAM/TCAM blocks, stateful ALUs and templates, hash bits, logical tables, stages and PHV containers fit the target";
    }

    @Override
    public void run(PassInput in, Refusals out) {
        report = ResourceChecker.check(in.program(), in.target());
        for (String f : report.failures()) {
            out.program(f);
        }
    }

    ResourceReport report() {
        return report;
    }
}
