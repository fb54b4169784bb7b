package dev.rmtemu.model.program;

import dev.rmtemu.model.parse.DefaultParseGraph;
import dev.rmtemu.model.parse.ParseGraph;
import dev.rmtemu.model.parse.ParserSpec;
import dev.rmtemu.model.parse.StandardHeaders;
import dev.rmtemu.model.phv.Field;
import dev.rmtemu.model.phv.FieldKind;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Header fields declared by the parse graph's names: widths, slices, validity bits, refusals. */
class ProgramHeadersTest {
    @Test
    void aFieldTakesItsWidthFromTheHeaderType() {
        ProgramBuilder b = ProgramBuilder.create("p", "d");
        Field mac = b.header("ethernet.dst_addr");
        Field ttl = b.header("ipv4.ttl");
        assertEquals(48, mac.width());
        assertEquals("ethernet.dst_addr", mac.wireField());
        assertEquals(FieldKind.HEADER, mac.kind());
        assertEquals(8, ttl.width());
        StageProgram p = b.build();
        assertEquals(DefaultParseGraph.NAME, p.parser().graph().name());
        assertEquals(DefaultParseGraph.EMIT_ORDER, p.parser().emitOrder());
        assertEquals(List.of(DefaultParseGraph.ipv4Checksum()), p.parser().checksums());
    }

    /** The parser fills a header field from the frame's bytes only: one naming no field there is refused (a bridged one is not). */
    @Test
    void aHeaderFieldNamesAFieldOfTheParseGraph() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new Field("ipv4.dst", 32, FieldKind.HEADER, null, List.of(), 0));
        assertEquals("header field ipv4.dst names no field of the parse graph", e.getMessage());
        assertEquals(List.of("ipv4.dst_addr"), new Field("ipv4.dst", 32, FieldKind.HEADER, null, List.of("ipv4.dst_addr"), 0).wireFields());
        assertEquals(List.of(), Field.bridged("meta.x", 8, 0).wireFields());
    }

    @Test
    void aNarrowerDeclarationKeepsTheLowBits() {
        Field f = ProgramBuilder.create("p", "d").header("ipv4.identification", 10);
        assertEquals(10, f.width());
        assertEquals(List.of("ipv4.identification[9:0]"), f.wireFields());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ProgramBuilder.create("p", "d").header("ipv4.ttl", 9));
        assertEquals("header ipv4.ttl: 9 bits wider than the field (8)", e.getMessage());
    }

    @Test
    void aFieldWiderThan64BitsIsDeclaredAsSlices() {
        ProgramBuilder b = ProgramBuilder.create("p", "d");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> b.header("ipv6.src_addr"));
        assertEquals("header ipv6.src_addr is 128 bits: declare slices of at most 64 (ipv6.src_addr[127:64], "
                + "ipv6.src_addr[63:0])", e.getMessage());
        Field hi = b.header("ipv6.src_addr[127:64]");
        Field lo = b.header("ipv6.src_addr[63:0]");
        assertEquals(64, hi.width());
        assertEquals(64, lo.width());
        assertEquals("ipv6.src_addr[127:64]", hi.wireField());
        e = assertThrows(IllegalArgumentException.class, () -> b.header("ipv6.dst_addr[70:60]"));
        assertEquals("header ipv6.dst_addr[70:60]: a slice of a field wider than 64 bits lies on one side of bit 64",
                e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> b.header("ipv4.ttl[8:0]"));
        assertEquals("header ipv4.ttl[8:0]: slice outside the field's 8 bits", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> b.header("ipv4.ttl[x]"));
        assertEquals("header ipv4.ttl[x]: a slice is NAME[HI:LO]", e.getMessage());
    }

    @Test
    void theValidityBitIsOnePhvBitNamedAsP4cNamesIt() {
        ProgramBuilder b = ProgramBuilder.create("p", "d");
        Field v = b.valid("vlan_outer");
        assertEquals("vlan_outer.$valid", v.name());
        assertEquals(1, v.width());
        assertEquals(FieldKind.HEADER, v.kind());
        assertSame(v, b.valid("vlan_outer"), "declared once");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> b.valid("mpls"));
        assertEquals("parse graph default has no header mpls", e.getMessage());
    }

    /** p4c overlays fields of mutually exclusive headers in one container (bf-p4c/phv/mutex_overlay.h). */
    @Test
    void fieldsOfMutuallyExclusiveHeadersShareOneOverlay() {
        ProgramBuilder b = ProgramBuilder.create("p", "d");
        Field port = b.overlay("l4.src_port", "tcp.src_port", "udp.src_port", "icmp.type");
        assertEquals(16, port.width());
        assertEquals(64, b.overlay("ip.src_hi", "ipv6.src_addr[127:64]", "ipv4.src_addr").width());
        assertEquals(List.of("tcp.src_port", "udp.src_port", "icmp.type"), port.wireFields());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> b.overlay("x", "ipv4.ttl", "tcp.flags"));
        assertEquals("overlay x: ipv4.ttl and tcp.flags are in headers one parse can extract together", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> b.overlay("y", "vlan_outer.vid", "vlan_inner.vid"));
        assertEquals("overlay y: vlan_outer.vid and vlan_inner.vid are in headers one parse can extract together",
                e.getMessage());
        ParseGraph g = DefaultParseGraph.build();
        int ipv4 = g.header("ipv4").index();
        int ipv6 = g.header("ipv6").index();
        int arp = g.header("arp").index();
        assertEquals(true, g.mutuallyExclusive(ipv4, ipv6));
        assertEquals(true, g.mutuallyExclusive(arp, g.header("tcp").index()));
        assertEquals(false, g.mutuallyExclusive(g.header("ethernet").index(), arp));
        assertEquals(false, g.mutuallyExclusive(ipv6, g.header("icmpv6").index()));
        assertEquals(true, g.mutuallyExclusive(ipv4, g.header("icmpv6").index()));
    }

    @Test
    void unknownNamesAndALateParserAreRefused() {
        ProgramBuilder b = ProgramBuilder.create("p", "d");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> b.header("ipv4.nosuch"));
        assertEquals("header ipv4.nosuch: header ipv4 has no field nosuch", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> b.header("gre.key"));
        assertEquals("header gre.key: parse graph default has no header gre", e.getMessage());
        b.header("ipv4.ttl");
        e = assertThrows(IllegalArgumentException.class, () -> b.parser(ParserSpec.defaults()));
        assertEquals("program p: parser declared after header fields or twice", e.getMessage());
    }

    @Test
    void aProgramsOwnGraphNamesItsOwnHeaders() {
        ParseGraph.Builder g = ParseGraph.builder("own").header("ethernet", StandardHeaders.ETHERNET);
        g.state("start").extract("ethernet").transition("accept");
        ProgramBuilder b = ProgramBuilder.create("p", "d")
                .parser(new ParserSpec(g.build(), List.of("ethernet"), List.of()));
        assertEquals(16, b.header("ethernet.ether_type").width());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> b.header("ipv4.ttl"));
        assertEquals("header ipv4.ttl: parse graph own has no header ipv4", e.getMessage());
        assertEquals("own", b.build().parser().graph().name());
    }
}
