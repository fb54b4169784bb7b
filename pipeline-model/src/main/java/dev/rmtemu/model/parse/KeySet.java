package dev.rmtemu.model.parse;

/** What one select key is compared with in one branch (P4's keyset expressions). */
public sealed interface KeySet {
    /** The key equals a value. */
    record Exact(long value) implements KeySet {
    }

    /** {@code key & mask == value & mask} (P4's {@code &&&}). */
    record Masked(long value, long mask) implements KeySet {
    }

    /** {@code lo <= key <= hi}, unsigned (P4's {@code ..}). */
    record Range(long lo, long hi) implements KeySet {
    }

    /** The key is in a parser value set the control plane fills. */
    record InValueSet(String valueSet) implements KeySet {
    }

    /** Any value ({@code _} or {@code default}). */
    record Any() implements KeySet {
    }

    KeySet ANY = new Any();

    static KeySet exact(long v) {
        return new Exact(v);
    }

    static KeySet masked(long v, long mask) {
        return new Masked(v, mask);
    }

    static KeySet range(long lo, long hi) {
        return new Range(lo, hi);
    }

    static KeySet valueSet(String name) {
        return new InValueSet(name);
    }
}
