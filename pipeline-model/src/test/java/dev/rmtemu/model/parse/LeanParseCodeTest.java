package dev.rmtemu.model.parse;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The lean parse's generated code ({@link LeanParseCode}) against the plan it was generated
 * from, interpreted, and against a full parse: on seeded random graphs (loops, advances,
 * variable-length headers, lookahead, masks, ranges, value sets, reject and missing defaults)
 * over random frames biased to match their selects, and on the default graph over real frames
 * cut at every length. Same accept, error, error state, payload offset, headers in order with
 * their offsets and tails, needed field values and per-kind error counts.
 */
class LeanParseCodeTest {
    private static final int GRAPHS = 400;
    private static final int FRAMES_PER_GRAPH = 200;

    @Test
    void generatedCodeEqualsThePlanOnRandomGraphs() {
        SplittableRandom rnd = new SplittableRandom(31);
        int built = 0;
        long accepted = 0;
        int generated = 0;
        for (int gi = 0; gi < GRAPHS; gi++) {
            ParseGraph g;
            try {
                g = randomGraph(rnd);
            } catch (IllegalArgumentException refused) {
                continue;
            }
            built++;
            int window = rnd.nextInt(1, 200);
            PacketParser byCode = new PacketParser(g, window);
            PacketParser byPlan = new PacketParser(g, window);
            PacketParser full = new PacketParser(g, window);
            List<FieldRef> needed = new ArrayList<>();
            for (HeaderInstance h : g.headers()) {
                for (HeaderField f : h.type().fields()) {
                    if (rnd.nextInt(3) == 0) {
                        FieldRef r = g.field(h.name() + "." + f.name());
                        needed.add(r);
                        byCode.need(r);
                        byPlan.need(r);
                    }
                }
            }
            for (ParserValueSet vs : g.valueSets()) {
                long v = rnd.nextInt(4);
                for (PacketParser p : List.of(byCode, byPlan, full)) {
                    p.addValueSetEntry(vs.name(), v, -1L);
                }
            }
            generated += byCode.leanParseGenerated() ? 1 : 0;
            for (int i = 0; i < FRAMES_PER_GRAPH; i++) {
                byte[] f = randomFrame(rnd);
                int caplen = rnd.nextInt(f.length + 1);
                int wire = caplen + (rnd.nextBoolean() ? 0 : rnd.nextInt(64));
                accepted += same(g, byCode, byPlan, full, needed, f, caplen, wire) ? 1 : 0;
            }
            for (ParserError e : ParserError.values()) {
                assertEquals(byPlan.errorCount(e), byCode.errorCount(e), e.label());
                assertEquals(full.errorCount(e), byCode.errorCount(e), e.label());
            }
            assertEquals(byPlan.acceptedCount(), byCode.acceptedCount());
        }
        assertTrue(built > GRAPHS / 2, built + " random graphs built");
        assertTrue(generated > built * 9 / 10, generated + " of " + built + " graphs ran as generated code");
        assertTrue(accepted > (long) built * FRAMES_PER_GRAPH / 20, accepted + " frames accepted: the selects matched");
    }

    @Test
    void generatedCodeEqualsThePlanOnTheDefaultGraphAtEveryCaptureLength() {
        ParseGraph g = DefaultParseGraph.build();
        List<FieldRef> needed = List.of(g.field("ethernet.dst_addr"), g.field("vlan_inner.vid"), g.field("ipv4.ttl"),
                g.field("ipv4.src_addr"), g.field("ipv6.dst_addr"), g.field("tcp.dst_port"), g.field("udp.src_port"),
                g.field("icmp.type"), g.field("arp.opcode"));
        byte[][] frames = Frames.defaultGraphSamples();
        for (int window : new int[] {16, 40, 64, 256}) {
            PacketParser byCode = new PacketParser(g, window);
            PacketParser byPlan = new PacketParser(g, window);
            PacketParser full = new PacketParser(g, window);
            needed.forEach(byCode::need);
            needed.forEach(byPlan::need);
            assertTrue(byCode.leanParseGenerated(), "the default graph runs as generated code");
            for (byte[] f : frames) {
                for (int caplen = 0; caplen <= f.length; caplen++) {
                    same(g, byCode, byPlan, full, needed, f, caplen, f.length);
                }
            }
            for (ParserError e : ParserError.values()) {
                assertEquals(byPlan.errorCount(e), byCode.errorCount(e), e.label());
            }
        }
    }

