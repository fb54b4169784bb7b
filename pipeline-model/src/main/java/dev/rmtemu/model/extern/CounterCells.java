package dev.rmtemu.model.extern;

import java.util.Arrays;

/**
 * The cells of one counter in one pipe: a packet and a byte count each, wrapping at the
 * cell format's widths ({@link Counter#packetBits()}, {@link Counter#byteBits()}; a count the
 * counter does not keep stays 0). Counting allocates nothing.
 */
public final class CounterCells {
    private final Counter counter;
    private final long[] packets;
    private final long[] bytes;
    private final long packetMask;
    private final long byteMask;

    public CounterCells(Counter counter) {
        this.counter = counter;
        this.packets = new long[counter.cells()];
        this.bytes = new long[counter.cells()];
        this.packetMask = mask(counter.packetBits());
        this.byteMask = mask(counter.byteBits());
    }

    private static long mask(int bits) {
        return bits >= Long.SIZE ? -1L : (1L << bits) - 1;
    }

    public Counter counter() {
        return counter;
    }

    public int size() {
        return packets.length;
    }

    /** Counts one packet of {@code frameBytes} bytes in cell {@code index} (in range: the caller checks). */
    public void count(int index, long frameBytes) {
        packets[index] = (packets[index] + 1) & packetMask;
        bytes[index] = (bytes[index] + Math.max(0, frameBytes)) & byteMask;
    }

    public long packets(int index) {
        return packets[index];
    }

    public long bytes(int index) {
        return bytes[index];
    }

    public void reset() {
        Arrays.fill(packets, 0);
        Arrays.fill(bytes, 0);
    }
}
