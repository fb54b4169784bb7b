package dev.rmtemu.model.hash;

import java.util.Arrays;

/**
 * A CRC over a fixed layout of big-endian values (field i is fed as
 * {@code fieldBytes[i]} bytes, most significant first), computed with one
 * table lookup per input byte and no dependency between the lookups.
 *
 * <p>Why it is exact: a CRC register update is affine over GF(2), so for a
 * message of fixed length, {@code crc(m) = crc(0…0) ^ XOR over positions p of
 * L_p(m_p)} with {@code L_p(b) = crc(b at p, zeros elsewhere) ^ crc(0…0)}; and
 * L_p is itself linear in the bits of b. The tables hold L_p for every byte
 * value, built from the byte-wise CRC, so results equal {@link Crc#update}
 * feeding byte by byte (including reflection, init and xorout). The byte-wise
 * form chains every byte through the previous one; this form lets the CPU run
 * all lookups at once, which is what a hash unit's XOR tree does in hardware.
 */
public final class PositionalCrc {
    /** Largest layout accepted: 64 bytes = 64 KiB of tables. Hash inputs on a Tofino stage are far smaller. */
    public static final int MAX_BYTES = 64;

    private final Crc crc;
    private final int[] fieldBytes;
    /** Offset of field i's least significant byte's table; the field's next byte up is 256 entries before it (fed earlier). */
    private final int[] fieldBase;
    private final int[] table;
    /** The CRC of the all-zero message of this layout's length. */
    private final int zero;

    public PositionalCrc(Crc crc, int... fieldBytes) {
        int total = 0;
        for (int b : fieldBytes) {
            if (b < 1 || b > 8) {
                throw new IllegalArgumentException("field of " + b + " bytes: must be 1..8");
            }
            total += b;
        }
        if (total < 1 || total > MAX_BYTES) {
            throw new IllegalArgumentException("layout of " + total + " bytes: must be 1.." + MAX_BYTES);
        }
        this.crc = crc;
        this.fieldBytes = fieldBytes.clone();
        this.fieldBase = new int[fieldBytes.length];
        this.table = new int[total * 256];
        int[] message = new int[total];
        this.zero = (int) bytewise(crc, message);
        // position p (0 = first byte fed) of the message; field i's bytes are fed MSB first
        int p = 0;
        for (int i = 0; i < fieldBytes.length; i++) {
            fieldBase[i] = tableOffset(i, 0);
            for (int j = fieldBytes[i] - 1; j >= 0; j--, p++) {
                // the table for byte j (0 = least significant) of field i
                int base = tableOffset(i, j);
                int[] bit = new int[8];
                for (int k = 0; k < 8; k++) {
                    message[p] = 1 << k;
                    bit[k] = (int) bytewise(crc, message) ^ zero;
                    message[p] = 0;
                }
                for (int b = 0; b < 256; b++) {
                    int v = 0;
                    for (int k = 0; k < 8; k++) {
                        if ((b & (1 << k)) != 0) {
                            v ^= bit[k];
                        }
                    }
                    table[base + b] = v;
                }
            }
        }
    }

    /** Table of byte j (0 = least significant) of field i: fields are laid out in feed order, MSB first. */
    private int tableOffset(int field, int byteIndex) {
        int p = 0;
        for (int i = 0; i < field; i++) {
            p += fieldBytes[i];
        }
        return (p + fieldBytes[field] - 1 - byteIndex) * 256;
    }

    private static long bytewise(Crc crc, int[] message) {
        long s = crc.init();
        for (int b : message) {
            s = crc.update(s, b);
        }
        return crc.finish(s);
    }

    /** The CRC of one value laid out as field 0 (a one-field layout). */
    public long hash(long v0) {
        return finish(field(0, v0));
    }

    /** The CRC of two values laid out as fields 0 and 1. */
    public long hash(long v0, long v1) {
        return finish(field(0, v0) ^ field(1, v1));
    }

    /** The CRC of {@code values[slots[i]]} as field i, for every field of the layout. */
    public long hash(long[] values, int[] slots) {
        int r = 0;
        final int[] t = table;
        for (int i = 0; i < slots.length; i++) {
            long v = values[slots[i]];
            int base = fieldBase[i];
            for (int j = fieldBytes[i]; j > 0; j--, base -= 256, v >>>= 8) {
                r ^= t[base + (int) (v & 0xff)];
            }
        }
        return finish(r);
    }

    /**
     * Field i's share of the CRC (XOR the shares of all fields, then {@link #finish}):
     * lets callers hash values that are not in an array without allocating.
     */
    public int field(int i, long v) {
        final int[] t = table;
        int base = fieldBase[i];
        switch (fieldBytes[i]) {
            case 1:
                return t[base + (int) (v & 0xff)];
            case 2:
                return t[base + (int) (v & 0xff)] ^ t[base - 256 + (int) ((v >>> 8) & 0xff)];
            case 4: // an IPv4 address or a 32-bit key: unrolled, the lookups are independent
                return t[base + (int) (v & 0xff)] ^ t[base - 256 + (int) ((v >>> 8) & 0xff)]
                        ^ t[base - 512 + (int) ((v >>> 16) & 0xff)] ^ t[base - 768 + (int) ((v >>> 24) & 0xff)];
            default:
                int r = 0;
                for (int j = fieldBytes[i]; j > 0; j--, base -= 256, v >>>= 8) {
                    r ^= t[base + (int) (v & 0xff)];
                }
                return r;
        }
    }

    /** The CRC from the XOR of all fields' shares. */
    public long finish(int shares) {
        return (shares ^ zero) & 0xFFFFFFFFL;
    }

    public Crc crc() {
        return crc;
    }

    /** The lookup tables (shared with the generated {@link CrcKernel}, never written after construction). */
    int[] tables() {
        return table;
    }

    /** The CRC of the all-zero message of this layout. */
    int zero() {
        return zero;
    }

    /** Straight-line code for this layout reading field i from {@code phv[slots[i]]}, masked to {@code outputMask}. */
    public CrcKernel kernel(int[] slots, long outputMask) {
        int[] none = new int[slots.length];
        Arrays.fill(none, -1);
        return kernel(slots, none, outputMask);
    }

    /**
     * As {@link #kernel(int[], long)}, field i read as {@code phv[slots[i]] ^ phv[partnerSlots[i]]}
     * where {@code partnerSlots[i] >= 0} (a symmetric pair, see {@link HashUnit}).
     */
    public CrcKernel kernel(int[] slots, int[] partnerSlots, long outputMask) {
        if (slots.length != fieldBytes.length || partnerSlots.length != fieldBytes.length) {
            throw new IllegalArgumentException(slots.length + " slots for " + fieldBytes.length + " fields");
        }
        return CrcKernel.compile(this, slots.clone(), partnerSlots.clone(), outputMask);
    }

    /** Bytes per field, in feed order. */
    public int fieldBytes(int i) {
        return fieldBytes[i];
    }

    public int fields() {
        return fieldBytes.length;
    }
}
