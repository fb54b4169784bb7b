package dev.rmtemu.emulator.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.rmtemu.emulator.capture.CaptureFilesReader;
import dev.rmtemu.traces.PacketRecord;
import dev.rmtemu.traces.pcap.PcapWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A P4 program's ingress-to-egress mirror ({@code p4/mirror_copy.p4}: {@code Mirror.emit<mirror_h>}
 * under {@code mirror_type == 1}) with {@code mirroring_add 5 3 40}: every frame leaves on port 1
 * and its copy, the mirror header byte 0xab in front and cut to 40 bytes, on port 3, both in
 * capture/egress.pcapng; report.json's counters conserve them (in + copies = out). The same
 * from the egress deparser ({@code p4/mirror_e2e.p4}: egress to egress, session 6, header 0xcd).
 * Copies run egress on their port: {@code p4/mirror_stamp.p4}'s egress stamps ether_type 0x5555 on
 * what leaves port 3, behind the mirror header its egress parser does not read.
 */
class MirrorCaptureTest {
    private static PacketRecord packet(long ns, int src) {
        return PacketRecord.allocate().timestampNs(ns).wireLength(100).ipVersion(4).protocol(17)
                .srcIpv4(src).dstIpv4(0x0A000009).srcPort(1000).dstPort(2000);
    }

    @Test
    void eachFrameAndItsTruncatedCopyWithItsHeaderAreCaptured(@TempDir Path tmp) throws Exception {
        framesAndCopies(tmp, "mirror_copy.p4", "mirroring_add 5 3 40\n", (byte) 0xab, -1);
    }

    @Test
    void eachCopyRunsEgressOnItsPortWhichStampsItBehindItsHeader(@TempDir Path tmp) throws Exception {
        framesAndCopies(tmp, "mirror_stamp.p4", "mirroring_add 5 3 40\n", (byte) 0xab, 0x5555);
    }

    @Test
    void theEgressDeparserMirrorsEachFrameEgressToEgress(@TempDir Path tmp) throws Exception {
        framesAndCopies(tmp, "mirror_e2e.p4", "mirroring_add 6 3 40\n", (byte) 0xcd, -1);
    }

    /** {@code stampedEtherType}: the ether_type egress writes on the copies (-1: none). */
    private static void framesAndCopies(Path tmp, String name, String script, byte header, int stampedEtherType) throws Exception {
        Path program = tmp.resolve(name);
        try (InputStream in = MirrorCaptureTest.class.getResourceAsStream("p4/" + name)) {
            Files.write(program, in.readAllBytes());
        }
        Path pcap = tmp.resolve("t.pcap");
        try (PcapWriter w = new PcapWriter(pcap)) {
            w.write(packet(0, 0x0A000001));
            w.write(packet(10_000, 0x0A000002));
        }
        Path control = tmp.resolve("c.txt");
        Files.writeString(control, script);
        Path out = tmp.resolve("run");
        CliRunner r = CliRunner.run("replay", "--program", program.toString(), "--target", "tofino1", "--trace", pcap.toString(),
                "--control", control.toString(), "--out", out.toString(), "--no-progress", "--capture");
        assertEquals(0, r.exit(), r.err());
        CaptureFilesReader.Capture c = CaptureFilesReader.read(out.resolve("capture/egress.pcapng"));
        List<CaptureFilesReader.Frame> onOne = c.frames().stream().filter(f -> f.port() == 1).toList();
        List<CaptureFilesReader.Frame> onThree = c.frames().stream().filter(f -> f.port() == 3).toList();
        assertEquals(2, onOne.size());
        assertEquals(2, onThree.size());
        for (int i = 0; i < 2; i++) {
            byte[] frame = onOne.get(i).bytes();
            byte[] copy = onThree.get(i).bytes();
            assertEquals(40, copy.length);
            assertEquals(40, onThree.get(i).wire());
            assertEquals(header, copy[0]);
            assertEquals(0x0800, (frame[12] & 0xFF) << 8 | frame[13] & 0xFF, "the packet on port 1 keeps its IPv4 ether_type");
            byte[] behind = Arrays.copyOf(frame, 39);
            if (stampedEtherType >= 0) {
                behind[12] = (byte) (stampedEtherType >>> 8);
                behind[13] = (byte) stampedEtherType;
            }
            assertArrayEquals(behind, Arrays.copyOfRange(copy, 1, 40), "the frame behind the header");
        }
        JsonNode report = new ObjectMapper().readTree(out.resolve("report.json").toFile());
        // conservation: 2 in + 2 mirrored copies = 4 out + 0 dropped + 0 in flight
        assertEquals(List.of(2L, 4L, 0L, 0L), List.of(report.at("/counters/in").asLong(), report.at("/counters/out").asLong(),
                report.at("/counters/dropped").asLong(), report.at("/counters/in_flight").asLong()), report.path("counters").toString());
        // the copies themselves: 2 mirrored, none replicated
        assertEquals(List.of(2L, 0L), List.of(report.at("/counters/mirrored").asLong(),
                report.at("/counters/replicated").asLong()), report.path("counters").toString());
    }
}
