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
    private final ByteBuffer bytes;
    private final UnsafeBuffer buffer;
    private int pos;
    private int limit;
    private long base;
    private boolean eof;

    ByteWindow(String name, ReadableByteChannel channel, int capacity) {
        this.name = name;
        this.channel = channel;
        this.bytes = ByteBuffer.allocateDirect(capacity);
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

    /** Makes {@code n} bytes (at most the capacity) readable from {@link #pos()}; false at end of input. */
    boolean ensure(int n) {
        if (limit - pos >= n) {
            return true;
        }
        if (n > bytes.capacity()) {
            throw new IllegalArgumentException("window too small for " + n + " bytes");
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
