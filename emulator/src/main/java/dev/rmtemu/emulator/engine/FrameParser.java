package dev.rmtemu.emulator.engine;

import dev.rmtemu.model.parse.Checksum16;
import dev.rmtemu.model.parse.Deparser;
import dev.rmtemu.model.parse.FieldRef;
import dev.rmtemu.model.parse.FieldSlice;
import dev.rmtemu.model.parse.HeaderInstance;
import dev.rmtemu.model.parse.HeaderType;
import dev.rmtemu.model.parse.PacketParser;
import dev.rmtemu.model.parse.ParseGraph;
import dev.rmtemu.model.parse.ParseResult;
import dev.rmtemu.model.parse.ChecksumUpdate;
import dev.rmtemu.model.parse.ParserChecksums;
import dev.rmtemu.model.parse.ParserError;
import dev.rmtemu.model.parse.StandardHeaders;
import dev.rmtemu.model.phv.Field;
import dev.rmtemu.model.program.ProgramBuilder;
import dev.rmtemu.model.program.StageProgram;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The switch's programmable parser and deparser over a packet's frame bytes, for one
 * program: its parse graph runs over every arriving frame (in place, in the packet pool's
 * heap array) and the header fields the program declares by the graph's names
 * ({@code ethernet.dst_addr}, {@code ipv4.$valid}) are loaded into their PHV slots. The
 * parse is lean: only the fields the program reads, the selects and the header lengths are
 * extracted. On a departure where the program wrote such a field, the frame is parsed again
 * as leanly, the program's deparser copies the headers that stay, the PHV's values are written
 * over them and the checksums are summed over the result. Allocates nothing per packet.
 */
public final class FrameParser {
    private final PacketParser parser;
    private final ParseResult lean;
    /** The deparser, parse and output buffer of the deparse path: made on a first write (an idle or read-only switch has none). */
    private Deparser deparser;
    private ParseResult full;
    private byte[] scratch;
    /** The copying deparse's validity as the stages left it, and where each header went in {@link #scratch}. */
    private boolean[] validOut;
    private int[] emittedAt;
    /** Per wire field: the first bit and the width, in its header, of the bits its word holds (a wide field's high or low part); made with the deparser. */
    private int[] partBit;
    private int[] partBits;
    /**
     * Per wire field: its part's length in bytes when the part starts and ends on a byte boundary
     * and the field's mask covers all of it (so a merge replaces whole bytes: they are stored,
     * never read first), else 0.
     */
    private int[] partWholeBytes;
    /** The declared validity bits' indices ({@link #validSlots}) in the emit order of their headers; made with the deparser. */
    private int[] validByEmit;
    /** The headers an in-place deparse inserts, in emit order (room for every validity bit). */
    private int[] inserted;
    /** Whether no two validity bits are of the same header (else the last one decides: the copying deparse does that). */
    private boolean validitiesDistinct;
    /** Whether the last deparse wrote the frame in its own buffer ({@link #deparseInPlace}). */
    private boolean inPlace;
    /** Headers the last in-place emit inserted. */
    private int insertedCount;
    /** Per wire field: whether its bytes can steer a parse ({@link ParseGraph#steers}); made with the deparser. */
    private boolean[] steering;
    /** Whether a deparser checksum's destination can steer a parse (then no deparse keeps the layout). */
    private boolean checksumSteers;
    /** Whether the last deparse left the frame's layout as its parse found it ({@link #layoutUnchanged}). */
    private boolean layoutUnchanged;
    private final StageProgram program;
    private final int windowBytes;
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
    /** The result word each wire field's bits are in ({@code refs[a].word() + wordIndex[a]}): one load per field on the hot path. */
    private final int[] resultWord;
    private final int[] shifts;
    private final long[] altMasks;
    /** The graph's ipv4 and ipv6 headers (-1 when it has none), for a router's TTL decrement. */
    private final int ipv4;
    private final int ipv6;
    private final Checksum16 checksum = new Checksum16();
    /** The parser's Checksum externs (TNA's add/subtract/verify/get), or null when it has none. */
    private final ParserChecksums parserChecksums;
    /** Per deparser checksum update, the PHV slots and widths of its metadata words (a parser's residual); made with the deparser. */
    private int[][] csumMetadataSlots;
    private int[][] csumMetadataBits;
    /** Byte offsets in the IPv4 header of the TTL and of the header checksum; in IPv6 of the hop limit. */
    private static final int IPV4_TTL = 8;
    private static final int IPV4_CHECKSUM = 10;
    private static final int IPV6_HOP_LIMIT = 7;

