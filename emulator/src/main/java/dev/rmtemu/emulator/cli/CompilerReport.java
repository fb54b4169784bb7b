package dev.rmtemu.emulator.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rmtemu.model.compiler.Compilation;
import dev.rmtemu.model.compiler.CompilerPass;
import dev.rmtemu.model.compiler.PhvLiveness;
import dev.rmtemu.model.compiler.Refusal;
import dev.rmtemu.model.compiler.TablePlacement;
import dev.rmtemu.model.program.ElementPlacement;

/** The compiler's part of {@code rmtemu resources}: passes in order, table placement (and why, for a program naming no stages), broken rules. */
final class CompilerReport {
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private CompilerReport() {
    }

    static String table(Compilation c) {
        StringBuilder b = new StringBuilder("\nCompiler passes (in order):\n");
        int i = 1;
        for (CompilerPass p : c.passes()) {
            b.append(String.format("  %d. %-20s %s%n", i++, p.name(), p.rule()));
        }
        if (!c.placements().isEmpty()) {
            b.append("\nMatch tables placed:\n");
            for (TablePlacement t : c.placements()) {
                b.append(String.format("  %-8s %-24s stage %2d (earliest legal %d)%n", t.gress().label(), t.table(),
                        t.stage(), t.earliestStage()));
            }
        }
        if (!c.program().placement().isEmpty()) {
            b.append("\nPlacement (the program names no stages; each element's stage and why):\n");
            for (ElementPlacement e : c.program().placement()) {
                b.append(String.format("  %-8s stage %2d  %-8s %-28s %s%n", e.gress().label(), e.stage(), e.kind(), e.element(),
                        e.reason()));
            }
        }
        if (!c.overlays().isEmpty()) {
            b.append("\nPHV overlays (metadata whose lives do not overlap share containers):\n");
            for (PhvLiveness.Overlay o : c.overlays()) {
                b.append(String.format("  %-8s %3d b  %s%n", o.gress().label(), o.width(), String.join(", ", o.fields())));
            }
        }
        if (!c.warnings().isEmpty()) {
            b.append("\nWarnings (accepted, but probably not meant):\n");
            for (String w : c.warningLines()) {
                b.append("  ").append(w).append('\n');
            }
        }
        b.append(c.accepted() ? "\nAccepted: every rule holds.\n" : "\nRefused: " + c.refusals().size() + " broken rule(s).\n");
        return b.toString();
    }

    /** The resource JSON with a {@code compiler} object added. */
    static String json(String resourcesJson, Compilation c) {
        try {
            ObjectNode root = (ObjectNode) JSON.readTree(resourcesJson);
            ObjectNode comp = root.putObject("compiler");
            ArrayNode passes = comp.putArray("passes");
            for (CompilerPass p : c.passes()) {
                passes.addObject().put("name", p.name()).put("rule", p.rule());
            }
            ArrayNode placed = comp.putArray("table_placement");
            for (TablePlacement t : c.placements()) {
                placed.addObject().put("gress", t.gress().label()).put("table", t.table()).put("stage", t.stage())
                        .put("earliest_stage", t.earliestStage());
            }
            ArrayNode elements = comp.putArray("element_placement");
            for (ElementPlacement e : c.program().placement()) {
                elements.addObject().put("gress", e.gress().label()).put("stage", e.stage()).put("kind", e.kind())
                        .put("element", e.element()).put("earliest_stage", e.earliest()).put("cause", e.cause())
                        .put("on", e.on()).put("field", e.field()).put("pushed_by", e.pushedBy()).put("reason", e.reason());
            }
            ArrayNode overlays = comp.putArray("phv_overlays");
            for (PhvLiveness.Overlay o : c.overlays()) {
                ArrayNode fields = overlays.addObject().put("gress", o.gress().label()).put("width", o.width()).putArray("fields");
                o.fields().forEach(fields::add);
            }
            ArrayNode warned = comp.putArray("warnings");
            c.warningLines().forEach(warned::add);
            comp.put("accepted", c.accepted());
            ArrayNode refused = comp.putArray("refusals");
            for (Refusal r : c.refusals()) {
                ObjectNode o = refused.addObject().put("pass", r.pass()).put("rule", r.rule()).put("line", r.line());
                if (r.gress() != null) {
                    o.put("gress", r.gress().label()).put("stage", r.stage());
                }
                if (r.element() != null) {
                    o.put("element", r.element());
                }
            }
            return JSON.writeValueAsString(root) + System.lineSeparator();
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("resource report JSON unreadable", e);
        }
    }
}
