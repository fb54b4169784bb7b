package dev.rmtemu.model.parse;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * TNA's parser Checksum over an accepted parse, with sums worked by hand (RFC 1071's
 * ones'-complement sum; a subtract adds the words' complements, RFC 1624).
 */
class ParserChecksumsTest {
    private static final HeaderType H1 = HeaderType.of("h1_t", new HeaderField("a", 16), new HeaderField("b", 16));
    private static final HeaderType H2 = HeaderType.of("h2_t", new HeaderField("c", 16), new HeaderField("d", 16));
    private static final Map<String, Integer> SLOT = Map.of("v1", 0, "g1", 1, "r2", 2, "v3", 3, "g3", 4);
    private static final Map<String, Integer> WIDTH = Map.of("v1", 1, "g1", 16, "r2", 16, "v3", 1, "g3", 16);

    private static ParseGraph graph() {
        return ParseGraph.builder("t").header("h1", H1).header("h2", H2)
                .state("start").extract("h1").transition("second")
                .state("second").extract("h2").transition("accept")
                .build();
    }

    /** An operation after the one extract of state {@code start} (h1) or {@code second} (h2). */
    private static ParserChecksumOp op(String after, String engine, ParserChecksumOp.Kind kind, String... fieldsOrTarget) {
        return op(after.equals("h1") ? "start" : "second", 1, engine, kind, fieldsOrTarget);
    }

    private static ParserChecksumOp op(String state, int position, String engine, ParserChecksumOp.Kind kind, String... fieldsOrTarget) {
        boolean data = kind == ParserChecksumOp.Kind.ADD || kind == ParserChecksumOp.Kind.SUBTRACT;
        return new ParserChecksumOp(state, position, engine, kind, data ? List.of(fieldsOrTarget) : List.of(), data ? null : fieldsOrTarget[0]);
    }

    private static long[] run(List<ParserChecksumOp> ops, byte[] frame) {
        return run(graph(), ops, frame, new long[5]);
    }

    private static long[] run(ParseGraph g, List<ParserChecksumOp> ops, byte[] frame, long[] phv) {
        ParseResult r = new ParseResult(g);
        PacketParser p = new PacketParser(g, 64);
        assertTrue(p.parse(frame, 0, frame.length, frame.length, r));
        new ParserChecksums(g, ops, SLOT::get, WIDTH::get).run(p, frame, 0, frame.length, frame.length, r, phv);
        return phv;
    }

    // a = 0x1234, b = 0xF00F (a + b folds to 0x0244), c = ~0x0244 = 0xFDBB, d = 0
    private static final byte[] FRAME = {0x12, 0x34, (byte) 0xF0, 0x0F, (byte) 0xFD, (byte) 0xBB, 0, 0};

    @Test
    void verifyIsTrueWhileTheSumIsNotAllOnesAndGetReturnsTheFoldedSum() {
        long[] phv = run(List.of(
                op("h1", "e1", ParserChecksumOp.Kind.ADD, "h1.a", "h1.b"),
                op("h1", "e1", ParserChecksumOp.Kind.VERIFY, "v1"),
                op("h1", "e1", ParserChecksumOp.Kind.GET, "g1"),
                op("h1", "e3", ParserChecksumOp.Kind.ADD, "h1.a", "h1.b"),
                op("h2", "e3", ParserChecksumOp.Kind.ADD, "h2.c"),
                op("h2", "e3", ParserChecksumOp.Kind.VERIFY, "v3"),
                op("h2", "e3", ParserChecksumOp.Kind.GET, "g3")), FRAME);
        // e1: 0x1234 + 0xF00F = 0x10243, folded 0x0244: wrong (1); e3 adds 0xFDBB: 0xFFFF, right (0)
        assertArrayEquals(new long[] {1, 0x0244, 0, 0, 0xFFFF}, phv);
    }