    /** The copy of an accepted parse's fields into the PHV ({@link #loadPlan()} as straight-line code). */
    private final PhvLoadCode phvLoad;
    /** Per declared validity bit: PHV slot and header. */
    private final int[] validSlots;
    private final int[] validHeaders;
    /**
     * Where the frame {@link #lean} holds the accepted parse of lies ({@code leanBuf} at
     * {@code leanOff}; null after a refused parse): the ingress deparse of that frame reuses it.
     */
    private byte[] leanBuf;
    private int leanOff = -1;
    /**
     * Whether no two declared fields write the same bits of a header (made with the deparser):
     * only then may the deparse skip a field whose value is the one the frame already holds.
     */
    private boolean mergesIndependent;
    /** Per pool slot, the layout {@link #keepLayout} kept of its frame's parse ({@link ParseResult#saveLayout}); grown on demand. */
    private int[] layouts = new int[0];
    /** Ints per slot in {@link #layouts}: the value-set epoch the parse ran in, then its layout. */
    private final int layoutInts;
    /**
     * Counts the control plane's changes to the graph's value sets: a layout kept before one is
     * not used (the frame might no longer parse, and then it leaves as it came).
     */
    private int valueSetEpoch;

    public FrameParser(StageProgram program, int windowBytes) {
        ParseGraph g = program.parser().graph();
        this.parser = new PacketParser(g, windowBytes);
        this.lean = new ParseResult(g);
        this.program = program;
        this.windowBytes = windowBytes;
        this.layoutInts = 1 + lean.layoutInts();
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
        resultWord = new int[alternatives];
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
                resultWord[a] = r.word() + wordIndex[a];
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
        phvLoad = PhvLoadCode.of(loadPlan());
        ipv4 = headerIndex(g, "ipv4", StandardHeaders.IPV4);
        ipv6 = headerIndex(g, "ipv6", StandardHeaders.IPV6);
        if (program.parser().parserChecksums().isEmpty()) {
            parserChecksums = null;
        } else {
            parserChecksums = new ParserChecksums(g, program.parser().parserChecksums(), n2 -> field(n2).slot(),
                    n2 -> field(n2).width());
            for (FieldRef r : parserChecksums.fieldsRead()) {
                parser.need(r);
            }
        }
    }

    /** What {@link #parse} loads into the PHV from an accepted parse, for {@link PhvLoadCode}. */
    PhvLoadCode.Plan loadPlan() {
        return new PhvLoadCode.Plan(slots, first, headers, resultWord, shifts, altMasks, validSlots, validHeaders);
    }

    /** A field of the program by name (a parser checksum's target, a deparser checksum's metadata word). */
    private Field field(String name) {
        for (Field f : program.fields()) {
            if (f.name().equals(name)) {
                return f;
            }
        }
        throw new IllegalArgumentException("program " + program.name() + " has no field " + name + " for a checksum");
    }

    private static int headerIndex(ParseGraph g, String name, HeaderType type) {
        for (HeaderInstance h : g.headers()) {
            if (h.name().equals(name) && h.type().equals(type)) {
                return h.index();
            }
        }
        return -1;
    }

    /**
     * The frame's IPv4 TTL or IPv6 hop limit, or -1 when it has neither header (or no longer
     * parses): what a router's TTL check reads.
     */
    public int ttl(byte[] buf, int off, int caplen, int wireLen) {
        int at = ttlAt(buf, off, caplen, wireLen);
        return at < 0 ? -1 : buf[at] & 0xFF;
    }

    /** Where the TTL or hop limit byte is, or -1. */
    private int ttlAt(byte[] buf, int off, int caplen, int wireLen) {
        if (ipv4 < 0 && ipv6 < 0 || !parseLean(buf, off, caplen, wireLen)) {
            return -1;
        }
        if (ipv4 >= 0 && lean.isValid(ipv4)) {
            return off + lean.headerOffset(ipv4) + IPV4_TTL;
        }
        if (ipv6 >= 0 && lean.isValid(ipv6)) {
            return off + lean.headerOffset(ipv6) + IPV6_HOP_LIMIT;
        }
        return -1;
    }