    /**
     * Fields that lie in the eight bytes of a header's first needed field are read as one long
     * and split by shifts (the 5-tuple's protocol and source address, both ports, the VLAN tag's
     * sub-byte fields): same words as the plan's read per field, for every prefix of every
     * sample frame, so the buffer ends at every point of the headers (within eight bytes of
     * its end a field is read alone, as before).
     */
    @Test
    void fieldsSharingALongEqualThePlanAtEveryCaptureLength() {
        ParseGraph g = DefaultParseGraph.build();
        List<FieldRef> needed = List.of(g.field("ethernet.src_addr"), g.field("ethernet.ether_type"),
                g.field("vlan_outer.pcp"), g.field("vlan_outer.dei"), g.field("vlan_outer.vid"), g.field("vlan_outer.ether_type"),
                g.field("ipv4.version"), g.field("ipv4.ihl"), g.field("ipv4.diffserv"), g.field("ipv4.protocol"),
                g.field("ipv4.src_addr"), g.field("ipv4.dst_addr"), g.field("ipv6.next_hdr"), g.field("ipv6.hop_limit"),
                g.field("tcp.src_port"), g.field("tcp.dst_port"), g.field("udp.src_port"), g.field("udp.dst_port"),
                g.field("icmp.type"), g.field("icmp.code"), g.field("arp.hw_addr_len"), g.field("arp.proto_addr_len"),
                g.field("arp.opcode"));
        byte[][] frames = Frames.defaultGraphSamples();
        PacketParser byCode = new PacketParser(g, 256);
        PacketParser byPlan = new PacketParser(g, 256);
        PacketParser full = new PacketParser(g, 256);
        needed.forEach(byCode::need);
        needed.forEach(byPlan::need);
        assertTrue(byCode.leanParseGenerated(), "the default graph runs as generated code");
        long accepted = 0;
        for (byte[] f : frames) {
            for (int caplen = 0; caplen <= f.length; caplen++) {
                accepted += same(g, byCode, byPlan, full, needed, Arrays.copyOf(f, caplen), caplen, f.length) ? 1 : 0;
            }
        }
        assertTrue(accepted > frames.length, accepted + " accepted parses");
    }

    /** Parses {@code f} three ways and asserts they agree; returns whether it was accepted. */
    private static boolean same(ParseGraph g, PacketParser byCode, PacketParser byPlan, PacketParser full,
                                List<FieldRef> needed, byte[] f, int caplen, int wire) {
        ParseResult c = new ParseResult(g);
        ParseResult p = new ParseResult(g);
        ParseResult r = new ParseResult(g);
        // the frame sits inside a larger buffer, as a pool slot does: reads near its end use the slow path too
        int off = f.length % 5;
        byte[] buf = new byte[off + f.length + f.length % 3];
        System.arraycopy(f, 0, buf, off, f.length);
        boolean ok = byCode.parseNeeded(buf, off, caplen, wire, c);
        String where = g.name() + " " + Arrays.toString(f) + " caplen " + caplen + " wire " + wire;
        assertEquals(byPlan.parseNeededByPlan(buf, off, caplen, wire, p), ok, where);
        assertEquals(full.parse(buf, off, caplen, wire, r), ok, where);
        assertEquals(p.error(), c.error(), where);
        assertEquals(r.error(), c.error(), where);
        assertEquals(p.errorState(), c.errorState(), where);
        assertEquals(p.payloadOffset(), c.payloadOffset(), where);
        assertEquals(p.extractedCount(), c.extractedCount(), where);
        for (int i = 0; i < c.extractedCount(); i++) {
            int h = c.extractedHeader(i);
            assertEquals(p.extractedHeader(i), h, where);
            assertEquals(p.headerOffset(h), c.headerOffset(h), where);
            assertEquals(p.varbitOffset(h), c.varbitOffset(h), where);
            assertEquals(p.varbitLength(h), c.varbitLength(h), where);
        }
        for (int h = 0; h < g.headers().size(); h++) {
            assertEquals(p.isValid(h), c.isValid(h), where);
        }
        if (ok) {
            for (FieldRef n : needed) {
                if (c.isValid(n.header())) {
                    for (int w = 0; w < n.words(); w++) {
                        assertEquals(r.word(n, w), c.word(n, w), where + " " + n.name());
                        assertEquals(p.word(n, w), c.word(n, w), where + " " + n.name());
                    }
                }
            }
            long[] cw = new long[g.words()];
            long[] pw = new long[g.words()];
            for (int w = 0; w < cw.length; w++) {
                cw[w] = c.wordAt(w);
                pw[w] = p.wordAt(w);
            }
            assertArrayEquals(pw, cw, where);
        }
        return ok;
    }

    /** Bytes mostly from a small alphabet, so exact, masked and ranged selects on small values match. */
    private static byte[] randomFrame(SplittableRandom rnd) {
        byte[] f = new byte[rnd.nextInt(0, 96)];
        for (int i = 0; i < f.length; i++) {
            f[i] = (byte) (rnd.nextInt(4) == 0 ? rnd.nextInt(256) : rnd.nextInt(3));
        }
        return f;
    }

