package dev.rmtemu.traces.pcap;

import dev.rmtemu.traces.PacketRecord;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;

/** Builds capture files byte by byte for tests: any byte order, link type, block mix. */
final class CaptureBuilder {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteOrder order;

    CaptureBuilder(ByteOrder order) {
        this.order = order;
    }

    byte[] bytes() {
        return out.toByteArray();
    }

    CaptureBuilder u16(int v) {
        out.writeBytes(ByteBuffer.allocate(2).order(order).putShort((short) v).array());
        return this;
    }

    CaptureBuilder u32(int v) {
        out.writeBytes(ByteBuffer.allocate(4).order(order).putInt(v).array());
        return this;
    }

    CaptureBuilder raw(byte[] b) {
        out.writeBytes(b);
        return this;
    }

    // ---- classic pcap
    CaptureBuilder pcapHeader(boolean nanos, int linkType) {
        return u32(nanos ? PcapReader.MAGIC_NANOS : PcapReader.MAGIC_MICROS).u16(2).u16(4).u32(0).u32(0)
                .u32(65535).u32(linkType);
    }

    CaptureBuilder pcapPacket(int sec, int frac, byte[] frame, int origLen) {
        return u32(sec).u32(frac).u32(frame.length).u32(origLen).raw(frame);
    }

    // ---- pcapng
    CaptureBuilder shb() {
        return u32(PcapngReader.BLOCK_SHB).u32(28).u32(PcapngReader.BYTE_ORDER_MAGIC).u16(1).u16(0)
                .u32(-1).u32(-1).u32(28);
    }

    /** IDB with an if_tsresol option (resol < 0: no option). */
    CaptureBuilder idb(int linkType, int snapLen, int resol) {
        int len = resol < 0 ? 20 : 32;
        u32(PcapngReader.BLOCK_IDB).u32(len).u16(linkType).u16(0).u32(snapLen);
        if (resol >= 0) {
            u16(PcapngReader.OPT_IF_TSRESOL).u16(1).raw(new byte[] {(byte) resol, 0, 0, 0}).u16(0).u16(0);
        }
        return u32(len);
    }

    /** IDB with an if_tsoffset option of {@code seconds}. */
    CaptureBuilder idbWithOffset(int linkType, long seconds) {
        int len = 20 + 12 + 4;
        u32(PcapngReader.BLOCK_IDB).u32(len).u16(linkType).u16(0).u32(0);
        u16(PcapngReader.OPT_IF_TSOFFSET).u16(8);
        raw(ByteBuffer.allocate(8).order(order).putLong(seconds).array());
        return u16(0).u16(0).u32(len);
    }

    CaptureBuilder epb(int iface, long ts, byte[] frame, int origLen) {
        int padded = (frame.length + 3) & ~3;
        int len = 32 + padded;
        return u32(PcapngReader.BLOCK_EPB).u32(len).u32(iface).u32((int) (ts >>> 32)).u32((int) ts)
                .u32(frame.length).u32(origLen).raw(Arrays.copyOf(frame, padded)).u32(len);
    }

    CaptureBuilder spb(byte[] frame, int origLen) {
        int padded = (frame.length + 3) & ~3;
        int len = 16 + padded;
        return u32(PcapngReader.BLOCK_SPB).u32(len).u32(origLen).raw(Arrays.copyOf(frame, padded)).u32(len);
    }

    CaptureBuilder unknownBlock(int type, int bodyBytes) {
        int len = 12 + ((bodyBytes + 3) & ~3);
        return u32(type).u32(len).raw(new byte[len - 12]).u32(len);
    }

    // ---- frames
    /** The Ethernet frame the writers would emit for {@code r}. */
    static byte[] ethernet(PacketRecord r) {
        UnsafeBuffer b = new UnsafeBuffer(new byte[FrameSynthesizer.capturedLength(r, FrameSynthesizer.WHOLE_FRAME)]);
        int n = FrameSynthesizer.build(r, b, 0);
        return Arrays.copyOf(b.byteArray(), n);
    }

    /** The IP packet (no link header) for {@code r}. */
    static byte[] ip(PacketRecord r) {
        byte[] e = ethernet(r);
        return Arrays.copyOfRange(e, 14, e.length);
    }

    static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream o = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            o.writeBytes(p);
        }
        return o.toByteArray();
    }

    static byte[] be16(int v) {
        return new byte[] {(byte) (v >> 8), (byte) v};
    }

    static byte[] macs() {
        return new byte[] {2, 0, 0, 0, 0, 2, 2, 0, 0, 0, 0, 1};
    }
}
