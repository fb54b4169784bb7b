package dev.rmtemu.emulator.ring;

import java.util.function.BooleanSupplier;
import org.agrona.BitUtil;
import org.agrona.BufferUtil;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.MessageHandler;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.OneToOneRingBuffer;
import org.agrona.concurrent.ringbuffer.RecordDescriptor;
import org.agrona.concurrent.ringbuffer.RingBuffer;
import org.agrona.concurrent.ringbuffer.RingBufferDescriptor;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * The packet ring between a trace reader and the engine: one reader thread publishes
 * variable-length packet records (a record's metadata and its captured frame bytes, at most
 * {@link RingConfig#maxRecordBytes()}) into an Agrona one-to-one ring buffer; the engine
 * thread drains them in batches, reading each record in place.
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

    /** Ring bytes a record of {@code recordBytes} occupies: Agrona's message header plus the record, aligned. */
    public static int slotBytes(int recordBytes) {
        return BitUtil.align(RecordDescriptor.HEADER_LENGTH + recordBytes, RecordDescriptor.ALIGNMENT);
    }

    /** Message type of a packet record. Agrona reserves type ids below 1. */
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
    private final RingBuffer ring;
    private final Thread readerThread;
    private final Dispatcher dispatcher = new Dispatcher();
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
    private boolean endSeen;
    private boolean failureSeen;
    private long endMarkerCount = -1;

    public PacketRing(RingConfig config, RecordProducer producer) {
        if (config == null || producer == null) {
            throw new IllegalArgumentException("packet ring needs a config and a producer");
        }
        this.config = config;
        this.producer = producer;
        // Cache-line aligned so the ring's head/tail counters in the trailer do not share lines
        // with other data.
        this.memory = new UnsafeBuffer(BufferUtil.allocateDirectAligned(
                config.capacityBytes() + RingBufferDescriptor.TRAILER_LENGTH, BitUtil.CACHE_LINE_LENGTH));
        this.ring = new OneToOneRingBuffer(memory);
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
        dispatcher.target = handler;
        dispatcher.recordsThisRead = 0;
        try {
            ring.read(dispatcher, limit);
        } finally {
            dispatcher.target = null;
            recordsConsumed.lazySet(recordsConsumed.get() + dispatcher.recordsThisRead);
        }
        if (failureSeen) {
            throw rethrow(readerFailure);
        }
        if (endSeen && endMarkerCount != recordsConsumed.get()) {
            throw new IllegalStateException("packet ring lost records: reader published " + endMarkerCount
                    + ", engine consumed " + recordsConsumed.get());
        }
        return dispatcher.recordsThisRead;
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
            final int before = dispatcher.messagesSeen;
            drain(handler, batch);
            if (dispatcher.messagesSeen != before) {
                consumerIdle.reset();
                continue;
            }
            if (readerExited) {
                // The reader has gone; anything it published is visible now. One more look.
                drain(handler, batch);
                if (!endSeen && dispatcher.messagesSeen == before) {
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
        return ring.size();
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
        final RingBuffer ring = this.ring;
        final int max = config.maxRecordBytes();
        // A record's length is known only once it is written: it is filled here, then copied into
        // the ring as one message of exactly its length (Agrona cannot shrink a claimed message).
        final UnsafeBuffer scratch = new UnsafeBuffer(new byte[max]);
        long published = 0;
        try {
            while (!closing) {
                final int length = producer.fill(scratch, 0, max);
                if (length == END) {
                    publishMarker(MSG_END, published, idle);
                    return;
                }
                if (length < 0 || length > max) {
                    throw new IllegalStateException("packet ring: producer wrote a " + length
                            + "-byte record, the ring takes 0.." + max);
                }
                while (!ring.write(MSG_RECORD, scratch, 0, length)) {
                    if (closing) {
                        return;
                    }
                    idle.idle(); // ring full: wait for the engine, never drop
                }
                idle.reset();
                published++;
                recordsPublished.lazySet(published);
            }
        } catch (Throwable t) {
            readerFailure = t;
            publishMarker(MSG_FAILED, published, idle);
        } finally {
            readerExited = true;
        }
    }

    private void publishMarker(int msgTypeId, long published, IdleStrategy idle) {
        while (!closing) {
            final int index = ring.tryClaim(msgTypeId, MARKER_BYTES);
            if (index >= 0) {
                memory.putLong(index, published);
                ring.commit(index);
                return;
            }
            idle.idle();
        }
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

    /** Routes ring messages: records to the engine's handler, markers to the ring's state. */
    private final class Dispatcher implements MessageHandler {
        RecordHandler target;
        int recordsThisRead;
        int messagesSeen;

        @Override
        public void onMessage(int msgTypeId, MutableDirectBuffer buffer, int index, int length) {
            messagesSeen++;
            switch (msgTypeId) {
                case MSG_RECORD -> {
                    recordsThisRead++;
                    target.onRecord(buffer, index, length);
                }
                case MSG_END -> {
                    endMarkerCount = buffer.getLong(index);
                    endSeen = true;
                }
                case MSG_FAILED -> failureSeen = true;
                default -> throw new IllegalStateException("packet ring: unknown message type " + msgTypeId);
            }
        }
    }
}