    /**
     * A router's deparser: the frame's IPv4 TTL decremented with its header checksum updated
     * incrementally (RFC 1624, as TNA's Checksum extern subtracts the old word and adds the new),
     * or its IPv6 hop limit decremented. A TTL of 0 (a packet that carries none) is left alone.
     * False when nothing was decremented.
     */
    public boolean decrementTtl(byte[] buf, int off, int caplen, int wireLen) {
        int at = ttlAt(buf, off, caplen, wireLen);
        if (at < 0 || buf[at] == 0) {
            return false;
        }
        if (ipv4 >= 0 && lean.isValid(ipv4)) {
            int old = ((buf[at] & 0xFF) << 8) | (buf[at + 1] & 0xFF); // TTL and protocol: one 16-bit word
            int now = (old - 0x100) & 0xFFFF;
            int sumAt = at - IPV4_TTL + IPV4_CHECKSUM;
            int sum = ((buf[sumAt] & 0xFF) << 8) | (buf[sumAt + 1] & 0xFF);
            int updated = checksum.resume(sum).subtract(old, 16).add(now, 16).get();
            buf[sumAt] = (byte) (updated >>> 8);
            buf[sumAt + 1] = (byte) updated;
        }
        buf[at] = (byte) ((buf[at] & 0xFF) - 1);
        return true;
    }

    /** True when the program declares a field of its parse graph (else nothing is ever deparsed). */
    public boolean loadsFields() {
        return slots.length + validSlots.length > 0 || parserChecksums != null;
    }

    /**
     * Parses the frame {@code buf[off .. off+caplen)} of {@code wireLen} bytes and loads the
     * program's header fields into {@code phv} (a field of a header the parse did not extract
     * is 0, its validity bit 0). False on a parser error: {@link #error()} says which.
     */
    public boolean parse(byte[] buf, int off, int caplen, int wireLen, long[] phv) {
        if (!parseLean(buf, off, caplen, wireLen)) {
            return false;
        }
        ParseResult r = lean;
        phvLoad.load(r, phv);
        if (parserChecksums != null) {
            parserChecksums.run(parser, buf, off, caplen, wireLen, r, phv);
        }
        return true;
    }

    /** The lean parse of a frame into {@link #lean}, remembering which frame it holds. */
    private boolean parseLean(byte[] buf, int off, int caplen, int wireLen) {
        boolean ok = parser.parseNeeded(buf, off, caplen, wireLen, lean);
        leanBuf = ok ? buf : null;
        leanOff = off;
        return ok;
    }

    /** The error of the last {@link #parse} that returned false. */
    /** The control plane: a value/mask entry into one of the graph's value sets (every later parse sees it). */
    public void addValueSetEntry(String valueSet, long value, long mask) {
        parser.addValueSetEntry(valueSet, value, mask);
        valueSetChanged();
    }

    /** The control plane: empties one of the graph's value sets. */
    public void clearValueSet(String valueSet) {
        parser.clearValueSet(valueSet);
        valueSetChanged();
    }

    /** A frame parsed before a value set changed may parse otherwise now: no earlier parse is reused. */
    private void valueSetChanged() {
        valueSetEpoch++;
        leanBuf = null;
    }

    public ParserError error() {
        return lean.error();
    }

    /**
     * The frame that leaves: runs the program's deparser over the frame {@code buf[off .. off+caplen)}
     * with the PHV's validity bits and field values into a scratch buffer ({@link #deparsed()})
     * and returns the new frame's length (its captured part: headers emitted and the payload the
     * capture kept). The wire length changes by the same amount. Returns -1 when the frame no
     * longer parses (the control plane changed a parser value set while the packet was inside):
     * the frame then leaves as it came.
     *
     * <p>The frame is parsed again leanly (where each header is, not its fields): each header
     * that stays is copied as the frame has it, one made valid starts as zeros, the fields the
     * program declares are written over them and the checksums are summed over the bytes that
     * leave. The bytes are those of {@link #deparseByFullParse}, which a deparser whose
     * checksums cannot be summed that way ({@link Deparser#copies()}) still takes.
     */
    public int deparse(byte[] buf, int off, int caplen, int wireLen, long[] phv) {
        return deparse(buf, off, caplen, wireLen, phv, false);
    }

