package dev.rmtemu.emulator.ring;

import dev.rmtemu.traces.PacketRecord;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.IdleStrategy;

/**
 * Sizing and waiting policy of a {@link PacketRing}.
 *
 * @param capacityBytes    data capacity of the ring in bytes, a power of two; each record takes
 *                         {@link PacketRing#slotBytes(int)} of it (the record plus Agrona's 8-byte
 *                         message header, aligned to 8)
 * @param drainBatch       the most records {@link PacketRing#drainAll} hands over per ring read
 * @param readerThreadName name of the reader thread (visible in thread dumps and profilers)
 * @param maxYields        how many times a waiting side yields its core before it starts parking
 * @param maxParkNs        longest park of either side while it waits (ring full or empty)
 * @param maxRecordBytes   the longest record the producer may write: a packet record's metadata
 *                         plus the snap length's frame bytes
 */
public record RingConfig(int capacityBytes, int drainBatch, String readerThreadName, long maxYields, long maxParkNs,
                         int maxRecordBytes) {

    /**
     * 1 MiB: about 14.5 K metadata-only records (fewer with frame bytes), many times a drain
     * batch, yet small enough to stay in a core's L2 cache so records are still warm when the
     * engine reads them. Agrona takes messages up to an eighth of it: 128 KiB, more than a
     * record with the largest snap length.
     */
    public static final int DEFAULT_CAPACITY_BYTES = 1 << 20;

    /**
     * Records per ring read in {@link PacketRing#drainAll}: large enough to amortise the
     * ring's head update and memory zeroing, small next to the ring so the reader can refill
     * behind the engine.
     */
    public static final int DEFAULT_DRAIN_BATCH = 256;

    /** Default name of the reader thread. */
    public static final String DEFAULT_READER_THREAD_NAME = "rmtemu-packet-reader";

    /**
     * 100 µs: the default ring takes the engine well over 100 µs to drain, so a side that
     * parked because the ring was full (or empty) wakes before the other side stalls.
     * Agrona's own default (1 ms) would let a 1 MiB ring run dry while the reader sleeps.
     */
    public static final long DEFAULT_MAX_PARK_NS = 100_000L;

    /** Agrona's default for the busy-spin phase before yielding. */
    static final long MAX_SPINS = BackoffIdleStrategy.DEFAULT_MAX_SPINS;
    /** Agrona's default for the yield phase before parking. */
    public static final long DEFAULT_MAX_YIELDS = BackoffIdleStrategy.DEFAULT_MAX_YIELDS;
    static final long MIN_PARK_NS = BackoffIdleStrategy.DEFAULT_MIN_PARK_PERIOD_NS;

    /** The longest record of {@link #DEFAULT}: metadata and the default frame capacity. */
    public static final int DEFAULT_MAX_RECORD_BYTES = PacketRecord.stride(PacketRecord.DEFAULT_FRAME_CAPACITY);

    public static final RingConfig DEFAULT = new RingConfig(DEFAULT_CAPACITY_BYTES, DEFAULT_DRAIN_BATCH,
            DEFAULT_READER_THREAD_NAME, DEFAULT_MAX_YIELDS, DEFAULT_MAX_PARK_NS, DEFAULT_MAX_RECORD_BYTES);

    public RingConfig {
        if (capacityBytes <= 0 || Integer.bitCount(capacityBytes) != 1) {
            throw new IllegalArgumentException("packet ring capacity must be a power of two bytes, got " + capacityBytes);
        }
        if (maxRecordBytes < 0) {
            throw new IllegalArgumentException("packet ring max record must be zero or more bytes, got " + maxRecordBytes);
        }
        // Agrona's one-to-one ring accepts messages up to capacity / 8 bytes.
        if (capacityBytes / 8 < maxRecordBytes) {
            throw new IllegalArgumentException("packet ring capacity " + capacityBytes
                    + " B is too small for " + maxRecordBytes + "-byte records (minimum "
                    + minimumCapacity(maxRecordBytes) + " B)");
        }
        if (drainBatch <= 0) {
            throw new IllegalArgumentException("packet ring drain batch must be positive, got " + drainBatch);
        }
        if (readerThreadName == null || readerThreadName.isEmpty()) {
            throw new IllegalArgumentException("packet ring reader thread needs a name");
        }
        if (maxYields < 0) {
            throw new IllegalArgumentException("packet ring max yields must be zero or more, got " + maxYields);
        }
        if (maxParkNs < MIN_PARK_NS) {
            throw new IllegalArgumentException("packet ring max park must be at least " + MIN_PARK_NS + " ns, got " + maxParkNs);
        }
    }

    private static int minimumCapacity(int recordBytes) {
        long bytes = Math.max(1L, (long) recordBytes * 8);
        return (int) Math.min(1L << 30, Long.highestOneBit(bytes - 1) << 1);
    }

    /** This configuration with another capacity (e.g. a tiny ring to force backpressure). */
    public RingConfig withCapacityBytes(int bytes) {
        return new RingConfig(bytes, drainBatch, readerThreadName, maxYields, maxParkNs, maxRecordBytes);
    }

    /** This configuration with another reader thread name. */
    public RingConfig withReaderThreadName(String name) {
        return new RingConfig(capacityBytes, drainBatch, name, maxYields, maxParkNs, maxRecordBytes);
    }

    /** This configuration with another yield budget before parking. */
    public RingConfig withMaxYields(long yields) {
        return new RingConfig(capacityBytes, drainBatch, readerThreadName, yields, maxParkNs, maxRecordBytes);
    }

    /**
     * This configuration for records carrying up to {@code snapLength} frame bytes; the ring
     * grows (in powers of two) when its capacity could not hold such a record.
     */
    public RingConfig forSnapLength(int snapLength) {
        int max = PacketRecord.stride(snapLength);
        return new RingConfig(Math.max(capacityBytes, minimumCapacity(max)), drainBatch, readerThreadName, maxYields,
                maxParkNs, max);
    }

    /** How many records of {@code recordBytes} fit in the ring at once. */
    public int recordCapacity(int recordBytes) {
        return capacityBytes / PacketRing.slotBytes(recordBytes);
    }

    /** A fresh idle strategy; each thread needs its own (they are stateful). */
    IdleStrategy newIdleStrategy() {
        return new BackoffIdleStrategy(MAX_SPINS, maxYields, MIN_PARK_NS, maxParkNs);
    }
}
