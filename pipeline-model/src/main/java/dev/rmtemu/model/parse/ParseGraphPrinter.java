package dev.rmtemu.model.parse;

import java.util.List;
import java.util.Locale;

/** Prints a parse graph as text: its headers with their fields, then each state with its rows. */
public final class ParseGraphPrinter {
    private ParseGraphPrinter() {
    }

    public static String text(ParseGraph g, ParserResources res) {
        StringBuilder b = new StringBuilder();
        b.append("parser ").append(g.name()).append(": ").append(g.states().size()).append(" states, ")
                .append(res.tcamRows()).append(" parser TCAM rows")
                .append(res.tcamRowsLimit() == Integer.MAX_VALUE ? "" : " of " + res.tcamRowsLimit())
                .append(", PHV ").append(res.fieldBits()).append(" field bits + ").append(res.validityBits())
                .append(" validity bits\n");
        b.append("headers\n");
        for (HeaderInstance h : g.headers()) {
            HeaderType t = h.type();
            b.append("  ").append(h.name()).append(" : ").append(t.name()).append(" (").append(t.fixedBytes())
                    .append(" B");
            if (t.varbit() != null) {
                b.append(" + ").append(t.varbit().name()).append(" 0..").append(t.varbit().maxBytes()).append(" B by ")
                        .append(t.varbit().lengthField());
            }
            b.append(")");
            for (HeaderField f : t.fields()) {
                b.append(' ').append(f.name()).append(':').append(f.bits());
            }
            b.append('\n');
        }
        for (ParserValueSet v : g.valueSets()) {
            b.append("value set ").append(v.name()).append(" bit<").append(v.bits()).append("> size ").append(v.size())
                    .append('\n');
        }
        b.append("states (rows: branches + varbit lengths + split)\n");
        for (int s = 0; s < g.states().size(); s++) {
            ParseState st = g.states().get(s);
            ParserResources.StateRows r = res.states().get(s);
            b.append(String.format(Locale.ROOT, "  %-28s %4d rows (%d + %d + %d)", st.name(), r.rows(), r.branches(),
                    r.varbit(), r.split()));
            for (ParseState.Op op : st.ops()) {
                if (op instanceof ParseState.Extract e) {
                    b.append(" extract(").append(e.header()).append(')');
                } else {
                    b.append(" advance(").append(((ParseState.Advance) op).bytes()).append(" B)");
                }
            }
            b.append('\n');
            if (!st.selects()) {
                b.append("      -> ").append(st.branches().get(0).next()).append('\n');
                continue;
            }
            b.append("      select(");
            for (int k = 0; k < st.keys().size(); k++) {
                SelectKey key = st.keys().get(k);
                b.append(k == 0 ? "" : ", ").append(key instanceof SelectKey.Field f ? f.field()
                        : "lookahead(" + ((SelectKey.Lookahead) key).bitOffset() + ", " + key.bits() + ")");
            }
            b.append(")\n");
            for (ParseState.Branch br : st.branches()) {
                b.append("        ").append(sets(br.sets())).append(" -> ").append(br.next()).append('\n');
            }
        }
        return b.toString();
    }

    private static String sets(List<KeySet> sets) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < sets.size(); i++) {
            KeySet s = sets.get(i);
            b.append(i == 0 ? "" : ", ");
            if (s instanceof KeySet.Exact e) {
                b.append("0x").append(Long.toHexString(e.value()));
            } else if (s instanceof KeySet.Masked m) {
                b.append("0x").append(Long.toHexString(m.value())).append(" &&& 0x").append(Long.toHexString(m.mask()));
            } else if (s instanceof KeySet.Range r) {
                b.append("0x").append(Long.toHexString(r.lo())).append(" .. 0x").append(Long.toHexString(r.hi()));
            } else if (s instanceof KeySet.InValueSet v) {
                b.append(v.valueSet());
            } else {
                b.append('_');
            }
        }
        return sets.isEmpty() ? "" : b.length() == 0 ? "_" : b.toString();
    }
}
