package dev.rmtemu.model.parse;

import dev.rmtemu.model.UserError;

/**
 * Runs a {@link ParseGraph} over a frame's bytes into a {@link ParseResult}: the
 * switch's programmable parser. Allocates nothing per packet. Every bound is
 * checked before a byte is read, so any input ends in {@code accept} or a
 * {@link ParserError}, never an exception. The parser reads at most
 * {@code windowBytes} bytes of a frame (the window the ring carries); the
 * payload beyond the last header is not read.
 *
 * <p>The parser value sets live here, filled by the control plane.
 */
public final class PacketParser {
    private final ParseGraph g;
    private final int window;
    private final int maxSteps;
    private final long[][] vsValue;
    private final long[][] vsMask;
    private final int[] vsCount;
    private final long[] key;
    /**
     * Per header and field: whether a lean parse ({@link #parseNeeded}) reads it. Select keys
     * and variable-length fields are always read; {@link #need} adds the fields a program uses.
     */
    private final boolean[][] needed;
    /**
     * Per header, what a lean parse reads, as triples in one array (one bounds-checked load
     * stream per header): each read's bit offset in the header, width and result word.
     */
    private final int[][] leanReads;
    /**
     * Per state whose every case is exact, masked or default on each key (an ethertype's, a
     * protocol's or IPv4's fragment-and-protocol select): case {@code b}'s key {@code i} as a
     * mask and a value at {@code b * keys + i}, the case matching when
     * {@code (key & mask) == value} for every key, first in case order; null for the other
     * states (a range or a value set).
     */
    private final long[][] caseMask;
    private final long[][] caseValue;
    /** Per header: its variable-length tail's rule, or null. */
    private final VarbitLength[] varbits;
    private final long[] errorCounts = new long[ParserError.count()];
    private long acceptedCount;

    public PacketParser(ParseGraph graph, int windowBytes) {
        if (windowBytes < 1) {
            throw new IllegalArgumentException("parser window " + windowBytes);
        }
        this.g = graph;
        this.window = windowBytes;
        // every cycle through the graph that makes progress advances at least one byte
        long steps = (long) (windowBytes + 1) * graph.states().size();
        this.maxSteps = (int) Math.min(Integer.MAX_VALUE, steps);
        int n = graph.valueSets().size();
        vsValue = new long[n][];
        vsMask = new long[n][];
        vsCount = new int[n];
        for (int i = 0; i < n; i++) {
            vsValue[i] = new long[graph.valueSets().get(i).size()];
            vsMask[i] = new long[graph.valueSets().get(i).size()];
        }
        int keys = 0;
        for (ParseState s : graph.states()) {
            keys = Math.max(keys, s.keys().size());
        }
        key = new long[keys];
        int ns = graph.states().size();
        caseMask = new long[ns][];
        caseValue = new long[ns][];
        for (int s = 0; s < ns; s++) {
            planCases(s);
        }
        int nh = graph.headers().size();
        needed = new boolean[nh][];
        leanReads = new int[nh][];
        varbits = new VarbitLength[nh];
        for (int h = 0; h < nh; h++) {
            needed[h] = new boolean[graph.hdrFieldBits[h].length];
            HeaderType t = graph.headers().get(h).type();
            varbits[h] = t.varbit();
            if (t.varbit() != null) {
                needed[h][t.indexOf(t.varbit().lengthField())] = true;
            }
            planLean(h);
        }
        for (ParseState s : graph.states()) {
            for (SelectKey k : s.keys()) {
                if (k instanceof SelectKey.Field f) {
                    need(graph.field(f.field()));
                }
            }
        }
    }

