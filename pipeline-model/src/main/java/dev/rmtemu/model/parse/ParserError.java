package dev.rmtemu.model.parse;

import java.util.Locale;

/**
 * Why a packet's parse ended in error. A parser error is a counted drop
 * ({@code parser_error}), never an exception. The kinds follow P4's core errors
 * (NoMatch, PacketTooShort, HeaderTooShort, ParserTimeout) and Tofino's parser
 * errors (a container written twice: p4c {@code bf-p4c/parde/parde_spec.h}, "Parser
 * write modes"), plus the two bounds an emulator adds: the captured length and the
 * parser's window.
 */
public enum ParserError {
    /** A transition to {@code reject}. */
    REJECT,
    /** A select matched no branch (and had no default). */
    NO_MATCH,
    /** An extract, advance or lookahead reaches past the frame's wire length. */
    PACKET_TOO_SHORT,
    /** The frame is long enough on the wire, but the capture kept fewer bytes than the parser reads. */
    CAPTURE_TRUNCATED,
    /** The parser reads past its window (the first H bytes the ring carries). */
    WINDOW_EXCEEDED,
    /** A header's length field gives a length below its fixed part or above its maximum (an IPv4 IHL below 5). */
    HEADER_LENGTH,
    /** The same header extracted twice in one parse (Tofino's multiple-write error). */
    HEADER_REPEATED,
    /** More states visited than the graph can visit while making progress (a loop without an advance). */
    TIMEOUT;

    private static final ParserError[] ALL = values();

    /** snake_case name as reports print it. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static ParserError of(int ordinal) {
        return ALL[ordinal];
    }

    public static int count() {
        return ALL.length;
    }
}
