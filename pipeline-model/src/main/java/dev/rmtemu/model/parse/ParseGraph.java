package dev.rmtemu.model.parse;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A programmable parser as data: header instances, parser value sets and states,
 * the first state being the start state. Built once with {@link #builder}; the
 * names it refers to are resolved here, so a {@link PacketParser} runs over flat
 * arrays. A graph may loop (a state may be visited again), as P4 parsers may.
 */
public final class ParseGraph {
    private final String name;
    private final List<HeaderInstance> headers;
    private final List<ParserValueSet> valueSets;
    private final List<ParseState> states;
    private final int words;
    /** Whether the ingress parser's resubmit branch ({@code resubmit_flag == 1}) rejects. */
    private final boolean resubmittedRejected;

    // resolved, per state: operations (extract: header index >= 0; advance: -1 - bytes)
    final int[][] ops;
    // per state and key component: the field's first word (or -1 for a lookahead), lookahead bit offset, width
    final int[][] keyWord;
    final int[][] keyLookBit;
    final int[][] keyBits;
    // per state, branch and key component: the key set kind and its operands
    final int[][][] setKind;
    final long[][][] setA;
    final long[][][] setB;
    final int[][] next;
    // per header: fixed bytes, field widths, first word, the word of the varbit length field (-1: none)
    final int[] hdrFixedBytes;
    final int[][] hdrFieldBits;
    final int[] hdrFirstWord;
    final int[] hdrLengthWord;
    final int[] hdrWords;

    static final int SET_ANY = 0;
    static final int SET_EXACT = 1;
    static final int SET_MASKED = 2;
    static final int SET_RANGE = 3;
    static final int SET_VALUE_SET = 4;

    private ParseGraph(String name, List<HeaderInstance> headers, List<ParserValueSet> valueSets, List<ParseState> states,
                       boolean resubmittedRejected) {
        this.name = name;
        this.resubmittedRejected = resubmittedRejected;
        this.headers = List.copyOf(headers);
        this.valueSets = List.copyOf(valueSets);
        this.states = List.copyOf(states);
        if (states.isEmpty()) {
            throw new IllegalArgumentException("parse graph " + name + " has no states");
        }
        int w = 0;
        for (HeaderInstance h : headers) {
            w += h.words();
        }
        this.words = w;
        int nh = headers.size();
        hdrFixedBytes = new int[nh];
        hdrFieldBits = new int[nh][];
        hdrFirstWord = new int[nh];
        hdrLengthWord = new int[nh];
        hdrWords = new int[nh];
        for (int h = 0; h < nh; h++) {
            HeaderInstance hi = headers.get(h);
            HeaderType t = hi.type();
            hdrFixedBytes[h] = t.fixedBytes();
            hdrFirstWord[h] = hi.firstWord();
            hdrWords[h] = hi.words();
            hdrFieldBits[h] = new int[t.fields().size()];
            for (int f = 0; f < hdrFieldBits[h].length; f++) {
                hdrFieldBits[h][f] = t.fields().get(f).bits();
            }
            hdrLengthWord[h] = t.varbit() == null ? -1 : hi.wordOf(t.indexOf(t.varbit().lengthField()));
        }
        Map<String, Integer> stateIndex = new HashMap<>();
        for (int i = 0; i < states.size(); i++) {
            if (stateIndex.put(states.get(i).name(), i) != null || isTerminal(states.get(i).name())) {
                throw new IllegalArgumentException("parse graph " + name + ": state " + states.get(i).name() + " declared twice");
            }
        }
        int n = states.size();
        ops = new int[n][];
        keyWord = new int[n][];
        keyLookBit = new int[n][];
        keyBits = new int[n][];
        setKind = new int[n][][];
        setA = new long[n][][];
        setB = new long[n][][];
        next = new int[n][];
        for (int s = 0; s < n; s++) {
            resolve(s, states.get(s), stateIndex);
        }
    }

    private static boolean isTerminal(String state) {
        return state.equals("accept") || state.equals("reject");
    }

    private void resolve(int s, ParseState st, Map<String, Integer> stateIndex) {
        String where = "parse graph " + name + ", state " + st.name() + ": ";
        ops[s] = new int[st.ops().size()];
        for (int i = 0; i < ops[s].length; i++) {
            ParseState.Op op = st.ops().get(i);
            if (op instanceof ParseState.Extract e) {
                ops[s][i] = header(e.header()).index();
            } else {
                ops[s][i] = -1 - ((ParseState.Advance) op).bytes();
            }
        }
        int k = st.keys().size();
        keyWord[s] = new int[k];
        keyLookBit[s] = new int[k];
        keyBits[s] = new int[k];
        for (int i = 0; i < k; i++) {
            SelectKey key = st.keys().get(i);
            if (key instanceof SelectKey.Field f) {
                FieldRef r = field(f.field());
                if (r.bits() > Long.SIZE) {
                    throw new IllegalArgumentException(where + "select key " + f.field() + " is wider than 64 bits");
                }
                keyWord[s][i] = r.word();
                keyBits[s][i] = r.bits();
            } else {
                SelectKey.Lookahead l = (SelectKey.Lookahead) key;
                keyWord[s][i] = -1;
                keyLookBit[s][i] = l.bitOffset();
                keyBits[s][i] = l.bits();
            }
        }
        int b = st.branches().size();
        if (b == 0) {
            throw new IllegalArgumentException(where + "no transition");
        }
        if (k == 0 && b != 1) {
            throw new IllegalArgumentException(where + "a plain transition has exactly one branch");
        }
        setKind[s] = new int[b][k];
        setA[s] = new long[b][k];
        setB[s] = new long[b][k];
        next[s] = new int[b];
        for (int j = 0; j < b; j++) {
            ParseState.Branch br = st.branches().get(j);
            if (br.sets().size() != k) {
                throw new IllegalArgumentException(where + "branch " + j + " has " + br.sets().size() + " key sets for "
                        + k + " keys");
            }
            for (int i = 0; i < k; i++) {
                long mask = keyBits[s][i] == Long.SIZE ? -1L : (1L << keyBits[s][i]) - 1;
                KeySet set = br.sets().get(i);
                if (set instanceof KeySet.Exact e) {
                    setKind[s][j][i] = SET_EXACT;
                    setA[s][j][i] = e.value() & mask;
                } else if (set instanceof KeySet.Masked m) {
                    setKind[s][j][i] = SET_MASKED;
                    setA[s][j][i] = m.value() & m.mask() & mask;
                    setB[s][j][i] = m.mask() & mask;
                } else if (set instanceof KeySet.Range r) {
                    setKind[s][j][i] = SET_RANGE;
                    setA[s][j][i] = r.lo();
                    setB[s][j][i] = r.hi();
                } else if (set instanceof KeySet.InValueSet v) {
                    int vs = valueSetIndex(v.valueSet());
                    if (vs < 0) {
                        throw new IllegalArgumentException(where + "no value set " + v.valueSet());
                    }
                    if (valueSets.get(vs).bits() != keyBits[s][i]) {
                        throw new IllegalArgumentException(where + "value set " + v.valueSet() + " has "
                                + valueSets.get(vs).bits() + " bits, the key " + keyBits[s][i]);
                    }
                    setKind[s][j][i] = SET_VALUE_SET;
                    setA[s][j][i] = vs;
                } else {
                    setKind[s][j][i] = SET_ANY;
                }
            }
            String target = br.next();
            if (target.equals("accept")) {
                next[s][j] = ParseState.ACCEPT;
            } else if (target.equals("reject")) {
                next[s][j] = ParseState.REJECT;
            } else {
                Integer t = stateIndex.get(target);
                if (t == null) {
                    throw new IllegalArgumentException(where + "no state " + target);
                }
                next[s][j] = t;
            }
        }
    }

    public String name() {
        return name;
    }

    public List<HeaderInstance> headers() {
        return headers;
    }

    public List<ParserValueSet> valueSets() {
        return valueSets;
    }

    public List<ParseState> states() {
        return states;
    }

    /** 64-bit words a parse result needs for all fields. */
    public int words() {
        return words;
    }

    /**
     * Whether the parser rejects every resubmitted packet: its {@code resubmit_flag == 1} branch
     * transitions to {@code reject} (TNA's boilerplate TofinoIngressParser does, for programs
     * that never resubmit), before any frame header is read.
     */
    public boolean resubmittedRejected() {
        return resubmittedRejected;
    }

    /** A header instance by name. */
    public HeaderInstance header(String header) {
        for (HeaderInstance h : headers) {
            if (h.name().equals(header)) {
                return h;
            }
        }
        throw new IllegalArgumentException("parse graph " + name + " has no header " + header);
    }

    /** A field by its dotted name ({@code ipv4.ttl}). */
    public FieldRef field(String dotted) {
        int dot = dotted.indexOf('.');
        if (dot < 0) {
            throw new IllegalArgumentException("field name " + dotted + " is not header.field");
        }
        HeaderInstance h = header(dotted.substring(0, dot));
        int f = h.type().indexOf(dotted.substring(dot + 1));
        if (f < 0) {
            throw new IllegalArgumentException("header " + h.name() + " has no field " + dotted.substring(dot + 1));
        }
        return new FieldRef(dotted, h.index(), f, h.wordOf(f), h.type().fields().get(f).bits());
    }

    /**
     * Whether the bytes of field {@code f} can steer a parse: the field is a select key or a
     * header's length field, or the graph selects on a lookahead (which may read any bytes, so
     * every field counts). A frame whose other bytes change parses to the same layout (the same
     * headers at the same offsets), as long as its length stays.
     */
    public boolean steers(FieldRef f) {
        for (int[] keys : keyWord) {
            for (int w : keys) {
                if (w < 0 || w == f.word()) {
                    return true;
                }
            }
        }
        for (int w : hdrLengthWord) {
            if (w >= 0 && w == f.word()) {
                return true;
            }
        }
        return false;
    }

    int valueSetIndex(String valueSet) {
        for (int i = 0; i < valueSets.size(); i++) {
            if (valueSets.get(i).name().equals(valueSet)) {
                return i;
            }
        }
        return -1;
    }

    /**
     * Whether no accepted parse extracts both headers (p4c's mutually exclusive headers, whose
     * fields may share PHV containers). Found by walking every path of the graph once per set
     * of headers extracted so far; a graph of more than 64 headers counts none as exclusive.
     */
    public boolean mutuallyExclusive(int h1, int h2) {
        boolean[][] t = together;
        if (t == null) {
            // computed whole before it is published: a graph is shared by the switches that run it
            t = new boolean[headers.size()][headers.size()];
            if (headers.size() > Long.SIZE) {
                for (boolean[] row : t) {
                    Arrays.fill(row, true);
                }
            } else {
                walk(0, 0L, new HashSet<>(), t);
            }
            together = t;
        }
        return h1 != h2 && !t[h1][h2];
    }

    private volatile boolean[][] together;

    private void walk(int state, long extracted, Set<List<Long>> seen, boolean[][] together) {
        if (!seen.add(List.of((long) state, extracted))) {
            return;
        }
        long mask = extracted;
        for (int op : ops[state]) {
            if (op >= 0) {
                if ((mask & (1L << op)) != 0) {
                    return; // extracted twice: a parser error, no accepted parse goes on
                }
                mask |= 1L << op;
            }
        }
        for (int t : next[state]) {
            if (t == ParseState.ACCEPT) {
                for (long a = mask; a != 0; a &= a - 1) {
                    int i = Long.numberOfTrailingZeros(a);
                    for (long b = mask; b != 0; b &= b - 1) {
                        together[i][Long.numberOfTrailingZeros(b)] = true;
                    }
                }
            } else if (t >= 0) {
                walk(t, mask, seen, together);
            }
        }
    }

    /** Index of a state by name, or -1. */
    public int stateIndex(String state) {
        for (int i = 0; i < states.size(); i++) {
            if (states.get(i).name().equals(state)) {
                return i;
            }
        }
        return -1;
    }

    public static Builder builder(String name) {
        return new Builder(name);
    }

    /** Declares headers, value sets and states by name; {@link #build} resolves the names. */
    public static final class Builder {
        private final String name;
        private final Map<String, HeaderInstance> headers = new LinkedHashMap<>();
        private final List<ParserValueSet> valueSets = new ArrayList<>();
        private final List<StateBuilder> states = new ArrayList<>();
        private int words;
        private boolean resubmittedRejected;

        private Builder(String name) {
            this.name = name;
        }

        public Builder header(String instance, HeaderType type) {
            HeaderInstance h = new HeaderInstance(instance, type, headers.size(), words);
            if (headers.putIfAbsent(instance, h) != null) {
                throw new IllegalArgumentException("parse graph " + name + ": header " + instance + " declared twice");
            }
            words += h.words();
            return this;
        }

        public Builder valueSet(String set, int bits, int size) {
            valueSets.add(new ParserValueSet(set, bits, size));
            return this;
        }

        /** The parser rejects every resubmitted packet ({@link ParseGraph#resubmittedRejected}). */
        public Builder rejectResubmitted() {
            resubmittedRejected = true;
            return this;
        }

        /** Starts a state; the first one declared is the start state. */
        public StateBuilder state(String state) {
            StateBuilder s = new StateBuilder(this, state);
            states.add(s);
            return s;
        }

        public ParseGraph build() {
            List<ParseState> built = new ArrayList<>();
            for (StateBuilder s : states) {
                built.add(s.build());
            }
            return new ParseGraph(name, List.copyOf(headers.values()), valueSets, built, resubmittedRejected);
        }
    }

    /** One state: operations, then {@link #transition} or {@link #select} with its branches. */
    public static final class StateBuilder {
        private final Builder graph;
        private final String name;
        private final List<ParseState.Op> ops = new ArrayList<>();
        private final List<SelectKey> keys = new ArrayList<>();
        private final List<ParseState.Branch> branches = new ArrayList<>();

        private StateBuilder(Builder graph, String name) {
            this.graph = graph;
            this.name = name;
        }

        public StateBuilder extract(String header) {
            ops.add(new ParseState.Extract(header));
            return this;
        }

        public StateBuilder advance(int bytes) {
            ops.add(new ParseState.Advance(bytes));
            return this;
        }

        /** A plain transition; ends the state. */
        public Builder transition(String next) {
            branches.add(new ParseState.Branch(List.of(), next));
            return graph;
        }

        /** Selects on key components: fields ({@code "ipv4.protocol"}) or {@link SelectKey#lookahead}. */
        public StateBuilder select(SelectKey... key) {
            keys.addAll(Arrays.asList(key));
            return this;
        }

        /** Selects on fields given by dotted name. */
        public StateBuilder select(String... fields) {
            for (String f : fields) {
                keys.add(SelectKey.field(f));
            }
            return this;
        }

        /** A branch with one key set per key component. */
        public StateBuilder when(String next, KeySet... sets) {
            branches.add(new ParseState.Branch(List.of(sets), next));
            return this;
        }

        /** A branch on a single key equal to {@code value}. */
        public StateBuilder when(long value, String next) {
            return when(next, KeySet.exact(value));
        }

        /** The default branch; ends the state. */
        public Builder otherwise(String next) {
            KeySet[] any = new KeySet[keys.size()];
            Arrays.fill(any, KeySet.ANY);
            branches.add(new ParseState.Branch(List.of(any), next));
            return graph;
        }

        /** Ends a select without a default (a key no branch matches is {@link ParserError#NO_MATCH}). */
        public Builder end() {
            return graph;
        }

        ParseState build() {
            return new ParseState(name, ops, keys, branches);
        }
    }
}
