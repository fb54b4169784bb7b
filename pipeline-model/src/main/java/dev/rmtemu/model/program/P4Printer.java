package dev.rmtemu.model.program;

import java.util.ArrayList;
import java.util.Locale;
import dev.rmtemu.model.extern.Counter;
import dev.rmtemu.model.extern.Meter;
import dev.rmtemu.model.ir.Stmt;
import dev.rmtemu.model.hash.HashUnit;
import dev.rmtemu.model.phv.Field;
import dev.rmtemu.model.phv.Gress;
import dev.rmtemu.model.register.RegisterAction;
import dev.rmtemu.model.register.RegisterArray;
import dev.rmtemu.model.table.AlgorithmicTcam;
import dev.rmtemu.model.table.MatchTable;

import java.util.List;
import java.util.Map;

/**
 * A program as a P4 programmer reads it: its fields, then per gress and stage
 * the hash units, registers with their register actions, tables, and the
 * stage's control flow (gateways as {@code if}, table applications as
 * {@code switch} on the action, instructions as assignments). P4-like text,
 * not P4 for a compiler: stages are explicit, as in the IR; in a program the compiler
 * placed, each stage first says which elements it holds and why they are there.
 */
public final class P4Printer {
    private static final String INDENT = "    ";

    private final StringBuilder out = new StringBuilder();

    private P4Printer() {
    }

    public static String print(StageProgram p) {
        P4Printer pr = new P4Printer();
        pr.program(p);
        return pr.out.toString();
    }

    private void program(StageProgram p) {
        line(0, "// " + p.name() + ": " + p.description());
        if (!p.params().isEmpty()) {
            StringBuilder b = new StringBuilder("// parameters:");
            p.params().forEach((k, v) -> b.append(' ').append(k).append('=').append(v));
            line(0, b.toString());
        }
        line(0, "");
        line(0, "struct phv_t {");
        for (Field f : p.fields()) {
            String where = switch (f.kind()) {
                case HEADER -> f.isBridged() ? "header, bridged" : "header, parsed: " + String.join(" | ", f.wireFields());
                case METADATA -> "metadata, " + f.gress().label();
                default -> "intrinsic" + (f.gress() == null ? "" : ", " + f.gress().label());
            };
            line(1, "bit<" + f.width() + "> " + f.name() + ";" + pad(f.width(), f.name()) + "// " + where);
        }
        line(0, "}");
        for (Gress g : Gress.values()) {
            if (!p.uses(g)) {
                continue;
            }
            line(0, "");
            line(0, "control " + capital(g.label()) + " {");
            for (StageDecl d : p.stages(g)) {
                stage(d, p.placement());
            }
            line(0, "}");
        }
    }

    private void stage(StageDecl d, List<ElementPlacement> placement) {
        line(1, "stage " + d.number() + " {");
        // a program placed by the compiler: what is in this stage and why
        for (ElementPlacement e : placement) {
            if (e.gress() == d.gress() && e.stage() == d.number()) {
                line(2, "// placed here: " + e.kind() + " " + e.element() + ": " + e.reason());
            }
        }
        for (HashUnit h : d.hashes()) {
            line(2, symmetric(h) + "Hash<bit<" + h.outputBits() + ">>(" + h.algorithm().describe() + ") " + h.name() + "("
                    + String.join(", ", h.inputs().stream().map(Field::name).toList()) + ");");
        }
        for (RegisterArray r : d.registers()) {
            String cell = r.pair() ? "pair<bit<" + r.wordBits() + ">>" : "bit<" + r.wordBits() + ">";
            line(2, (r.direct() ? "DirectRegister<" + cell + "> " : "Register<" + cell + ", " + r.size() + "> ") + r.name() + ";"
                    + (r.direct() ? "  // registers = " + r.name() + " on table " + r.table().name() : ""));
        }
        for (RegisterAction a : d.registerActions()) {
            line(2, "RegisterAction(" + a.array().name() + ") " + a.array().name() + "." + a.name() + " {  // " + a.template());
            for (String s : a.describe()) {
                line(3, s);
            }
            line(2, "}");
        }
        for (MatchTable t : d.tables()) {
            List<String> keys = new ArrayList<>();
            for (int i = 0; i < t.key().size(); i++) { // each field's own kind: a key may mix them
                keys.add(t.key().get(i).name() + ": " + t.fieldKind(i).name().toLowerCase(Locale.ROOT));
            }
            line(2, "table " + t.name() + " { key = { " + String.join(", ", keys)
                    + " } size = " + t.size() + "; action data " + t.actionDataBits() + " b"
                    + (t.constEntries().isEmpty() ? "" : "; const entries = " + t.constEntries().size()) + options(t) + " }");
        }
        for (Counter c : d.counters()) {
            line(2, (c.direct() ? "DirectCounter<bit<" + c.widthBits() + ">>(CounterType_t." + c.type() + ") "
                    : "Counter<bit<" + c.widthBits() + ">, _>(" + c.size() + ", CounterType_t." + c.type() + ") ")
                    + c.name() + ";" + (c.direct() ? "  // counters = " + c.name() + " on table " + c.table().name() : ""));
        }
        for (Meter m : d.meters()) {
            if (m.filtersValue()) {
                filterDeclaration(m);
                continue;
            }
            String rfc = m.algorithm() == Meter.Algorithm.TRTCM ? "RFC 2698 trTCM" : "RFC 2697 srTCM";
            line(2, (m.direct() ? "DirectMeter(MeterType_t." + m.type() + ") "
                    : "Meter<_>(" + m.size() + ", MeterType_t." + m.type() + ") ") + m.name() + ";  // " + rfc
                    + (m.direct() ? ", meters = " + m.name() + " on table " + m.table().name() : ""));
        }
        line(2, "apply {");
        block(d.body(), 3);
        line(2, "}");
        line(1, "}");
    }

