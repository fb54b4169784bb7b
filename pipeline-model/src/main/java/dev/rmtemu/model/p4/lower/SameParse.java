package dev.rmtemu.model.p4.lower;

import dev.rmtemu.model.parse.ParseGraph;
import dev.rmtemu.model.parse.ParseState;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Whether two parse graphs parse every frame the same way: from their start states, the same
 * operations, keys and branches, state by state (the states' names may differ, and a state that
 * only passes on, such as an inlined sub-parser's start that extracted intrinsic metadata, is
 * looked through). rmtemu parses a frame once, so an egress parser is lowered only when it
 * parses as the ingress parser does.
 */
final class SameParse {
    private SameParse() {
    }

    static boolean same(ParseGraph a, ParseGraph b) {
        return same(a, b, List.of());
    }

    /**
     * As {@link #same(ParseGraph, ParseGraph)}, {@code b}'s extracts of the {@code bridged} headers
     * (TNA's bridged metadata, which only the egress parser reads) left out.
     */
    static boolean same(ParseGraph a, ParseGraph b, List<String> bridged) {
        return same(a, start(a), b, start(b), new HashSet<>(), bridged);
    }

    /** The state's operations without extracts of the {@code bridged} headers. */
    private static List<ParseState.Op> ops(ParseState s, List<String> bridged) {
        if (bridged.isEmpty()) {
            return s.ops();
        }
        List<ParseState.Op> ops = new ArrayList<>();
        for (ParseState.Op op : s.ops()) {
            if (!(op instanceof ParseState.Extract e && bridged.contains(e.header()))) {
                ops.add(op);
            }
        }
        return ops;
    }

    private static String start(ParseGraph g) {
        return g.states().isEmpty() ? "accept" : g.states().get(0).name();
    }

    private static boolean same(ParseGraph a, String sa, ParseGraph b, String sb, Set<String> seen, List<String> bridged) {
        sa = through(a, sa, List.of());
        sb = through(b, sb, bridged);
        boolean terminalA = sa.equals("accept") || sa.equals("reject");
        boolean terminalB = sb.equals("accept") || sb.equals("reject");
        if (terminalA || terminalB) {
            return sa.equals(sb);
        }
        if (!seen.add(sa + "\u0000" + sb)) {
            return true;
        }
        ParseState x = a.states().get(a.stateIndex(sa));
        ParseState y = b.states().get(b.stateIndex(sb));
        if (!x.ops().equals(ops(y, bridged)) || !x.keys().equals(y.keys()) || x.branches().size() != y.branches().size()) {
            return false;
        }
        for (int i = 0; i < x.branches().size(); i++) {
            ParseState.Branch bx = x.branches().get(i);
            ParseState.Branch by = y.branches().get(i);
            if (!bx.sets().equals(by.sets()) || !same(a, bx.next(), b, by.next(), seen, bridged)) {
                return false;
            }
        }
        return true;
    }

    /** The first state from {@code s} that does something (not a plain transition without operations). */
    private static String through(ParseGraph g, String s, List<String> bridged) {
        for (int hops = 0; hops <= g.states().size(); hops++) {
            if (s.equals("accept") || s.equals("reject")) {
                return s;
            }
            ParseState st = g.states().get(g.stateIndex(s));
            if (!ops(st, bridged).isEmpty() || st.selects()) {
                return s;
            }
            s = st.branches().get(0).next();
        }
        return s;
    }
}
