package dev.rmtemu.model.target;

/**
 * The programmable parser's budgets, as the Tofino back end of p4c states them in
 * {@code backends/tofino/bf-p4c/parde/parde_spec.h} ({@code TofinoPardeSpec},
 * {@code JBayPardeSpec}). Any count may be {@link TargetProfile#UNLIMITED}.
 *
 * @param tcamRows         match rows of one parser's TCAM (states x select branches):
 *                         {@code PardeSpec::numTcamRows()}, 256 on Tofino 1 and 2
 * @param inputBufferBytes bytes one parser state sees ahead of its shift: what it may extract,
 *                         look ahead at or select on ({@code PardeSpec::byteInputBufferSize()}, 32)
 * @param selectKeyBits    bits of select key one state matches on: the match registers
 *                         ({@code matchRegisters()}: Tofino 1 one 16-bit and two 8-bit, Tofino 2 four 8-bit = 32)
 * @param windowBytes      bytes of a frame the parser may read: the head of the frame the ring carries
 *                         (an emulator budget; Tofino's ingress parse depth is unbounded,
 *                         {@code PardeSpec::maxParseDepth})
 */
public record ParserLimits(int tcamRows, int inputBufferBytes, int selectKeyBits, int windowBytes) {
    private static final int U = TargetProfile.UNLIMITED;
    /** Window of a profile that names none: the largest IPv4 packet. */
    public static final int DEFAULT_WINDOW = 65_535;

    /** No parser limits (a profile without a {@code "parser"} object). */
    public static final ParserLimits UNCONSTRAINED = new ParserLimits(U, U, U, DEFAULT_WINDOW);
}
