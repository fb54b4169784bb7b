package dev.rmtemu.traces.pcap;

import dev.rmtemu.traces.PacketRecord;
import dev.rmtemu.traces.SkipReason;
import dev.rmtemu.traces.TraceSummary;
import dev.rmtemu.traces.store.TraceStoreSource;
import dev.rmtemu.traces.store.TraceStoreWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static dev.rmtemu.traces.TraceTestSupport.drain;
import static dev.rmtemu.traces.TraceTestSupport.view;
import static dev.rmtemu.traces.pcap.CaptureBuilder.be16;
import static dev.rmtemu.traces.pcap.CaptureBuilder.concat;
import static dev.rmtemu.traces.pcap.CaptureBuilder.ethernet;
import static dev.rmtemu.traces.pcap.CaptureBuilder.ip;
import static dev.rmtemu.traces.pcap.CaptureBuilder.macs;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A frame read from a capture is carried byte for byte: pcap and pcapng in, a record with
 * the frame's bytes, pcap out, the same frames; ARP, VLAN and QinQ frames included (they
 * used to be skipped). A snap length cuts the bytes, never the original length.
 */
class FrameBytesRoundTripTest {
    @TempDir
    Path dir;

    private static PacketRecord tcp4() {
        return PacketRecord.allocate().wireLength(200).ipVersion(4).protocol(6).ttl(61).ipId(4321)
                .srcIpv4(0xC0A80001).dstIpv4(0x08080808).srcPort(40000).dstPort(443).tcpSeq(0xDEADBEEF)
                .tcpFlags(0x18).payloadHash(0x0BADF00D);
    }

    private static PacketRecord udp6() {
        return PacketRecord.allocate().wireLength(300).ipVersion(6).protocol(17).ttl(7)
                .srcIpv6(0x20010DB800000001L, 5L).dstIpv6(0x20010DB8FFFF0000L, 6L).srcPort(5353).dstPort(53)
                .payloadHash(77);
    }

    /** ARP request (who has 10.0.0.2, tell 10.0.0.1), padded to Ethernet's 60-byte minimum. */
    private static byte[] arp() {
        byte[] body = {0, 1, 8, 0, 6, 4, 0, 1, 2, 0, 0, 0, 0, 1, 10, 0, 0, 1, 0, 0, 0, 0, 0, 0, 10, 0, 0, 2};
        return concat(new byte[] {-1, -1, -1, -1, -1, -1, 2, 0, 0, 0, 0, 1}, be16(0x0806), body, new byte[18]);
    }

    /** The test frames: IPv4, ARP, IPv4 in one 802.1Q tag, IPv6 in QinQ, ARP in a VLAN, LLDP. */
    private static List<byte[]> frames() {
        List<byte[]> f = new ArrayList<>();
        f.add(ethernet(tcp4()));
        f.add(arp());
        f.add(concat(macs(), be16(0x8100), be16(100), be16(0x0800), ip(tcp4())));
        f.add(concat(macs(), be16(0x88A8), be16(5), be16(0x8100), be16(6), be16(0x86DD), ip(udp6())));
        f.add(concat(macs(), be16(0x8100), be16(7), be16(0x0806), Arrays.copyOfRange(arp(), 14, 42)));
        f.add(concat(macs(), be16(0x88CC), new byte[46]));
        return f;
    }

    /** A nanosecond little-endian pcap of {@link #frames()}, wire lengths as captured, 1 s apart. */
    private static byte[] pcap(ByteOrder order, boolean nanos) {
        CaptureBuilder b = new CaptureBuilder(order).pcapHeader(nanos, LinkType.ETHERNET);
        List<byte[]> f = frames();
        for (int i = 0; i < f.size(); i++) {
            b.pcapPacket(1 + i, nanos ? 5_000 : 5, f.get(i), f.get(i).length);
        }
        return b.bytes();
    }

    private Path write(String name, byte[] bytes) throws IOException {
        Path p = dir.resolve(name);
        Files.write(p, bytes);
        return p;
    }

