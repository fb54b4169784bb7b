package dev.rmtemu.model.parse;

import org.junit.jupiter.api.Test;

import java.util.Arrays;

import static dev.rmtemu.model.parse.Frames.frame;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The default parse graph on hand-built frames: exact field values, payload offsets, and deparse = the frame. */
class PacketParserTest {
    static final int WINDOW = 256;
    private final ParseGraph g = DefaultParseGraph.build();
    private final PacketParser parser = new PacketParser(g, WINDOW);
    private final ParseResult r = new ParseResult(g);
    private final Deparser deparser = DefaultParseGraph.deparser(g);

    private void parseAccepted(byte[] f) {
        assertTrue(parser.parse(f, 0, f.length, f.length, r), () -> "error " + r.error());
        assertNull(r.error());
        byte[] out = new byte[f.length + 64];
        int n = deparser.deparse(r, f, 0, f.length, out, 0);
        assertArrayEquals(f, Arrays.copyOf(out, n), "deparse gives the frame back");
    }

    private long field(String name) {
        return r.get(g.field(name));
    }

    private boolean valid(String header) {
        return r.isValid(g.header(header).index());
    }

    private String extracted() {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < r.extractedCount(); i++) {
            b.append(i == 0 ? "" : " ").append(g.headers().get(r.extractedHeader(i)).name());
        }
        return b.toString();
    }

    @Test
    void arp() {
        byte[] f = frame().ethernet(0x0806).arp(2, 0x0A000001L, 0x0A0000FEL).zeros(18).build();
        parseAccepted(f);
        assertEquals("ethernet arp", extracted());
        assertEquals(2, field("arp.opcode"));
        assertEquals(0x0A000001L, field("arp.sender_proto_addr"));
        assertEquals(0x0A0000FEL, field("arp.target_proto_addr"));
        assertEquals(0x020000000001L, field("arp.sender_hw_addr"));
        assertEquals(42, r.payloadOffset());
    }

    @Test
    void vlanTaggedIpv4Udp() {
        byte[] f = frame().ethernet(0x8100).vlan(5, 100, 0x0800).ipv4(17, 32, 0, 0).udp(5353, 53, 12).payload("abcd").build();
        parseAccepted(f);
        assertEquals("ethernet vlan_outer ipv4 udp", extracted());
        assertEquals(5, field("vlan_outer.pcp"));
        assertEquals(100, field("vlan_outer.vid"));
        assertEquals(0x0800, field("vlan_outer.ether_type"));
        assertEquals(53, field("udp.dst_port"));
        assertEquals(5353, field("udp.src_port"));
        assertEquals(64, field("ipv4.ttl"));
        assertEquals(2, field("ipv4.flags"));
        assertEquals(14 + 4 + 20 + 8, r.payloadOffset());
        assertFalse(valid("vlan_inner"));
    }

    @Test
    void qinqIpv6Tcp() {
        byte[] f = frame().ethernet(0x88A8).vlan(0, 10, 0x8100).vlan(3, 20, 0x86DD).ipv6(6, 20).tcp(443, 50000, 0).build();
        parseAccepted(f);
        assertEquals("ethernet vlan_outer vlan_inner ipv6 tcp", extracted());
        assertEquals(10, field("vlan_outer.vid"));
        assertEquals(20, field("vlan_inner.vid"));
        assertEquals(3, field("vlan_inner.pcp"));
        FieldRef src = g.field("ipv6.src_addr");
        assertEquals(0x20010db800000000L, r.word(src, 0));
        assertEquals(1L, r.word(src, 1));
        assertEquals(2L, r.get(g.field("ipv6.dst_addr")));
        assertEquals(50000, field("tcp.dst_port"));
        assertEquals(0x18, field("tcp.flags"));
        assertEquals(14 + 8 + 40 + 20, r.payloadOffset());
    }

    @Test
    void ipv4WithOptionsAndTcpOptions() {
        byte[] f = frame().ethernet(0x0800).ipv4(6, 72, 8, 0xBEEF).tcp(80, 1234, 12).payload("GET /").build();
        parseAccepted(f);
        assertEquals(7, field("ipv4.ihl"));
        assertEquals(8, r.varbitLength(g.header("ipv4").index()));
        assertEquals(8, field("tcp.data_offset"));
        assertEquals(12, r.varbitLength(g.header("tcp").index()));
        assertEquals(1234, field("tcp.dst_port"));
        assertEquals(0xBEEF, field("ipv4.hdr_checksum"));
        assertEquals(14 + 28 + 32, r.payloadOffset());
    }

    /**
     * A lean parse reads the needed fields (a program's, the selects', the header lengths') with
     * the values a full parse reads, and leaves the others alone; accept, validity and offsets
     * are those of the full parse.
     */
    @Test
    void leanParseReadsTheNeededFieldsOnly() {
        byte[] f = frame().ethernet(0x8100).vlan(5, 42, 0x0800).ipv4(6, 72, 8, 0xBEEF).tcp(80, 1234, 12)
                .payload("GET /").build();
        PacketParser lean = new PacketParser(g, WINDOW);
        lean.need(g.field("ipv4.ttl"));
        lean.need(g.field("vlan_outer.vid"));
        lean.need(g.field("ethernet.src_addr"));
        assertFalse(lean.needs(g.field("tcp.window")));
        assertTrue(lean.needs(g.field("ipv4.protocol")), "a select key");
        assertTrue(lean.needs(g.field("tcp.data_offset")), "a header length");
        ParseResult lr = new ParseResult(g);
        lr.set(g.field("tcp.window"), 0x7777);
        assertTrue(lean.parseNeeded(f, 0, f.length, f.length, lr));
        parseAccepted(f);
        for (String name : new String[] {"ipv4.ttl", "vlan_outer.vid", "ethernet.src_addr", "ipv4.protocol",
                "ipv4.frag_offset", "tcp.data_offset", "ipv4.ihl"}) {
            assertEquals(field(name), lr.get(g.field(name)), name);
        }
        assertEquals(42, lr.get(g.field("vlan_outer.vid")));
        assertEquals(0x020000000002L, lr.get(g.field("ethernet.src_addr")));
        assertEquals(0x7777, lr.get(g.field("tcp.window")), "not read by a lean parse");
        assertEquals(r.payloadOffset(), lr.payloadOffset());
        assertEquals(r.extractedCount(), lr.extractedCount());
        assertEquals(12, lr.varbitLength(g.header("tcp").index()));
        byte[] cut = Arrays.copyOf(f, 30);
        assertFalse(lean.parseNeeded(cut, 0, cut.length, f.length, lr));
        assertEquals(ParserError.CAPTURE_TRUNCATED, lr.error());
    }

    @Test
    void ipv6ExtensionChain() {
        byte[] f = frame().ethernet(0x86DD).ipv6(0, 48).ipv6Extension(43, 0).ipv6Extension(44, 1)
                .ipv6Fragment(17, 0, 0xCAFEF00DL).udp(1, 4789, 8).build();
        parseAccepted(f);
        assertEquals("ethernet ipv6 ipv6_hop_by_hop ipv6_routing ipv6_frag udp", extracted());
        assertEquals(16 - 2, r.varbitLength(g.header("ipv6_routing").index()));
        assertEquals(0xCAFEF00DL, field("ipv6_frag.identification"));
        assertEquals(4789, field("udp.dst_port"));
        assertEquals(14 + 40 + 8 + 16 + 8 + 8, r.payloadOffset());
    }

    @Test
    void laterFragmentAndUnknownEtherTypeAreAcceptedAsPayload() {
        byte[] later = frame().ethernet(0x86DD).ipv6(44, 16).ipv6Fragment(6, 185, 7).payload("restoftcpdata").build();
        parseAccepted(later);
        assertFalse(valid("tcp"));
        assertEquals(14 + 40 + 8, r.payloadOffset());
        byte[] lldp = frame().ethernet(0x88CC).payload("lldp").build();
        parseAccepted(lldp);
        assertEquals(14, r.payloadOffset());
    }

    @Test
    void errorKinds() {
        byte[] ip = frame().ethernet(0x0800).ipv4(6, 40, 0, 0).tcp(1, 2, 0).build();
        // a frame shorter than its headers on the wire
        assertFalse(parser.parse(ip, 0, 30, 30, r));
        assertEquals(ParserError.PACKET_TOO_SHORT, r.error());
        assertEquals("parse_ipv4", g.states().get(r.errorState()).name());
        // a capture that kept fewer bytes than the headers (caplen 30 of a 54-byte frame)
        assertFalse(parser.parse(ip, 0, 30, 54, r));
        assertEquals(ParserError.CAPTURE_TRUNCATED, r.error());
        // IHL below 5
        byte[] ihl4 = frame().ethernet(0x0800).ipv4Ihl(4, 6).zeros(20).build();
        assertFalse(parser.parse(ihl4, 0, ihl4.length, ihl4.length, r));
        assertEquals(ParserError.HEADER_LENGTH, r.error());
        // a VLAN tag with nothing after it
        byte[] tagOnly = frame().ethernet(0x8100).vlan(0, 7, 0x0800).build();
        assertFalse(parser.parse(tagOnly, 0, tagOnly.length, tagOnly.length, r));
        assertEquals(ParserError.PACKET_TOO_SHORT, r.error());
        assertTrue(valid("vlan_outer"));
        // an IPv6 extension chain past the window: 14 + 40 + 128 + 128 > 256
        byte[] chain = frame().ethernet(0x86DD).ipv6(0, 300).ipv6Extension(60, 15).ipv6Extension(6, 15)
                .tcp(1, 2, 0).build();
        assertFalse(parser.parse(chain, 0, chain.length, chain.length, r));
        assertEquals(ParserError.WINDOW_EXCEEDED, r.error());
        assertEquals("parse_ipv6_dest_opts", g.states().get(r.errorState()).name());
        // the same chain with a wider window parses
        PacketParser wide = new PacketParser(g, 1024);
        assertTrue(wide.parse(chain, 0, chain.length, chain.length, r));
        // an extension header longer than the graph allows
        byte[] tooLong = frame().ethernet(0x86DD).ipv6(0, 300).ipv6Extension(6, 16).build();
        assertFalse(wide.parse(tooLong, 0, tooLong.length, tooLong.length, r));
        assertEquals(ParserError.HEADER_LENGTH, r.error());
        // the parser counts every error by kind
        assertEquals(2, parser.errorCount(ParserError.PACKET_TOO_SHORT));
        assertEquals(1, parser.errorCount(ParserError.CAPTURE_TRUNCATED));
        assertEquals(1, parser.errorCount(ParserError.HEADER_LENGTH));
        assertEquals(1, parser.errorCount(ParserError.WINDOW_EXCEEDED));
        assertEquals(0, parser.acceptedCount());
        assertEquals(1, wide.acceptedCount());
    }

    @Test
    void setInvalidRemovesATagAndSetValidAddsOne() {
        byte[] tagged = frame().ethernet(0x8100).vlan(0, 42, 0x0800).ipv4(17, 28, 0, 0).udp(1, 2, 8).build();
        byte[] untagged = frame().ethernet(0x0800).ipv4(17, 28, 0, 0).udp(1, 2, 8).build();
        assertTrue(parser.parse(tagged, 0, tagged.length, tagged.length, r));
        r.setValid(g.header("vlan_outer").index(), false);
        r.set(g.field("ethernet.ether_type"), 0x0800);
        byte[] out = new byte[128];
        int n = deparser.deparse(r, tagged, 0, tagged.length, out, 0);
        assertEquals(tagged.length - 4, n);
        assertArrayEquals(untagged, Arrays.copyOf(out, n));

        assertTrue(parser.parse(untagged, 0, untagged.length, untagged.length, r));
        int vlan = g.header("vlan_outer").index();
        r.setValid(vlan, true);
        r.set(g.field("vlan_outer.vid"), 42);
        r.set(g.field("vlan_outer.ether_type"), 0x0800);
        r.set(g.field("ethernet.ether_type"), 0x8100);
        n = deparser.deparse(r, untagged, 0, untagged.length, out, 0);
        assertArrayEquals(tagged, Arrays.copyOf(out, n));
    }

    @Test
    void rewrittenTtlAndMacsDeparseWithAValidIpv4Checksum() {
        byte[] f = frame().ethernet(0x0800).ipv4(6, 48, 8, 0).tcp(80, 81, 0).build();
        assertTrue(parser.parse(f, 0, f.length, f.length, r));
        r.set(g.field("ipv4.ttl"), field("ipv4.ttl") - 1);
        r.set(g.field("ethernet.dst_addr"), 0x0A0B0C0D0E0FL);
        r.set(g.field("ethernet.src_addr"), 0x020000000063L);
        byte[] out = new byte[128];
        int n = DefaultParseGraph.deparserWithIpv4Checksum(g).deparse(r, f, 0, f.length, out, 0);
        assertEquals(f.length, n);
        assertEquals(0x0A, out[0]);
        assertEquals(0x63, out[11]);
        assertEquals(63, out[14 + 8]);
        // a header with a correct checksum sums to 0xFFFF: its checksum over all of it is 0
        assertEquals(0, new Checksum16().addBytes(out, 14, 28).get());
        // the frame came with checksum 0: the deparser wrote one
        assertTrue(out[14 + 10] != 0 || out[14 + 11] != 0, "checksum bytes written");
    }

    @Test
    void incrementalChecksumEqualsARecomputation() {
        byte[] f = frame().ethernet(0x0800).ipv4(17, 28, 0, 0).udp(1, 2, 8).build();
        int full = new Checksum16().addBytes(f, 14, 20).get();
        f[14 + 10] = (byte) (full >>> 8);
        f[14 + 11] = (byte) full;
        assertEquals(0, new Checksum16().addBytes(f, 14, 20).get());
        // TTL 64 -> 63: the 16-bit word ttl|protocol changes
        int oldWord = (64 << 8) | 17;
        int newWord = (63 << 8) | 17;
        int incremental = new Checksum16().resume(full).subtract(oldWord, 16).add(newWord, 16).get();
        f[14 + 8] = 63;
        f[14 + 10] = 0;
        f[14 + 11] = 0;
        assertEquals(new Checksum16().addBytes(f, 14, 20).get(), incremental);
        // fields of odd widths are concatenated before they are summed: 4 + 4 + 8 bits is one word
        assertEquals(new Checksum16().add(0x4521, 16).get(), new Checksum16().add(4, 4).add(5, 4).add(0x21, 8).get());
    }

    @Test
    void selectOnMasksRangesLookaheadAndValueSets() {
        HeaderType tag = HeaderType.of("tag_h", new HeaderField("kind", 8), new HeaderField("len", 8));
        ParseGraph custom = ParseGraph.builder("custom").header("tag", tag).header("tail", tag).valueSet("special", 8, 2)
                .state("start").select(SelectKey.lookahead(0, 8), SelectKey.lookahead(8, 8))
                .when("reject", KeySet.exact(0xFF), KeySet.ANY)
                .when("parse_tag", KeySet.masked(0x80, 0xC0), KeySet.ANY)
                .when("parse_tag", KeySet.range(1, 9), KeySet.range(100, 200))
                .when("parse_tag", KeySet.valueSet("special"), KeySet.ANY)
                .end()
                .state("parse_tag").extract("tag").advance(2).select("tag.len")
                .when(0, "accept").otherwise("parse_tail")
                .state("parse_tail").extract("tail").transition("accept")
                .build();
        PacketParser p = new PacketParser(custom, 64);
        ParseResult res = new ParseResult(custom);
        byte[] masked = {(byte) 0x9A, 0, 7, 7};
        assertTrue(p.parse(masked, 0, 4, 4, res));
        assertEquals(4, res.payloadOffset());
        byte[] ranged = {5, (byte) 150, 9, 9, 1, 2};
        assertTrue(p.parse(ranged, 0, 6, 6, res));
        assertEquals(1, res.get(custom.field("tail.kind")));
        byte[] outOfRange = {5, (byte) 201, 0, 0};
        assertFalse(p.parse(outOfRange, 0, 4, 4, res));
        assertEquals(ParserError.NO_MATCH, res.error());
        byte[] rejected = {(byte) 0xFF, 0};
        assertFalse(p.parse(rejected, 0, 2, 2, res));
        assertEquals(ParserError.REJECT, res.error());
        byte[] special = {0x42, 0, 0, 0};
        assertFalse(p.parse(special, 0, 4, 4, res));
        p.addValueSetEntry("special", 0x40, 0xF0);
        assertTrue(p.parse(special, 0, 4, 4, res));
        p.clearValueSet("special");
        assertFalse(p.parse(special, 0, 4, 4, res));
        byte[] lookaheadShort = {0x42};
        assertFalse(p.parse(lookaheadShort, 0, 1, 1, res));
        assertEquals(ParserError.PACKET_TOO_SHORT, res.error());
    }

    @Test
    void aLoopWithoutProgressTimesOutAndARepeatedHeaderIsAnError() {
        HeaderType one = HeaderType.of("one_h", new HeaderField("b", 8));
        ParseGraph loop = ParseGraph.builder("loop").header("h", one)
                .state("a").transition("b")
                .state("b").transition("a")
                .build();
        ParseResult res = new ParseResult(loop);
        assertFalse(new PacketParser(loop, 16).parse(new byte[4], 0, 4, 4, res));
        assertEquals(ParserError.TIMEOUT, res.error());
        ParseGraph twice = ParseGraph.builder("twice").header("h", one)
                .state("a").extract("h").transition("a")
                .build();
        ParseResult res2 = new ParseResult(twice);
        assertFalse(new PacketParser(twice, 16).parse(new byte[4], 0, 4, 4, res2));
        assertEquals(ParserError.HEADER_REPEATED, res2.error());
    }
}
