package dev.rmtemu.programs.hashpipe.program;

import dev.rmtemu.model.register.RegisterAction;

/**
 * The 128-bit cell of a 5-tuple HashPipe slot: {@code lo} = src·dst, {@code hi}
 * = count (24 bits, saturating) above proto·sport·dport (40 bits), and the
 * free-form stateful-ALU update over it (the same decisions as the 32-bit PAIR
 * atoms of {@link HashPipeProgram}).
 */
public final class WideCell {
    static final long KEY_HI_MASK = (1L << KeyKind.FIVETUPLE_HI_BITS) - 1;
    static final long COUNT_MAX = (1L << HashPipeConfig.FIVETUPLE_COUNT_BITS) - 1;

    private WideCell() {
    }

    static long hiWord(long keyHi, long count) {
        return (count << KeyKind.FIVETUPLE_HI_BITS) | (keyHi & KEY_HI_MASK);
    }

    public static long count(long hiWord) {
        return hiWord >>> KeyKind.FIVETUPLE_HI_BITS;
    }

    public static long keyHi(long hiWord) {
        return hiWord & KEY_HI_MASK;
    }

    /**
     * One read-modify-write. Returns, when {@code outputKey}, the evicted key's
     * lo word (0 when nothing was evicted), else the resident hi word on any miss
     * (0 on a hit; count 0 when the slot was empty).
     */
    static long step(RegisterAction.Cell c, long inLo, long inHi, boolean first, boolean outputKey) {
        long oldLo = c.lo;
        long oldHi = c.hi;
        long resident = count(oldHi);
        long carried = count(inHi);
        if (oldLo == inLo && keyHi(oldHi) == keyHi(inHi)) {
            c.hi = hiWord(oldHi, Math.min(COUNT_MAX, resident + carried));
            return 0;
        }
        if (first || resident < carried) {
            c.lo = inLo;
            c.hi = inHi;
            return outputKey ? oldLo : oldHi;
        }
        return outputKey ? 0 : oldHi;
    }
}
