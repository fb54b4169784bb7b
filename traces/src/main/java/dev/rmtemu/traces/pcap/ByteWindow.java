package dev.rmtemu.traces.pcap;

import dev.rmtemu.model.UserError;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;

/**
 * A sliding window over a byte channel: large sequential reads into one direct
 * buffer, with the unread tail moved to the front when more is needed. Structures
 * up to the window's capacity can be read in place through {@link #buffer()}; longer
 * stretches (unknown pcapng blocks) are skipped without being held.
 */
final class ByteWindow implements AutoCloseable {
    /** Default window: large enough for many packets per read system call. */
    static final int DEFAULT_CAPACITY = 8 << 20;

    private final String name;
    private final ReadableByteChannel channel;
    private final int maxCapacity;
    private ByteBuffer bytes;
    private final UnsafeBuffer buffer;
    private int pos;
    private int limit;
    private long base;
    private boolean eof;

    /** Smallest window: small inputs (and tests) do not pay for a large buffer. */
    static final int MIN_CAPACITY = 4096;

    /**
     * A window that starts at {@code initialCapacity} bytes and grows (by doubling) up
     * to {@code maxCapacity} when one structure needs more.
     */
    ByteWindow(String name, ReadableByteChannel channel, int initialCapacity, int maxCapacity) {
        this.name = name;
        this.channel = channel;
        this.maxCapacity = Math.max(maxCapacity, MIN_CAPACITY);
        this.bytes = ByteBuffer.allocateDirect(Math.min(Math.max(initialCapacity, MIN_CAPACITY), this.maxCapacity));
        this.buffer = new UnsafeBuffer(bytes);
    }

    UnsafeBuffer buffer() {
        return buffer;
    }

    /** Index in {@link #buffer()} of the next unread byte. */
    int pos() {
        return pos;
    }

    /** File offset of the next unread byte. */
    long offset() {
        return base + pos;
    }

    int available() {
        return limit - pos;
    }

    void advance(int n) {
        pos += n;
    }

    /**
     * Makes {@code n} bytes (at most the maximum capacity) readable from {@link #pos()};
     * false at end of input. May move the unread bytes: re-read {@link #pos()} after it.
     */
    boolean ensure(int n) {
        if (limit - pos >= n) {
            return true;
        }
        if (n > maxCapacity) {
            throw new IllegalArgumentException("window limit " + maxCapacity + " too small for " + n + " bytes");
        }
        if (n > bytes.capacity()) {
            int cap = bytes.capacity();
            while (cap < n) {
                cap = (int) Math.min((long) cap * 2, maxCapacity);
            }
            ByteBuffer bigger = ByteBuffer.allocateDirect(cap);
            UnsafeBuffer old = new UnsafeBuffer(bytes);
            buffer.wrap(bigger);
            buffer.putBytes(0, old, pos, limit - pos);
            base += pos;
            limit -= pos;
            pos = 0;
            bytes = bigger;
        }
        if (pos > 0) {
            buffer.putBytes(0, buffer, pos, limit - pos);
            base += pos;
            limit -= pos;
            pos = 0;
        }
        while (limit < n && !eof) {
            bytes.limit(bytes.capacity()).position(limit);
            int r;
            try {
                r = channel.read(bytes);
            } catch (IOException e) {
                throw new UserError(name + ": cannot read: " + e.getMessage(), e);
            }
            if (r < 0) {
                eof = true;
            } else {
                limit += r;
            }
        }
        return limit - pos >= n;
    }

    /** True when no unread byte is left. */
    boolean atEnd() {
        return !ensure(1);
    }

    /** Skips {@code n} bytes, reading through the channel; false if the input ends first. */
    boolean skip(long n) {
        while (n > 0) {
            if (limit - pos == 0 && !ensure(1)) {
                return false;
            }
            int step = (int) Math.min(n, limit - pos);
            pos += step;
            n -= step;
        }
        return true;
    }

    @Override
    public void close() {
        try {
            channel.close();
        } catch (IOException e) {
            throw new UserError(name + ": cannot close: " + e.getMessage(), e);
        }
    }
}
