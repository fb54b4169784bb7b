package dev.rmtemu.model.parse;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Fuzz targets: the default parse graph and random parse graphs over random and
 * mutated bytes. Contract: every frame ends in accept or a {@link ParserError}
 * (never an exception, never a hang); an accepted frame of the default graph
 * deparses to itself; a random graph is built or refused with an
 * IllegalArgumentException at build time, never later.
 * Corpus: {@code src/test/resources/dev/rmtemu/model/parse/PacketParserFuzzTestInputs/}.
 */
class PacketParserFuzzTest {
    private static final ParseGraph DEFAULT = DefaultParseGraph.build();
    private static final Deparser DEPARSER = DefaultParseGraph.deparser(DEFAULT);
    private static final List<FieldRef> LEAN_FIELDS = List.of(DEFAULT.field("ethernet.dst_addr"),
            DEFAULT.field("vlan_inner.vid"), DEFAULT.field("ipv4.ttl"), DEFAULT.field("ipv4.src_addr"),
            DEFAULT.field("ipv6.hop_limit"), DEFAULT.field("tcp.flags"), DEFAULT.field("udp.dst_port"));

    /** Byte 0 = window / 2, byte 1 = how many bytes the capture lost, then the frame. */
    @FuzzTest(maxDuration = "10m")
    void defaultGraph(byte[] input) {
        if (input.length < 2) {
            return;
        }
        int window = 2 * (input[0] & 0xFF) + 1;
        int lost = input[1] & 0xFF;
        byte[] frame = Arrays.copyOfRange(input, 2, input.length);
        PacketParser parser = new PacketParser(DEFAULT, window);
        ParseResult r = new ParseResult(DEFAULT);
        boolean ok = parser.parse(frame, 0, frame.length, frame.length + lost, r);
        // the default graph reading only a program's fields: the outcome of a full parse
        PacketParser leanParser = new PacketParser(DEFAULT, window);
        LEAN_FIELDS.forEach(leanParser::need);
        ParseResult lean = new ParseResult(DEFAULT);
        assertEquals(ok, leanParser.parseNeeded(frame, 0, frame.length, frame.length + lost, lean));
        assertEquals(r.error(), lean.error());
        if (ok) {
            assertEquals(r.payloadOffset(), lean.payloadOffset());
            for (FieldRef f : LEAN_FIELDS) {
                if (r.isValid(f.header())) {
                    assertTrue(lean.isValid(f.header()));
                    assertEquals(r.get(f), lean.get(f), f.name());
                }
            }
        }
        if (ok) {
            byte[] out = new byte[DEPARSER.length(r, frame.length)];
            DEPARSER.deparse(r, frame, 0, frame.length, out, 0);
            assertArrayEquals(frame, out);
        } else {
            assertNotNull(r.error());
        }
    }

    @FuzzTest(maxDuration = "10m")
    void randomGraph(FuzzedDataProvider data) {
        ParseGraph g;
        try {
            g = buildRandomGraph(data);
        } catch (IllegalArgumentException refused) {
            return;
        }
        ParserLimitsCheck.count(g, dev.rmtemu.model.target.ParserLimits.UNCONSTRAINED);
        PacketParser parser = new PacketParser(g, data.consumeInt(1, 512));
        for (ParserValueSet vs : g.valueSets()) {
            parser.addValueSetEntry(vs.name(), data.consumeLong(), data.consumeLong());
        }
        ParseResult r = new ParseResult(g);
        byte[] frame = data.consumeRemainingAsBytes();
        int caplen = frame.length;
        boolean ok = parser.parse(frame, 0, caplen, caplen, r);
        if (ok) {
            Deparser d = Deparser.inDeclarationOrder(g, List.of());
            byte[] out = new byte[d.length(r, caplen)];
            assertEquals(out.length, d.deparse(r, frame, 0, caplen, out, 0));
            assertTrue(out.length <= caplen);
        } else {
            assertNotNull(r.error());
        }
    }

    private static ParseGraph buildRandomGraph(FuzzedDataProvider d) {
        ParseGraph.Builder b = ParseGraph.builder("random");
        int headers = d.consumeInt(1, 4);
        List<String> fields = new ArrayList<>();
        for (int h = 0; h < headers; h++) {
            List<HeaderField> fs = new ArrayList<>();
            int n = d.consumeInt(1, 5);
            for (int i = 0; i < n; i++) {
                fs.add(new HeaderField("f" + i, d.consumeInt(1, 128)));
                fields.add("h" + h + ".f" + i);
            }
            VarbitLength v = d.consumeBoolean()
                    ? new VarbitLength("tail", "f0", d.consumeInt(1, 8), d.consumeInt(-64, 64), d.consumeInt(0, 128)) : null;
            b.header("h" + h, new HeaderType("t" + h, fs, v));
        }
        if (d.consumeBoolean()) {
            b.valueSet("vs", d.consumeInt(1, 64), d.consumeInt(1, 4));
        }
        int states = d.consumeInt(1, 6);
        for (int s = 0; s < states; s++) {
            ParseGraph.StateBuilder st = b.state("s" + s);
            int ops = d.consumeInt(0, 3);
            for (int i = 0; i < ops; i++) {
                if (d.consumeBoolean()) {
                    st.extract("h" + d.consumeInt(0, headers - 1));
                } else {
                    st.advance(d.consumeInt(0, 40));
                }
            }
            int keys = d.consumeInt(0, 3);
            if (keys == 0) {
                st.transition(target(d, states));
                continue;
            }
            for (int k = 0; k < keys; k++) {
                st.select(d.consumeBoolean() ? SelectKey.field(fields.get(d.consumeInt(0, fields.size() - 1)))
                        : SelectKey.lookahead(d.consumeInt(0, 300), d.consumeInt(1, 64)));
            }
            int branches = d.consumeInt(1, 5);
            for (int br = 0; br < branches; br++) {
                KeySet[] sets = new KeySet[keys];
                for (int k = 0; k < keys; k++) {
                    switch (d.consumeInt(0, 4)) {
                        case 0 -> sets[k] = KeySet.exact(d.consumeLong());
                        case 1 -> sets[k] = KeySet.masked(d.consumeLong(), d.consumeLong());
                        case 2 -> sets[k] = KeySet.range(d.consumeLong(), d.consumeLong());
                        case 3 -> sets[k] = KeySet.valueSet("vs");
                        default -> sets[k] = KeySet.ANY;
                    }
                }
                st.when(target(d, states), sets);
            }
            st.end();
        }
        return b.build();
    }

    private static String target(FuzzedDataProvider d, int states) {
        int t = d.consumeInt(-2, states - 1);
        return t == -2 ? "reject" : t == -1 ? "accept" : "s" + t;
    }
}
