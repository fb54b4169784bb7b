package dev.rmtemu.model.parse;

import dev.rmtemu.model.UserError;

import java.util.Arrays;

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
     * The lean parse compiled for this graph and the needed fields ({@link #compileLean}): every
     * state's operations, reads and select in one int array, entered at {@code leanEntry[state]},
     * so a packet walks one array with constant operands instead of the graph's per-state and
     * per-header arrays. Cases of a mask/value select keep their masks and values in
     * {@code leanMask}/{@code leanValue}.
     */
    private int[] lean;
    private final int[] leanEntry;
    private long[] leanMask;
    private long[] leanValue;
    /** A lean state's select: a plain transition, mask/value cases on field keys, or the general {@link #select}. */
    static final int SEL_PLAIN = 0;
    static final int SEL_CASES = 1;
    static final int SEL_GENERAL = 2;
    /** Words of one read in {@link #lean}: byte offset in the header, bit offset in that byte, right shift (or -width), result word. */
    static final int READ_INTS = 4;
    /**
     * The plan as generated code, or null when it stays interpreted (a graph too large to
     * compile); generated at the first lean parse after the plan changed, so a parser set up
     * field by field ({@link #need}) generates one class.
     */
    private LeanParseCode leanCode;
    private boolean leanGenerated;
    /** Whether a state of the graph can be reached again (a loop): only then can a parse time out. */
    private final boolean cyclic;
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
        leanEntry = new int[ns];
        varbits = new VarbitLength[nh];
        for (int h = 0; h < nh; h++) {
            needed[h] = new boolean[graph.hdrFieldBits[h].length];
            HeaderType t = graph.headers().get(h).type();
            varbits[h] = t.varbit();
            if (t.varbit() != null) {
                needed[h][t.indexOf(t.varbit().lengthField())] = true;
            }
        }
        for (ParseState s : graph.states()) {
            for (SelectKey k : s.keys()) {
                if (k instanceof SelectKey.Field f) {
                    FieldRef r = graph.field(f.field());
                    needed[r.header()][r.field()] = true;
                }
            }
        }
        cyclic = hasCycle(graph);
        compileLean();
    }

    private static boolean hasCycle(ParseGraph g) {
        int n = g.states().size();
        int[] mark = new int[n]; // 0 unseen, 1 on the current path, 2 done
        for (int s = 0; s < n; s++) {
            if (mark[s] == 0 && reachesPath(g, s, mark)) {
                return true;
            }
        }
        return false;
    }

    private static boolean reachesPath(ParseGraph g, int s, int[] mark) {
        mark[s] = 1;
        for (int t : g.next[s]) {
            if (t >= 0 && (mark[t] == 1 || mark[t] == 0 && reachesPath(g, t, mark))) {
                return true;
            }
        }
        mark[s] = 2;
        return false;
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
        if (!needed[f.header()][f.field()]) {
            needed[f.header()][f.field()] = true;
            compileLean();
        }
    }

    /**
     * Compiles the lean parse: per state its operations ({@code -1 - bytes} for an advance; for
     * an extract the header, its fixed bytes, its needed reads and the word of its length field
     * or -1), then its select ({@link #SEL_PLAIN} and the target; {@link #SEL_CASES}, the key
     * words, the case count, where its masks and values start and each case's target;
     * {@link #SEL_GENERAL}). A read whose bits lie in the eight bytes from its first is one
     * big-endian load, a shift left by its bit offset and one right by {@code 64 - width}.
     */
    private void compileLean() {
        int[] code = new int[64];
        int n = 0;
        long[] masks = new long[16];
        long[] values = new long[16];
        int consts = 0;
        for (int s = 0; s < leanEntry.length; s++) {
            leanEntry[s] = n;
            int[] ops = g.ops[s];
            code = room(code, n, 1);
            code[n++] = ops.length;
            for (int op : ops) {
                if (op < 0) {
                    code = room(code, n, 1);
                    code[n++] = op;
                    continue;
                }
                int[] widths = g.hdrFieldBits[op];
                int reads = 0;
                for (int fi = 0; fi < widths.length; fi++) {
                    if (needed[op][fi]) {
                        reads += widths[fi] > Long.SIZE ? 2 : 1;
                    }
                }
                code = room(code, n, 4 + READ_INTS * reads);
                code[n++] = op;
                code[n++] = g.hdrFixedBytes[op];
                code[n++] = reads;
                int bit = 0;
                int w = g.hdrFirstWord[op];
                for (int fi = 0; fi < widths.length; fi++) {
                    int bits = widths[fi];
                    if (needed[op][fi]) {
                        if (bits > Long.SIZE) {
                            int top = bits - Long.SIZE;
                            n = read(code, n, bit, top, w);
                            n = read(code, n, bit + top, Long.SIZE, w + 1);
                        } else {
                            n = read(code, n, bit, bits, w);
                        }
                    }
                    w += bits > Long.SIZE ? 2 : 1;
                    bit += bits;
                }
                code[n++] = g.hdrLengthWord[op];
            }
            int[] kw = g.keyWord[s];
            int k = kw.length;
            boolean fieldKeys = true;
            for (int word : kw) {
                fieldKeys &= word >= 0;
            }
            if (k == 0) {
                code = room(code, n, 2);
                code[n++] = SEL_PLAIN;
                code[n++] = g.next[s][0];
            } else if (caseMask[s] != null && fieldKeys) {
                int cases = g.next[s].length;
                code = room(code, n, 4 + k + cases);
                code[n++] = SEL_CASES;
                code[n++] = k;
                for (int word : kw) {
                    code[n++] = word;
                }
                code[n++] = cases;
                code[n++] = consts;
                for (int b = 0; b < cases; b++) {
                    code[n++] = g.next[s][b];
                }
                if (consts + caseMask[s].length > masks.length) {
                    masks = Arrays.copyOf(masks, 2 * (consts + caseMask[s].length));
                    values = Arrays.copyOf(values, masks.length);
                }
                System.arraycopy(caseMask[s], 0, masks, consts, caseMask[s].length);
                System.arraycopy(caseValue[s], 0, values, consts, caseValue[s].length);
                consts += caseMask[s].length;
            } else {
                code = room(code, n, 1);
                code[n++] = SEL_GENERAL;
            }
        }
        lean = Arrays.copyOf(code, n);
        leanMask = Arrays.copyOf(masks, consts);
        leanValue = Arrays.copyOf(values, consts);
        leanCode = null;
        leanGenerated = false;
    }

    /** The plan's generated code (made on the first call after the plan changed), or null. */
    private LeanParseCode leanCode() {
        if (!leanGenerated) {
            leanCode = LeanParseCode.compile(this, lean, leanEntry, leanMask, leanValue, cyclic, maxSteps);
            leanGenerated = true;
        }
        return leanCode;
    }

    private static int[] room(int[] code, int n, int more) {
        return n + more <= code.length ? code : Arrays.copyOf(code, Math.max(2 * code.length, n + more));
    }

    /** One read of {@code bits} bits at bit {@code bit} of the header into word {@code word}. */
    private static int read(int[] code, int n, int bit, int bits, int word) {
        int lead = bit & 7;
        code[n++] = bit >>> 3;
        code[n++] = lead;
        code[n++] = lead + bits <= Long.SIZE ? Long.SIZE - bits : -bits;
        code[n++] = word;
        return n;
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

    /**
     * As {@link #parse}, reading only the fields a select, a header length or a {@link #need}
     * asks for: the other words of {@code r} keep whatever they held, so only needed fields may
     * be read from it (and a deparse wants a full {@link #parse}). Same accept, error, validity
     * and offsets as a full parse; counts the packet the same way.
     */
    public boolean parseNeeded(byte[] buf, int off, int caplen, int wireLen, ParseResult r) {
        if (off < 0 || caplen < 0 || off + Math.min(caplen, window) > buf.length || r.graph() != g) {
            throw new IllegalArgumentException("frame bounds " + off + "+" + caplen + " outside a " + buf.length
                    + "-byte buffer, or a result of another graph");
        }
        r.reset();
        int readable = Math.min(caplen, window);
        LeanParseCode c = leanGenerated ? leanCode : leanCode();
        return c != null ? c.run(buf, off, readable, caplen, wireLen, r) : runPlan(buf, off, readable, caplen, wireLen, r);
    }

    /** As {@link #parseNeeded}, always by the interpreted plan: the reference its generated code is tested against. */
    boolean parseNeededByPlan(byte[] buf, int off, int caplen, int wireLen, ParseResult r) {
        if (off < 0 || caplen < 0 || off + Math.min(caplen, window) > buf.length || r.graph() != g) {
            throw new IllegalArgumentException("frame bounds " + off + "+" + caplen + " outside a " + buf.length
                    + "-byte buffer, or a result of another graph");
        }
        r.reset();
        return runPlan(buf, off, Math.min(caplen, window), caplen, wireLen, r);
    }

    /** Whether the lean parse runs as generated code (false: the plan is interpreted). */
    boolean leanParseGenerated() {
        return leanCode() != null;
    }

    private boolean runPlan(byte[] buf, int off, int readable, int caplen, int wireLen, ParseResult r) {
        int[] code = lean;
        long[] words = r.words;
        boolean[] valid = r.valid;
        int lastLong = buf.length - Long.BYTES;
        int cursor = 0;
        int state = 0;
        int steps = 0;
        while (true) {
            if (++steps > maxSteps) {
                return fail(r, ParserError.TIMEOUT, state);
            }
            int pc = leanEntry[state];
            for (int ops = code[pc++]; ops > 0; ops--) {
                int op = code[pc++];
                if (op < 0) {
                    long end = cursor - 1L - op;
                    if (end > readable) {
                        return fail(r, bound(end, readable, caplen, wireLen), state);
                    }
                    cursor = (int) end;
                    continue;
                }
                if (valid[op]) {
                    return fail(r, ParserError.HEADER_REPEATED, state);
                }
                int fixed = code[pc++];
                if (cursor + (long) fixed > readable) {
                    return fail(r, bound(cursor + (long) fixed, readable, caplen, wireLen), state);
                }
                int at = off + cursor;
                for (int reads = code[pc++]; reads > 0; reads--, pc += READ_INTS) {
                    words[code[pc + 3]] = readAt(buf, at + code[pc], code[pc + 1], code[pc + 2], lastLong);
                }
                r.offset[op] = cursor;
                cursor += fixed;
                int tail = 0;
                int lengthWord = code[pc++];
                if (lengthWord >= 0) {
                    tail = varbits[op].bytesFor(words[lengthWord]);
                    if (tail < 0) {
                        return fail(r, ParserError.HEADER_LENGTH, state);
                    }
                    if (cursor + (long) tail > readable) {
                        return fail(r, bound(cursor + (long) tail, readable, caplen, wireLen), state);
                    }
                }
                r.varbitOffset[op] = off + cursor;
                r.varbitLength[op] = tail;
                cursor += tail;
                valid[op] = true;
                r.order[r.extracted++] = op;
            }
            int target;
            int kind = code[pc++];
            if (kind == SEL_PLAIN) {
                target = code[pc];
            } else if (kind == SEL_CASES) {
                target = selectCases(code, pc, words, state, r);
            } else {
                target = select(buf, (long) off * Byte.SIZE, cursor, readable, caplen, wireLen, state, r);
            }
            if (target == ParseState.ACCEPT) {
                acceptedCount++;
                r.payloadOffset = cursor;
                return true;
            }
            if (target < 0) {
                if (target == ParseState.REJECT) {
                    return fail(r, ParserError.REJECT, state);
                }
                return false;
            }
            state = target;
        }
    }

    /**
     * A lean state's mask/value select at {@code pc} ({@link #SEL_CASES}'s operands): the first
     * case whose every key matches; NO_MATCH recorded (and {@code REJECT - 1}) when none does.
     * A case going to reject returns {@link ParseState#REJECT}, for the caller to record.
     */
    private int selectCases(int[] code, int pc, long[] words, int state, ParseResult r) {
        int keys = code[pc];
        int cases = code[pc + keys + 1];
        int at = code[pc + keys + 2];
        int targets = pc + keys + 3;
        long[] mask = leanMask;
        long[] value = leanValue;
        if (keys == 1) {
            long k = words[code[pc + 1]];
            for (int b = 0; b < cases; b++, at++) {
                if ((k & mask[at]) == value[at]) {
                    return code[targets + b];
                }
            }
        } else {
            for (int b = 0; b < cases; b++, at += keys) {
                boolean all = true;
                for (int i = 0; i < keys && all; i++) {
                    all = (words[code[pc + 1 + i]] & mask[at + i]) == value[at + i];
                }
                if (all) {
                    return code[targets + b];
                }
            }
        }
        fail(r, ParserError.NO_MATCH, state);
        return ParseState.REJECT - 1;
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

    // called by the generated lean parse (LeanParseCode), each the one definition of its step

    /** A read of the plan: bits at byte {@code a} (bit {@code lead}), shifted right by {@code shift} (or {@code -width}). */
    static long readAt(byte[] buf, int a, int lead, int shift, int lastLong) {
        return shift >= 0 && a <= lastLong
                ? (Bits.bigEndianLong(buf, a) << lead) >>> shift
                : Bits.read(buf, (long) a * Byte.SIZE + lead, shift >= 0 ? Long.SIZE - shift : -shift);
    }

    boolean accepted(ParseResult r, int cursor) {
        acceptedCount++;
        r.payloadOffset = cursor;
        return true;
    }

    boolean failBound(ParseResult r, long end, int readable, int caplen, int wireLen, int state) {
        return fail(r, bound(end, readable, caplen, wireLen), state);
    }

    boolean failCode(ParseResult r, int error, int state) {
        return fail(r, ParserError.of(error), state);
    }

    /** Header {@code h}'s variable-length tail rule, or null: its constants go into the generated parse. */
    VarbitLength varbit(int h) {
        return varbits[h];
    }

    int selectGeneral(byte[] buf, int off, int cursor, int readable, int caplen, int wireLen, int state, ParseResult r) {
        return select(buf, (long) off * Byte.SIZE, cursor, readable, caplen, wireLen, state, r);
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
