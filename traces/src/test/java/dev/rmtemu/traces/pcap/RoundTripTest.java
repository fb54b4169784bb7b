package dev.rmtemu.traces.pcap;

import dev.rmtemu.traces.PacketRecord;
import dev.rmtemu.traces.PacketSource;
import dev.rmtemu.traces.gen.GeneratorKind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static dev.rmtemu.traces.TraceTestSupport.drain;
import static dev.rmtemu.traces.TraceTestSupport.gen;
import static dev.rmtemu.traces.TraceTestSupport.view;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RoundTripTest {
    @TempDir
    Path dir;

    private static void write(PacketSource src, Path file, CaptureFiles.Format format) {
        try (CaptureWriter w = CaptureWriter.create(file, format); src) {
            PacketRecord r = PacketRecord.allocate(PacketRecord.MAX_FRAME_BYTES); // whole frames
            while (src.next(r)) {
                w.write(r);
            }
            assertEquals(0, w.lengthsRaised());
        }
    }

    private void roundTrip(CaptureFiles.Format format, GeneratorKind kind, String... kv) {
        List<byte[]> expected = drain(gen(kind, kv));
        Path f = dir.resolve("t." + format.name().toLowerCase());
        write(gen(kind, kv), f, format);
        List<byte[]> actual;
        try (CaptureReader rd = CaptureFiles.open(f, false)) {
            actual = drain(rd);
            assertEquals(0, rd.skipped().total());
        }
        // The same file through a small, growing window that is refilled thousands of times.
        try (CaptureReader rd = CaptureFiles.open("small-window",
                java.nio.channels.FileChannel.open(f, java.nio.file.StandardOpenOption.READ), false, 0)) {
            List<byte[]> again = drain(rd);
            assertEquals(actual.size(), again.size());
            for (int i = 0; i < again.size(); i++) {
                assertArrayEquals(actual.get(i), again.get(i), "small window, record " + i);
            }
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        assertEquals(expected.size(), actual.size());
        for (int i = 0; i < expected.size(); i++) {
            assertArrayEquals(expected.get(i), actual.get(i),
                    "record " + i + ": " + view(expected.get(i)) + " vs " + view(actual.get(i)));
        }
    }

    @Test
    void pcapRoundTripIsExactForMixedIpv4Ipv6Traffic() {
        roundTrip(CaptureFiles.Format.PCAP, GeneratorKind.ISP, "packets", "20000", "flows", "500",
                "ipv6", "0.3", "seed", "11");
    }

    @Test
    void pcapngRoundTripKeepsIngressPorts() {
        roundTrip(CaptureFiles.Format.PCAPNG, GeneratorKind.DC, "packets", "20000", "flows", "300",
                "ipv6", "0.5", "ports", "5", "seed", "3");
    }

    @Test
    void incastAndTcpRoundTrip() {
        roundTrip(CaptureFiles.Format.PCAPNG, GeneratorKind.INCAST, "packets", "5000", "senders", "16",
                "bursts", "4", "ports", "4");
        roundTrip(CaptureFiles.Format.PCAP, GeneratorKind.TCP, "packets", "5000", "flows", "50");
    }

    @Test
    void fragmentsAndOtherProtocolsRoundTrip() {
        PacketRecord[] recs = new PacketRecord[4];
        for (int i = 0; i < recs.length; i++) {
            recs[i] = PacketRecord.allocate();
        }
        recs[0].timestampNs(1_000).wireLength(1500).ipVersion(4).flags(PacketRecord.FLAG_FRAGMENT)
                .protocol(17).ttl(60).ipId(777).srcIpv4(0x0A000001).dstIpv4(0x0A000002).srcPort(53).dstPort(999)
                .payloadHash(0x12345678);
        recs[1].timestampNs(2_000).wireLength(600).ipVersion(4)
                .flags(PacketRecord.FLAG_FRAGMENT | PacketRecord.FLAG_LATER_FRAGMENT)
                .protocol(17).ttl(60).ipId(777).srcIpv4(0x0A000001).dstIpv4(0x0A000002).payloadHash(-5);
        recs[2].timestampNs(3_000).wireLength(900).ipVersion(6)
                .flags(PacketRecord.FLAG_FRAGMENT | PacketRecord.FLAG_LATER_FRAGMENT).protocol(6).ttl(3)
                .ipId(4242).srcIpv6(1L, 2L).dstIpv6(-3L, 4L).payloadHash(99);
        recs[3].timestampNs(4_000).wireLength(100).ipVersion(4).protocol(47).ttl(9).ipId(1)
                .srcIpv4(-1).dstIpv4(5).payloadHash(0);
        Path f = dir.resolve("frag.pcap");
        try (CaptureWriter w = CaptureWriter.create(f, CaptureFiles.Format.PCAP)) {
            for (PacketRecord r : recs) {
                w.write(r);
            }
        }
        try (CaptureReader rd = CaptureFiles.open(f, false)) {
            List<byte[]> got = drain(rd);
            assertEquals(4, got.size());
            for (int i = 0; i < 4; i++) {
                // records without frame bytes are written as the synthesised frame, which reads back as them
                PacketRecord want = PacketRecord.allocate(PacketRecord.MAX_FRAME_BYTES).copyFrom(recs[i]);
                FrameSynthesizer.putFrame(want, new org.agrona.concurrent.UnsafeBuffer(new byte[FrameSynthesizer.MAX_MIN_FRAME]));
                assertTrue(want.contentEquals(view(got.get(i))), want + " vs " + view(got.get(i)));
            }
        }
    }
}