    private static List<byte[]> records(Path capture, int frameCapacity) {
        List<byte[]> out = new ArrayList<>();
        PacketRecord r = PacketRecord.allocate(frameCapacity);
        try (CaptureReader rd = CaptureFiles.open(capture, false)) {
            while (rd.next(r)) {
                out.add(Arrays.copyOf(r.buffer().byteArray(), r.recordBytes()));
            }
            assertEquals(0, rd.skipped().total(), rd.skipped().toString());
        }
        return out;
    }

    @Test
    void everyFrameSurvivesPcapToRecordToPcapByteForByte() throws IOException {
        byte[] original = pcap(ByteOrder.LITTLE_ENDIAN, true);
        Path in = write("in.pcap", original);
        Path out = dir.resolve("out.pcap");
        try (CaptureReader rd = CaptureFiles.open(in, false); CaptureWriter w = CaptureWriter.create(out, CaptureFiles.Format.PCAP)) {
            PacketRecord r = PacketRecord.allocate(PacketRecord.MAX_FRAME_BYTES);
            while (rd.next(r)) {
                w.write(r);
            }
            assertEquals(0, rd.skipped().total());
            // the ARP frame, the ARP in a VLAN and the LLDP frame are records that are not IP
            assertEquals(2, rd.notIp().count(SkipReason.ARP));
            assertEquals(1, rd.notIp().count(SkipReason.NON_IP_ETHERTYPE));
        }
        byte[] written = Files.readAllBytes(out);
        // everything after the 24-byte file header: each packet's timestamp, lengths and bytes
        assertArrayEquals(Arrays.copyOfRange(original, 24, original.length),
                Arrays.copyOfRange(written, 24, written.length));
    }

    @Test
    void bothByteOrdersAndResolutionsGiveTheSameRecords() throws IOException {
        List<byte[]> reference = records(write("le-ns.pcap", pcap(ByteOrder.LITTLE_ENDIAN, true)), 2048);
        assertEquals(6, reference.size());
        for (ByteOrder o : new ByteOrder[] {ByteOrder.BIG_ENDIAN, ByteOrder.LITTLE_ENDIAN}) {
            for (boolean nanos : new boolean[] {false, true}) {
                List<byte[]> got = records(write("t.pcap", pcap(o, nanos)), 2048);
                for (int i = 0; i < got.size(); i++) {
                    assertArrayEquals(reference.get(i), got.get(i), o + " nanos=" + nanos + " frame " + i);
                }
            }
        }
        List<byte[]> frames = frames();
        for (int i = 0; i < frames.size(); i++) {
            PacketRecord r = view(reference.get(i));
            assertArrayEquals(frames.get(i), r.frameBytes(), "frame " + i);
            assertEquals(i == 0 || i == 2 ? 4 : i == 3 ? 6 : 0, r.ipVersion(), "frame " + i);
        }
    }

    @Test
    void aSnapLengthCutsTheBytesAndKeepsTheOriginalLength() throws IOException {
        Path in = write("in.pcap", pcap(ByteOrder.BIG_ENDIAN, false));
        List<byte[]> cut = records(in, 40);
        List<byte[]> frames = frames();
        for (int i = 0; i < frames.size(); i++) {
            PacketRecord r = view(cut.get(i));
            assertEquals(Math.min(40, frames.get(i).length), r.capturedLength());
            assertEquals(frames.get(i).length, r.wireLength());
            assertArrayEquals(Arrays.copyOf(frames.get(i), r.capturedLength()), r.frameBytes());
        }
        // written back: incl_len 40, orig_len the frame's
        Path out = dir.resolve("cut.pcapng");
        try (CaptureReader rd = CaptureFiles.open(in, false);
             CaptureWriter w = CaptureWriter.create(out, CaptureFiles.Format.PCAPNG, 40)) {
            PacketRecord r = PacketRecord.allocate(PacketRecord.MAX_FRAME_BYTES);
            while (rd.next(r)) {
                w.write(r);
            }
        }
        List<byte[]> back = records(out, 2048);
        for (int i = 0; i < frames.size(); i++) {
            PacketRecord was = view(cut.get(i));
            PacketRecord is = view(back.get(i));
            assertArrayEquals(was.frameBytes(), is.frameBytes(), "frame " + i);
            assertEquals(was.wireLength(), is.wireLength(), "frame " + i);
        }
        // 40 bytes of an IPv4 TCP frame end inside its TCP header: read back, it is kept as not IP
        assertEquals(0, view(back.get(0)).ipVersion());
    }

