package dev.rmtemu.model.parse;

import java.util.List;

/**
 * One call of TNA's parser {@code Checksum} extern, in parse state {@code state} after the
 * state's first {@code position} operations (extracts and advances): {@code checksum} names the extern
 * instance; {@link Kind#ADD} and {@link Kind#SUBTRACT} take {@code fields} (dotted header fields,
 * whole 16-bit words in all); {@link Kind#VERIFY}, {@link Kind#GET} and {@link Kind#DEPOSIT}
 * write {@code target}, a metadata field of the program, by its name.
 */
public record ParserChecksumOp(String state, int position, String checksum, Kind kind, List<String> fields, String target) {
    /** The extern's parser methods. */
    public enum Kind {
        /** {@code add(data)}: the ones'-complement sum takes the data's 16-bit words. */
        ADD,
        /** {@code subtract(data)}: the sum takes each word's ones' complement (RFC 1624's {@code ~m}). */
        SUBTRACT,
        /** {@code verify()}: true (1) when the sum is not 0xFFFF, that is when the checksum is wrong. */
        VERIFY,
        /** {@code get()}: the folded sum so far (the residual a deparser update completes). */
        GET,
        /** {@code subtract_all_and_deposit(residual)}: every header extracted later is subtracted; the final sum is deposited. */
        DEPOSIT
    }

    public ParserChecksumOp {
        fields = List.copyOf(fields);
        if ((kind == Kind.ADD || kind == Kind.SUBTRACT) != (target == null)) {
            throw new IllegalArgumentException("parser checksum " + checksum + "." + kind + ": add and subtract take fields,"
                    + " the others a target");
        }
    }
}
