package dev.rmtemu.traces.pcap;

import dev.rmtemu.traces.PacketRecord;
import dev.rmtemu.traces.SkipReason;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * pcapng files: sections (SHB) in either byte order, interface description blocks
 * with per-interface link type, snap length, {@code if_tsresol} and {@code if_tsoffset},
 * enhanced, simple and obsolete packet blocks; every other block type is skipped
 * without being held in memory. The ingress port of a record is its interface id.
 * Simple packet blocks carry no timestamp: they get the previous packet's.
 */
public final class PcapngReader extends CaptureReader {
    static final int BLOCK_SHB = 0x0A0D0D0A;
    static final int BLOCK_IDB = 0x00000001;
    static final int BLOCK_OPB = 0x00000002;
    static final int BLOCK_SPB = 0x00000003;
    static final int BLOCK_EPB = 0x00000006;
    static final int BYTE_ORDER_MAGIC = 0x1A2B3C4D;
    static final int OPT_END = 0;
    static final int OPT_COMMENT = 1;
    static final int OPT_IF_NAME = 2;
    static final int OPT_IF_TSRESOL = 9;
    static final int OPT_IF_TSOFFSET = 14;
    /** Smallest block: type, total length, trailing total length. */
    static final int MIN_BLOCK = 12;
    /**
     * Largest block that is loaded whole (section and interface headers, packet blocks):
     * the caplen limit plus 64 KiB of options. Unknown blocks of any length are skipped.
     */
    public static final int MAX_LOADED_BLOCK = MAX_CAPLEN + 65_536;
    /** Interface ids are 16-bit ingress ports in the record. */
    public static final int MAX_INTERFACES = 65_536;
    private static final int DEFAULT_TSRESOL_EXPONENT = 6;
    private static final int SUPPORTED_MAJOR = 1;
    private static final long NANOS_PER_SECOND = 1_000_000_000L;
    private static final long[] POW10 = {1L, 10L, 100L, 1_000L, 10_000L, 100_000L, 1_000_000L, 10_000_000L,
        100_000_000L, 1_000_000_000L, 10_000_000_000L, 100_000_000_000L, 1_000_000_000_000L,
        10_000_000_000_000L, 100_000_000_000_000L, 1_000_000_000_000_000L, 1_000_000_000_000_000_000L};

    private ByteOrder order;
    private int interfaces;
    private int[] linkTypes = new int[4];
    private int[] snapLens = new int[4];
    /** Largest |if_tsoffset| in seconds whose ns value fits a long. */
    static final long MAX_TSOFFSET_SECONDS = Long.MAX_VALUE / NANOS_PER_SECOND;
    /** tsOffsetNs of an interface whose if_tsoffset was out of range (lenient): its packets are skipped. */
    private static final long BAD_TSOFFSET = Long.MIN_VALUE;

    /** if_tsresol byte per interface: bit 7 set = negative power of 2, else of 10. */
    private int[] tsResol = new int[4];
    private long[] tsOffsetNs = new long[4];
    /** if_name per interface (null: none), read for {@link #interfaceName}. */
    private String[] ifNames = new String[4];
    /** Whether packet comments are read ({@link #readComments}); off, packets cost no option scan. */
    private boolean readComments;
    private String comment;
    private long lastTimestampNs;
    private int sections;

    PcapngReader(String name, ByteWindow in, boolean lenient) {
        super(name, in, lenient);
        if (!in.ensure(MIN_BLOCK) || in.buffer().getInt(in.pos(), ByteOrder.BIG_ENDIAN) != BLOCK_SHB) {
            throw corrupt(0, "not a pcapng file (no section header block)");
        }
        readSectionHeader();
    }

    @Override
    protected int readFrame(PacketRecord into) {
        while (true) {
            if (in.atEnd()) {
                return FRAME_END;
            }
            long at = in.offset();
            if (!in.ensure(8)) {
                throw corrupt(at, "truncated block header");
            }
            UnsafeBuffer b = in.buffer();
            int type = b.getInt(in.pos(), order);
            if (b.getInt(in.pos(), ByteOrder.BIG_ENDIAN) == BLOCK_SHB) {
                readSectionHeader();
                continue;
            }
            long length = b.getInt(in.pos() + 4, order) & 0xFFFFFFFFL;
            if (length < MIN_BLOCK || (length & 3) != 0) {
                throw corrupt(at, "bad block length " + length);
            }
            switch (type) {
                case BLOCK_IDB:
                    readInterface(at, loadBlock(at, length));
                    continue;
                case BLOCK_EPB:
                case BLOCK_SPB:
                case BLOCK_OPB:
                    return readPacket(at, type, loadBlock(at, length), into);
                default:
                    skipBlock(at, length);
            }
        }
    }

