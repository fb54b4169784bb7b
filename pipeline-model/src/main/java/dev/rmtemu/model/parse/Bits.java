package dev.rmtemu.model.parse;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/** Big-endian bit reads and writes on a byte array (network byte order, most significant bit first). */
final class Bits {
    private Bits() {
    }

    /** Eight bytes of a byte array as one big-endian long: one load instead of eight. */
    private static final VarHandle BIG_ENDIAN_LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

    /**
     * The eight bytes from {@code at} as one big-endian long; the caller has checked
     * {@code at <= buf.length - 8} (the array's own bounds check stays, as a belt).
     */
    static long bigEndianLong(byte[] buf, int at) {
        return (long) BIG_ENDIAN_LONG.get(buf, at);
    }

    private static final VarHandle BIG_ENDIAN_INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);

    /** The four bytes from {@code at} as an unsigned big-endian number (the array's bounds check applies). */
    static long bigEndianUnsignedInt(byte[] buf, int at) {
        return (int) BIG_ENDIAN_INT.get(buf, at) & 0xFFFF_FFFFL;
    }

    /** {@code bits} (1..64) bits starting at bit {@code pos} of {@code buf}. */
    static long read(byte[] buf, long pos, int bits) {
        int first = (int) (pos >>> 3);
        int lead = (int) (pos & 7);
        if (lead + bits <= Long.SIZE && first <= buf.length - Long.BYTES) {
            // the field's bits lie in the eight bytes from its first one: the bytes past the field
            // (the frame's next bytes, or the next slot's) are shifted out, never used
            long w = (long) BIG_ENDIAN_LONG.get(buf, first);
            return (w << lead) >>> (Long.SIZE - bits);
        }
        int span = (lead + bits + 7) >>> 3;
        if (span <= Long.BYTES) {
            // the bytes the field touches fit one long: gather them, then shift and mask once
            long w = 0;
            for (int i = 0; i < span; i++) {
                w = (w << 8) | (buf[first + i] & 0xFF);
            }
            w >>>= span * 8 - lead - bits;
            return bits == Long.SIZE ? w : w & ((1L << bits) - 1);
        }
        long v = 0;
        int left = bits;
        long p = pos;
        if ((p & 7) == 0 && (left & 7) == 0) {
            int i = (int) (p >>> 3);
            for (int n = left >>> 3; n > 0; n--) {
                v = (v << 8) | (buf[i++] & 0xFF);
            }
            return v;
        }
        while (left > 0) {
            int inByte = (int) (p & 7);
            int avail = 8 - inByte;
            int take = Math.min(avail, left);
            int b = buf[(int) (p >>> 3)] & 0xFF;
            v = (v << take) | ((b >>> (avail - take)) & ((1 << take) - 1));
            left -= take;
            p += take;
        }
        return v;
    }

    /** Writes the low {@code bits} (1..64) bits of {@code value} at bit {@code pos} of {@code buf}. */
    static void write(byte[] buf, long pos, int bits, long value) {
        int first = (int) (pos >>> 3);
        int lead = (int) (pos & 7);
        if (lead + bits <= Long.SIZE && first <= buf.length - Long.BYTES) {
            // the field's bits lie in the eight bytes from its first one: one load, a masked merge,
            // one store (the bytes around the field are written back as they were)
            int tail = Long.SIZE - lead - bits;
            long mask = (bits == Long.SIZE ? -1L : (1L << bits) - 1) << tail;
            long w = (long) BIG_ENDIAN_LONG.get(buf, first);
            BIG_ENDIAN_LONG.set(buf, first, (w & ~mask) | ((value << tail) & mask));
            return;
        }
        int left = bits;
        long p = pos;
        while (left > 0) {
            int inByte = (int) (p & 7);
            int avail = 8 - inByte;
            int take = Math.min(avail, left);
            int chunk = (int) ((value >>> (left - take)) & ((1 << take) - 1));
            int shift = avail - take;
            int i = (int) (p >>> 3);
            int mask = ((1 << take) - 1) << shift;
            buf[i] = (byte) ((buf[i] & ~mask) | (chunk << shift));
            left -= take;
            p += take;
        }
    }
}
