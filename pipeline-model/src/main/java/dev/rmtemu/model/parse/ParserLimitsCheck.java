package dev.rmtemu.model.parse;

import dev.rmtemu.model.UserError;
import dev.rmtemu.model.compiler.Compilation;
import dev.rmtemu.model.target.ParserLimits;
import dev.rmtemu.model.target.TargetProfile;

import java.util.ArrayList;
import java.util.List;

/**
 * Checks a parse graph against the target's parser budgets before any packet,
 * and counts what it takes. The rules follow the Tofino back end of p4c:
 * <ul>
 *   <li>TCAM rows: every select branch is a row of the parser TCAM, a range a row
 *       per prefix, a value set a row per entry it may hold, a plain transition one
 *       row ({@code bf-p4c/parde/parde_spec.h} {@code PardeSpec::numTcamRows});
 *   <li>a state sees {@code inputBufferBytes} ahead of its shift
 *       ({@code PardeSpec::byteInputBufferSize}): a state extracting more is split into
 *       several hardware states ({@code SplitParserState} in {@code parde/lowered/}),
 *       a row each; a lookahead past it is refused;
 *   <li>a variable-length tail becomes one state per legal length
 *       ({@code DesugarVarbitExtract} in {@code arch/}): a dispatch row and an
 *       extract row per length;
 *   <li>a select key is at most the match registers' width ({@code matchRegisters()});
 *   <li>every header's fixed part fits the window the parser reads;
 *   <li>the headers' fields and one validity bit per header take PHV bits.
 * </ul>
 * A refusal is one line: program, parser, state, the rule with its numbers, and the
 * rule's name in brackets; exit 3 like the stage passes.
 */
public final class ParserLimitsCheck {
    private ParserLimitsCheck() {
    }

    /** Counts the graph's rows and PHV bits and refuses it when a budget of {@code target} is exceeded. */
    public static ParserResources check(String program, ParseGraph g, TargetProfile target) {
        ParserLimits lim = target.parser();
        ParserResources res = count(g, lim);
        String where = program + ": parser " + g.name() + ": ";
        for (int s = 0; s < g.states().size(); s++) {
            ParseState st = g.states().get(s);
            String at = where + "state " + st.name() + ": ";
            int keyBits = 0;
            for (int k = 0; k < g.keyBits[s].length; k++) {
                keyBits += g.keyBits[s][k];
                if (g.keyWord[s][k] < 0 && lim.inputBufferBytes() != TargetProfile.UNLIMITED
                        && (g.keyLookBit[s][k] + g.keyBits[s][k] + 7) / 8 > lim.inputBufferBytes()) {
                    throw refuse(at + "looks ahead " + (g.keyLookBit[s][k] + g.keyBits[s][k])
                            + " bits, a state sees " + lim.inputBufferBytes() + " bytes", "input buffer");
                }
            }
            if (keyBits > lim.selectKeyBits()) {
                throw refuse(at + "selects on " + keyBits + " key bits, the match registers hold " + lim.selectKeyBits(),
                        "select key width");
            }
            for (int op : g.ops[s]) {
                if (op >= 0) {
                    HeaderType t = g.headers().get(op).type();
                    if (t.fixedBytes() > lim.windowBytes()) {
                        throw refuse(at + "extracts " + g.headers().get(op).name() + " of " + t.fixedBytes()
                                + " bytes, the parser reads " + lim.windowBytes() + " bytes of a frame", "parser window");
                    }
                }
            }
        }
        if (res.tcamRows() > lim.tcamRows()) {
            int running = 0;
            String state = "";
            for (ParserResources.StateRows r : res.states()) {
                running += r.rows();
                if (running > lim.tcamRows()) {
                    state = r.state();
                    break;
                }
            }
            throw refuse(where + "state " + state + ": needs " + res.tcamRows() + " parser TCAM rows in all, the target has "
                    + lim.tcamRows() + " (the rows run out in this state)", "parser TCAM rows");
        }
        long phv = target.phvBits();
        if (phv != TargetProfile.UNLIMITED && res.phvBits() > phv) {
            throw refuse(where + "headers take " + res.fieldBits() + " field bits and " + res.validityBits()
                    + " validity bits of PHV, the target has " + phv, "PHV");
        }
        return res;
    }

    /** Rows and PHV bits of a graph on a parser with these limits (no refusal). */
    public static ParserResources count(ParseGraph g, ParserLimits lim) {
        List<ParserResources.StateRows> rows = new ArrayList<>();
        long total = 0;
        for (int s = 0; s < g.states().size(); s++) {
            int bytes = 0;
            int varbit = 0;
            for (int op : g.ops[s]) {
                if (op < 0) {
                    bytes += -1 - op;
                } else {
                    HeaderType t = g.headers().get(op).type();
                    bytes += t.fixedBytes();
                    if (t.varbit() != null) {
                        varbit += 2 * t.varbit().legalLengths();
                    }
                }
            }
            int buffer = lim.inputBufferBytes();
            int split = buffer == TargetProfile.UNLIMITED || bytes <= buffer ? 0 : (bytes + buffer - 1) / buffer - 1;
            long branches = 0;
            for (int b = 0; b < g.next[s].length; b++) {
                long r = 1;
                for (int k = 0; k < g.keyBits[s].length; k++) {
                    r *= componentRows(g, s, b, k);
                }
                branches += r;
            }
            int br = (int) Math.min(Integer.MAX_VALUE, branches);
            rows.add(new ParserResources.StateRows(g.states().get(s).name(), bytes, split, varbit, br));
            total += (long) split + varbit + br;
        }
        long fieldBits = 0;
        for (HeaderInstance h : g.headers()) {
            fieldBits += h.type().fixedBits();
        }
        return new ParserResources(g.name(), rows, (int) Math.min(Integer.MAX_VALUE, total), lim.tcamRows(), fieldBits,
                g.headers().size());
    }

    private static long componentRows(ParseGraph g, int s, int b, int k) {
        switch (g.setKind[s][b][k]) {
            case ParseGraph.SET_RANGE:
                return rangePrefixes(g.setA[s][b][k], g.setB[s][b][k], g.keyBits[s][k]);
            case ParseGraph.SET_VALUE_SET:
                return g.valueSets().get((int) g.setA[s][b][k]).size();
            default:
                return 1;
        }
    }

    /** Ternary rows (prefixes) that cover {@code [lo, hi]} of a {@code bits}-bit key. */
    static long rangePrefixes(long lo, long hi, int bits) {
        long max = bits == Long.SIZE ? -1L : (1L << bits) - 1;
        if (Long.compareUnsigned(lo, hi) > 0 || Long.compareUnsigned(lo, max) > 0) {
            return 0;
        }
        if (Long.compareUnsigned(hi, max) > 0) {
            hi = max;
        }
        long n = 0;
        long cur = lo;
        while (true) {
            long size = cur == 0 ? (bits == Long.SIZE ? Long.MIN_VALUE : 1L << bits) : Long.lowestOneBit(cur);
            // shrink the aligned block until it fits under hi
            while (size != 1 && Long.compareUnsigned(cur + size - 1, hi) > 0) {
                size = size == Long.MIN_VALUE ? 1L << 62 : size >>> 1;
            }
            n++;
            long end = cur + size - 1;
            if (end == hi) {
                return n;
            }
            cur = end + 1;
        }
    }

    private static UserError refuse(String line, String rule) {
        return new UserError(line + " [" + rule + "]", Compilation.EXIT_REFUSED, null);
    }
}
