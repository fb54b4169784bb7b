package dev.rmtemu.traces.pcap;

import dev.rmtemu.traces.PacketRecord;

import java.nio.ByteOrder;
import java.nio.file.Path;

/**
 * Classic pcap, little-endian, nanosecond magic (0xA1B23C4D) so record timestamps
 * survive exactly, link type Ethernet. Timestamps must lie in [0, 2^32) seconds.
 * Ingress ports are not representable in pcap and read back as 0.
 */
public final class PcapWriter extends CaptureWriter {
    private static final ByteOrder LE = ByteOrder.LITTLE_ENDIAN;
    private static final long NANOS_PER_SECOND = 1_000_000_000L;

    /** A writer of whole frames. */
    public PcapWriter(Path file) {
        this(file, FrameSynthesizer.WHOLE_FRAME);
    }

    public PcapWriter(Path file, int snapLength) {
        super(file, snapLength);
        out.putInt(0, PcapReader.MAGIC_NANOS, LE);
        out.putShort(4, (short) 2, LE);
        out.putShort(6, (short) 4, LE);
        out.putInt(8, 0, LE);
        out.putInt(12, 0, LE);
        out.putInt(16, headerSnapLength(), LE);
        out.putInt(20, LinkType.ETHERNET, LE);
        used = PcapReader.FILE_HEADER;
    }

    @Override
    protected int maxOverhead() {
        return PcapReader.RECORD_HEADER;
    }

    @Override
    protected int writeFrame(PacketRecord r) {
        long ts = r.timestampNs();
        int len = putFrame(r, used + PcapReader.RECORD_HEADER);
        out.putInt(used, (int) Math.floorDiv(ts, NANOS_PER_SECOND), LE);
        out.putInt(used + 4, (int) Math.floorMod(ts, NANOS_PER_SECOND), LE);
        out.putInt(used + 8, len, LE);
        out.putInt(used + 12, originalLength(r), LE);
        return PcapReader.RECORD_HEADER + len;
    }
}