    /** An LPF or a WRED as TNA declares it. */
    private void filterDeclaration(Meter m) {
        boolean lpf = m.algorithm() == Meter.Algorithm.LPF;
        String t = lpf ? "bit<" + m.outputBits() + ">" : "_";
        String ctor = lpf ? "" : m.dropValue() + ", " + m.noDropValue();
        String decl = m.direct()
                ? (lpf ? "DirectLpf<" : "DirectWred<") + t + ">(" + ctor + ") "
                : (lpf ? "Lpf<" : "Wred<") + t + ", _>(" + m.size() + (ctor.isEmpty() ? "" : ", " + ctor) + ") ";
        line(2, decl + m.name() + ";" + (m.direct() ? "  // filters = " + m.name() + " on table " + m.table().name() : ""));
    }

    private void block(List<Stmt> stmts, int depth) {
        for (Stmt s : stmts) {
            s.accept(new Stmt.Visitor<Void>() {
                @Override
                public Void count(Stmt.Count x) {
                    String adjust = Long.valueOf(0).equals(x.adjust().constantValue()) ? "" : ", " + x.adjust();
                    line(depth, x.counter().name() + ".count(" + (x.counter().direct() ? adjust.replaceFirst("^, ", "")
                            : x.index() + adjust) + ");");
                    return null;
                }

                @Override
                public Void meter(Stmt.ExecuteMeter x) {
                    if (x.meter().filtersValue()) {
                        String args = x.color() + (x.meter().direct() ? "" : ", " + x.index());
                        line(depth, x.meter().name() + ".out = " + x.meter().name() + ".execute(" + args + ");");
                        return null;
                    }
                    String color = Long.valueOf(0).equals(x.color().constantValue()) ? "" : "(MeterColor_t) " + x.color();
                    String args = x.meter().direct() ? color : x.index() + (color.isEmpty() ? "" : ", " + color);
                    line(depth, x.meter().name() + ".color = " + x.meter().name() + ".execute(" + args + ");");
                    return null;
                }

                @Override
                public Void assign(Stmt.Assign a) {
                    line(depth, a.dest().name() + " = " + a.value() + ";");
                    return null;
                }

                @Override
                public Void execute(Stmt.Execute e) {
                    line(depth, e.action().array().name() + "." + e.action().name() + ".execute(" + (e.action().array().direct() ? ""
                            : e.index() + ", ") + "in_lo = " + e.inLo() + ", in_hi = " + e.inHi() + ");");
                    return null;
                }

                @Override
                public Void gateway(Stmt.If i) {
                    line(depth, "if (" + i.condition() + ") {");
                    block(i.then(), depth + 1);
                    if (!i.otherwise().isEmpty()) {
                        line(depth, "} else {");
                        block(i.otherwise(), depth + 1);
                    }
                    line(depth, "}");
                    return null;
                }

                @Override
                public Void apply(Stmt.Apply ap) {
                    table(ap, depth);
                    return null;
                }
            });
        }
    }

    private void table(Stmt.Apply ap, int depth) {
        line(depth, "switch (" + ap.table().name() + ".apply().action) {");
        for (Map.Entry<Integer, List<Stmt>> e : ap.actions().entrySet()) {
            line(depth + 1, "action " + e.getKey() + ": {");
            block(e.getValue(), depth + 2);
            line(depth + 1, "}");
        }
        line(depth + 1, "miss: {");
        block(ap.miss(), depth + 2);
        line(depth + 1, "}");
        line(depth, "}");
    }

    private void line(int depth, String text) {
        out.append(INDENT.repeat(depth)).append(text).append('\n');
    }

    private static String pad(int width, String name) {
        int used = ("bit<" + width + "> " + name + ";").length();
        return " ".repeat(Math.max(1, 40 - used));
    }

    private static String capital(String s) {
        return s.isEmpty() ? s : Character.toUpperCase(s.charAt(0)) + s.substring(1);
    }

    /** A table's idle timeout and ALPM or ATCAM shape, as its P4 properties and annotations say them. */
    private static String options(MatchTable t) {
        StringBuilder b = new StringBuilder();
        if (t.options().idleTimeout() != null) {
            b.append("; idle_timeout = true (@idletime_precision(").append(t.options().idleTimeout().precisionBits()).append("))");
        }
        AlgorithmicTcam a = t.options().algorithmic();
        if (a != null && a.kind() == AlgorithmicTcam.Kind.ALPM) {
            b.append("; implementation = Alpm(number_partitions = ").append(a.partitions()).append(", subtrees_per_partition = ")
                    .append(a.subtreesPerPartition()).append(")");
        } else if (a != null) {
            b.append("; @atcam_partition_index(\"").append(a.partitionIndex().name()).append("\") @atcam_number_partitions(")
                    .append(a.partitions()).append(")");
        }
        return b.toString();
    }

    /** The unit's symmetric pairs as TNA writes them, {@code @symmetric("a", "b") } each (empty when none). */
    private static String symmetric(HashUnit h) {
        StringBuilder out = new StringBuilder();
        int[] partners = h.partners();
        for (int i = 0; i < partners.length; i++) {
            if (partners[i] > i) {
                out.append("@symmetric(\"").append(h.inputs().get(i).name()).append("\", \"")
                        .append(h.inputs().get(partners[i]).name()).append("\") ");
            }
        }
        return out.toString();
    }
}