    /** Ensures the whole block is in the window and checks its trailing length; returns its length. */
    private int loadBlock(long at, long length) {
        if (length > MAX_LOADED_BLOCK) {
            throw corrupt(at, "block length " + length + " exceeds the limit of " + MAX_LOADED_BLOCK + " bytes");
        }
        int len = (int) length;
        if (!in.ensure(len)) {
            throw corrupt(at, "truncated block (" + in.available() + " of " + len + " bytes)");
        }
        int trailer = in.buffer().getInt(in.pos() + len - 4, order);
        if (trailer != len) {
            throw corrupt(at, "block trailing length " + Integer.toUnsignedString(trailer)
                    + " does not match its leading length " + len);
        }
        return len;
    }

    private void skipBlock(long at, long length) {
        if (!in.skip(length - 4) || !in.ensure(4)) {
            throw corrupt(at, "truncated block of " + length + " bytes");
        }
        long trailer = in.buffer().getInt(in.pos(), order) & 0xFFFFFFFFL;
        if (trailer != length) {
            throw corrupt(at, "block trailing length " + trailer + " does not match its leading length " + length);
        }
        in.advance(4);
    }

    private void readSectionHeader() {
        long at = in.offset();
        if (!in.ensure(MIN_BLOCK + 16)) {
            throw corrupt(at, "truncated section header block");
        }
        UnsafeBuffer b = in.buffer();
        int p = in.pos();
        int bom = b.getInt(p + 8, ByteOrder.BIG_ENDIAN);
        if (bom == BYTE_ORDER_MAGIC) {
            order = ByteOrder.BIG_ENDIAN;
        } else if (Integer.reverseBytes(bom) == BYTE_ORDER_MAGIC) {
            order = ByteOrder.LITTLE_ENDIAN;
        } else {
            throw corrupt(at + 8, "bad byte-order magic 0x" + Integer.toHexString(bom));
        }
        long length = b.getInt(p + 4, order) & 0xFFFFFFFFL;
        if (length < MIN_BLOCK + 16 || (length & 3) != 0) {
            throw corrupt(at, "bad section header length " + length);
        }
        int len = loadBlock(at, length);
        int major = b.getShort(in.pos() + 12, order) & 0xFFFF;
        if (major != SUPPORTED_MAJOR) {
            throw corrupt(at + 12, "unsupported pcapng version " + major);
        }
        interfaces = 0;
        sections++;
        in.advance(len);
    }

