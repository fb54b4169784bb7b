package dev.rmtemu.traces.pcap;

import dev.rmtemu.traces.PacketRecord;
import dev.rmtemu.traces.PacketSource;
import dev.rmtemu.traces.SkipCounters;
import dev.rmtemu.traces.SkipReason;
import dev.rmtemu.traces.TraceFormatException;
import org.agrona.DirectBuffer;

/**
 * Shared loop of the capture readers: read frames until one decodes into a record,
 * count the others, and in lenient mode turn a format error into a clean end.
 */
public abstract class CaptureReader implements PacketSource {
    /**
     * Largest captured length accepted for one frame: 256 KiB, Wireshark's limit for
     * ordinary link types (WTAP_MAX_PACKET_SIZE_STANDARD). A larger declared length
     * is treated as corruption, so a bad length never makes the reader allocate.
     */
    public static final int MAX_CAPLEN = 262_144;

    /** Outcome of reading one frame. */
    protected static final int FRAME_RECORD = 0;
    protected static final int FRAME_SKIPPED = 1;
    protected static final int FRAME_END = 2;

    protected final String name;
    protected final ByteWindow in;
    protected final SkipCounters skips = new SkipCounters();
    /** Frames kept as records with IP version 0 (ARP, other ethertypes, malformed or short IP), by why. */
    protected final SkipCounters notIp = new SkipCounters();
    /** Lenient: a frame with out-of-range fields is skipped and counted, a corrupt tail ends reading. */
    protected final boolean lenient;
    private long records;
    private long frames;
    private String stopReason;
    private boolean done;
    private FrameTap tap;

    protected CaptureReader(String name, ByteWindow in, boolean lenient) {
        this.name = name;
        this.in = in;
        this.lenient = lenient;
    }

    @Override
    public final boolean next(PacketRecord into) {
        while (!done) {
            int outcome;
            try {
                outcome = readFrame(into);
            } catch (TraceFormatException e) {
                if (!lenient) {
                    done = true;
                    throw e;
                }
                stopReason = e.getMessage();
                skips.increment(SkipReason.CORRUPT_TAIL);
                done = true;
                return false;
            }
            if (outcome == FRAME_END) {
                done = true;
                return false;
            }
            frames++;
            if (outcome == FRAME_RECORD) {
                records++;
                return true;
            }
        }
        return false;
    }

    /**
     * Reads the rest of the capture as {@link #next} would, every block and frame header checked
     * (strictly: the first damage throws; lenient: it ends reading), without decoding a frame into
     * a record: a run's check of its whole input before it starts. Returns the frames read.
     */
    public final long verifyRest() {
        long before = frames;
        while (next(null)) {
            // each frame is checked by readFrame, which decodes nothing when given no record
        }
        return frames - before;
    }

    /** Shows every frame read from now on to {@code tap} (null: none). */
    public void tap(FrameTap frameTap) {
        this.tap = frameTap;
    }

    /** Hands a frame to the tap, if any; readers call it for every frame, decoded or skipped. */
    protected final void tapFrame(DirectBuffer b, int off, int capLen, int wireLen, int linkType) {
        if (tap != null) {
            tap.frame(b, off, capLen, wireLen, linkType);
        }
    }

    /**
     * Reads one frame: a record into {@code into}, a counted skip, or the end of input. With
     * {@code into} null the frame is checked as always and skipped undecoded ({@link #verifyRest}).
     */
    protected abstract int readFrame(PacketRecord into);

    /** Records returned so far. */
    public long recordsRead() {
        return records;
    }

    /** Frames (records plus skipped frames) read so far. */
    public long framesRead() {
        return frames;
    }

    /** In lenient mode, the format error that ended reading early; null otherwise. */
    public String stopReason() {
        return stopReason;
    }

    @Override
    public SkipCounters skipped() {
        return skips;
    }

    /**
     * Frames read as records with IP version 0 (their bytes kept, no decoded fields), by why
     * they did not decode as IP (live; grows while reading).
     */
    public SkipCounters notIp() {
        return notIp;
    }

    /**
     * A frame whose header is well formed but whose fields are out of range (captured length
     * over original length, a timestamp no ns count holds): refused naming the record (1-based,
     * as Wireshark numbers frames) and its byte offset; lenient, skipped and counted under
     * {@code reason}. The caller has consumed the frame's bytes.
     */
    protected int badFrame(long offset, SkipReason reason, String what) {
        if (!lenient) {
            throw corrupt(offset, "record " + (frames + 1) + ": " + what);
        }
        skips.increment(reason);
        return FRAME_SKIPPED;
    }

    protected TraceFormatException corrupt(long offset, String what) {
        return new TraceFormatException(name, offset, what);
    }

    @Override
    public void close() {
        in.close();
    }
}