    /**
     * As {@link #deparse(byte[], int, int, int, long[])}; with {@code parsedLast} the caller
     * says that the frame's bytes are those the last {@link #parse} read at {@code buf} and
     * {@code off} (the ingress deparser of a packet just parsed), so that parse's layout is
     * reused instead of parsing the frame again.
     */
    public int deparse(byte[] buf, int off, int caplen, int wireLen, long[] phv, boolean parsedLast) {
        return deparse(buf, off, caplen, wireLen, phv, parsedLast, -1);
    }

    /**
     * Keeps where the last accepted {@link #parse} found each header, as pool slot {@code slot}'s
     * (the frame's bytes stay as parsed until {@link #deparse(byte[], int, int, int, long[], boolean, int)}
     * is called with that slot): a deparse at egress then needs no parse.
     */
    public void keepLayout(int slot) {
        int at = slot * layoutInts;
        if (at + layoutInts > layouts.length) {
            layouts = Arrays.copyOf(layouts, Math.max(2 * layouts.length, at + layoutInts));
        }
        layouts[at] = valueSetEpoch;
        lean.saveLayout(layouts, at + 1);
    }

    /**
     * As {@link #deparse(byte[], int, int, int, long[], boolean)}; with {@code keptSlot} >= 0 the
     * caller says that the frame's bytes are those whose parse {@link #keepLayout} kept for that
     * slot, so that layout is used instead of a parse.
     */
    public int deparse(byte[] buf, int off, int caplen, int wireLen, long[] phv, boolean parsedLast, int keptSlot) {
        return deparse(buf, off, caplen, wireLen, phv, parsedLast, keptSlot, -1);
    }

    /**
     * As {@link #deparse(byte[], int, int, int, long[], boolean, int)}, but the frame that leaves
     * is written over the frame itself, at {@code buf[off ..]}, of which {@code capacity} bytes
     * are the frame's (a pool slot's snap length): where {@link Deparser#emitInPlace} applies (the
     * headers that stay lie back to back in emit order, none is removed, the result fits) the
     * headers made valid are inserted there and the fields and checksums written there, with no
     * copy to the scratch buffer and back; otherwise the scratch buffer's frame is copied over it,
     * its first {@code capacity} bytes. Either way {@code buf} then holds from {@code off} the first
     * {@code min(n, capacity)} bytes of what {@link #deparse} writes, {@code n} being the length
     * returned (the frame's whole captured length; -1: the frame no longer parses and was left as it came).
     */
    public int deparseInPlace(byte[] buf, int off, int caplen, int wireLen, long[] phv, boolean parsedLast, int keptSlot,
                              int capacity) {
        if (capacity < 0) {
            throw new IllegalArgumentException("capacity " + capacity + " < 0");
        }
        int n = deparse(buf, off, caplen, wireLen, phv, parsedLast, keptSlot, capacity);
        if (n >= 0 && !inPlace) {
            System.arraycopy(scratch, 0, buf, off, Math.min(n, capacity));
        }
        return n;
    }

    /** Whether the last {@link #deparseInPlace} wrote the frame in place (not through the scratch buffer). */
    public boolean deparsedInPlace() {
        return inPlace;
    }