    private void readInterface(long at, int len) {
        UnsafeBuffer b = in.buffer();
        int p = in.pos();
        if (len < 20) {
            throw corrupt(at, "interface description block too short (" + len + " bytes)");
        }
        if (interfaces >= MAX_INTERFACES) {
            throw corrupt(at, "more than " + MAX_INTERFACES + " interfaces in one section");
        }
        if (interfaces == linkTypes.length) {
            int n = interfaces * 2;
            linkTypes = Arrays.copyOf(linkTypes, n);
            snapLens = Arrays.copyOf(snapLens, n);
            tsResol = Arrays.copyOf(tsResol, n);
            tsOffsetNs = Arrays.copyOf(tsOffsetNs, n);
            ifNames = Arrays.copyOf(ifNames, n);
        }
        int i = interfaces++;
        linkTypes[i] = b.getShort(p + 8, order) & 0xFFFF;
        snapLens[i] = b.getInt(p + 12, order);
        tsResol[i] = DEFAULT_TSRESOL_EXPONENT;
        tsOffsetNs[i] = 0;
        ifNames[i] = null;
        int o = p + 16;
        int end = p + len - 4;
        while (end - o >= 4) {
            int code = b.getShort(o, order) & 0xFFFF;
            int olen = b.getShort(o + 2, order) & 0xFFFF;
            if (code == OPT_END) {
                break;
            }
            int padded = (olen + 3) & ~3;
            if (end - o - 4 < padded) {
                throw corrupt(at + (o - p), "interface option " + code + " overruns its block");
            }
            if (code == OPT_IF_TSRESOL && olen >= 1) {
                int r = b.getByte(o + 4) & 0xFF;
                int exponent = r & 0x7F;
                if ((r & 0x80) == 0 ? exponent >= POW10.length : exponent >= 64) {
                    throw corrupt(at + (o - p), "unsupported timestamp resolution 0x" + Integer.toHexString(r));
                }
                tsResol[i] = r;
            } else if (code == OPT_IF_NAME) {
                ifNames[i] = utf8(b, o + 4, olen);
            } else if (code == OPT_IF_TSOFFSET && olen >= 8) {
                long seconds = b.getLong(o + 4, order);
                if (seconds > MAX_TSOFFSET_SECONDS || seconds < -MAX_TSOFFSET_SECONDS) {
                    String what = "interface " + i + ": if_tsoffset " + seconds + " s is out of range (a nanosecond time "
                            + "holds at most +-" + MAX_TSOFFSET_SECONDS + " s)";
                    if (!lenient) {
                        throw corrupt(at + (o - p), what);
                    }
                    tsOffsetNs[i] = BAD_TSOFFSET; // its packets are skipped as bad-timestamp
                } else {
                    tsOffsetNs[i] = seconds * NANOS_PER_SECOND;
                }
            }
            o += 4 + padded;
        }
        in.advance(len);
    }

    private int readPacket(long at, int type, int len, PacketRecord into) {
        UnsafeBuffer b = in.buffer();
        int p = in.pos();
        int iface;
        int capLen;
        int origLen;
        int data;
        long ts;
        boolean hasTimestamp = true;
        if (type == BLOCK_EPB || type == BLOCK_OPB) {
            if (len < 32) {
                throw corrupt(at, "packet block too short (" + len + " bytes)");
            }
            iface = type == BLOCK_EPB ? b.getInt(p + 8, order) : b.getShort(p + 8, order) & 0xFFFF;
            ts = ((long) b.getInt(p + 12, order) << 32) | (b.getInt(p + 16, order) & 0xFFFFFFFFL);
            capLen = b.getInt(p + 20, order);
            origLen = b.getInt(p + 24, order);
            data = 28;
            if (capLen < 0 || capLen > len - 32) {
                throw corrupt(at, "captured length " + Integer.toUnsignedString(capLen) + " overruns its block");
            }
        } else {
            if (len < 16) {
                throw corrupt(at, "simple packet block too short (" + len + " bytes)");
            }
            iface = 0;
            ts = 0;
            hasTimestamp = false;
            origLen = b.getInt(p + 8, order);
            data = 12;
            capLen = len - 16;
            if (origLen >= 0 && origLen < capLen) {
                capLen = origLen;
            }
            if (iface < interfaces && snapLens[iface] > 0 && snapLens[iface] < capLen) {
                capLen = snapLens[iface];
            }
        }
        if (iface < 0 || iface >= interfaces) {
            throw corrupt(at, "packet for undeclared interface " + Integer.toUnsignedString(iface));
        }
        if (origLen < 0) {
            throw corrupt(at, "original length " + Integer.toUnsignedString(origLen) + " is not a frame length");
        }
        if (type == BLOCK_EPB || type == BLOCK_OPB) {
            if (Integer.compareUnsigned(capLen, origLen) > 0) {
                in.advance(len);
                return badFrame(at, SkipReason.CAPTURED_OVER_ORIGINAL, "captured length " + capLen
                        + " exceeds the original length " + origLen);
            }
        }
        if (hasTimestamp) {
            if (tsOffsetNs[iface] == BAD_TSOFFSET) {
                in.advance(len);
                return badFrame(at, SkipReason.BAD_TIMESTAMP, "interface " + iface + "'s if_tsoffset is out of range");
            }
            long ns = toNanosChecked(ts, tsResol[iface]);
            long offset = tsOffsetNs[iface];
            if (ns < 0 || (offset > 0 && ns > Long.MAX_VALUE - offset)) {
                in.advance(len);
                return badFrame(at, SkipReason.BAD_TIMESTAMP, "timestamp " + Long.toUnsignedString(ts) + " (interface "
                        + iface + ", if_tsoffset " + offset / NANOS_PER_SECOND + " s) does not fit a 64-bit ns count");
            }
            lastTimestampNs = ns + offset;
        }
        if (readComments) {
            comment = type == BLOCK_EPB ? packetComment(b, p + 28 + ((capLen + 3) & ~3), p + len - 4) : null;
        }
        if (into == null) {
            in.advance(len); // checked, not decoded (verifyRest)
            return FRAME_RECORD;
        }
        into.timestampNs(lastTimestampNs).wireLength(origLen).ingressPort(iface);
        tapFrame(b, p + data, capLen, origLen, linkTypes[iface]);
        boolean ok = PacketDecoder.toRecord(b, p + data, capLen, linkTypes[iface], into, skips, notIp);
        in.advance(len);
        return ok ? FRAME_RECORD : FRAME_SKIPPED;
    }

