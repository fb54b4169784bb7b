package dev.rmtemu.traces.pcap;

import dev.rmtemu.traces.PacketRecord;
import dev.rmtemu.traces.SkipReason;
import dev.rmtemu.traces.TraceFormatException;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.nio.ByteOrder;
import java.nio.channels.Channels;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Issue 30 point 13: capture fields that are well formed but out of range were accepted
 * with wrong lengths or times: pcap {@code incl_len > orig_len}, a microsecond field of
 * 10^6 or more, a pcapng {@code if_tsoffset} of 2^62 s. Strict reading refuses each one
 * naming the file, the record and its byte offset; lenient reading skips the frame and
 * counts it ({@code captured-over-original}, {@code bad-timestamp}). Each with its legal twin.
 */
class CaptureRangeCheckTest {
    private static final int WINDOW = 1 << 16;
    private static final byte[] FRAME = CaptureBuilder.ethernet(PacketRecord.allocate().wireLength(100).ipVersion(4)
            .protocol(17).ttl(64).srcIpv4(0x0A000001).dstIpv4(0x0A000002).srcPort(1).dstPort(2));

    /** Timestamps (ns) of the records read, lenient or not. */
    private static List<Long> read(byte[] file, boolean lenient, long[] skips) {
        List<Long> ts = new ArrayList<>();
        PacketRecord r = PacketRecord.allocate();
        try (CaptureReader rd = CaptureFiles.open("t.cap", Channels.newChannel(new ByteArrayInputStream(file)), lenient,
                WINDOW)) {
            while (rd.next(r)) {
                ts.add(r.timestampNs());
            }
            skips[0] = rd.skipped().count(SkipReason.CAPTURED_OVER_ORIGINAL);
            skips[1] = rd.skipped().count(SkipReason.BAD_TIMESTAMP);
        }
        return ts;
    }

    private static String refusal(byte[] file) {
        return assertThrows(TraceFormatException.class, () -> read(file, false, new long[2])).getMessage();
    }

    /** Three frames; the second has the given micro field and original length. */
    private static byte[] pcap(int secondFrac, int secondOrigLen) {
        return new CaptureBuilder(ByteOrder.LITTLE_ENDIAN).pcapHeader(false, LinkType.ETHERNET)
                .pcapPacket(1, 0, FRAME, FRAME.length)
                .pcapPacket(2, secondFrac, FRAME, secondOrigLen)
                .pcapPacket(3, 0, FRAME, FRAME.length).bytes();
    }

    /** Offset of the second pcap record: file header 24 + one record of 16 + frame. */
    private static final long SECOND = 24 + 16 + FRAME.length;

    @Test
    void pcapCapturedLengthOverOriginalLength() {
        byte[] bad = pcap(0, FRAME.length - 1);
        assertEquals("t.cap: record 2: captured length " + FRAME.length + " exceeds the original length "
                + (FRAME.length - 1) + " at byte offset " + SECOND, refusal(bad));
        long[] skips = new long[2];
        assertEquals(List.of(1_000_000_000L, 3_000_000_000L), read(bad, true, skips));
        assertEquals(1, skips[0]);
        // legal twin: equal lengths, and a snapped frame (captured < original)
        assertEquals(3, read(pcap(0, FRAME.length), false, skips).size());
        assertEquals(3, read(pcap(0, FRAME.length + 1000), false, skips).size());
    }

    @Test
    void pcapMicrosecondFieldOfAWholeSecond() {
        byte[] bad = pcap(1_000_000, FRAME.length);
        assertEquals("t.cap: record 2: microsecond field 1000000 is not below 1000000 at byte offset " + SECOND,
                refusal(bad));
        long[] skips = new long[2];
        assertEquals(List.of(1_000_000_000L, 3_000_000_000L), read(bad, true, skips));
        assertEquals(1, skips[1]);
        assertEquals(List.of(1_000_000_000L, 2_999_999_000L, 3_000_000_000L), read(pcap(999_999, FRAME.length), false, skips));
    }

    private static byte[] pcapng(long offsetSeconds) {
        return new CaptureBuilder(ByteOrder.LITTLE_ENDIAN).shb().idbWithOffset(LinkType.ETHERNET, offsetSeconds)
                .epb(0, 5_000_000L, FRAME, FRAME.length).bytes();
    }

    @Test
    void pcapngTimestampOffsetBeyondANanosecondTime() {
        long offset = 1L << 62;
        byte[] bad = pcapng(offset);
        // the option sits after the SHB (28 bytes) and the IDB's fixed 16 bytes
        assertEquals("t.cap: interface 0: if_tsoffset " + offset + " s is out of range (a nanosecond time holds at most"
                + " +-9223372036 s) at byte offset " + (28 + 16), refusal(bad));
        long[] skips = new long[2];
        assertEquals(List.of(), read(bad, true, skips));
        assertEquals(1, skips[1]);
        // legal twin: an hour's offset moves the packet (default resolution: microseconds)
        assertEquals(List.of(3_600_000_000_000L + 5_000_000_000L), read(pcapng(3600), false, skips));
    }

    @Test
    void pcapngCapturedLengthOverOriginalLength() {
        byte[] bad = new CaptureBuilder(ByteOrder.LITTLE_ENDIAN).shb().idb(LinkType.ETHERNET, 0, -1)
                .epb(0, 1, FRAME, FRAME.length - 10).bytes();
        assertEquals("t.cap: record 1: captured length " + FRAME.length + " exceeds the original length "
                + (FRAME.length - 10) + " at byte offset " + (28 + 20), refusal(bad));
        long[] skips = new long[2];
        assertEquals(List.of(), read(bad, true, skips));
        assertEquals(1, skips[0]);
    }
}
