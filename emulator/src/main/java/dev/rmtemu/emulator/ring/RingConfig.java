package dev.rmtemu.emulator.ring;

import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.IdleStrategy;

/**
 * Sizing and waiting policy of a {@link PacketRing}.
 *
 * @param capacityBytes    data capacity of the ring in bytes, a power of two; each record takes
 *                         {@link PacketRing#SLOT_BYTES} of it (the record plus Agrona's 8-byte
 *                         message header)
 * @param drainBatch       the most records {@link PacketRing#drainAll} hands over per ring read
 * @param readerThreadName name of the reader thread (visible in thread dumps and profilers)
 * @param maxYields        how many times a waiting side yields its core before it starts parking
 * @param maxParkNs        longest park of either side while it waits (ring full or empty)
 */
public record RingConfig(int capacityBytes, int drainBatch, String readerThreadName, long maxYields, long maxParkNs) {

    /**
     * 1 MiB: about 14.5 K records, many times a drain batch, yet small enough to stay in a
     * core's L2 cache so records are still warm when the engine reads them.
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

    public static final RingConfig DEFAULT = new RingConfig(
            DEFAULT_CAPACITY_BYTES, DEFAULT_DRAIN_BATCH, DEFAULT_READER_THREAD_NAME, DEFAULT_MAX_YIELDS, DEFAULT_MAX_PARK_NS);

    public RingConfig {
        if (capacityBytes <= 0 || Integer.bitCount(capacityBytes) != 1) {
            throw new IllegalArgumentException("packet ring capacity must be a power of two bytes, got " + capacityBytes);
        }
        // Agrona's one-to-one ring accepts messages up to capacity / 8 bytes.
        if (capacityBytes / 8 < PacketRing.RECORD_BYTES) {
            throw new IllegalArgumentException("packet ring capacity " + capacityBytes
                    + " B is too small for " + PacketRing.RECORD_BYTES + "-byte records (minimum "
                    + Integer.highestOneBit(PacketRing.RECORD_BYTES * 8) + " B)");
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

    /** This configuration with another capacity (e.g. a tiny ring to force backpressure). */
    public RingConfig withCapacityBytes(int bytes) {
        return new RingConfig(bytes, drainBatch, readerThreadName, maxYields, maxParkNs);
    }

    /** This configuration with another reader thread name. */
    public RingConfig withReaderThreadName(String name) {
        return new RingConfig(capacityBytes, drainBatch, name, maxYields, maxParkNs);
    }

    /** This configuration with another yield budget before parking. */
    public RingConfig withMaxYields(long yields) {
        return new RingConfig(capacityBytes, drainBatch, readerThreadName, yields, maxParkNs);
    }

    /** How many records fit in the ring at once. */
    public int recordCapacity() {
        return capacityBytes / PacketRing.SLOT_BYTES;
    }

    /** A fresh idle strategy; each thread needs its own (they are stateful). */
    IdleStrategy newIdleStrategy() {
        return new BackoffIdleStrategy(MAX_SPINS, maxYields, MIN_PARK_NS, maxParkNs);
    }
}
