package dev.rmtemu.model.parse;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The deparser: first the checksum updates, then the valid headers in emit order
 * (fields as the stages left them, each variable-length tail copied from the
 * frame the parser read), then the payload: the frame's bytes from the parse's
 * payload offset on. setValid/setInvalid thus change the length of what leaves.
 * Allocates nothing per packet.
 */
public final class Deparser {
    private final ParseGraph g;
    private final List<String> emitOrder;
    private final List<ChecksumUpdate> updates;
    private final int[] emit;
    /** Per header, its index in {@link #emit}, -1 when it is not emitted. */
    private final int[] emitPosition;
    private final int[] csumHeader;
    private final FieldRef[][] csumFields;
    private final boolean[] csumVarbit;
    private final FieldRef[] csumDest;
    private final Checksum16 checksum = new Checksum16();
    /**
     * The copying deparse ({@link #emitCopying}, {@link #updateChecksums}) applies: no header is
     * emitted twice and every checksum's fields and destination are whole bytes of its own
     * header, so a checksum can be summed over the emitted bytes.
     */
    private final boolean copies;
    /** Per checksum update: each run of adjacent fields' first byte and byte count in its header, in list order; the destination's first bit. */
    private final int[][] csumFieldByte;
    private final int[][] csumFieldBytes;
    private final int[] csumDestBit;
    /** Per checksum update, the unfolded sum of the metadata words given for the packet being deparsed ({@link #addMetadata}). */
    private final long[] csumMetadata;

    /** Emits {@code emitOrder} (header names) with the given checksum updates. */
    public Deparser(ParseGraph graph, List<String> emitOrder, List<ChecksumUpdate> updates) {
        this.g = graph;
        this.emitOrder = List.copyOf(emitOrder);
        this.updates = List.copyOf(updates);
        emit = new int[emitOrder.size()];
        emitPosition = new int[graph.headers().size()];
        Arrays.fill(emitPosition, -1);
        for (int i = 0; i < emit.length; i++) {
            emit[i] = graph.header(emitOrder.get(i)).index();
            emitPosition[emit[i]] = i;
        }
        int n = updates.size();
        csumMetadata = new long[n];
        csumHeader = new int[n];
        csumFields = new FieldRef[n][];
        csumVarbit = new boolean[n];
        csumDest = new FieldRef[n];
        for (int i = 0; i < n; i++) {
            ChecksumUpdate u = updates.get(i);
            csumHeader[i] = graph.header(u.header()).index();
            List<FieldRef> refs = new ArrayList<>();
            int bits = 0;
            for (String f : u.fields()) {
                FieldRef r = graph.field(f);
                refs.add(r);
                bits += r.bits();
            }
            if (bits % 16 != 0) {
                throw new IllegalArgumentException("checksum into " + u.destination() + ": " + bits
                        + " bits of fields is not a whole number of 16-bit words");
            }
            csumFields[i] = refs.toArray(new FieldRef[0]);
            csumVarbit[i] = u.withVarbit();
            csumDest[i] = graph.field(u.destination());
            if (csumDest[i].bits() != 16) {
                throw new IllegalArgumentException("checksum destination " + u.destination() + " is not 16 bits");
            }
        }
        boolean ok = Arrays.stream(emit).distinct().count() == emit.length;
        csumFieldByte = new int[n][];
        csumFieldBytes = new int[n][];
        csumDestBit = new int[n];
        for (int i = 0; i < n && ok; i++) {
            // the fields as runs of adjacent fields (IPv4's version and ihl are one byte), each whole bytes
            List<int[]> runs = new ArrayList<>();
            int runStart = -1;
            int runEnd = -1;
            for (FieldRef f : csumFields[i]) {
                int bit = fieldBit(f);
                ok &= f.header() == csumHeader[i];
                if (bit != runEnd) {
                    if (runStart >= 0) {
                        runs.add(new int[] {runStart, runEnd});
                    }
                    runStart = bit;
                }
                runEnd = bit + f.bits();
            }
            if (runStart >= 0) {
                runs.add(new int[] {runStart, runEnd});
            }
            csumFieldByte[i] = new int[runs.size()];
            csumFieldBytes[i] = new int[runs.size()];
            for (int k = 0; k < runs.size(); k++) {
                int[] run = runs.get(k);
                ok &= run[0] % Byte.SIZE == 0 && run[1] % Byte.SIZE == 0;
                csumFieldByte[i][k] = run[0] / Byte.SIZE;
                csumFieldBytes[i][k] = (run[1] - run[0]) / Byte.SIZE;
            }
            ok &= csumDest[i].header() == csumHeader[i];
            csumDestBit[i] = fieldBit(csumDest[i]);
        }
        copies = ok;
    }

