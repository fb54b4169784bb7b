package dev.rmtemu.model.parse;

import java.util.Arrays;

/**
 * What a parse leaves for the match-action stages and the deparser, in flat
 * arrays allocated once per graph and reused for every packet: each field's
 * value (a field wider than 64 bits takes two words, the high word first), each
 * header's validity bit, where it starts in the frame and where its
 * variable-length tail lies, the order headers were extracted in, the offset
 * where the payload starts, and the parser error (if any).
 */
public final class ParseResult {
    private final ParseGraph graph;
    final long[] words;
    final boolean[] valid;
    final int[] offset;
    final int[] varbitOffset;
    final int[] varbitLength;
    final int[] order;
    int extracted;
    int payloadOffset;
    ParserError error;
    int errorState;
    /** True once {@link #setValid} made valid a header the parse did not extract: the next reset clears every bit. */
    private boolean validBeyondOrder;

    public ParseResult(ParseGraph graph) {
        this.graph = graph;
        int h = graph.headers().size();
        words = new long[graph.words()];
        valid = new boolean[h];
        offset = new int[h];
        varbitOffset = new int[h];
        varbitLength = new int[h];
        order = new int[h];
    }

    public ParseGraph graph() {
        return graph;
    }

    void reset() {
        // only the headers the last parse extracted are valid (unless setValid added one)
        if (validBeyondOrder) {
            Arrays.fill(valid, false);
            validBeyondOrder = false;
        } else {
            for (int i = 0; i < extracted; i++) {
                valid[order[i]] = false;
            }
        }
        extracted = 0;
        payloadOffset = 0;
        error = null;
        errorState = -1;
    }

    /** Whether the parse reached {@code accept}. */
    public boolean accepted() {
        return error == null;
    }

    /** The parser error, or null after an accepted parse. */
    public ParserError error() {
        return error;
    }

    /** Index of the state where the error occurred (-1 when accepted). */
    public int errorState() {
        return errorState;
    }

    /** Byte offset of the payload: the first byte after the last extracted or skipped header. */
    public int payloadOffset() {
        return payloadOffset;
    }

    public boolean isValid(int header) {
        return valid[header];
    }

    /**
     * setValid/setInvalid. A header made valid that was not starts with every field
     * zero and no variable-length tail, as in P4.
     */
    public void setValid(int header, boolean v) {
        if (v && !valid[header]) {
            int first = graph.hdrFirstWord[header];
            Arrays.fill(words, first, first + graph.hdrWords[header], 0L);
            varbitLength[header] = 0;
            validBeyondOrder = true;
        }
        valid[header] = v;
    }

    /** Byte offset where an extracted header started in the frame. */
    public int headerOffset(int header) {
        return offset[header];
    }

    /** Bytes of the header's variable-length tail (0 for none). */
    public int varbitLength(int header) {
        return varbitLength[header];
    }

    /** Where the tail's bytes lie in the frame the parser read. */
    public int varbitOffset(int header) {
        return varbitOffset[header];
    }

    /** Headers extracted, in the order the parser met them. */
    public int extractedCount() {
        return extracted;
    }

    /** Header index of the {@code i}th extracted header. */
    public int extractedHeader(int i) {
        return order[i];
    }

    /** Ints {@link #saveLayout} writes at most for this graph. */
    public int layoutInts() {
        return 2 + 3 * valid.length;
    }

    /**
     * Writes where this accepted parse found each header into {@code store} from {@code at}
     * (at most {@link #layoutInts()} ints): the payload offset, the headers extracted and, in
     * their order, each one's index, offset and tail length. Field values are not kept.
     */
    public void saveLayout(int[] store, int at) {
        store[at++] = payloadOffset;
        store[at++] = extracted;
        for (int i = 0; i < extracted; i++) {
            int h = order[i];
            store[at++] = h;
            store[at++] = offset[h];
            store[at++] = varbitLength[h];
        }
    }

    /**
     * Makes this result the accepted parse whose layout {@link #saveLayout} kept, of a frame
     * starting at {@code frameOff}: validity, offsets, tails, order and payload offset as that
     * parse left them. The field words are not restored (they hold whatever they held).
     */
    public void loadLayout(int[] store, int at, int frameOff) {
        reset();
        payloadOffset = store[at++];
        int n = store[at++];
        for (int i = 0; i < n; i++) {
            int h = store[at++];
            offset[h] = store[at++];
            varbitLength[h] = store[at++];
            varbitOffset[h] = frameOff + offset[h] + graph.hdrFixedBytes[h];
            valid[h] = true;
            order[extracted++] = h;
        }
    }

    /** A field of at most 64 bits (the low word of a wider field). */
    public long get(FieldRef f) {
        return words[f.word() + f.words() - 1];
    }

    /** Word {@code i} of a field (0 is the most significant). */
    public long word(FieldRef f, int i) {
        return words[f.word() + i];
    }

    /** Result word {@code w} (a field's first word is {@link FieldRef#word()}): for readers that resolved their fields once. */
    public long wordAt(int w) {
        return words[w];
    }

    /** Writes a field of at most 64 bits, keeping only its width's bits. */
    public void set(FieldRef f, long value) {
        int w = f.words();
        words[f.word() + w - 1] = w > 1 || f.bits() == Long.SIZE ? value : value & ((1L << f.bits()) - 1);
    }

    /** Writes word {@code i} of a field (0 is the most significant). */
    public void setWord(FieldRef f, int i, long value) {
        int top = f.bits() - Long.SIZE * (f.words() - 1);
        words[f.word() + i] = i == 0 && top < Long.SIZE ? value & ((1L << top) - 1) : value;
    }
}
