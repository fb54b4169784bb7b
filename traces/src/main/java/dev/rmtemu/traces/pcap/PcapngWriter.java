package dev.rmtemu.traces.pcap;

import dev.rmtemu.traces.PacketRecord;

import java.nio.ByteOrder;
import java.nio.file.Path;

/**
 * pcapng, little-endian: one section header, then an interface description block
 * (Ethernet, {@code if_tsresol} = 9, i.e. ns) for each interface id up to the highest
 * ingress port seen, written just before its first packet; one enhanced packet block
 * per record with the ingress port as interface id.
 */
public final class PcapngWriter extends CaptureWriter {
    private static final ByteOrder LE = ByteOrder.LITTLE_ENDIAN;
    private static final int SHB_LENGTH = 28;
    private static final int IDB_LENGTH = 20 + 8 + 4; // header + if_tsresol option (padded) + opt_endofopt
    private static final int EPB_FIXED = 32;
    private static final int NANOSECOND_RESOLUTION = 9;
    private int interfaces;

    /** A writer of whole frames. */
    public PcapngWriter(Path file) {
        this(file, FrameSynthesizer.WHOLE_FRAME);
    }

    public PcapngWriter(Path file, int snapLength) {
        super(file, snapLength);
        out.putInt(0, PcapngReader.BLOCK_SHB, LE);
        out.putInt(4, SHB_LENGTH, LE);
        out.putInt(8, PcapngReader.BYTE_ORDER_MAGIC, LE);
        out.putShort(12, (short) 1, LE);
        out.putShort(14, (short) 0, LE);
        out.putLong(16, -1L, LE); // section length not given
        out.putInt(24, SHB_LENGTH, LE);
        used = SHB_LENGTH;
    }

    @Override
    protected int maxOverhead() {
        return EPB_FIXED + 3;
    }

    @Override
    protected int writeFrame(PacketRecord r) {
        int port = r.ingressPort();
        while (interfaces <= port) {
            reserve(IDB_LENGTH + maxOverhead() + frameBytes(r));
            writeInterface();
        }
        long ts = r.timestampNs();
        int p = used;
        int len = putFrame(r, p + 28);
        int padded = (len + 3) & ~3;
        out.setMemory(p + 28 + len, padded - len, (byte) 0);
        int total = EPB_FIXED + padded;
        out.putInt(p, PcapngReader.BLOCK_EPB, LE);
        out.putInt(p + 4, total, LE);
        out.putInt(p + 8, port, LE);
        out.putInt(p + 12, (int) (ts >>> 32), LE);
        out.putInt(p + 16, (int) ts, LE);
        out.putInt(p + 20, len, LE);
        out.putInt(p + 24, originalLength(r), LE);
        out.putInt(p + total - 4, total, LE);
        return total;
    }

    private void writeInterface() {
        int p = used;
        out.putInt(p, PcapngReader.BLOCK_IDB, LE);
        out.putInt(p + 4, IDB_LENGTH, LE);
        out.putShort(p + 8, (short) LinkType.ETHERNET, LE);
        out.putShort(p + 10, (short) 0, LE);
        out.putInt(p + 12, headerSnapLength(), LE);
        out.putShort(p + 16, (short) PcapngReader.OPT_IF_TSRESOL, LE);
        out.putShort(p + 18, (short) 1, LE);
        out.putInt(p + 20, NANOSECOND_RESOLUTION, LE);
        out.putInt(p + 24, 0, LE); // opt_endofopt
        out.putInt(p + 28, IDB_LENGTH, LE);
        used += IDB_LENGTH;
        interfaces++;
    }
}
