package dev.rmtemu.traces.pcap;

import dev.rmtemu.traces.PacketRecord;
import dev.rmtemu.traces.SkipReason;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteOrder;

/**
 * Classic libpcap files: either byte order, microsecond (0xA1B2C3D4) or nanosecond
 * (0xA1B23C4D) timestamps. All packets get ingress port 0.
 */
public final class PcapReader extends CaptureReader {
    static final int MAGIC_MICROS = 0xA1B2C3D4;
    static final int MAGIC_NANOS = 0xA1B23C4D;
    static final int FILE_HEADER = 24;
    static final int RECORD_HEADER = 16;
    private static final int SUPPORTED_MAJOR = 2;
    private static final long NANOS_PER_SECOND = 1_000_000_000L;
    private static final long NANOS_PER_MICRO = 1_000L;

    private final ByteOrder order;
    private final long fracToNanos;
    private final int linkType;
    private final int snapLen;

    PcapReader(String name, ByteWindow in, boolean lenient) {
        super(name, in, lenient);
        if (!in.ensure(FILE_HEADER)) {
            throw corrupt(0, "pcap file header truncated (" + in.available() + " of " + FILE_HEADER + " bytes)");
        }
        UnsafeBuffer b = in.buffer();
        int p = in.pos();
        int magicBe = b.getInt(p, ByteOrder.BIG_ENDIAN);
        int magicLe = b.getInt(p, ByteOrder.LITTLE_ENDIAN);
        if (magicBe == MAGIC_MICROS || magicBe == MAGIC_NANOS) {
            order = ByteOrder.BIG_ENDIAN;
        } else if (magicLe == MAGIC_MICROS || magicLe == MAGIC_NANOS) {
            order = ByteOrder.LITTLE_ENDIAN;
        } else {
            throw corrupt(0, "not a pcap file (magic 0x" + Integer.toHexString(magicBe) + ")");
        }
        int magic = b.getInt(p, order);
        fracToNanos = magic == MAGIC_NANOS ? 1 : NANOS_PER_MICRO;
        int major = b.getShort(p + 4, order) & 0xFFFF;
        if (major != SUPPORTED_MAJOR) {
            throw corrupt(4, "unsupported pcap version " + major);
        }
        snapLen = b.getInt(p + 16, order);
        // The upper bits of the link-type word carry FCS information, not the type.
        linkType = b.getInt(p + 20, order) & 0xFFFF;
        in.advance(FILE_HEADER);
    }

    public int linkType() {
        return linkType;
    }

    public int snapLen() {
        return snapLen;
    }

    public boolean nanosecondResolution() {
        return fracToNanos == 1;
    }

    @Override
    protected int readFrame(PacketRecord into) {
        if (in.atEnd()) {
            return FRAME_END;
        }
        long at = in.offset();
        if (!in.ensure(RECORD_HEADER)) {
            throw corrupt(at, "truncated packet header (" + in.available() + " of " + RECORD_HEADER + " bytes)");
        }
        UnsafeBuffer b = in.buffer();
        int p = in.pos();
        long seconds = b.getInt(p, order) & 0xFFFFFFFFL;
        long frac = b.getInt(p + 4, order) & 0xFFFFFFFFL;
        int capLen = b.getInt(p + 8, order);
        int origLen = b.getInt(p + 12, order);
        if (capLen < 0 || capLen > MAX_CAPLEN) {
            throw corrupt(at, "captured length " + Integer.toUnsignedString(capLen) + " exceeds the limit of "
                    + MAX_CAPLEN + " bytes");
        }
        if (origLen < 0) {
            throw corrupt(at, "original length " + Integer.toUnsignedString(origLen) + " is not a frame length");
        }
        if (!in.ensure(RECORD_HEADER + capLen)) {
            throw corrupt(at, "truncated packet data (" + (in.available() - RECORD_HEADER) + " of " + capLen
                    + " bytes)");
        }
        p = in.pos(); // ensure may have moved the window
        if (Integer.compareUnsigned(capLen, origLen) > 0) {
            in.advance(RECORD_HEADER + capLen);
            return badFrame(at, SkipReason.CAPTURED_OVER_ORIGINAL, "captured length " + capLen
                    + " exceeds the original length " + origLen);
        }
        if (frac >= NANOS_PER_SECOND / fracToNanos) {
            in.advance(RECORD_HEADER + capLen);
            return badFrame(at, SkipReason.BAD_TIMESTAMP, (fracToNanos == 1 ? "nanosecond" : "microsecond")
                    + " field " + frac + " is not below " + NANOS_PER_SECOND / fracToNanos);
        }
        if (into == null) {
            in.advance(RECORD_HEADER + capLen); // checked, not decoded (verifyRest)
            return FRAME_RECORD;
        }
        into.timestampNs(seconds * NANOS_PER_SECOND + frac * fracToNanos)
                .wireLength(origLen).ingressPort(0);
        tapFrame(b, p + RECORD_HEADER, capLen, origLen, linkType);
        boolean ok = PacketDecoder.toRecord(b, p + RECORD_HEADER, capLen, linkType, into, skips, notIp);
        in.advance(RECORD_HEADER + capLen);
        return ok ? FRAME_RECORD : FRAME_SKIPPED;
    }

    @Override
    public String describe() {
        return "pcap " + name + " (" + (order == ByteOrder.BIG_ENDIAN ? "big" : "little") + "-endian, "
                + (fracToNanos == 1 ? "ns" : "us") + " timestamps, link type " + linkType + ")";
    }
}
