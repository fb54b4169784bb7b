package dev.rmtemu.traces.parse;

import dev.rmtemu.model.parse.Checksum16;
import dev.rmtemu.model.parse.DefaultParseGraph;
import dev.rmtemu.model.parse.Deparser;
import dev.rmtemu.model.parse.PacketParser;
import dev.rmtemu.model.parse.ParseGraph;
import dev.rmtemu.model.parse.ParseResult;
import dev.rmtemu.model.parse.ParserError;
import dev.rmtemu.traces.PacketRecord;
import dev.rmtemu.traces.TraceTestSupport;
import dev.rmtemu.traces.gen.GeneratorKind;
import dev.rmtemu.traces.gen.SyntheticSource;
import dev.rmtemu.traces.pcap.CaptureFiles;
import dev.rmtemu.traces.pcap.CaptureReader;
import dev.rmtemu.traces.pcap.FrameSynthesizer;
import dev.rmtemu.traces.pcap.LinkType;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Parse, then deparse with the default graph, gives back the very bytes of every
 * frame: of the real captures in shared/traces (skipped when absent) and of the
 * generators. Where a frame's IPv4 header checksum is valid, the deparser that
 * recomputes it gives the same bytes too.
 */
class ParseDeparseRoundTripTest {
    /** Wide enough for every header of these frames: the round trip, not the window, is under test. */
    private static final int WINDOW = 65_535;
    private final ParseGraph g = DefaultParseGraph.build();
    private final PacketParser parser = new PacketParser(g, WINDOW);
    private final ParseResult r = new ParseResult(g);
    private final Deparser plain = DefaultParseGraph.deparser(g);
    private final Deparser withChecksum = DefaultParseGraph.deparserWithIpv4Checksum(g);
    private final byte[] out = new byte[WINDOW + 1024];

    /** Counts of one trace's frames: accepted and round-tripped, and parser errors. */
    private long accepted;
    private long checksummed;
    private long truncated;

    private void roundTrip(byte[] frame, int caplen, int wireLen, String where) {
        if (!parser.parse(frame, 0, caplen, wireLen, r)) {
            // only a capture that kept less than the headers may fail
            assertEquals(ParserError.CAPTURE_TRUNCATED, r.error(), where);
            assertTrue(caplen < wireLen, where);
            truncated++;
            return;
        }
        accepted++;
        int n = plain.deparse(r, frame, 0, caplen, out, 0);
        assertArrayEquals(Arrays.copyOf(frame, caplen), Arrays.copyOf(out, n), where);
        int ipv4 = g.header("ipv4").index();
        if (r.isValid(ipv4) && new Checksum16().addBytes(frame, r.headerOffset(ipv4),
                20 + r.varbitLength(ipv4)).get() == 0) {
            n = withChecksum.deparse(r, frame, 0, caplen, out, 0);
            assertArrayEquals(Arrays.copyOf(frame, caplen), Arrays.copyOf(out, n), where + " (checksum recomputed)");
            checksummed++;
        }
    }

    @Test
    void everyFrameOfTheSharedCapturesRoundTrips() throws IOException {
        Path dir = TraceTestSupport.sharedTraces();
        assumeTrue(dir != null, "shared/traces absent");
        List<Path> files = new ArrayList<>();
        try (Stream<Path> s = Files.list(dir)) {
            s.filter(p -> p.toString().endsWith(".pcap") || p.toString().endsWith(".pcapng")).sorted().forEach(files::add);
        }
        assumeTrue(!files.isEmpty(), "no captures in shared/traces");
        long frames = 0;
        for (Path f : files) {
            try (CaptureReader rd = CaptureFiles.open(f, false)) {
                long[] n = new long[1];
                rd.tap((b, off, cap, wire, link) -> {
                    if (link == LinkType.ETHERNET) {
                        byte[] frame = new byte[cap];
                        b.getBytes(off, frame);
                        roundTrip(frame, cap, wire, f.getFileName() + " frame " + n[0]);
                    }
                    n[0]++;
                });
                PacketRecord rec = PacketRecord.allocate();
                while (rd.next(rec)) {
                    // the tap sees every frame
                }
                frames += n[0];
            }
        }
        assertTrue(accepted > 0 && accepted + truncated <= frames);
        assertTrue(checksummed > 0, "some IPv4 frames carry a valid header checksum");
    }

    @ParameterizedTest
    @EnumSource(GeneratorKind.class)
    void everyGeneratedFrameRoundTrips(GeneratorKind kind) {
        SyntheticSource src = TraceTestSupport.gen(kind, "packets", "3000", "seed", "5");
        PacketRecord rec = PacketRecord.allocate();
        UnsafeBuffer buf = new UnsafeBuffer(new byte[FrameSynthesizer.WHOLE_FRAME]);
        int n = 0;
        while (src.next(rec)) {
            int len = FrameSynthesizer.build(rec, buf, 0);
            byte[] frame = Arrays.copyOf(buf.byteArray(), len);
            roundTrip(frame, len, Math.max(len, rec.wireLength()), kind + " frame " + n);
            n++;
        }
        assertEquals(n, accepted, "every generated frame parses");
        assertEquals(0, truncated);
    }
}
