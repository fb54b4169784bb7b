package dev.rmtemu.model.hash;

import dev.rmtemu.model.phv.Field;
import java.util.List;

/**
 * A CRC of 8..32 bits in the Rocksoft/Williams parameter model (width, poly,
 * init, refin, refout, xorout), table driven. Tofino's hash units compute CRCs
 * of this family with a chosen polynomial; the named presets match the standard
 * check values for "123456789" (e.g. CRC-32 = 0xCBF43926).
 */
public final class Crc implements HashAlgorithm {
    /** Preset names accepted by {@link #named(String)}. */
    public static final List<String> NAMES = List.of(
            "crc32", "crc32c", "crc32_bzip2", "crc32_mpeg", "crc16", "crc16_ccitt", "crc16_xmodem", "crc16_dnp", "crc8");

    private final String name;
    private final int width;
    private final long poly;
    private final long init;
    private final boolean refIn;
    private final boolean refOut;
    private final long xorOut;
    private final long mask;
    private final long[] table = new long[256];
    /**
     * Slicing tables for the reflected orientation: slice[k] advances a byte through k + 1
     * more byte steps, so 2 or 4 bytes of a field take one step of lookups (slicing-by-4, as
     * in Intel's and zlib's CRC code). slice[0] is {@link #table}. Null when not reflected.
     */
    private final long[][] slice;
    /** The initial register value in the table's orientation (reflected when refIn). */
    private final long start;

    public Crc(String name, int width, long poly, long init, boolean refIn, boolean refOut, long xorOut) {
        if (width < 8 || width > 32) {
            throw new IllegalArgumentException("CRC width must be 8..32: " + width);
        }
        this.name = name;
        this.width = width;
        this.mask = (1L << width) - 1;
        this.poly = poly & mask;
        this.init = init & mask;
        this.refIn = refIn;
        this.refOut = refOut;
        this.xorOut = xorOut & mask;
        this.start = refIn ? reflect(this.init, width) : this.init;
        buildTable();
        this.slice = refIn ? buildSlices() : null;
    }

    private long[][] buildSlices() {
        long[][] t = new long[4][];
        t[0] = table;
        for (int k = 1; k < 4; k++) {
            t[k] = new long[256];
            for (int i = 0; i < 256; i++) {
                long prev = t[k - 1][i];
                t[k][i] = (prev >>> 8) ^ table[(int) (prev & 0xff)];
            }
        }
        return t;
    }

    /** A standard preset, or null. */
    public static Crc named(String name) {
        return switch (name) {
            case "crc32" -> new Crc("crc32", 32, 0x04C11DB7L, 0xFFFFFFFFL, true, true, 0xFFFFFFFFL);
            case "crc32c" -> new Crc("crc32c", 32, 0x1EDC6F41L, 0xFFFFFFFFL, true, true, 0xFFFFFFFFL);
            case "crc32_bzip2" -> new Crc("crc32_bzip2", 32, 0x04C11DB7L, 0xFFFFFFFFL, false, false, 0xFFFFFFFFL);
            case "crc32_mpeg" -> new Crc("crc32_mpeg", 32, 0x04C11DB7L, 0xFFFFFFFFL, false, false, 0);
            case "crc16" -> new Crc("crc16", 16, 0x8005, 0, true, true, 0);
            case "crc16_ccitt" -> new Crc("crc16_ccitt", 16, 0x1021, 0xFFFF, false, false, 0);
            case "crc16_xmodem" -> new Crc("crc16_xmodem", 16, 0x1021, 0, false, false, 0);
            case "crc16_dnp" -> new Crc("crc16_dnp", 16, 0x3D65, 0, true, true, 0xFFFF);
            case "crc8" -> new Crc("crc8", 8, 0x07, 0, false, false, 0);
            default -> null;
        };
    }

    private void buildTable() {
        // The table works in the "reflected" or "normal" register orientation
        // depending on refIn, so update() is one lookup per byte either way.
        for (int b = 0; b < 256; b++) {
            long r;
            if (refIn) {
                long rpoly = reflect(poly, width);
                r = b;
                for (int i = 0; i < 8; i++) {
                    r = (r & 1) != 0 ? (r >>> 1) ^ rpoly : r >>> 1;
                }
            } else {
                r = ((long) b) << (width - 8);
                long top = 1L << (width - 1);
                for (int i = 0; i < 8; i++) {
                    r = (r & top) != 0 ? ((r << 1) ^ poly) : (r << 1);
                }
            }
            table[b] = r & mask;
        }
    }

    static long reflect(long v, int bits) {
        long r = 0;
        for (int i = 0; i < bits; i++) {
            if ((v & (1L << i)) != 0) {
                r |= 1L << (bits - 1 - i);
            }
        }
        return r;
    }

    @Override
    public long init() {
        return start;
    }

    @Override
    public long update(long state, int b) {
        if (refIn) {
            return (state >>> 8) ^ table[(int) ((state ^ b) & 0xff)];
        }
        return ((state << 8) ^ table[(int) (((state >>> (width - 8)) ^ b) & 0xff)]) & mask;
    }

    /**
     * The CRC over the given fields' PHV values, each fed as ceil(width/8)
     * big-endian bytes (the same bytes {@link HashUnit} feeds), in one tight loop.
     */
    long overFields(long[] phv, Field[] fields) {
        long s = start;
        final long[] t = table;
        if (refIn) {
            final long[] t1 = slice[1];
            final long[] t2 = slice[2];
            final long[] t3 = slice[3];
            for (Field f : fields) {
                long v = phv[f.slot()];
                int bytes = (f.width() + 7) / 8;
                if (bytes == 4) {
                    // the field's 4 big-endian bytes, first byte lowest: one sliced step
                    long x = s ^ (Integer.reverseBytes((int) v) & 0xFFFFFFFFL);
                    s = (x >>> 32) ^ t3[(int) (x & 0xff)] ^ t2[(int) ((x >>> 8) & 0xff)]
                            ^ t1[(int) ((x >>> 16) & 0xff)] ^ t[(int) ((x >>> 24) & 0xff)];
                } else if (bytes == 2) {
                    long x = s ^ (((v >>> 8) & 0xff) | ((v & 0xff) << 8));
                    s = (x >>> 16) ^ t1[(int) (x & 0xff)] ^ t[(int) ((x >>> 8) & 0xff)];
                } else {
                    for (int shift = (bytes - 1) * 8; shift >= 0; shift -= 8) {
                        s = (s >>> 8) ^ t[(int) ((s ^ (v >>> shift)) & 0xff)];
                    }
                }
            }
        } else {
            int top = width - 8;
            for (Field f : fields) {
                long v = phv[f.slot()];
                for (int shift = ((f.width() + 7) / 8 - 1) * 8; shift >= 0; shift -= 8) {
                    s = ((s << 8) ^ t[(int) (((s >>> top) ^ (v >>> shift)) & 0xff)]) & mask;
                }
            }
        }
        return finish(s);
    }

    @Override
    public long finish(long state) {
        long r = state;
        if (refIn != refOut) {
            r = reflect(r, width);
        }
        return (r ^ xorOut) & mask;
    }

    @Override
    public int width() {
        return width;
    }

    @Override
    public String describe() {
        return String.format("%s(width=%d,poly=0x%x,init=0x%x,refin=%b,refout=%b,xorout=0x%x)",
                name, width, poly, init, refIn, refOut, xorOut);
    }
}
