package dev.rmtemu.model.parse;

/**
 * The variable-length tail of a header (IPv4 and TCP options, an IPv6 extension
 * header's data), as P4's {@code varbit} extracted with a length computed from a
 * fixed field of the same header: {@code bytes = lengthField x bytesPerUnit - fixedBytes}
 * (IPv4: IHL x 4 - 20). A length below 0 or above {@code maxBytes} is the
 * {@link ParserError#HEADER_LENGTH} error.
 *
 * @param name        the tail's name ({@code options})
 * @param lengthField the fixed field holding the header's length ({@code ihl})
 * @param bytesPerUnit bytes per unit of the length field (4 for IHL, 8 for an extension header)
 * @param offsetBytes added to {@code lengthField x bytesPerUnit} (IPv4: -20; IPv6 extension: +6)
 * @param maxBytes    longest tail the header type allows
 */
public record VarbitLength(String name, String lengthField, int bytesPerUnit, int offsetBytes, int maxBytes) {
    public VarbitLength {
        if (bytesPerUnit < 1 || maxBytes < 0) {
            throw new IllegalArgumentException("varbit " + name + ": bytesPerUnit must be positive, maxBytes non-negative");
        }
    }

    /** Tail bytes for a length-field value, or -1 when the value gives no legal length. */
    public int bytesFor(long lengthValue) {
        long b = lengthValue * bytesPerUnit + offsetBytes;
        return b < 0 || b > maxBytes ? -1 : (int) b;
    }

    /** How many distinct legal tail lengths there are (each is one parser TCAM row after desugaring). */
    public int legalLengths() {
        int n = 0;
        for (long v = 0; v * bytesPerUnit + offsetBytes <= maxBytes; v++) {
            if (bytesFor(v) >= 0) {
                n++;
            }
        }
        return n;
    }
}