    /** The mask/value form of state {@code s}'s cases, when it has keys and no range or value-set case. */
    private void planCases(int s) {
        int k = g.keyWord[s].length;
        if (k == 0) {
            return;
        }
        int[][] kinds = g.setKind[s];
        long[] mask = new long[kinds.length * k];
        long[] value = new long[kinds.length * k];
        for (int b = 0; b < kinds.length; b++) {
            for (int i = 0; i < k; i++) {
                int at = b * k + i;
                switch (kinds[b][i]) {
                    case ParseGraph.SET_ANY -> {
                        mask[at] = 0;
                        value[at] = 0;
                    }
                    case ParseGraph.SET_EXACT -> {
                        mask[at] = -1L;
                        value[at] = g.setA[s][b][i];
                    }
                    case ParseGraph.SET_MASKED -> {
                        mask[at] = g.setB[s][b][i];
                        value[at] = g.setA[s][b][i];
                    }
                    default -> {
                        return;
                    }
                }
            }
        }
        caseMask[s] = mask;
        caseValue[s] = value;
    }

    /** A lean parse ({@link #parseNeeded}) reads this field too. Set up before the first packet. */
    public void need(FieldRef f) {
        needed[f.header()][f.field()] = true;
        planLean(f.header());
    }

    /** The reads of header {@code h} in a lean parse: its needed fields (a field wider than 64 bits is two reads). */
    private void planLean(int h) {
        int[] widths = g.hdrFieldBits[h];
        int n = 0;
        for (int fi = 0; fi < widths.length; fi++) {
            if (needed[h][fi]) {
                n += widths[fi] > Long.SIZE ? 2 : 1;
            }
        }
        int[] reads = new int[3 * n];
        int i = 0;
        int bit = 0;
        int w = g.hdrFirstWord[h];
        for (int fi = 0; fi < widths.length; fi++) {
            int bits = widths[fi];
            if (needed[h][fi]) {
                if (bits > Long.SIZE) {
                    int top = bits - Long.SIZE;
                    reads[i++] = bit;
                    reads[i++] = top;
                    reads[i++] = w;
                    reads[i++] = bit + top;
                    reads[i++] = Long.SIZE;
                    reads[i++] = w + 1;
                } else {
                    reads[i++] = bit;
                    reads[i++] = bits;
                    reads[i++] = w;
                }
            }
            w += bits > Long.SIZE ? 2 : 1;
            bit += bits;
        }
        leanReads[h] = reads;
    }

    /** Whether a lean parse reads the field. */
    public boolean needs(FieldRef f) {
        return needed[f.header()][f.field()];
    }

    public ParseGraph graph() {
        return g;
    }

    public int windowBytes() {
        return window;
    }

    /** Control plane: adds a value/mask entry to a parser value set; refused when the set is full. */
    public void addValueSetEntry(String valueSet, long value, long mask) {
        int i = g.valueSetIndex(valueSet);
        if (i < 0) {
            throw new UserError("parser " + g.name() + " has no value set '" + valueSet + "'");
        }
        ParserValueSet vs = g.valueSets().get(i);
        if (vsCount[i] == vs.size()) {
            throw new UserError("parser value set " + valueSet + " is full (" + vs.size() + " entries)");
        }
        long width = vs.bits() == Long.SIZE ? -1L : (1L << vs.bits()) - 1;
        vsValue[i][vsCount[i]] = value & mask & width;
        vsMask[i][vsCount[i]] = mask & width;
        vsCount[i]++;
    }

    /** Control plane: empties a parser value set. */
    public void clearValueSet(String valueSet) {
        int i = g.valueSetIndex(valueSet);
        if (i < 0) {
            throw new UserError("parser " + g.name() + " has no value set '" + valueSet + "'");
        }
        vsCount[i] = 0;
    }

    /**
     * Parses the frame in {@code buf[off .. off+caplen)}, of {@code wireLen} bytes on
     * the wire; {@code buf} needs to hold only the frame's first {@code min(caplen, window)}
     * bytes. Returns true on accept; otherwise {@link ParseResult#error()} says why.
     */
    public boolean parse(byte[] buf, int off, int caplen, int wireLen, ParseResult r) {
        return parse(buf, off, caplen, wireLen, r, false);
    }

