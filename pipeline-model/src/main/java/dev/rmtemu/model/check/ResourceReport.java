package dev.rmtemu.model.check;

import dev.rmtemu.model.phv.Gress;
import dev.rmtemu.model.register.AtomTemplate;
import dev.rmtemu.model.target.TargetProfile;

import java.util.List;
import java.util.Map;
import java.util.SortedSet;

/**
 * Everything the static checker found for one program on one target: per-stage
 * usage, how each table and register array was sized, PHV containers, latency estimates, templates used, and the failures
 * (empty when the program fits). Rendered by {@link ReportRenderer}.
 */
public record ResourceReport(
        String program,
        Map<String, String> params,
        TargetProfile target,
        List<StageUsage> stages,
        List<TableUsage> tables,
        List<PhvGroupUsage> phv,
        long phvRequestedBits,
        Map<Gress, Integer> pipelineLatencyCycles,
        SortedSet<AtomTemplate> templates,
        List<String> failures,
        List<String> failingRows) {

    /** Containers of one width: used per gress, available in all. */
    public record PhvGroupUsage(int widthBits, int ingress, int egress, int available, boolean tagalong) {
        public PhvGroupUsage(int widthBits, int ingress, int egress, int available) {
            this(widthBits, ingress, egress, available, false);
        }

        public int used() {
            return ingress + egress;
        }
    }

    public boolean fits() {
        return failures.isEmpty();
    }

    /** True when a failure names this row ("stage N gress" or "stage N (ingress+egress)"). */
    public boolean failing(int stage, Gress gress) {
        return failingRows.contains(rowKey(stage, gress));
    }

    static String rowKey(int stage, Gress gress) {
        return stage + "/" + gress.label();
    }
}