    /** The copying deparse; {@code capacity} >= 0: into {@code buf} itself where it can ({@link #inPlace} says so). */
    private int deparse(byte[] buf, int off, int caplen, int wireLen, long[] phv, boolean parsedLast, int keptSlot,
                        int capacity) {
        inPlace = false;
        layoutUnchanged = false;
        prepareDeparse();
        if (!deparser.copies()) {
            return deparseByFullParse(buf, off, caplen, wireLen, phv);
        }
        ParseResult r;
        boolean wordsKnown = true; // the parse's field words are this frame's (not so for a kept layout)
        if (parsedLast && buf == leanBuf && off == leanOff) {
            r = lean;
        } else if (keptSlot >= 0 && layouts[keptSlot * layoutInts] == valueSetEpoch) {
            full.loadLayout(layouts, keptSlot * layoutInts + 1, off);
            r = full;
            wordsKnown = false;
        } else if (parser.parseNeeded(buf, off, caplen, wireLen, full)) {
            r = full;
        } else {
            return -1;
        }
        boolean skips = wordsKnown && mergesIndependent;
        boolean[] valid = validOut;
        for (int h = 0; h < valid.length; h++) {
            valid[h] = r.isValid(h);
        }
        for (int i = 0; i < validSlots.length; i++) {
            valid[validHeaders[i]] = phv[validSlots[i]] != 0;
        }
        int n = capacity < 0 || !validitiesDistinct ? -1 : emitInPlace(r, phv, buf, off, caplen, capacity);
        byte[] out = buf;
        boolean steered = checksumSteers;
        if (n >= 0) {
            inPlace = true;
            steered |= insertedCount > 0 || n != caplen;
        } else {
            n = deparser.emitCopying(r, valid, buf, off, caplen, scratch, 0, emittedAt);
            out = scratch;
        }
        for (int i = 0; i < slots.length; i++) {
            // the field's first alternative whose header leaves (most fields have one alternative)
            int a = first[i];
            int end = first[i + 1];
            while (!valid[headers[a]]) {
                if (++a == end) {
                    break;
                }
            }
            if (a == end) {
                continue;
            }
            int h = headers[a];
            int at = emittedAt[h];
            long v = phv[slots[i]];
            // the bits the frame already holds (a copied header's parsed value, a new header's zeros) need no write
            if (at >= 0 && (!skips || (v & altMasks[a]) != heldValue(r, h, a))) {
                steered |= steering[a];
                int bytes = partWholeBytes[a];
                if (bytes > 0) {
                    Deparser.putBytes(out, at + (partBit[a] >>> 3), bytes, v);
                } else {
                    Deparser.mergeBits(out, (long) at * Byte.SIZE + partBit[a], partBits[a],
                            altMasks[a] << shifts[a], v << shifts[a]);
                }
            }
        }
        giveMetadata(phv);
        deparser.updateChecksums(r, valid, out, emittedAt);
        layoutUnchanged = inPlace && !steered;
        return n;
    }

    /**
     * Whether the last {@link #deparseInPlace} left the frame's layout as the parse it used found
     * it: in place, no header inserted or removed, the same length, and no byte written that a
     * parse's path depends on ({@link ParseGraph#steers}: select keys, length fields; the
     * checksum's destination counts as written). A parse of the new bytes then takes the same
     * states and finds every header where the old one did, so a layout {@link #keepLayout} kept
     * of the old frame stays the new one's (the engine's egress deparser needs no parse again).
     */
    public boolean layoutUnchanged() {
        return layoutUnchanged;
    }

    /**
     * As {@link #deparse}, by a full parse of the frame whose every field the deparser serialises
     * again after the PHV's validity bits and values went into the parse result: the reference
     * the copying deparse is tested against.
     */
    public int deparseByFullParse(byte[] buf, int off, int caplen, int wireLen, long[] phv) {
        prepareDeparse();
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
        giveMetadata(phv);
        return deparser.deparse(full, buf, off, caplen, scratch, 0);
    }

    /**
     * The in-place emit ({@link Deparser#emitInPlace}) when no extracted header was made invalid:
     * the headers the stages made valid, in emit order, are the ones it inserts. -1: not in place.
     */
    private int emitInPlace(ParseResult r, long[] phv, byte[] buf, int off, int caplen, int capacity) {
        int[] ins = inserted;
        int n = 0;
        for (int i : validByEmit) {
            int h = validHeaders[i];
            boolean v = phv[validSlots[i]] != 0;
            if (v != r.isValid(h)) {
                if (!v) {
                    return -1; // a header removed: the copying deparse
                }
                ins[n++] = h;
            }
        }
        insertedCount = n;
        return deparser.emitInPlace(r, ins, n, buf, off, caplen, capacity, emittedAt);
    }

