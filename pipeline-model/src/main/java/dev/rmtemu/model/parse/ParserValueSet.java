package dev.rmtemu.model.parse;

/**
 * A parser value set ({@code value_set<bit<16>>(4) tpids}): up to {@code size}
 * value/mask pairs of {@code bits} bits that the control plane installs; a select
 * branch on it matches a key in the set. Each entry is one parser TCAM row.
 */
public record ParserValueSet(String name, int bits, int size) {
    public ParserValueSet {
        if (bits < 1 || bits > Long.SIZE || size < 1) {
            throw new IllegalArgumentException("value set " + name + ": " + bits + " bits, size " + size);
        }
    }
}