    @Test
    void aDepositSubtractsEveryHeaderExtractedAfterIt() {
        long[] phv = run(List.of(
                op("h1", "e2", ParserChecksumOp.Kind.SUBTRACT, "h1.a"),
                op("h1", "e2", ParserChecksumOp.Kind.DEPOSIT, "r2")), FRAME);
        // ~0x1234 + ~0xFDBB + ~0x0000 = 0xEDCB + 0x0244 + 0xFFFF = 0x1F00E, folded 0xF00F
        assertEquals(0xF00F, phv[2]);
    }

    @Test
    void operationsAfterAHeaderTheParseDidNotExtractDoNotRun() {
        ParseGraph g = ParseGraph.builder("t").header("h1", H1).header("h2", H2)
                .state("start").extract("h1").select("h1.a").when(0x1234, "accept").otherwise("second")
                .state("second").extract("h2").transition("accept")
                .build();
        long[] phv = run(g, List.of(op("h2", "e", ParserChecksumOp.Kind.VERIFY, "v3")), FRAME, new long[] {7, 7, 7, 7, 7});
        assertArrayEquals(new long[] {7, 7, 7, 7, 7}, phv);
    }

    /** An operation in a state that extracts nothing runs when the parse passes through that state (Intel's parse_ipv4_no_options). */
    @Test
    void anOperationInAStateWithoutExtractsRunsWhenThePathPassesThrough() {
        ParseGraph g = ParseGraph.builder("t").header("h1", H1).header("h2", H2)
                .state("start").extract("h1").select("h1.a").when(0x1234, "check").otherwise("accept")
                .state("check").transition("second")
                .state("second").extract("h2").transition("accept")
                .build();
        List<ParserChecksumOp> ops = List.of(op("start", 1, "e", ParserChecksumOp.Kind.ADD, "h1.a", "h1.b"),
                op("check", 0, "e", ParserChecksumOp.Kind.GET, "g1"));
        assertEquals(0x0244, run(g, ops, FRAME, new long[5])[1]);
        byte[] other = FRAME.clone();
        other[0] = 0x13; // h1.a = 0x1334: the parse accepts after h1, check is not visited
        assertEquals(7, run(g, ops, other, new long[] {7, 7, 7, 7, 7})[1]);
    }

    @Test
    void dataThatIsNotWholeWordsIsRefused() {
        HeaderType odd = HeaderType.of("o_t", new HeaderField("x", 8), new HeaderField("y", 8));
        ParseGraph g = ParseGraph.builder("t").header("o", odd).state("start").extract("o").transition("accept").build();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new ParserChecksums(g,
                List.of(op("start", 1, "e", ParserChecksumOp.Kind.ADD, "o.x")), SLOT::get, WIDTH::get));
        assertEquals("parser checksum e: 8 bits of fields is not a whole number of 16-bit words", e.getMessage());
    }

    /** The deparser adds a metadata residual's words to its sum (the incremental update of RFC 1624). */
    @Test
    void aDeparserChecksumAddsTheResidualsWords() {
        ParseGraph g = graph();
        ParseResult r = new ParseResult(g);
        assertTrue(new PacketParser(g, 64).parse(FRAME, 0, FRAME.length, FRAME.length, r));
        Deparser d = new Deparser(g, List.of("h1", "h2"), List.of(new ChecksumUpdate("h2", List.of("h1.a"), false, "h2.d",
                List.of("meta.residual"))));
        byte[] out = new byte[8];
        d.addMetadata(0, 0xF00F, 16);
        d.deparse(r, FRAME, 0, FRAME.length, out, 0);
        // ~(0x1234 + 0xF00F) = ~0x0244 = 0xFDBB
        assertEquals(0xFDBB, ((out[6] & 0xFF) << 8) | (out[7] & 0xFF));
        d.deparse(r, FRAME, 0, FRAME.length, out, 0);
        // the residual was forgotten after use: ~0x1234
        assertEquals(0xEDCB, ((out[6] & 0xFF) << 8) | (out[7] & 0xFF));
    }
}