    private static ParseGraph randomGraph(SplittableRandom d) {
        ParseGraph.Builder b = ParseGraph.builder("random");
        int headers = d.nextInt(1, 5);
        List<String> fields = new ArrayList<>();
        for (int h = 0; h < headers; h++) {
            List<HeaderField> fs = new ArrayList<>();
            int n = d.nextInt(1, 6);
            int total = 0;
            for (int i = 0; i < n; i++) {
                int bits = d.nextBoolean() ? 8 * d.nextInt(1, 9) : d.nextInt(1, 129);
                if (i == n - 1 && (total + bits) % Byte.SIZE != 0) {
                    bits += Byte.SIZE - (total + bits) % Byte.SIZE; // headers are whole bytes
                }
                total += bits;
                fs.add(new HeaderField("f" + i, bits));
                if (bits <= Long.SIZE) {
                    fields.add("h" + h + ".f" + i);
                }
            }
            VarbitLength v = d.nextInt(3) == 0 && fs.get(0).bits() <= Long.SIZE
                    ? new VarbitLength("tail", "f0", d.nextInt(1, 9), d.nextInt(-8, 9), d.nextInt(0, 40)) : null;
            b.header("h" + h, new HeaderType("t" + h, fs, v));
        }
        boolean valueSet = d.nextInt(4) == 0;
        int vsBits = d.nextInt(1, 17);
        if (valueSet) {
            b.valueSet("vs", vsBits, 2);
        }
        int states = d.nextInt(1, 7);
        for (int s = 0; s < states; s++) {
            ParseGraph.StateBuilder st = b.state("s" + s);
            int ops = d.nextInt(0, 4);
            for (int i = 0; i < ops; i++) {
                if (d.nextInt(4) != 0) {
                    st.extract("h" + d.nextInt(headers));
                } else {
                    st.advance(d.nextInt(0, 12));
                }
            }
            int keys = fields.isEmpty() ? 0 : d.nextInt(0, 3);
            if (keys == 0) {
                st.transition(target(d, states, s));
                continue;
            }
            for (int k = 0; k < keys; k++) {
                st.select(d.nextInt(5) != 0 ? SelectKey.field(fields.get(d.nextInt(fields.size())))
                        : SelectKey.lookahead(d.nextInt(0, 64), valueSet && d.nextBoolean() ? vsBits : d.nextInt(1, 65)));
            }
            int branches = d.nextInt(1, 5);
            for (int br = 0; br < branches; br++) {
                KeySet[] sets = new KeySet[keys];
                for (int k = 0; k < keys; k++) {
                    switch (d.nextInt(10)) {
                        case 0, 1, 2, 3 -> sets[k] = KeySet.exact(d.nextInt(3));
                        case 4, 5 -> sets[k] = KeySet.masked(d.nextInt(3), d.nextBoolean() ? 1 : 0xFF);
                        case 6 -> sets[k] = KeySet.range(0, d.nextInt(3));
                        case 7 -> sets[k] = KeySet.valueSet("vs");
                        default -> sets[k] = KeySet.ANY;
                    }
                }
                st.when(target(d, states, s), sets);
            }
            if (d.nextBoolean()) {
                st.otherwise(target(d, states, s));
            } else {
                st.end();
            }
        }
        return b.build();
    }

    /** Mostly forward (a few loops back), accept or reject. */
    private static String target(SplittableRandom d, int states, int from) {
        int t = d.nextInt(-2, states);
        if (t >= 0 && t <= from && d.nextInt(4) != 0) {
            t = Math.min(states - 1, from + 1 + d.nextInt(states)) == from ? -1 : Math.min(states - 1, from + 1);
        }
        return t == -2 ? "reject" : t == -1 ? "accept" : "s" + t;
    }

    /**
     * Parsers of one plan (a network's switches running one program) share one generated class,
     * so the JIT compiles it once and the call site stays monomorphic; each instance keeps its own
     * parser (its error counts). Another plan gets its own class.
     */
    @Test
    void parsersOfOnePlanShareOneGeneratedClass() throws ReflectiveOperationException {
        ParseGraph g = DefaultParseGraph.build();
        PacketParser a = new PacketParser(g, 128);
        PacketParser b = new PacketParser(g, 128);
        PacketParser other = new PacketParser(g, 128);
        for (PacketParser p : List.of(a, b)) {
            p.need(g.field("ipv4.dst_addr"));
        }
        other.need(g.field("ipv4.ttl"));
        java.lang.reflect.Field code = PacketParser.class.getDeclaredField("leanCode");
        code.setAccessible(true);
        for (PacketParser p : List.of(a, b, other)) {
            assertTrue(p.leanParseGenerated());
        }
        LeanParseCode ca = (LeanParseCode) code.get(a);
        LeanParseCode cb = (LeanParseCode) code.get(b);
        LeanParseCode co = (LeanParseCode) code.get(other);
        assertEquals(ca.getClass(), cb.getClass());
        assertTrue(ca != cb && ca.parser == a && cb.parser == b);
        assertTrue(co.getClass() != ca.getClass());
    }
}
