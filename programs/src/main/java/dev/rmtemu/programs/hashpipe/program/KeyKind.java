package dev.rmtemu.programs.hashpipe.program;

import dev.rmtemu.model.UserError;

import java.util.ArrayList;
import java.util.List;

/**
 * What HashPipe counts by. A key is held as two words: {@code lo} (up to 64
 * bits) and {@code hi} (the bits beyond 64, only for the 5-tuple). Key value 0
 * (both words) marks an empty slot, so a real key of 0 is counted as
 * {@link #ZERO_KEY_ALIAS} (0.0.0.0 is no real source address; a zero
 * fingerprint is one 5-tuple in 2^32).
 */
public enum KeyKind {
    /** A 32-bit CRC-32 fingerprint of the 5-tuple: fits one 32-bit stateful-ALU word. */
    FINGERPRINT("fingerprint", 32),
    /** The IPv4 source address: fits one 32-bit word. */
    SRCIP("srcip", 32),
    /** The full IPv4 5-tuple (104 bits): lo = src·dst, hi = proto·sport·dport (40 bits). */
    FIVETUPLE("5tuple", 104);

    /** The value a key of 0 is stored as (0 marks an empty slot). */
    public static final long ZERO_KEY_ALIAS = 1;
    /** Bits of the 5-tuple beyond the first 64 (protocol 8 + ports 16 + 16). */
    public static final int FIVETUPLE_HI_BITS = 40;

    private final String label;
    private final int bits;

    KeyKind(String label, int bits) {
        this.label = label;
        this.bits = bits;
    }

    public String label() {
        return label;
    }

    /** Key width in bits. */
    public int bits() {
        return bits;
    }

    /**
     * True when the key reads IPv4 addresses only: an IPv6 packet's addresses are folded into
     * it (bits 32..63 of each address, where
     * an IPv4 address sits in the record's address slot), so it is counted as a made-up IPv4 flow.
     */
    public boolean ipv4Only() {
        return this != FINGERPRINT;
    }

    /** True when the key needs a second word ({@code hi}). */
    public boolean wide() {
        return bits > 64;
    }

    public static List<String> labels() {
        List<String> out = new ArrayList<>();
        for (KeyKind k : values()) {
            out.add(k.label);
        }
        return out;
    }

    public static KeyKind byLabel(String label) {
        for (KeyKind k : values()) {
            if (k.label.equals(label)) {
                return k;
            }
        }
        throw new UserError("unknown HashPipe key '" + label + "' (known: " + String.join(", ", labels()) + ")");
    }

    /** Formats a key for reports: dotted quad, hex fingerprint or the 5-tuple. */
    public String format(long lo, long hi) {
        return switch (this) {
            case FINGERPRINT -> String.format("fp:%08x", lo);
            case SRCIP -> ip(lo);
            case FIVETUPLE -> ip(lo >>> 32) + " > " + ip(lo) + " proto " + ((hi >>> 32) & 0xFF)
                    + " " + ((hi >>> 16) & 0xFFFF) + ">" + (hi & 0xFFFF);
        };
    }

    private static String ip(long v) {
        return ((v >>> 24) & 0xFF) + "." + ((v >>> 16) & 0xFF) + "." + ((v >>> 8) & 0xFF) + "." + (v & 0xFF);
    }
}
