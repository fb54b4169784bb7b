package dev.rmtemu.model.parse;

import java.util.List;

/**
 * A program's parser and deparser as data: the parse graph, the parser's checksum operations
 * (TNA's parser {@code Checksum}: {@link ParserChecksumOp}), the deparser's emit order
 * (header names) and its checksum updates. Programs that declare none get
 * {@link #defaults()}: the default graph, every header in wire order, the IPv4 header
 * checksum updated (so a program that writes an IPv4 field leaves a valid checksum).
 */
public record ParserSpec(ParseGraph graph, List<String> emitOrder, List<ChecksumUpdate> checksums,
                         List<ParserChecksumOp> parserChecksums) {
    public ParserSpec {
        emitOrder = List.copyOf(emitOrder);
        checksums = List.copyOf(checksums);
        parserChecksums = List.copyOf(parserChecksums);
        // resolves every name now: a wrong header or field fails when the program is built
        new Deparser(graph, emitOrder, checksums);
        new ParserChecksums(graph, parserChecksums, f -> 0, f -> 1);
    }

    /** A spec whose parser computes no checksum. */
    public ParserSpec(ParseGraph graph, List<String> emitOrder, List<ChecksumUpdate> checksums) {
        this(graph, emitOrder, checksums, List.of());
    }

    /** The default spec, one immutable graph shared by every program that declares none. */
    public static ParserSpec defaults() {
        return Default.SPEC;
    }

    private static final class Default {
        static final ParserSpec SPEC = new ParserSpec(DefaultParseGraph.build(), DefaultParseGraph.EMIT_ORDER,
                List.of(DefaultParseGraph.ipv4Checksum()));
    }

    /** A new deparser for this spec (each switch owns one: it keeps a checksum accumulator). */
    public Deparser deparser() {
        return new Deparser(graph, emitOrder, checksums);
    }
}
