package dev.rmtemu.traces.pcap;

import dev.rmtemu.model.UserError;
import dev.rmtemu.traces.PacketRecord;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Writes records as a capture file of Ethernet frames: the bytes a record carries (its
 * captured length), or, for a record without frame bytes, the frame {@link FrameSynthesizer}
 * builds from its decoded fields; whole by default or truncated to a snap length (original
 * length kept, as tcpdump's {@code -s}); subclasses frame them as pcap or pcapng. Output goes
 * through one large buffer, so writing allocates nothing per packet.
 */
public abstract class CaptureWriter implements AutoCloseable {
    /** Output buffer size: many frames per write system call. */
    static final int BUFFER_BYTES = 1 << 20;
    /** Frames written at most when no limit is given. */
    public static final long NO_LIMIT = Long.MAX_VALUE;

    protected final String name;
    /** Bytes of each frame written at most (raised per frame to its headers and payload word). */
    protected final int snapLength;
    private final FileChannel channel;
    private final int bufferBytes;
    private final ByteBuffer bytes;
    protected final UnsafeBuffer out;
    protected int used;
    private long written;
    private long lengthsRaised;
    /** Frames the file takes at most; later ones are counted, not written. */
    private final long limit;
    private long notWritten;

    protected CaptureWriter(Path file, int snapLength) {
        this(file, snapLength, BUFFER_BYTES, NO_LIMIT);
    }

    /**
     * A writer whose output buffer holds {@code bufferBytes} (at least one largest frame and its
     * framing) and whose file takes at most {@code limit} frames.
     */
    protected CaptureWriter(Path file, int snapLength, int bufferBytes, long limit) {
        if (snapLength < 1 || snapLength > FrameSynthesizer.WHOLE_FRAME) {
            throw new IllegalArgumentException("snap length " + snapLength + " not in [1, " + FrameSynthesizer.WHOLE_FRAME + "]");
        }
        if (bufferBytes < snapLength + MAX_FRAMING_BYTES) {
            throw new IllegalArgumentException("buffer of " + bufferBytes + " bytes holds no frame of " + snapLength);
        }
        if (limit < 0) {
            throw new IllegalArgumentException("negative frame limit " + limit);
        }
        this.name = file.toString();
        this.snapLength = snapLength;
        this.bufferBytes = bufferBytes;
        this.bytes = ByteBuffer.allocateDirect(bufferBytes);
        this.out = new UnsafeBuffer(bytes);
        this.limit = limit;
        try {
            channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                    StandardOpenOption.TRUNCATE_EXISTING);
        } catch (IOException e) {
            throw new UserError(file + ": cannot create: " + e.getMessage(), e);
        }
    }

    /** Creates a pcap or pcapng writer of whole frames; the format is named, not guessed from the path. */
    public static CaptureWriter create(Path file, CaptureFiles.Format format) {
        return create(file, format, FrameSynthesizer.WHOLE_FRAME);
    }

    /** Creates a pcap or pcapng writer that keeps at most {@code snapLength} bytes of each frame. */
    public static CaptureWriter create(Path file, CaptureFiles.Format format, int snapLength) {
        return format == CaptureFiles.Format.PCAP ? new PcapWriter(file, snapLength) : new PcapngWriter(file, snapLength);
    }

    /** The snap length written in the file header: no frame written is longer. */
    protected final int headerSnapLength() {
        return Math.max(snapLength, FrameSynthesizer.MAX_MIN_FRAME);
    }

    /**
     * Counts one more frame against the limit: true when it may be written, false (counted as
     * not written) once the file holds {@code limit} frames.
     */
    protected final boolean admit() {
        if (written >= limit) {
            notWritten++;
            return false;
        }
        return true;
    }

    /** Counts a frame a subclass wrote itself (see {@link #admit()}). */
    protected final void wrote(int bytesWritten) {
        used += bytesWritten;
        written++;
    }

    /** Frames refused because the file held its limit. */
    public long notWritten() {
        return notWritten;
    }

    /**
     * Appends one record as a frame: its own bytes cut to the snap length, or (a record without
     * frame bytes, IPv4/IPv6 only) the synthesised frame.
     */
    public final void write(PacketRecord r) {
        if (r.capturedLength() == 0 && r.wireLength() < FrameSynthesizer.frameLength(r)) {
            lengthsRaised++;
        }
        reserve(maxOverhead() + frameBytes(r));
        int n = writeFrame(r); // may itself advance used (pcapng interface blocks)
        used += n;
        written++;
    }

    /** Bytes of block framing around one frame that every buffer leaves room for (headers, padding). */
    static final int MAX_FRAMING_BYTES = 4096;

    /** Bytes of {@code r}'s frame this writer writes. */
    protected final int frameBytes(PacketRecord r) {
        int c = r.capturedLength();
        return c > 0 ? Math.min(c, snapLength) : FrameSynthesizer.capturedLength(r, snapLength);
    }

    /** Writes {@code r}'s frame at {@code at} of the buffer; returns its length ({@link #frameBytes}). */
    protected final int putFrame(PacketRecord r, int at) {
        int c = r.capturedLength();
        if (c == 0) {
            return FrameSynthesizer.build(r, out, at, snapLength);
        }
        int n = Math.min(c, snapLength);
        out.putBytes(at, r.buffer(), r.offset() + PacketRecord.FRAME_OFFSET, n);
        return n;
    }

    /** The original (wire) length written for {@code r}: its own, or the synthesised frame's. */
    protected static int originalLength(PacketRecord r) {
        return r.capturedLength() > 0 ? r.wireLength() : FrameSynthesizer.wireLength(r);
    }

    /** Bytes of block framing a subclass may add around one frame (upper bound). */
    protected abstract int maxOverhead();

    /** Writes the framing and the frame at {@link #used}; returns the bytes written. */
    protected abstract int writeFrame(PacketRecord r);

    /** Makes room for {@code n} bytes in the buffer. */
    protected final void reserve(int n) {
        if (used + n > bufferBytes) {
            flush();
        }
    }

    protected final void flush() {
        bytes.clear().limit(used);
        try {
            while (bytes.hasRemaining()) {
                channel.write(bytes);
            }
        } catch (IOException e) {
            throw new UserError(name + ": cannot write: " + e.getMessage(), e);
        }
        used = 0;
    }

    /** Frames written. */
    public long written() {
        return written;
    }

    /** Records whose wire length was below the synthesised frame's and was raised to it. */
    public long lengthsRaised() {
        return lengthsRaised;
    }

    @Override
    public void close() {
        try {
            flush();
        } finally {
            try {
                channel.close();
            } catch (IOException e) {
                throw new UserError(name + ": cannot close: " + e.getMessage(), e);
            }
        }
    }
}
