package dev.rmtemu.emulator.ring;

import java.util.function.BooleanSupplier;
import org.agrona.BitUtil;
import org.agrona.BufferUtil;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * The packet ring between a trace reader and the engine: one reader thread publishes
 * variable-length packet records (a record's metadata and its captured frame bytes, at most
 * {@link RingConfig#maxRecordBytes()}) into a single-producer, single-consumer byte ring; the
 * engine thread drains them in batches, reading each record in place.
 *
 * <p>The layout is Agrona's one-to-one ring buffer's (an 8-byte header, length and type, before
 * each record, aligned to 8; padding to the end before a wrap), but the hand-off is by position:
 * the reader publishes its tail after each record and the engine reads up to the tail it last
 * saw, publishing its head once per batch. So the engine never zeroes what it read (Agrona's
 * ring zeroes every byte it hands over, on the engine's thread, to tell committed messages by
 * their length), and the reader writes a record straight into the ring when a whole
 * {@code maxRecordBytes} slot is free in one piece (no copy through a scratch buffer).
 *
 * <ul>
 *   <li>Nothing is ever dropped: when the ring is full the reader waits (backoff idle).</li>
 *   <li>Order is the producer's order whatever the thread timing (single producer,
 *       single consumer, FIFO).</li>
 *   <li>End of trace is a marker message, not a timeout; it carries the reader's record
 *       count, which the consumer checks against its own.</li>
 *   <li>An exception thrown by the producer is carried through the ring as a marker and
 *       rethrown (the same object) on the consumer, after exactly the records published
 *       before it.</li>
 * </ul>
 *
 * <p>Use: {@code new PacketRing(config, producer)}, {@link #start()}, then on one consumer
 * thread {@link #drain} or {@link #drainAll}, finally {@link #close()} (also safe mid-trace:
 * it stops and joins the reader thread).
 */
public final class PacketRing implements AutoCloseable {

    /** Returned by {@link RecordProducer#fill} at the end of the trace. */
    public static final int END = -1;

    /** Bytes before each record: its length (int) and message type (int), as in Agrona's ring. */
    static final int HEADER_BYTES = 8;
    /** Every message starts at a multiple of this. */
    static final int ALIGNMENT = 8;

    /** Ring bytes a record of {@code recordBytes} occupies: the message header plus the record, aligned. */
    public static int slotBytes(int recordBytes) {
        return BitUtil.align(HEADER_BYTES + recordBytes, ALIGNMENT);
    }

    /** Message type of the filler from a message's end to the end of the ring, before a wrap. */
    static final int MSG_PADDING = 0;
    /** Message type of a packet record. */
    static final int MSG_RECORD = 1;
    /** Message type of the end-of-trace marker; payload: records published (long). */
    static final int MSG_END = 2;
    /** Message type of the reader-failed marker; payload: records published (long). */
    static final int MSG_FAILED = 3;
    /** Payload of both markers: the reader's count of published records. */
    private static final int MARKER_BYTES = Long.BYTES;

    /**
     * How long {@link #close()} waits for the reader to notice the close flag before it
     * interrupts it (a producer blocked in I/O only wakes on interrupt). Host time, never
     * reaches output.
     */
    private static final long CLOSE_GRACE_MS = 1_000L;

    private final RingConfig config;
    private final RecordProducer producer;
    private final UnsafeBuffer memory;
    private final int capacity;
    private final int mask;
    /** Where the reader's published tail and the engine's head live, a few cache lines apart. */
    private final int tailIndex;
    private final int headIndex;
    private final Thread readerThread;
    private final IdleStrategy consumerIdle;

    /** Written by the reader thread only (lazySet), read by anyone. */
    private final AtomicLong recordsPublished = new AtomicLong();
    /** Written by the consumer thread only (lazySet), read by anyone. */
    private final AtomicLong recordsConsumed = new AtomicLong();

    /** Set by the reader before it publishes the failed marker; the marker's release orders it. */
    private volatile Throwable readerFailure;
    private volatile boolean closing;
    private volatile boolean readerExited;
    private boolean started;

    // Consumer-thread state.
    /** Messages (records and markers) handed over so far. */
    private int messagesSeen;
    private boolean endSeen;
    private boolean failureSeen;
    private long endMarkerCount = -1;

    public PacketRing(RingConfig config, RecordProducer producer) {
        if (config == null || producer == null) {
            throw new IllegalArgumentException("packet ring needs a config and a producer");
        }
        this.config = config;
        this.producer = producer;
        // Cache-line aligned, the tail and head counters in a trailer each on lines of their own
        // (two lines apart: adjacent-line prefetch) so neither side's writes evict the other's data.
        this.capacity = config.capacityBytes();
        this.mask = capacity - 1;
        this.tailIndex = capacity + 2 * BitUtil.CACHE_LINE_LENGTH;
        this.headIndex = capacity + 4 * BitUtil.CACHE_LINE_LENGTH;
        this.memory = new UnsafeBuffer(BufferUtil.allocateDirectAligned(
                capacity + 6 * BitUtil.CACHE_LINE_LENGTH, BitUtil.CACHE_LINE_LENGTH));
        this.consumerIdle = config.newIdleStrategy();
        this.readerThread = new Thread(this::runReader, config.readerThreadName());
        this.readerThread.setDaemon(true);
    }

    /** Starts the reader thread. Call once. */
    public synchronized void start() {
        if (started) {
            throw new IllegalStateException("packet ring already started");
        }
        if (closing) {
            throw new IllegalStateException("packet ring already closed");
        }
        started = true;
        readerThread.start();
    }

    /**
     * Hands up to {@code limit} records, in order, to {@code handler} and returns how many it
     * handed. Returns 0 when the ring is momentarily empty or the trace has ended (see
     * {@link #isEnded()}). Throws the reader's exception, once all records published before
     * it have been handed over. Consumer thread only.
     */
    public int drain(RecordHandler handler, int limit) {
        if (failureSeen) {
            throw rethrow(readerFailure);
        }
        if (endSeen) {
            return 0;
        }
        final UnsafeBuffer memory = this.memory;
        long head = memory.getLong(headIndex);
        final long tail = memory.getLongVolatile(tailIndex);
        int records = 0;
        int messages = 0;
        try {
            while (head < tail && messages < limit) {
                final int index = (int) head & mask;
                final int length = memory.getInt(index);
                final int type = memory.getInt(index + 4);
                // consumed before it is handed over: a handler that throws does not see it again
                head += slotBytes(length);
                switch (type) {
                    case MSG_PADDING -> {
                        continue;
                    }
                    case MSG_RECORD -> {
                        records++;
                        messages++;
                        handler.onRecord(memory, index + HEADER_BYTES, length);
                    }
                    case MSG_END -> {
                        messages++;
                        endMarkerCount = memory.getLong(index + HEADER_BYTES);
                        endSeen = true;
                        return records;
                    }
                    case MSG_FAILED -> {
                        messages++;
                        failureSeen = true;
                        return records;
                    }
                    default -> throw new IllegalStateException("packet ring: unknown message type " + type);
                }
            }
        } finally {
            memory.putLongOrdered(headIndex, head);
            messagesSeen += messages;
            recordsConsumed.lazySet(recordsConsumed.get() + records);
            checkEnd();
        }
        return records;
    }

    private void checkEnd() {
        if (failureSeen) {
            throw rethrow(readerFailure);
        }
        if (endSeen && endMarkerCount != recordsConsumed.get()) {
            throw new IllegalStateException("packet ring lost records: reader published " + endMarkerCount
                    + ", engine consumed " + recordsConsumed.get());
        }
    }

    /**
     * Drains until the end marker, idling (backoff) while the ring is empty, and returns the
     * total number of records consumed, which equals the number the reader published.
     * Throws the reader's exception after the records published before it. Throws
     * {@link IllegalStateException} if the ring is closed before the end marker arrives.
     * Consumer thread only.
     */
    public long drainAll(RecordHandler handler) {
        return drainAll(handler, () -> false);
    }

    /**
     * As {@link #drainAll(RecordHandler)}, but returns early, between two drain batches, once
     * {@code stop} says so ({@link #isEnded()} then tells the two apart). Consumer thread only.
     */
    public long drainAll(RecordHandler handler, BooleanSupplier stop) {
        if (!started) {
            throw new IllegalStateException("packet ring not started");
        }
        final int batch = config.drainBatch();
        while (!endSeen) {
            if (stop.getAsBoolean()) {
                break;
            }
            final int before = messagesSeen;
            drain(handler, batch);
            if (messagesSeen != before) {
                consumerIdle.reset();
                continue;
            }
            if (readerExited) {
                // The reader has gone; anything it published is visible now. One more look.
                drain(handler, batch);
                if (!endSeen && messagesSeen == before) {
                    throw new IllegalStateException("packet ring closed before the end of the trace ("
                            + recordsConsumed.get() + " records consumed)");
                }
            } else {
                consumerIdle.idle();
            }
        }
        return recordsConsumed.get();
    }

    /** True once the consumer has seen the end marker. */
    public boolean isEnded() {
        return endSeen;
    }

    /** Records the reader has published so far. */
    public long recordsPublished() {
        return recordsPublished.get();
    }

    /** Records the consumer has been handed so far. */
    public long recordsConsumed() {
        return recordsConsumed.get();
    }

    /** Bytes of records waiting in the ring, headers included (approximate while both sides run). */
    public int bytesWaiting() {
        return (int) (memory.getLongVolatile(tailIndex) - memory.getLongVolatile(headIndex));
    }

    public RingConfig config() {
        return config;
    }

    /**
     * Stops the reader (if still running) and waits for its thread to end. Records still in
     * the ring are discarded. Idempotent.
     */
    @Override
    public void close() {
        closing = true;
        if (!readerThread.isAlive()) {
            return;
        }
        LockSupport.unpark(readerThread);
        boolean interrupted = false;
        try {
            readerThread.join(CLOSE_GRACE_MS);
            while (readerThread.isAlive()) {
                readerThread.interrupt();
                readerThread.join(CLOSE_GRACE_MS);
            }
        } catch (InterruptedException e) {
            interrupted = true;
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    private void runReader() {
        final IdleStrategy idle = config.newIdleStrategy();
        final UnsafeBuffer memory = this.memory;
        final int max = config.maxRecordBytes();
        final int maxSlot = slotBytes(max);
        // A record's length is known only once it is written: when no whole slot of the longest
        // record is free in one piece, it is filled here and copied in once its own slot is.
        final UnsafeBuffer scratch = new UnsafeBuffer(new byte[max]);
        long published = 0;
        long tail = 0;
        long headSeen = 0;
        try {
            while (!closing) {
                int index = (int) tail & mask;
                if (capacity - (tail - headSeen) < maxSlot || capacity - index < maxSlot) {
                    headSeen = memory.getLongVolatile(headIndex);
                }
                final boolean inPlace = capacity - (tail - headSeen) >= maxSlot && capacity - index >= maxSlot;
                final int length = inPlace ? producer.fill(memory, index + HEADER_BYTES, max)
                        : producer.fill(scratch, 0, max);
                if (length == END) {
                    publishMarker(MSG_END, published, tail, idle);
                    return;
                }
                if (length < 0 || length > max) {
                    throw new IllegalStateException("packet ring: producer wrote a " + length
                            + "-byte record, the ring takes 0.." + max);
                }
                if (!inPlace) {
                    tail = claim(slotBytes(length), tail, idle);
                    if (tail < 0) {
                        return; // closed while waiting
                    }
                    index = (int) tail & mask;
                    memory.putBytes(index + HEADER_BYTES, scratch, 0, length);
                }
                memory.putInt(index, length);
                memory.putInt(index + 4, MSG_RECORD);
                tail += slotBytes(length);
                memory.putLongOrdered(tailIndex, tail);
                published++;
                recordsPublished.lazySet(published);
            }
        } catch (Throwable t) {
            readerFailure = t;
            publishMarker(MSG_FAILED, published, memory.getLong(tailIndex), idle);
        } finally {
            readerExited = true;
        }
    }

    /**
     * Waits (never dropping) until {@code slot} bytes are free in one piece at the tail, padding
     * to the ring's end first when they are not there; returns the tail to write at, or -1 when
     * the ring closed meanwhile.
     */
    private long claim(int slot, long tail, IdleStrategy idle) {
        while (true) {
            final int index = (int) tail & mask;
            final int toEnd = capacity - index;
            final int needed = toEnd < slot ? toEnd + slot : slot;
            if (capacity - (tail - memory.getLongVolatile(headIndex)) >= needed) {
                idle.reset();
                if (toEnd < slot) {
                    memory.putInt(index, toEnd - HEADER_BYTES);
                    memory.putInt(index + 4, MSG_PADDING);
                    tail += toEnd;
                }
                return tail;
            }
            if (closing) {
                return -1;
            }
            idle.idle(); // ring full: wait for the engine, never drop
        }
    }

    private void publishMarker(int msgTypeId, long published, long tail, IdleStrategy idle) {
        long at = claim(slotBytes(MARKER_BYTES), tail, idle);
        if (at < 0) {
            return;
        }
        final int index = (int) at & mask;
        memory.putLong(index + HEADER_BYTES, published);
        memory.putInt(index, MARKER_BYTES);
        memory.putInt(index + 4, msgTypeId);
        memory.putLongOrdered(tailIndex, at + slotBytes(MARKER_BYTES));
    }

    private static RuntimeException rethrow(Throwable t) {
        if (t instanceof RuntimeException re) {
            throw re;
        }
        if (t instanceof Error e) {
            throw e;
        }
        // fill() declares no checked exceptions, yet bytecode can still throw one:
        // rethrow it unchanged rather than wrapping it in another object.
        throw PacketRing.<RuntimeException>sneaky(t);
    }

    @SuppressWarnings("unchecked")
    private static <T extends Throwable> T sneaky(Throwable t) throws T {
        throw (T) t;
    }
}
