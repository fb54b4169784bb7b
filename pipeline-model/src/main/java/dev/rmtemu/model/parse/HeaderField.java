package dev.rmtemu.model.parse;

/**
 * One fixed-width field of a header type, in wire order (most significant bit
 * first, network byte order). Up to 128 bits: an IPv6 address is one field.
 */
public record HeaderField(String name, int bits) {
    /** Widest field: a 128-bit IPv6 address (kept as two 64-bit words). */
    public static final int MAX_BITS = 128;

    public HeaderField {
        if (name == null || name.isEmpty()) {
            throw new IllegalArgumentException("a header field needs a name");
        }
        if (bits < 1 || bits > MAX_BITS) {
            throw new IllegalArgumentException("field " + name + ": width " + bits + " not in 1.." + MAX_BITS);
        }
    }

    /** 64-bit words the parse result keeps for this field. */
    public int words() {
        return (bits + Long.SIZE - 1) / Long.SIZE;
    }
}
