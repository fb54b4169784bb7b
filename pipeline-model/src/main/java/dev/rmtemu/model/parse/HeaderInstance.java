package dev.rmtemu.model.parse;

/**
 * A header of a parse graph ({@code ethernet}, {@code vlan_outer}): a name, its
 * type, its index (its validity bit), and where its fields' words start in a
 * {@link ParseResult}.
 */
public record HeaderInstance(String name, HeaderType type, int index, int firstWord) {
    /** The word of field {@code i} in the parse result. */
    public int wordOf(int field) {
        int w = firstWord;
        for (int i = 0; i < field; i++) {
            w += type.fields().get(i).words();
        }
        return w;
    }

    /** Words all fields take. */
    public int words() {
        int w = 0;
        for (HeaderField f : type.fields()) {
            w += f.words();
        }
        return w;
    }
}
