package dev.rmtemu.model.check;

import com.fasterxml.jackson.core.JsonProcessingException;
import java.util.Set;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rmtemu.model.phv.Gress;
import dev.rmtemu.model.register.AtomTemplate;
import dev.rmtemu.model.target.MauResources;
import dev.rmtemu.model.target.TargetProfile;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Renders a {@link ResourceReport} as a terminal table (in the spirit of the
 * Tofino compiler's mau.resources.log) and as JSON shaped like its
 * resources.json: {@code resources.mau.mau_stages[].{stage_number, rams, tcams,
 * meter_alus, hash_bits, logical_tables}} (plus map_rams, gateways,
 * action_data_bus_bytes, instruction_memory, hash_functions, ternary_tables,
 * ternary_indirection_rams, exact_xbar_bytes, ternary_xbar_bytes), the per-table
 * sizes in {@code resources.mau.tables[]}, and {@code resources.phv_containers}.
 */
public final class ReportRenderer {
    /**
     * Version of every documented rmtemu JSON schema (docs/schema/), written as {@code schema_version} at
     * the top of resources.json, report.json and experiment JSON; raised when a key is renamed, removed or
     * changes type. A budget the target does not have ({@code unlimited}) is written as {@code null}.
     */
    public static final int SCHEMA_VERSION = 2;
    public static final String SCHEMA_VERSION_KEY = "schema_version";
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    /** Marks a row a failure names. */
    private static final String FAIL_MARK = "!!";

    private ReportRenderer() {
    }

    /** How much of one budget a stage uses. */
    public interface Metric {
        long of(StageUsage u);
    }

    /** One per-stage metric: its terminal title (null: JSON only), its JSON key, and its budget. */
    public record Column(String title, String key, Metric metric, long available) {
        /** The title, or for a JSON-only metric its key in words (e.g. "ternary xbar bytes"). */
        public String name() {
            return title != null ? title : key.replace('_', ' ');
        }
    }

    /** Every per-stage budget the accounting counts, in the report's order (the terminal table's first). */
    public static List<Column> columns(TargetProfile t) {
        MauResources m = t.mau();
        return List.of(
                new Column("SRAM blocks", "rams", StageUsage::sramBlocks, t.sram().unlimited() ? TargetProfile.UNLIMITED : t.sram().blocks()),
                new Column("Map RAMs", "map_rams", StageUsage::mapRams, m.mapRams()),
                new Column("TCAM blocks", "tcams", StageUsage::tcamBlocks, t.tcam().unlimited() ? TargetProfile.UNLIMITED : t.tcam().blocks()),
                new Column("Stateful ALUs", "meter_alus", StageUsage::statefulAlus, t.statefulAlusPerStage()),
                new Column("Hash bits", "hash_bits", StageUsage::hashBits, t.hashBitsPerStage()),
                new Column("Logical tables", "logical_tables", StageUsage::logicalTables, t.logicalTablesPerStage()),
                new Column("Gateways", "gateways", StageUsage::gateways, m.gatewaysPerStage()),
                new Column("Action bus B", "action_data_bus_bytes", StageUsage::actionDataBusBytes, m.actionDataBusBytes()),
                new Column("Instructions", "instruction_memory", StageUsage::instructions, m.instructionSlots()),
                new Column(null, "stats_alus", StageUsage::statsAlus, m.statsAlus()),
                new Column(null, "hash_functions", StageUsage::hashUnits, t.hashFunctionsPerStage()),
                new Column(null, "ternary_tables", StageUsage::ternaryTables, m.ternaryTablesPerStage()),
                new Column(null, "ternary_indirection_rams", StageUsage::tindRams, m.leftSideRams()),
                new Column(null, "exact_xbar_bytes", StageUsage::exactXbarBytes, m.exactXbarBytes()),
                new Column(null, "ternary_xbar_bytes", StageUsage::ternaryXbarBytes, m.ternaryXbarBytes()));
    }

    /** The columns the terminal table shows. */
    private static List<Column> tableColumns(TargetProfile t) {
        List<Column> out = new ArrayList<>();
        for (Column c : columns(t)) {
            if (c.title() != null) {
                out.add(c);
            }
        }
        return out;
    }

    public static String table(ResourceReport r) {
        TargetProfile t = r.target();
        StringBuilder sb = new StringBuilder();
        sb.append("Program ").append(r.program()).append(" on ").append(t.name()).append(": ")
                .append(r.fits() ? "fits" : "DOES NOT FIT").append('\n');
        if (!r.params().isEmpty()) {
            sb.append("Parameters: ");
            boolean first = true;
            for (Map.Entry<String, String> e : r.params().entrySet()) {
                sb.append(first ? "" : ", ").append(e.getKey()).append('=').append(e.getValue());
                first = false;
            }
            sb.append('\n');
        }
        List<Column> cols = tableColumns(t);
        List<String[]> lines = new ArrayList<>();
        String[] header = new String[cols.size() + 3];
        header[0] = "";
        header[1] = "Stage";
        header[2] = "Gress";
        for (int i = 0; i < cols.size(); i++) {
            header[i + 3] = cols.get(i).title();
        }
        lines.add(header);
        for (StageUsage u : r.stages()) {
            String[] row = new String[cols.size() + 3];
            row[0] = r.failing(u.stage(), u.gress()) ? FAIL_MARK : "";
            row[1] = Integer.toString(u.stage());
            row[2] = u.gress().label();
            for (int i = 0; i < cols.size(); i++) {
                row[i + 3] = cell(cols.get(i).metric().of(u), cols.get(i).available());
            }
            lines.add(row);
        }
        for (Gress g : Gress.values()) {
            int n = stageCount(r, g);
            if (n == 0) {
                continue;
            }
            String[] total = new String[cols.size() + 3];
            String[] avg = new String[cols.size() + 3];
            total[0] = "";
            avg[0] = "";
            total[1] = "Total";
            avg[1] = "Average";
            total[2] = g.label();
            avg[2] = g.label();
            for (int i = 0; i < cols.size(); i++) {
                long sum = sum(r, g, cols.get(i).metric());
                long avail = cols.get(i).available();
                total[i + 3] = cell(sum, avail == TargetProfile.UNLIMITED ? avail : avail * n);
                avg[i + 3] = avail == TargetProfile.UNLIMITED
                        ? String.format(Locale.ROOT, "%.1f", (double) sum / n)
                        : String.format(Locale.ROOT, "%.1f/%d (%s)", (double) sum / n, avail, pct(sum, avail * n));
            }
            lines.add(total);
            lines.add(avg);
        }
        appendAligned(sb, lines, Set.of(0, 2));
        appendTables(sb, r);

        sb.append("PHV containers:");
        for (ResourceReport.PhvGroupUsage g : r.phv()) {
            sb.append("  ").append(g.tagalong() ? "tagalong " : "").append(g.widthBits()).append("b ")
                    .append(cell(g.used(), g.available()))
                    .append(" [ingress ").append(g.ingress()).append(", egress ").append(g.egress()).append(']');
        }
        sb.append("\nPHV bits: ").append(r.phvRequestedBits()).append(" b of fields");
        long avail = t.phvBits();
        sb.append(" in ").append(allocatedBits(r)).append(" b of containers, of ")
                .append(avail == TargetProfile.UNLIMITED ? "unlimited" : Long.toString(avail)).append(" b\n");
        sb.append("Estimated latency (cycles at ").append(ghz(t.clockHz())).append(" GHz): ");
        boolean first = true;
        for (Map.Entry<Gress, Integer> e : r.pipelineLatencyCycles().entrySet()) {
            sb.append(first ? "" : ", ").append(e.getKey().label()).append(" pipeline ").append(e.getValue());
            first = false;
        }
        sb.append(first ? "" : "; ").append("parser ").append(t.latency().parserCycles())
                .append(", deparser ").append(t.latency().deparserCycles()).append('\n');
        sb.append("Stateful-ALU templates used: ");
        if (r.templates().isEmpty()) {
            sb.append("none");
        } else {
            first = true;
            for (AtomTemplate a : r.templates()) {
                sb.append(first ? "" : ", ").append(a);
                first = false;
            }
        }
        sb.append(" (").append(t.name()).append(" implements ").append(sortedTemplates(t)).append(")\n");
        if (!r.fits()) {
            sb.append("Failures (").append(r.failures().size()).append("):\n");
            for (String f : r.failures()) {
                sb.append("  ").append(f).append('\n');
            }
        }
        return sb.toString();
    }

    /** Per table and register array: its RAMs and which rule set them. */
    private static void appendTables(StringBuilder sb, ResourceReport r) {
        if (r.tables().isEmpty()) {
            return;
        }
        sb.append("Tables and registers (RAMs as the compiler lays them out):\n");
        List<String[]> lines = new ArrayList<>();
        lines.add(new String[] {"", "Stage", "Gress", "Name", "Kind", "RAMs data+spare", "Action RAMs", "Tind RAMs",
                "TCAMs", "Ways", "Entry bits", "Sized by"});
        for (TableUsage u : r.tables()) {
            lines.add(new String[] {failing(r, u) ? FAIL_MARK : "", Integer.toString(u.stage()), u.gress().label(), u.name(), u.kind(),
                    u.dataRams() + "+" + u.spareRams(), Long.toString(u.actionRams()), Long.toString(u.tindRams()),
                    Long.toString(u.tcams()), u.ways() == 0 ? "-" : Integer.toString(u.ways()),
                    Integer.toString(u.entryBits()), u.sizedBy()});
        }
        appendAligned(sb, lines, Set.of(0, 2, 3, 4, 11));
        sb.append(pipesLine(r)).append('\n');
    }

    /** True when a failure of the table's stage and gress names it ("stage 0 ingress: register flow_count needs ..."). */
    static boolean failing(ResourceReport r, TableUsage u) {
        String where = "stage " + u.stage() + " " + u.gress().label() + ": ";
        for (String f : r.failures()) {
            if (f.startsWith(where) && (f.contains(" " + u.name() + " ") || f.contains(" " + u.name() + ","))) {
                return true;
            }
        }
        return false;
    }

    /**
     * Every table and register array exists once per pipe (each pipe has its own stages), so
     * the switch spends the pipe count times the RAMs and TCAMs above: one line saying so.
     */
    static String pipesLine(ResourceReport r) {
        long rams = 0;
        long tcams = 0;
        for (TableUsage u : r.tables()) {
            if (u.kind().equals("idletime")) {
                continue; // map RAMs beside the SRAMs, not SRAMs
            }
            rams += u.dataRams() + u.spareRams() + u.actionRams() + u.tindRams();
            tcams += u.tcams();
        }
        int pipes = r.target().pipes();
        return String.format(Locale.ROOT, "Per pipe: %d RAMs and %d TCAMs; %s has %d pipe%s, each with its own copy "
                + "of every table and register array, so the switch holds %d RAMs and %d TCAMs in total (%dx).", rams, tcams,
                r.target().name(), pipes, pipes == 1 ? "" : "s", rams * pipes, tcams * pipes, pipes);
    }

    private static String sortedTemplates(TargetProfile t) {
        StringBuilder sb = new StringBuilder();
        for (AtomTemplate a : AtomTemplate.values()) {
            if (t.templates().contains(a)) {
                sb.append(sb.length() == 0 ? "" : ", ").append(a);
            }
        }
        return sb.toString();
    }

    private static long allocatedBits(ResourceReport r) {
        long bits = 0;
        for (ResourceReport.PhvGroupUsage g : r.phv()) {
            bits += (long) g.used() * g.widthBits();
        }
        return bits;
    }

    private static String ghz(long hz) {
        return String.format(Locale.ROOT, "%.2f", hz / 1e9);
    }

    private static int stageCount(ResourceReport r, Gress g) {
        int n = 0;
        for (StageUsage u : r.stages()) {
            if (u.gress() == g) {
                n++;
            }
        }
        return n;
    }

    private static long sum(ResourceReport r, Gress g, Metric m) {
        long s = 0;
        for (StageUsage u : r.stages()) {
            if (u.gress() == g) {
                s += m.of(u);
            }
        }
        return s;
    }

    private static String cell(long used, long available) {
        if (available == TargetProfile.UNLIMITED) {
            return used + "/unlimited";
        }
        return used + "/" + available + " (" + pct(used, available) + ")";
    }

    static String pct(long used, long available) {
        return String.format(Locale.ROOT, "%.1f%%", percent(used, available));
    }

    static double percent(long used, long available) {
        return available == 0 ? 0 : Math.round(1000.0 * used / available) / 10.0;
    }

    /** Columns padded to their widest cell; headers and the {@code left} columns left-aligned, the rest right. */
    private static void appendAligned(StringBuilder sb, List<String[]> lines, Set<Integer> left) {
        int[] w = new int[lines.get(0).length];
        for (String[] l : lines) {
            for (int i = 0; i < l.length; i++) {
                w[i] = Math.max(w[i], l[i].length());
            }
        }
        StringBuilder rule = new StringBuilder("+");
        for (int width : w) {
            rule.append("-".repeat(width + 2)).append('+');
        }
        sb.append(rule).append('\n');
        for (int li = 0; li < lines.size(); li++) {
            String[] l = lines.get(li);
            sb.append('|');
            for (int i = 0; i < l.length; i++) {
                String s = li == 0 || left.contains(i) ? pad(l[i], w[i]) : lpad(l[i], w[i]);
                sb.append(' ').append(s).append(" |");
            }
            sb.append('\n');
            if (li == 0) {
                sb.append(rule).append('\n');
            }
        }
        sb.append(rule).append('\n');
    }

    private static String pad(String s, int w) {
        return s + " ".repeat(w - s.length());
    }

    private static String lpad(String s, int w) {
        return " ".repeat(w - s.length()) + s;
    }

    /** The report as resources.json-shaped JSON (deterministic key order). */
    public static String json(ResourceReport r) {
        try {
            return JSON.writeValueAsString(jsonTree(r)) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    public static ObjectNode jsonTree(ResourceReport r) {
        TargetProfile t = r.target();
        ObjectNode root = JSON.createObjectNode();
        root.put(SCHEMA_VERSION_KEY, SCHEMA_VERSION);
        ObjectNode res = root.putObject("resources");
        res.put("program", r.program());
        res.put("target", t.name());
        ObjectNode params = res.putObject("params");
        r.params().forEach(params::put);
        res.put("fits", r.fits());
        ArrayNode failures = res.putArray("failures");
        r.failures().forEach(failures::add);
        ObjectNode mau = res.putObject("mau");
        if (t.stagesPerGress() == TargetProfile.UNLIMITED) {
            mau.putNull("n_stages");
        } else {
            mau.put("n_stages", t.stagesPerGress());
        }
        ArrayNode stages = mau.putArray("mau_stages");
        List<Column> cols = columns(t);
        for (StageUsage u : r.stages()) {
            ObjectNode s = stages.addObject();
            s.put("stage_number", u.stage());
            s.put("gress", u.gress().label());
            for (Column c : cols) {
                usage(s.putObject(c.key()), c.metric().of(u), c.available());
            }
            s.put("hash_units", u.hashUnits());
            s.put("latency_cycles", u.latencyCycles());
            s.put("fails", r.failing(u.stage(), u.gress()));
        }
        ObjectNode totals = mau.putObject("totals");
        ObjectNode average = mau.putObject("average");
        for (Gress g : Gress.values()) {
            int n = stageCount(r, g);
            if (n == 0) {
                continue;
            }
            ObjectNode tg = totals.putObject(g.label());
            ObjectNode ag = average.putObject(g.label());
            for (Column c : cols) {
                long sum = sum(r, g, c.metric());
                long avail = c.available();
                usage(tg.putObject(c.key()), sum, avail == TargetProfile.UNLIMITED ? avail : avail * n);
                ag.put(c.key(), Math.round(10.0 * sum / n) / 10.0);
            }
        }
        ArrayNode tables = mau.putArray("tables");
        for (TableUsage u : r.tables()) {
            ObjectNode o = tables.addObject();
            o.put("stage_number", u.stage());
            o.put("gress", u.gress().label());
            o.put("name", u.name());
            o.put("kind", u.kind());
            ObjectNode rams = o.putObject("rams");
            rams.put("data", u.dataRams());
            rams.put("spare", u.spareRams());
            rams.put("action", u.actionRams());
            rams.put("ternary_indirection", u.tindRams());
            rams.put("total", u.srams());
            o.put("tcams", u.tcams());
            o.put("ways", u.ways());
            o.put("entry_bits", u.entryBits());
            o.put("entries_per_word", u.entriesPerWord());
            o.put("sized_by", u.sizedBy());
        }
        ArrayNode phv = res.putArray("phv_containers");
        for (ResourceReport.PhvGroupUsage g : r.phv()) {
            ObjectNode p = phv.addObject();
            p.put("width", g.widthBits());
            p.put("tagalong", g.tagalong());
            p.put("ingress", g.ingress());
            p.put("egress", g.egress());
            usage(p, g.used(), g.available());
        }
        ObjectNode phvBits = res.putObject("phv_bits");
        phvBits.put("fields", r.phvRequestedBits());
        phvBits.put("allocated", allocatedBits(r));
        if (t.phvBits() == TargetProfile.UNLIMITED) {
            phvBits.putNull("available");
        } else {
            phvBits.put("available", t.phvBits());
        }
        res.put("pipes", r.target().pipes());
        ObjectNode lat = res.putObject("latency");
        lat.put("clock_hz", t.clockHz());
        for (Map.Entry<Gress, Integer> e : r.pipelineLatencyCycles().entrySet()) {
            lat.put(e.getKey().label() + "_cycles", e.getValue());
        }
        lat.put("parser_cycles", t.latency().parserCycles());
        lat.put("deparser_cycles", t.latency().deparserCycles());
        ArrayNode tpl = res.putArray("templates");
        r.templates().forEach(a -> tpl.add(a.name()));
        return root;
    }

    private static void usage(ObjectNode o, long used, long available) {
        o.put("used", used);
        if (available == TargetProfile.UNLIMITED) {
            o.putNull("available");
        } else {
            o.put("available", available);
            o.put("percent", percent(used, available));
        }
    }
}