    /** As {@link #toNanos}, or -1 when the time does not fit a signed 64-bit ns count. */
    static long toNanosChecked(long ts, int resol) {
        int exponent = resol & 0x7F;
        if ((resol & 0x80) == 0) {
            if (exponent <= 9) {
                long m = POW10[9 - exponent];
                return ts < 0 || ts > Long.MAX_VALUE / m ? -1 : ts * m;
            }
            return Long.divideUnsigned(ts, POW10[exponent - 9]);
        }
        long hi = Math.multiplyHigh(ts, NANOS_PER_SECOND) + ((ts >> 63) & NANOS_PER_SECOND);
        if (exponent == 0 ? hi != 0 : (hi >>> exponent) != 0) {
            return -1;
        }
        long r = toNanos(ts, resol);
        return r < 0 ? -1 : r;
    }

    /** Converts an unsigned timestamp in the interface's units to ns (wrapping on absurd values). */
    static long toNanos(long ts, int resol) {
        int exponent = resol & 0x7F;
        if ((resol & 0x80) == 0) {
            if (exponent <= 9) {
                return ts * POW10[9 - exponent];
            }
            return Long.divideUnsigned(ts, POW10[exponent - 9]);
        }
        // ts / 2^e seconds = ts * 1e9 >> e ns, on the 128-bit product.
        long lo = ts * NANOS_PER_SECOND;
        long hi = Math.multiplyHigh(ts, NANOS_PER_SECOND) + ((ts >> 63) & NANOS_PER_SECOND);
        if (exponent == 0) {
            return lo;
        }
        return (hi << (64 - exponent)) | (lo >>> exponent);
    }

    /** Reads each enhanced packet block's opt_comment from now on ({@link #comment()}). */
    public void readComments(boolean on) {
        this.readComments = on;
    }

    /** The opt_comment of the last packet read (null: none, or comments not read). */
    public String comment() {
        return comment;
    }

    /** The if_name of interface {@code i} of the current section (null: none given). */
    public String interfaceName(int i) {
        if (i < 0 || i >= interfaces) {
            throw new IllegalArgumentException("no interface " + i + " (" + interfaces + " declared)");
        }
        return ifNames[i];
    }

    private String packetComment(UnsafeBuffer b, int o, int end) {
        while (end - o >= 4) {
            int code = b.getShort(o, order) & 0xFFFF;
            int olen = b.getShort(o + 2, order) & 0xFFFF;
            if (code == OPT_END || end - o - 4 < olen) {
                return null;
            }
            if (code == OPT_COMMENT) {
                return utf8(b, o + 4, olen);
            }
            o += 4 + ((olen + 3) & ~3);
        }
        return null;
    }

    private static String utf8(UnsafeBuffer b, int at, int length) {
        byte[] bytes = new byte[length];
        b.getBytes(at, bytes);
        return new String(bytes, StandardCharsets.UTF_8);
    }

    /** Interfaces declared in the current section. */
    public int interfaceCount() {
        return interfaces;
    }

    @Override
    public String describe() {
        return "pcapng " + name + " (" + (order == ByteOrder.BIG_ENDIAN ? "big" : "little") + "-endian, "
                + sections + " section(s), " + interfaces + " interface(s))";
    }
}