    /** The bit where field {@code f} starts in its header. */
    private int fieldBit(FieldRef f) {
        return fieldBit(g, f);
    }

    /** The bit where field {@code f} of graph {@code graph} starts in its header. */
    public static int fieldBit(ParseGraph graph, FieldRef f) {
        int bit = 0;
        int[] widths = graph.hdrFieldBits[f.header()];
        for (int i = 0; i < f.field(); i++) {
            bit += widths[i];
        }
        return bit;
    }

    /** Emits every header of the graph in declaration order, without checksum updates. */
    public static Deparser inDeclarationOrder(ParseGraph graph, List<ChecksumUpdate> updates) {
        List<String> order = new ArrayList<>();
        for (HeaderInstance h : graph.headers()) {
            order.add(h.name());
        }
        return new Deparser(graph, order, updates);
    }

    public List<String> emitOrder() {
        return emitOrder;
    }

    public List<ChecksumUpdate> checksumUpdates() {
        return updates;
    }

    /** Bytes {@link #deparse} writes for this result and a frame of {@code caplen} bytes. */
    public int length(ParseResult r, int caplen) {
        int len = Math.max(0, caplen - r.payloadOffset());
        for (int h : emit) {
            if (r.valid[h]) {
                len += g.hdrFixedBytes[h] + r.varbitLength[h];
            }
        }
        return len;
    }

    /**
     * Writes the frame that leaves into {@code out} at {@code outOff} and returns
     * its length. {@code in[inOff .. inOff+caplen)} is the frame the parser read
     * (for the tails and the payload).
     */
    public int deparse(ParseResult r, byte[] in, int inOff, int caplen, byte[] out, int outOff) {
        if (r.graph() != g) {
            throw new IllegalArgumentException("a parse result of graph " + r.graph().name() + ", not " + g.name());
        }
        int len = length(r, caplen);
        if (outOff < 0 || outOff + len > out.length) {
            throw new IllegalArgumentException("output buffer of " + out.length + " bytes cannot take " + len + " at " + outOff);
        }
        for (int i = 0; i < csumHeader.length; i++) {
            int h = csumHeader[i];
            long metadata = csumMetadata[i];
            csumMetadata[i] = 0;
            if (!r.valid[h]) {
                continue;
            }
            checksum.clear();
            // whole words at word boundaries of the list: summed first, the other words keep their boundaries
            checksum.add(ParserChecksums.fold(metadata), 16);
            for (FieldRef f : csumFields[i]) {
                addField(r, f);
            }
            if (csumVarbit[i]) {
                checksum.addBytes(in, r.varbitOffset[h], r.varbitLength[h]);
            }
            r.set(csumDest[i], checksum.get());
        }
        int pos = outOff;
        for (int h : emit) {
            if (!r.valid[h]) {
                continue;
            }
            long bit = (long) pos * Byte.SIZE;
            int w = g.hdrFirstWord[h];
            for (int bits : g.hdrFieldBits[h]) {
                if (bits > Long.SIZE) {
                    int top = bits - Long.SIZE;
                    Bits.write(out, bit, top, r.words[w++]);
                    Bits.write(out, bit + top, Long.SIZE, r.words[w++]);
                } else {
                    Bits.write(out, bit, bits, r.words[w++]);
                }
                bit += bits;
            }
            pos += g.hdrFixedBytes[h];
            int tail = r.varbitLength[h];
            if (tail > 0) {
                System.arraycopy(in, r.varbitOffset[h], out, pos, tail);
                pos += tail;
            }
        }
        int payload = caplen - r.payloadOffset();
        if (payload > 0) {
            System.arraycopy(in, inOff + r.payloadOffset(), out, pos, payload);
            pos += payload;
        }
        return pos - outOff;
    }

