package dev.rmtemu.model.p4.lower;

import dev.rmtemu.model.p4.preprocess.PreprocessorOptions;
import dev.rmtemu.model.p4.source.Diagnostic;
import dev.rmtemu.model.program.StageProgram;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * TNA's bridged metadata ({@code bridged.p4}): a header of the headers struct that the ingress
 * parser does not extract, the ingress deparser emits first and the egress parser extracts first
 * lowers to the program's bridged header (ProgramBuilder.bridged: buffered with the packet in the
 * traffic manager, never on the wire), padding included. The refused variants: the bridged header
 * emitted by the egress deparser, emitted after a frame header, or not emitted by ingress at all.
 * (p4c's Tofino back end bridges metadata itself only for architectures where it crosses the
 * traffic manager implicitly, backends/tofino/bf-p4c/arch/bridge_metadata.cpp; a TNA program
 * declares, emits and extracts it, as here.)
 */
class P4BridgedMetadataTest {
    private static final String FILE = "bridged.p4";

    private static String base() {
        try (InputStream in = P4BridgedMetadataTest.class.getResourceAsStream(FILE)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void theBridgedHeaderTravelsInsideTheSwitchOnly() {
        P4Programs.Result r = P4Programs.text(FILE, base(), PreprocessorOptions.defaults());
        assertEquals(List.of(), r.errors());
        StageProgram p = r.program();
        assertEquals(3, p.bridgedBytes(), "16 + 7 + 1 bits");
        assertTrue(p.field("br.port").isBridged());
        assertTrue(p.field("br.flag").isBridged());
        assertEquals(List.of("ethernet"), p.parser().emitOrder(), "the wire carries the frame's headers only");
    }

    @Test
    void theEgressDeparserMustNotEmitIt() {
        assertRefused("        pkt.emit(hdr.ethernet);\n", "        pkt.emit(hdr);\n", "control SwitchEgressDeparser",
                "egress deparser SwitchEgressDeparser emits the bridged header br; rmtemu removes bridged metadata before the"
                        + " packet leaves, so emit the frame's headers one by one");
    }

    @Test
    void theIngressDeparserEmitsItFirst() {
        assertRefused("        pkt.emit(hdr);\n", "        pkt.emit(hdr.ethernet);\n        pkt.emit(hdr.br);\n",
                "control SwitchIngressDeparser", "ingress deparser SwitchIngressDeparser emits the bridged header br after"
                        + " ethernet; the egress parser extracts it first, so it must be emitted first");
    }

    @Test
    void theIngressDeparserMustEmitIt() {
        assertRefused("        pkt.emit(hdr);\n", "        pkt.emit(hdr.ethernet);\n", "control SwitchIngressDeparser",
                "the egress parser extracts br, which the ingress parser does not extract and ingress deparser"
                        + " SwitchIngressDeparser does not emit (bridged metadata must be emitted by ingress)");
    }

    /** Bridged metadata is the first thing the egress parser reads: extracted after Ethernet, it is another parse. */
    @Test
    void theEgressParserExtractsItFirst() {
        String src = base().replace("""
                        pkt.extract(eg_intr_md);
                        pkt.extract(hdr.br);
                        transition parse_ethernet;
                    }
                    state parse_ethernet {
                        pkt.extract(hdr.ethernet);
                        transition accept;
                    }
                    """.indent(4), """
                        pkt.extract(eg_intr_md);
                        transition parse_ethernet;
                    }
                    state parse_ethernet {
                        pkt.extract(hdr.ethernet);
                        pkt.extract(hdr.br);
                        transition accept;
                    }
                    """.indent(4));
        assertTrue(src.contains("pkt.extract(hdr.ethernet);\n        pkt.extract(hdr.br);"), "the variant");
        int offset = src.indexOf("parser SwitchEgressParser");
        int line = 1 + (int) src.substring(0, offset).chars().filter(ch -> ch == '\n').count();
        P4Programs.Result r = P4Programs.text(FILE, src, PreprocessorOptions.defaults());
        assertEquals(List.of(FILE + ":" + line + ":1: egress parser SwitchEgressParser parses differently from the ingress parser;"
                + " rmtemu parses a frame once, so egress must parse the same headers the same way (or none)"),
                r.errors().stream().map(Diagnostic::line).toList());
    }

    /** The base program with the first {@code from} replaced by {@code to} is refused with one message at {@code at}. */
    private static void assertRefused(String from, String to, String at, String message) {
        String src = base();
        int i = src.indexOf(from, src.indexOf(at.startsWith("control SwitchEgress") ? "control SwitchEgressDeparser"
                : "control SwitchIngressDeparser"));
        assertTrue(i >= 0, from);
        String text = src.substring(0, i) + to + src.substring(i + from.length());
        int offset = text.indexOf(at);
        int line = 1 + (int) text.substring(0, offset).chars().filter(ch -> ch == '\n').count();
        int column = offset - text.lastIndexOf('\n', offset - 1);
        P4Programs.Result r = P4Programs.text(FILE, text, PreprocessorOptions.defaults());
        List<String> lines = r.errors().stream().map(Diagnostic::line).toList();
        assertEquals(List.of(FILE + ":" + line + ":" + column + ": " + message), lines);
    }
}