    /** The deparser checksums' metadata words (a parser's residual) from the PHV, for the deparse that follows. */
    private void giveMetadata(long[] phv) {
        for (int u = 0; u < csumMetadataSlots.length; u++) {
            int[] slotsOf = csumMetadataSlots[u];
            for (int k = 0; k < slotsOf.length; k++) {
                deparser.addMetadata(u, phv[slotsOf[k]], csumMetadataBits[u][k]);
            }
        }
    }

    /** Wire field {@code a}'s value as the frame holds it after the copy: its parsed value, or 0 in a header made valid. */
    private long heldValue(ParseResult r, int h, int a) {
        return r.isValid(h) ? (r.wordAt(resultWord[a]) >>> shifts[a]) & altMasks[a] : 0;
    }

    private void prepareDeparse() {
        if (full == null) {
            ParseGraph g = program.parser().graph();
            full = new ParseResult(g);
            deparser = program.parser().deparser();
            List<ChecksumUpdate> updates = program.parser().checksums();
            csumMetadataSlots = new int[updates.size()][];
            csumMetadataBits = new int[updates.size()][];
            for (int u = 0; u < updates.size(); u++) {
                List<String> names = updates.get(u).metadata();
                csumMetadataSlots[u] = new int[names.size()];
                csumMetadataBits[u] = new int[names.size()];
                for (int k = 0; k < names.size(); k++) {
                    Field f = field(names.get(k));
                    csumMetadataSlots[u][k] = f.slot();
                    csumMetadataBits[u][k] = f.width();
                }
            }
            int most = windowBytes;
            for (HeaderInstance h : g.headers()) {
                HeaderType t = h.type();
                most += t.fixedBytes() + (t.varbit() == null ? 0 : t.varbit().maxBytes());
            }
            scratch = new byte[most];
            validOut = new boolean[g.headers().size()];
            emittedAt = new int[g.headers().size()];
            partBit = new int[refs.length];
            partBits = new int[refs.length];
            partWholeBytes = new int[refs.length];
            for (int a = 0; a < refs.length; a++) {
                FieldRef r = refs[a];
                int top = r.bits() - Long.SIZE * (r.words() - 1);
                boolean low = r.words() > 1 && wordIndex[a] == 1;
                partBit[a] = Deparser.fieldBit(g, r) + (low ? top : 0);
                partBits[a] = low ? Long.SIZE : top;
                long whole = partBits[a] == Long.SIZE ? -1L : (1L << partBits[a]) - 1;
                if (partBit[a] % Byte.SIZE == 0 && partBits[a] % Byte.SIZE == 0 && shifts[a] == 0 && altMasks[a] == whole) {
                    partWholeBytes[a] = partBits[a] / Byte.SIZE;
                }
            }
            Integer[] byEmit = new Integer[validSlots.length];
            for (int i = 0; i < byEmit.length; i++) {
                byEmit[i] = i;
            }
            Deparser d = deparser;
            Arrays.sort(byEmit, (x, y) -> Integer.compare(d.emitPosition(validHeaders[x]), d.emitPosition(validHeaders[y])));
            validByEmit = new int[byEmit.length];
            for (int i = 0; i < byEmit.length; i++) {
                validByEmit[i] = byEmit[i];
            }
            inserted = new int[validSlots.length];
            steering = new boolean[refs.length];
            for (int a = 0; a < refs.length; a++) {
                steering[a] = g.steers(refs[a]);
            }
            checksumSteers = false;
            for (ChecksumUpdate u : updates) {
                checksumSteers |= g.steers(g.field(u.destination()));
            }
            validitiesDistinct = Arrays.stream(validHeaders).distinct().count() == validHeaders.length;
            mergesIndependent = true;
            for (int i = 0; i < slots.length; i++) {
                for (int j = i + 1; j < slots.length; j++) {
                    for (int a = first[i]; a < first[i + 1]; a++) {
                        for (int b = first[j]; b < first[j + 1]; b++) {
                            if (headers[a] == headers[b] && partBit[a] < partBit[b] + partBits[b]
                                    && partBit[b] < partBit[a] + partBits[a]) {
                                mergesIndependent = false; // two fields over the same bits: each merge counts
                            }
                        }
                    }
                }
            }
        }
    }

    /** The buffer {@link #deparse} wrote the frame into, from offset 0. */
    public byte[] deparsed() {
        return scratch;
    }
}