    @Test
    void aPcapngInterfaceIsTheIngressPort() throws IOException {
        List<byte[]> frames = frames();
        CaptureBuilder b = new CaptureBuilder(ByteOrder.LITTLE_ENDIAN).shb();
        for (int i = 0; i < 3; i++) {
            b.idb(LinkType.ETHERNET, 0, 9);
        }
        for (int i = 0; i < frames.size(); i++) {
            b.epb(i % 3, 1_000L * i, frames.get(i), frames.get(i).length);
        }
        List<byte[]> got = records(write("ports.pcapng", b.bytes()), 2048);
        for (int i = 0; i < frames.size(); i++) {
            PacketRecord r = view(got.get(i));
            assertEquals(i % 3, r.ingressPort(), "frame " + i);
            assertArrayEquals(frames.get(i), r.frameBytes(), "frame " + i);
        }
        // and written back, one interface per port, each frame on its own
        Path out = dir.resolve("back.pcapng");
        try (CaptureWriter w = CaptureWriter.create(out, CaptureFiles.Format.PCAPNG)) {
            for (byte[] rec : got) {
                w.write(view(rec));
            }
        }
        List<byte[]> again = records(out, 2048);
        for (int i = 0; i < frames.size(); i++) {
            assertArrayEquals(got.get(i), again.get(i), "frame " + i);
        }
    }

    @Test
    void aTraceStoreKeepsTheBytesUpToItsSnapLength() throws IOException {
        Path in = write("in.pcap", pcap(ByteOrder.LITTLE_ENDIAN, true));
        Path store = dir.resolve("s.cq");
        try (CaptureReader rd = CaptureFiles.open(in, false)) {
            assertEquals(6, TraceStoreWriter.write(rd, store, 64, null));
        }
        assertEquals(true, Files.readString(store.resolve("rmtemu-trace-store.txt")).contains("\nsnap_length=64\n"));
        List<byte[]> want = records(in, 64);
        try (TraceStoreSource src = new TraceStoreSource(store)) {
            List<byte[]> got = drain(src);
            assertEquals(want.size(), got.size());
            for (int i = 0; i < want.size(); i++) {
                assertArrayEquals(want.get(i), got.get(i), "record " + i);
            }
        }
        // a reader with less room keeps the head of each frame, its wire length intact
        try (TraceStoreSource src = new TraceStoreSource(store)) {
            PacketRecord r = PacketRecord.allocate(20);
            for (int i = 0; i < 6; i++) {
                src.next(r);
                assertEquals(20, r.capturedLength());
                assertEquals(frames().get(i).length, r.wireLength());
                assertArrayEquals(Arrays.copyOf(frames().get(i), 20), r.frameBytes());
            }
        }
    }

    @Test
    void traceStatisticsLeaveFramesThatAreNotIpOutOfTheFlows() throws IOException {
        try (CaptureReader rd = CaptureFiles.open(write("in.pcap", pcap(ByteOrder.LITTLE_ENDIAN, true)), false)) {
            TraceSummary s = TraceSummary.of(rd, 5, null);
            assertEquals(6, s.packets());
            assertEquals(3, s.nonIp());
            assertEquals(2, s.ipv4());
            assertEquals(1, s.ipv6());
            assertEquals(2, s.flows()); // the two IPv4 frames are one 5-tuple, the IPv6 one another
            assertEquals(2.0 / 3, s.topShares()[0].packetShare(), 1e-12); // of the IP packets
        }
    }
}