    /**
     * Whether {@link #emitCopying} and {@link #updateChecksums} give the bytes {@link #deparse}
     * gives (false: a header emitted twice, or a checksum over another header's fields or over
     * fields that are not whole bytes).
     */
    public boolean copies() {
        return copies;
    }

    /**
     * The first half of a deparse that copies instead of re-serialising: {@code r} is a parse of
     * {@code in[inOff .. inOff+caplen)} (a lean one will do: only validity, offsets, tails and the
     * payload offset are used), {@code valid} each header's validity as the stages left it.
     * Writes the valid headers in emit order into {@code out} at {@code outOff} (an extracted
     * header's bytes and tail as the frame has them, one made valid as zeros), then the payload;
     * sets {@code at[h]} to where header {@code h} starts in {@code out} (-1: not emitted) and
     * returns the length. The caller then writes the stages' field values into {@code out}
     * ({@link #mergeBits}) and calls {@link #updateChecksums}: the bytes are then those of
     * {@link #deparse} over a full parse with the same validity and values ({@link #copies}).
     */
    public int emitCopying(ParseResult r, boolean[] valid, byte[] in, int inOff, int caplen, byte[] out, int outOff, int[] at) {
        if (r.graph() != g || !copies) {
            throw new IllegalArgumentException("a parse result of graph " + r.graph().name() + ", not " + g.name()
                    + ", or a deparser that cannot copy");
        }
        int len = Math.max(0, caplen - r.payloadOffset());
        for (int h : emit) {
            if (valid[h]) {
                len += g.hdrFixedBytes[h] + (r.valid[h] ? r.varbitLength[h] : 0);
            }
        }
        if (outOff < 0 || outOff + len > out.length) {
            throw new IllegalArgumentException("output buffer of " + out.length + " bytes cannot take " + len + " at " + outOff);
        }
        Arrays.fill(at, -1);
        int pos = outOff;
        // bytes that follow each other in the frame and in the output (headers kept in their
        // order, their tails, the payload) are copied as one run: one arraycopy, not one a piece
        int runFrom = 0;
        int runTo = pos;
        for (int h : emit) {
            if (!valid[h]) {
                continue;
            }
            at[h] = pos;
            int fixed = g.hdrFixedBytes[h];
            if (r.valid[h]) {
                int from = inOff + r.offset[h];
                if (from != runFrom + (pos - runTo)) {
                    System.arraycopy(in, runFrom, out, runTo, pos - runTo);
                    runFrom = from;
                    runTo = pos;
                }
                pos += fixed;
                int tail = r.varbitLength[h];
                if (tail > 0) {
                    if (r.varbitOffset[h] != runFrom + (pos - runTo)) {
                        System.arraycopy(in, runFrom, out, runTo, pos - runTo);
                        runFrom = r.varbitOffset[h];
                        runTo = pos;
                    }
                    pos += tail;
                }
            } else {
                System.arraycopy(in, runFrom, out, runTo, pos - runTo);
                for (int end = pos + fixed; pos < end; pos++) {
                    out[pos] = 0; // setValid: every field zero, no tail (a few bytes: a loop, not Arrays.fill's call)
                }
                runTo = pos;
            }
        }
        int payload = caplen - r.payloadOffset();
        if (payload > 0) {
            int from = inOff + r.payloadOffset();
            if (from != runFrom + (pos - runTo)) {
                System.arraycopy(in, runFrom, out, runTo, pos - runTo);
                runFrom = from;
                runTo = pos;
            }
            pos += payload;
        }
        System.arraycopy(in, runFrom, out, runTo, pos - runTo);
        return pos - outOff;
    }

