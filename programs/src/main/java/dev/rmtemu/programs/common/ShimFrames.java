package dev.rmtemu.programs.common;

import dev.rmtemu.model.parse.EtherTypeShim;
import dev.rmtemu.traces.PacketRecord;
import dev.rmtemu.traces.pcap.FrameSynthesizer;

/**
 * A program's EtherType shim ({@link EtherTypeShim}) in a packet record's frame, for the
 * plain-Java side (experiments, tests, benchmarks) that must read what a switch put on the
 * wire or hand a switch a frame that already carries a shim: the shim sits right after the
 * 14-byte Ethernet header, Ethernet's EtherType names it and its last two bytes name what
 * follows. A frame shorter than Ethernet, or with another EtherType, carries none.
 */
public final class ShimFrames {
    /** Ethernet's EtherType offset, and the header's length. */
    private static final int ETHER_TYPE_AT = 12;
    private static final int ETHERNET_BYTES = 14;

    private ShimFrames() {
    }

    /** Where the shim's first byte is in the frame, or -1 when the frame carries no shim of this EtherType. */
    public static int find(PacketRecord r, EtherTypeShim shim) {
        int bytes = shim.type().fixedBytes();
        if (r.capturedLength() < ETHERNET_BYTES + bytes) {
            return -1;
        }
        int et = r.frameByte(ETHER_TYPE_AT) << 8 | r.frameByte(ETHER_TYPE_AT + 1);
        return et == shim.etherType() ? ETHERNET_BYTES : -1;
    }

    /** The unsigned big-endian field of {@code bits} at bit {@code bitOffset} of the shim at frame offset {@code at}. */
    public static long field(PacketRecord r, int at, int bitOffset, int bits) {
        long v = 0;
        int first = bitOffset / Byte.SIZE;
        int last = (bitOffset + bits - 1) / Byte.SIZE;
        for (int i = first; i <= last; i++) {
            v = v << Byte.SIZE | r.frameByte(at + i);
        }
        int trailing = (last + 1) * Byte.SIZE - (bitOffset + bits);
        return (v >>> trailing) & (bits == Long.SIZE ? -1L : (1L << bits) - 1);
    }

    /**
     * Inserts a shim after Ethernet (the record's frame is synthesised from its decoded fields
     * when it carries none): {@code fields} are the shim's bytes before its EtherType, which
     * takes Ethernet's; Ethernet's becomes the shim's. The wire length grows by the shim's
     * length; a frame that no longer fits the record keeps its first bytes.
     */
    public static void insert(PacketRecord r, EtherTypeShim shim, byte[] fields) {
        int bytes = shim.type().fixedBytes();
        if (fields.length != bytes - Short.BYTES) {
            throw new IllegalArgumentException("shim " + shim.header() + ": " + fields.length + " field bytes, its type has "
                    + (bytes - Short.BYTES));
        }
        FrameSynthesizer.attachFrame(r);
        byte[] old = r.frameBytes();
        if (old.length < ETHERNET_BYTES) {
            throw new IllegalArgumentException("frame of " + old.length + " bytes has no Ethernet header to follow");
        }
        byte[] now = new byte[old.length + bytes];
        System.arraycopy(old, 0, now, 0, ETHER_TYPE_AT);
        now[ETHER_TYPE_AT] = (byte) (shim.etherType() >>> 8);
        now[ETHER_TYPE_AT + 1] = (byte) shim.etherType();
        System.arraycopy(fields, 0, now, ETHERNET_BYTES, fields.length);
        now[ETHERNET_BYTES + fields.length] = old[ETHER_TYPE_AT];
        now[ETHERNET_BYTES + fields.length + 1] = old[ETHER_TYPE_AT + 1];
        System.arraycopy(old, ETHERNET_BYTES, now, ETHERNET_BYTES + bytes, old.length - ETHERNET_BYTES);
        r.putFrame(now, 0, now.length);
        r.wireLength(r.wireLength() + bytes);
    }
}