    /**
     * As {@link #parse}, reading only the fields a select, a header length or a {@link #need}
     * asks for: the other words of {@code r} keep whatever they held, so only needed fields may
     * be read from it (and a deparse wants a full {@link #parse}). Same accept, error, validity
     * and offsets as a full parse; counts the packet the same way.
     */
    public boolean parseNeeded(byte[] buf, int off, int caplen, int wireLen, ParseResult r) {
        return parse(buf, off, caplen, wireLen, r, true);
    }

    private boolean parse(byte[] buf, int off, int caplen, int wireLen, ParseResult r, boolean lean) {
        if (off < 0 || caplen < 0 || off + Math.min(caplen, window) > buf.length || r.graph() != g) {
            throw new IllegalArgumentException("frame bounds " + off + "+" + caplen + " outside a " + buf.length
                    + "-byte buffer, or a result of another graph");
        }
        r.reset();
        int readable = Math.min(caplen, window);
        long base = (long) off * Byte.SIZE;
        int cursor = 0;
        int state = 0;
        int steps = 0;
        while (true) {
            if (++steps > maxSteps) {
                return fail(r, ParserError.TIMEOUT, state);
            }
            int[] ops = g.ops[state];
            for (int op : ops) {
                if (op < 0) {
                    int bytes = -1 - op;
                    ParserError e = bound(cursor + (long) bytes, readable, caplen, wireLen);
                    if (e != null) {
                        return fail(r, e, state);
                    }
                    cursor += bytes;
                    continue;
                }
                if (r.valid[op]) {
                    return fail(r, ParserError.HEADER_REPEATED, state);
                }
                int fixed = g.hdrFixedBytes[op];
                ParserError e = bound(cursor + (long) fixed, readable, caplen, wireLen);
                if (e != null) {
                    return fail(r, e, state);
                }
                long bit = base + (long) cursor * Byte.SIZE;
                if (lean) {
                    int[] reads = leanReads[op];
                    for (int i = 0; i + 2 < reads.length; i += 3) {
                        r.words[reads[i + 2]] = Bits.read(buf, bit + reads[i], reads[i + 1]);
                    }
                } else {
                    int w = g.hdrFirstWord[op];
                    for (int bits : g.hdrFieldBits[op]) {
                        if (bits > Long.SIZE) {
                            int top = bits - Long.SIZE;
                            r.words[w++] = Bits.read(buf, bit, top);
                            r.words[w++] = Bits.read(buf, bit + top, Long.SIZE);
                        } else {
                            r.words[w++] = Bits.read(buf, bit, bits);
                        }
                        bit += bits;
                    }
                }
                r.offset[op] = cursor;
                cursor += fixed;
                int tail = 0;
                if (g.hdrLengthWord[op] >= 0) {
                    tail = varbits[op].bytesFor(r.words[g.hdrLengthWord[op]]);
                    if (tail < 0) {
                        return fail(r, ParserError.HEADER_LENGTH, state);
                    }
                    e = bound(cursor + (long) tail, readable, caplen, wireLen);
                    if (e != null) {
                        return fail(r, e, state);
                    }
                }
                r.varbitOffset[op] = off + cursor;
                r.varbitLength[op] = tail;
                cursor += tail;
                r.valid[op] = true;
                r.order[r.extracted++] = op;
            }
            int target = select(buf, base, cursor, readable, caplen, wireLen, state, r);
            if (target == ParseState.ACCEPT) {
                acceptedCount++;
                r.payloadOffset = cursor;
                return true;
            }
            if (target < 0) {
                return false;
            }
            state = target;
        }
    }