    /**
     * {@link #emitCopying} done in the frame's own buffer, where it can be: the output's headers
     * are those the parse extracted ({@code r}, none made invalid) and the headers
     * {@code inserted[0 .. inserted)} made valid (not extracted; in emit order), the extracted
     * headers, in the order the parse extracted them, are in emit order and lie back to back from
     * the frame's first byte up to the payload (so the copying deparse would copy them as one
     * run), and the frame with the inserted headers fits {@code capacity} bytes from {@code off}.
     * The bytes after each inserted header then move up by the bytes inserted before them (from
     * the last insertion point down, so nothing is overwritten before it moved) and the inserted
     * headers are zeroed: {@code buf} then holds from {@code off} exactly what
     * {@link #emitCopying} writes into its output for that validity, and {@code at[h]} is where
     * each emitted header {@code h} starts in {@code buf} (other entries are left as they were).
     * A frame that gains no header is not moved at all. Only the extracted and the inserted
     * headers are visited, not the whole emit order. Returns the length, or -1 (nothing written)
     * where the conditions do not hold.
     */
    public int emitInPlace(ParseResult r, int[] inserted, int nInserted, byte[] buf, int off, int caplen, int capacity,
                           int[] at) {
        if (r.graph() != g || !copies) {
            throw new IllegalArgumentException("a parse result of graph " + r.graph().name() + ", not " + g.name()
                    + ", or a deparser that cannot copy");
        }
        int payloadAt = r.payloadOffset();
        if (payloadAt > caplen) {
            return -1;
        }
        int[] order = r.order;
        int n = r.extracted;
        int pos = 0;
        int lastEmit = -1;
        for (int k = 0; k < n; k++) {
            int h = order[k];
            int e = emitPosition[h];
            if (e <= lastEmit || !r.valid[h] || r.offset[h] != pos) {
                return -1; // not emitted, emitted out of the frame's order, or not back to back
            }
            lastEmit = e;
            pos += g.hdrFixedBytes[h] + r.varbitLength[h];
        }
        int grows = 0;
        for (int j = 0; j < nInserted; j++) {
            int h = inserted[j];
            if (emitPosition[h] < 0 || r.valid[h] || (j > 0 && emitPosition[h] <= emitPosition[inserted[j - 1]])) {
                return -1;
            }
            grows += g.hdrFixedBytes[h];
        }
        if (pos != payloadAt || caplen + grows > capacity) {
            return -1;
        }
        // last header first: [start, end) of the frame still has to move up by shift
        int shift = grows;
        int start = payloadAt;
        int end = caplen;
        int k = n - 1;
        for (int j = nInserted - 1; j >= 0; j--) {
            int ins = inserted[j];
            int e = emitPosition[ins];
            for (; k >= 0 && emitPosition[order[k]] > e; k--) {
                int h = order[k];
                start = r.offset[h];
                at[h] = off + start + shift;
            }
            if (end > start) {
                System.arraycopy(buf, off + start, buf, off + start + shift, end - start);
            }
            int fixed = g.hdrFixedBytes[ins];
            shift -= fixed;
            int from = off + start + shift;
            for (int b = from, stop = from + fixed; b < stop; b++) {
                buf[b] = 0; // setValid: every field zero, no tail
            }
            at[ins] = from;
            end = start;
        }
        for (; k >= 0; k--) {
            int h = order[k];
            at[h] = off + r.offset[h]; // before every insertion: not moved
        }
        return caplen + grows;
    }

    /** Where header {@code h} is in the emit order, -1 when it is not emitted. */
    public int emitPosition(int h) {
        return emitPosition[h];
    }

    /**
     * The second half: each checksum of a valid, emitted header summed over its fields' bytes
     * (and its tail) as {@code out} holds them, written into its destination, in list order.
     */
    public void updateChecksums(ParseResult r, boolean[] valid, byte[] out, int[] at) {
        for (int i = 0; i < csumHeader.length; i++) {
            int h = csumHeader[i];
            int base = at[h];
            long metadata = csumMetadata[i];
            csumMetadata[i] = 0;
            if (!valid[h] || base < 0) {
                continue;
            }
            long sum = metadata;
            int n = 0; // bytes summed so far: an even one is a word's high byte
            int[] first = csumFieldByte[i];
            int[] bytes = csumFieldBytes[i];
            for (int k = 0; k < first.length; k++) {
                sum += sumBytes(out, base + first[k], bytes[k], n);
                n += bytes[k];
            }
            if (csumVarbit[i] && r.valid[h]) {
                sum += sumBytes(out, base + g.hdrFixedBytes[h], r.varbitLength[h], n);
            }
            while ((sum >>> 16) != 0) {
                sum = (sum & 0xFFFF) + (sum >>> 16);
            }
            Bits.write(out, (long) base * Byte.SIZE + csumDestBit[i], 16, ~sum & 0xFFFF);
        }
    }

