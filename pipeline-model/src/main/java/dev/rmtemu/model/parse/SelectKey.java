package dev.rmtemu.model.parse;

/** One component of a select key: an extracted field, or bits looked at ahead of the cursor. */
public sealed interface SelectKey {
    /** Width of the key component in bits (at most 64). */
    int bits();

    /** A field of a header extracted earlier ({@code ipv4.protocol}). */
    record Field(String field) implements SelectKey {
        @Override
        public int bits() {
            throw new IllegalStateException("a field key's width is known once the graph resolves it");
        }
    }

    /** {@code lookahead<bit<bits>>} at {@code bitOffset} bits after the cursor, without moving it. */
    record Lookahead(int bitOffset, int bits) implements SelectKey {
        public Lookahead {
            if (bitOffset < 0 || bits < 1 || bits > Long.SIZE) {
                throw new IllegalArgumentException("lookahead of " + bits + " bits at " + bitOffset);
            }
        }
    }

    static SelectKey field(String dotted) {
        return new Field(dotted);
    }

    static SelectKey lookahead(int bitOffset, int bits) {
        return new Lookahead(bitOffset, bits);
    }
}
