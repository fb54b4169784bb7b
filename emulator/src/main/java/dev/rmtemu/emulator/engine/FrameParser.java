package dev.rmtemu.emulator.engine;

import dev.rmtemu.model.parse.Deparser;
import dev.rmtemu.model.parse.FieldRef;
import dev.rmtemu.model.parse.FieldSlice;
import dev.rmtemu.model.parse.HeaderInstance;
import dev.rmtemu.model.parse.HeaderType;
import dev.rmtemu.model.parse.PacketParser;
import dev.rmtemu.model.parse.ParseGraph;
import dev.rmtemu.model.parse.ParseResult;
import dev.rmtemu.model.parse.ParserError;
import dev.rmtemu.model.phv.Field;
import dev.rmtemu.model.program.ProgramBuilder;
import dev.rmtemu.model.program.StageProgram;

import java.util.ArrayList;
import java.util.List;

/**
 * The switch's programmable parser and deparser over a packet's frame bytes, for one
 * program: its parse graph runs over every arriving frame (in place, in the packet pool's
 * heap array) and the header fields the program declares by the graph's names
 * ({@code ethernet.dst_addr}, {@code ipv4.$valid}) are loaded into their PHV slots. The
 * parse is lean: only the fields the program reads, the selects and the header lengths are
 * extracted. On the rare departure where the program wrote such a field, the frame is
 * parsed again in full, the PHV's values go into that result and the program's deparser
 * writes the frame that leaves (checksums updated). Allocates nothing per packet.
 */
public final class FrameParser {
    private final PacketParser parser;
    private final ParseResult lean;
    private final ParseResult full;
    private final Deparser deparser;
    private final byte[] scratch;
    /**
     * Per declared value field: its PHV slot, and its wire fields from {@code first[i]} to
     * {@code first[i + 1]} (several for an overlay): each one's header, field, the word, shift
     * and mask of its bits.
     */
    private final int[] slots;
    private final int[] first;
    private final int[] headers;
    private final FieldRef[] refs;
    private final int[] wordIndex;
    private final int[] shifts;
    private final long[] altMasks;
    /** Per declared validity bit: PHV slot and header. */
    private final int[] validSlots;
    private final int[] validHeaders;

    public FrameParser(StageProgram program, int windowBytes) {
        ParseGraph g = program.parser().graph();
        this.parser = new PacketParser(g, windowBytes);
        this.lean = new ParseResult(g);
        this.full = new ParseResult(g);
        this.deparser = program.parser().deparser();
        List<Field> values = new ArrayList<>();
        List<Field> valids = new ArrayList<>();
        for (Field f : program.fields()) {
            if (f.wireField() == null) {
                continue;
            }
            (f.wireField().endsWith(ProgramBuilder.VALID_SUFFIX) ? valids : values).add(f);
        }
        int n = values.size();
        slots = new int[n];
        first = new int[n + 1];
        int alternatives = 0;
        for (Field f : values) {
            alternatives += f.wireFields().size();
        }
        headers = new int[alternatives];
        refs = new FieldRef[alternatives];
        wordIndex = new int[alternatives];
        shifts = new int[alternatives];
        altMasks = new long[alternatives];
        int a = 0;
        for (int i = 0; i < n; i++) {
            Field f = values.get(i);
            slots[i] = f.slot();
            first[i] = a;
            for (String w : f.wireFields()) {
                FieldSlice slice = FieldSlice.parse(g, w);
                FieldRef r = g.field(slice.field());
                parser.need(r);
                headers[a] = r.header();
                refs[a] = r;
                // a field wider than 64 bits: word 0 holds its bits from 64 up, word 1 the low 64
                boolean high = r.words() > 1 && slice.lo() >= Long.SIZE;
                wordIndex[a] = r.words() > 1 && !high ? 1 : 0;
                shifts[a] = high ? slice.lo() - Long.SIZE : slice.lo();
                altMasks[a] = (slice.bits() == Long.SIZE ? -1L : (1L << slice.bits()) - 1) & f.mask();
                a++;
            }
        }
        first[n] = a;
        validSlots = new int[valids.size()];
        validHeaders = new int[valids.size()];
        for (int i = 0; i < validSlots.length; i++) {
            Field f = valids.get(i);
            String h = f.wireField().substring(0, f.wireField().length() - ProgramBuilder.VALID_SUFFIX.length());
            validSlots[i] = f.slot();
            validHeaders[i] = g.header(h).index();
        }
        int most = windowBytes;
        for (HeaderInstance h : g.headers()) {
            HeaderType t = h.type();
            most += t.fixedBytes() + (t.varbit() == null ? 0 : t.varbit().maxBytes());
        }
        scratch = new byte[most];
    }

    /** True when the program declares a field of its parse graph (else nothing is ever deparsed). */
    public boolean loadsFields() {
        return slots.length + validSlots.length > 0;
    }

    /**
     * Parses the frame {@code buf[off .. off+caplen)} of {@code wireLen} bytes and loads the
     * program's header fields into {@code phv} (a field of a header the parse did not extract
     * is 0, its validity bit 0). False on a parser error: {@link #error()} says which.
     */
    public boolean parse(byte[] buf, int off, int caplen, int wireLen, long[] phv) {
        if (!parser.parseNeeded(buf, off, caplen, wireLen, lean)) {
            return false;
        }
        ParseResult r = lean;
        for (int i = 0; i < slots.length; i++) {
            long v = 0;
            for (int a = first[i], end = first[i + 1]; a < end; a++) {
                if (r.isValid(headers[a])) {
                    v = (r.word(refs[a], wordIndex[a]) >>> shifts[a]) & altMasks[a];
                    break;
                }
            }
            phv[slots[i]] = v;
        }
        for (int i = 0; i < validSlots.length; i++) {
            phv[validSlots[i]] = r.isValid(validHeaders[i]) ? 1 : 0;
        }
        return true;
    }

    /** The error of the last {@link #parse} that returned false. */
    public ParserError error() {
        return lean.error();
    }

    /**
     * The frame that leaves: parses {@code buf[off .. off+caplen)} again in full, applies the
     * PHV's validity bits then its field values, runs the deparser into a scratch buffer
     * ({@link #deparsed()}) and returns the new frame's length (its captured part: headers
     * emitted and the payload the capture kept). The wire length changes by the same amount.
     * Returns -1 when the frame no longer parses (the control plane changed a parser value set
     * while the packet was inside): the frame then leaves as it came.
     */
    public int deparse(byte[] buf, int off, int caplen, int wireLen, long[] phv) {
        if (!parser.parse(buf, off, caplen, wireLen, full)) {
            return -1;
        }
        for (int i = 0; i < validSlots.length; i++) {
            full.setValid(validHeaders[i], phv[validSlots[i]] != 0);
        }
        for (int i = 0; i < slots.length; i++) {
            for (int a = first[i], end = first[i + 1]; a < end; a++) {
                if (full.isValid(headers[a])) {
                    long m = altMasks[a] << shifts[a];
                    long w = full.word(refs[a], wordIndex[a]);
                    full.setWord(refs[a], wordIndex[a], (w & ~m) | ((phv[slots[i]] << shifts[a]) & m));
                    break;
                }
            }
        }
        return deparser.deparse(full, buf, off, caplen, scratch, 0);
    }

    /** The buffer {@link #deparse} wrote the frame into, from offset 0. */
    public byte[] deparsed() {
        return scratch;
    }
}
