package dev.rmtemu.model.parse;

/**
 * A resolved header field ({@code ipv4.ttl}): its header, field index, the first
 * word it occupies in a {@link ParseResult} and its width. Resolve once, outside
 * the per-packet path, with {@link ParseGraph#field(String)}.
 */
public record FieldRef(String name, int header, int field, int word, int bits) {
    /** 64-bit words the field takes. */
    public int words() {
        return (bits + Long.SIZE - 1) / Long.SIZE;
    }
}