    /** The next state, ACCEPT, or a negative value after recording an error in {@code r}. */
    private int select(byte[] buf, long base, int cursor, int readable, int caplen, int wireLen, int state, ParseResult r) {
        int[] kw = g.keyWord[state];
        for (int i = 0; i < kw.length; i++) {
            if (kw[i] >= 0) {
                key[i] = r.words[kw[i]];
            } else {
                int endBits = g.keyLookBit[state][i] + g.keyBits[state][i];
                ParserError e = bound(cursor + (long) ((endBits + 7) >>> 3), readable, caplen, wireLen);
                if (e != null) {
                    fail(r, e, state);
                    return ParseState.REJECT - 1;
                }
                key[i] = Bits.read(buf, base + (long) cursor * Byte.SIZE + g.keyLookBit[state][i], g.keyBits[state][i]);
            }
        }
        long[] mask = caseMask[state];
        if (mask != null) {
            long[] value = caseValue[state];
            int keys = kw.length;
            for (int b = 0, at = 0; at < mask.length; b++, at += keys) {
                if (casesMatch(mask, value, at, keys)) {
                    int t = g.next[state][b];
                    if (t == ParseState.REJECT) {
                        fail(r, ParserError.REJECT, state);
                        return ParseState.REJECT - 1;
                    }
                    return t;
                }
            }
            fail(r, ParserError.NO_MATCH, state);
            return ParseState.REJECT - 1;
        }
        int[][] kinds = g.setKind[state];
        for (int b = 0; b < kinds.length; b++) {
            if (matches(state, b, kw.length)) {
                int t = g.next[state][b];
                if (t == ParseState.REJECT) {
                    fail(r, ParserError.REJECT, state);
                    return ParseState.REJECT - 1;
                }
                return t;
            }
        }
        fail(r, ParserError.NO_MATCH, state);
        return ParseState.REJECT - 1;
    }

    private boolean casesMatch(long[] mask, long[] value, int at, int keys) {
        for (int i = 0; i < keys; i++) {
            if ((key[i] & mask[at + i]) != value[at + i]) {
                return false;
            }
        }
        return true;
    }

    private boolean matches(int state, int branch, int keys) {
        int[] kind = g.setKind[state][branch];
        long[] a = g.setA[state][branch];
        long[] b = g.setB[state][branch];
        for (int i = 0; i < keys; i++) {
            long k = key[i];
            switch (kind[i]) {
                case ParseGraph.SET_EXACT:
                    if (k != a[i]) {
                        return false;
                    }
                    break;
                case ParseGraph.SET_MASKED:
                    if ((k & b[i]) != a[i]) {
                        return false;
                    }
                    break;
                case ParseGraph.SET_RANGE:
                    if (Long.compareUnsigned(k, a[i]) < 0 || Long.compareUnsigned(k, b[i]) > 0) {
                        return false;
                    }
                    break;
                case ParseGraph.SET_VALUE_SET:
                    if (!inValueSet((int) a[i], k)) {
                        return false;
                    }
                    break;
                default:
                    break;
            }
        }
        return true;
    }

    private boolean inValueSet(int set, long k) {
        long[] v = vsValue[set];
        long[] m = vsMask[set];
        for (int i = 0, n = vsCount[set]; i < n; i++) {
            if ((k & m[i]) == v[i]) {
                return true;
            }
        }
        return false;
    }

    /** Which bound reading up to byte {@code end} of the frame breaks, or null when it is readable. */
    private static ParserError bound(long end, int readable, int caplen, int wireLen) {
        if (end <= readable) {
            return null;
        }
        if (end > wireLen) {
            return ParserError.PACKET_TOO_SHORT;
        }
        return caplen < end && caplen <= readable ? ParserError.CAPTURE_TRUNCATED : ParserError.WINDOW_EXCEEDED;
    }

    /** Packets that ended in {@code error} so far (the {@code parser_error} drops by kind). */
    public long errorCount(ParserError error) {
        return errorCounts[error.ordinal()];
    }

    /** Packets accepted so far. */
    public long acceptedCount() {
        return acceptedCount;
    }

    private boolean fail(ParseResult r, ParserError e, int state) {
        errorCounts[e.ordinal()]++;
        r.error = e;
        r.errorState = state;
        return false;
    }
}