    /**
     * The ones'-complement addends of {@code len} bytes from {@code b}, the first being byte
     * {@code n} of the checksummed data (an even one is a 16-bit word's high byte), unfolded
     * (the caller folds the carries once). Four bytes at a time as one 32-bit word: it is
     * {@code hi · 2^16 + lo}, and as 2^16 ≡ 1 modulo 2^16 − 1 the fold gives what the two 16-bit
     * words give (RFC 1071, section 2(B): the sum may be computed in wider words); the sum is 0
     * exactly when every byte is, as with 16-bit words, so the folded result is the same to the bit.
     */
    private static long sumBytes(byte[] out, int b, int len, int n) {
        long sum = 0;
        int end = b + len;
        if ((n & 1) != 0 && b < end) {
            sum += out[b++] & 0xFF; // the low byte of a word begun before
        }
        for (; b + 3 < end; b += 4) {
            sum += Bits.bigEndianUnsignedInt(out, b);
        }
        for (; b + 1 < end; b += 2) {
            sum += ((out[b] & 0xFF) << Byte.SIZE) | (out[b + 1] & 0xFF);
        }
        if (b < end) {
            sum += (out[b] & 0xFF) << Byte.SIZE; // a word's high byte, its low byte in what follows
        }
        return sum;
    }

    /**
     * Gives checksum update {@code update}'s metadata field of {@code bits} bits (a multiple of 16)
     * its value for the packet deparsed next ({@link ChecksumUpdate#metadata}, in order); the next
     * {@link #deparse} or {@link #updateChecksums} sums it and forgets it.
     */
    public void addMetadata(int update, long value, int bits) {
        long s = 0;
        for (int left = bits; left > 0; left -= 16) {
            s += (value >>> (left - 16)) & 0xFFFF;
        }
        csumMetadata[update] += s;
    }

    /** Writes the bits of {@code value} under {@code mask} into the {@code bits}-bit field at bit {@code bit} of {@code buf}, keeping its other bits. */
    public static void mergeBits(byte[] buf, long bit, int bits, long mask, long value) {
        long w = Bits.read(buf, bit, bits);
        // bits that already hold the value need no store: the bytes are the same either way
        if (((w ^ value) & mask) != 0) {
            Bits.write(buf, bit, bits, (w & ~mask) | (value & mask));
        }
    }

    /**
     * Stores the low {@code bytes} bytes of {@code value} big-endian at {@code at}: what
     * {@link #mergeBits} does for a byte-aligned field of whole bytes under a full mask, without
     * reading the bytes first (a load over bytes just copied would wait for those stores).
     */
    public static void putBytes(byte[] buf, int at, int bytes, long value) {
        switch (bytes) {
            case 1 -> buf[at] = (byte) value;
            case 2 -> BIG_ENDIAN_SHORT.set(buf, at, (short) value);
            case 4 -> BIG_ENDIAN_INT.set(buf, at, (int) value);
            default -> {
                long w = value;
                for (int i = at + bytes - 1; i >= at; i--) {
                    buf[i] = (byte) w;
                    w >>>= Byte.SIZE;
                }
            }
        }
    }

    /** Two and four bytes of a byte array as one big-endian store (the array's bounds check applies). */
    private static final VarHandle BIG_ENDIAN_SHORT = MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.BIG_ENDIAN);
    private static final VarHandle BIG_ENDIAN_INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);

    private void addField(ParseResult r, FieldRef f) {
        if (f.bits() > Long.SIZE) {
            checksum.add(r.word(f, 0), f.bits() - Long.SIZE);
            checksum.add(r.word(f, 1), Long.SIZE);
        } else {
            checksum.add(r.get(f), f.bits());
        }
    }
}
