package dev.rmtemu.traces.pcap;

import dev.rmtemu.traces.PacketRecord;
import org.agrona.DirectBuffer;

import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.function.IntFunction;

/**
 * pcapng, little-endian: one section header, then an interface description block
 * (Ethernet, {@code if_tsresol} = 9, i.e. ns) for each interface id up to the highest
 * ingress port seen, written just before its first packet; one enhanced packet block
 * per record with the ingress port as interface id. A writer given interface names adds
 * each as the interface's {@code if_name} option; frames given as bytes
 * ({@link #writeFrame(int, long, DirectBuffer, int, int, int, byte[])}) may carry a comment
 * ({@code opt_comment}), and a limit bounds the frames a file takes.
 */
public final class PcapngWriter extends CaptureWriter {
    private static final ByteOrder LE = ByteOrder.LITTLE_ENDIAN;
    private static final int SHB_LENGTH = 28;
    private static final int IDB_LENGTH = 20 + 8 + 4; // header + if_tsresol option (padded) + opt_endofopt
    private static final int EPB_FIXED = 32;
    private static final int NANOSECOND_RESOLUTION = 9;
    /** Option codes (pcapng spec, section 3.5 and 4.2). */
    static final int OPT_COMMENT = 1;
    static final int OPT_IF_NAME = 2;
    /** Longest comment or interface name written, in UTF-8 bytes (a drop cause is a few dozen). */
    public static final int MAX_OPTION_BYTES = 1024;
    private int interfaces;
    /** if_name of interface i, or null for unnamed interfaces. */
    private final IntFunction<String> interfaceNames;

    /** A writer of whole frames. */
    public PcapngWriter(Path file) {
        this(file, FrameSynthesizer.WHOLE_FRAME);
    }

    public PcapngWriter(Path file, int snapLength) {
        this(file, snapLength, BUFFER_BYTES, NO_LIMIT, null);
    }

    /**
     * A writer of at most {@code limit} frames through a buffer of {@code bufferBytes}, naming
     * interface i {@code interfaceNames.apply(i)} (null: no names).
     */
    public PcapngWriter(Path file, int snapLength, int bufferBytes, long limit, IntFunction<String> interfaceNames) {
        super(file, snapLength, bufferBytes, limit);
        this.interfaceNames = interfaceNames;
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
        declareInterfaces(port, maxOverhead() + frameBytes(r));
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

    /**
     * Appends one frame given as bytes on interface {@code iface} (declared, with those below
     * it, before its first frame), keeping at most the snap length of it; {@code comment} is
     * its opt_comment in UTF-8 (null: none). Returns false, writing nothing, once the file
     * holds its limit of frames ({@link #notWritten()} counts those).
     */
    public boolean writeFrame(int iface, long timestampNs, DirectBuffer src, int offset, int capturedLength,
                              int wireLength, byte[] comment) {
        if (!admit()) {
            return false;
        }
        if (iface < 0) {
            throw new IllegalArgumentException("interface " + iface);
        }
        int len = Math.min(capturedLength, snapLength);
        int commentLength = comment == null ? 0 : comment.length;
        if (commentLength > MAX_OPTION_BYTES) {
            throw new IllegalArgumentException("comment of " + commentLength + " bytes, over " + MAX_OPTION_BYTES);
        }
        int options = comment == null ? 0 : 4 + pad(commentLength) + 4;
        int padded = pad(len);
        int total = EPB_FIXED + padded + options;
        declareInterfaces(iface, total);
        reserve(total);
        int p = used;
        out.putInt(p, PcapngReader.BLOCK_EPB, LE);
        out.putInt(p + 4, total, LE);
        out.putInt(p + 8, iface, LE);
        out.putInt(p + 12, (int) (timestampNs >>> 32), LE);
        out.putInt(p + 16, (int) timestampNs, LE);
        out.putInt(p + 20, len, LE);
        out.putInt(p + 24, Math.max(wireLength, len), LE);
        out.putBytes(p + 28, src, offset, len);
        out.setMemory(p + 28 + len, padded - len, (byte) 0);
        int o = p + 28 + padded;
        if (comment != null) {
            o = putOption(o, OPT_COMMENT, comment);
            out.putInt(o, 0, LE); // opt_endofopt
        }
        out.putInt(p + total - 4, total, LE);
        wrote(total);
        return true;
    }

    private static int pad(int n) {
        return (n + 3) & ~3;
    }

    /** Writes option {@code code} with {@code value} at {@code o}; returns where the next option goes. */
    private int putOption(int o, int code, byte[] value) {
        out.putShort(o, (short) code, LE);
        out.putShort(o + 2, (short) value.length, LE);
        out.putBytes(o + 4, value);
        out.setMemory(o + 4 + value.length, pad(value.length) - value.length, (byte) 0);
        return o + 4 + pad(value.length);
    }

    /** Declares interfaces up to {@code iface}, leaving room for {@code following} bytes after them. */
    private void declareInterfaces(int iface, int following) {
        while (interfaces <= iface) {
            String ifName = interfaceNames == null ? null : interfaceNames.apply(interfaces);
            byte[] nameBytes = ifName == null ? null : ifName.getBytes(StandardCharsets.UTF_8);
            if (nameBytes != null && nameBytes.length > MAX_OPTION_BYTES) {
                throw new IllegalArgumentException("interface name of " + nameBytes.length + " bytes");
            }
            int length = IDB_LENGTH + (nameBytes == null ? 0 : 4 + pad(nameBytes.length));
            reserve(length + following);
            int p = used;
            out.putInt(p, PcapngReader.BLOCK_IDB, LE);
            out.putInt(p + 4, length, LE);
            out.putShort(p + 8, (short) LinkType.ETHERNET, LE);
            out.putShort(p + 10, (short) 0, LE);
            out.putInt(p + 12, headerSnapLength(), LE);
            int o = p + 16;
            if (nameBytes != null) {
                o = putOption(o, OPT_IF_NAME, nameBytes);
            }
            out.putShort(o, (short) PcapngReader.OPT_IF_TSRESOL, LE);
            out.putShort(o + 2, (short) 1, LE);
            out.putInt(o + 4, NANOSECOND_RESOLUTION, LE);
            out.putInt(o + 8, 0, LE); // opt_endofopt
            out.putInt(p + length - 4, length, LE);
            used += length;
            interfaces++;
        }
    }
}
