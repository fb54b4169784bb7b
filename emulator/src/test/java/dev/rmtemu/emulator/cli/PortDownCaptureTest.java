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
import java.util.HexFormat;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A replay whose control script takes port 1 down from 5 µs to 15 µs: pktgen.p4 sends every
 * trace frame to port 1, so the frame of 10 µs is dropped as tm_port_down_flush (counted in
 * report.json, recorded in capture/drops.pcapng with the cause as its comment) and the frames of
 * 0 and 20 µs leave by port 1. The frame is dropped when it reaches the traffic manager, 134 cycles
 * after its arrival.
 */
class PortDownCaptureTest {
    private static PacketRecord packet(long ns, int src) {
        return PacketRecord.allocate().timestampNs(ns).wireLength(100).ipVersion(4).protocol(17)
                .srcIpv4(src).dstIpv4(0x0A000009).srcPort(1000).dstPort(2000);
    }

    @Test
    void aFrameForADownPortIsDroppedWithItsCauseInTheReportAndTheDropsCapture(@TempDir Path tmp) throws Exception {
        Path program = tmp.resolve("pktgen.p4");
        try (InputStream in = PortDownCaptureTest.class.getResourceAsStream("/dev/rmtemu/emulator/engine/p4/pktgen.p4")) {
            Files.write(program, in.readAllBytes());
        }
        Path pcap = tmp.resolve("t.pcap");
        try (PcapWriter w = new PcapWriter(pcap)) {
            w.write(packet(0, 0x0A000001));
            w.write(packet(10_000, 0x0A000002));
            w.write(packet(20_000, 0x0A000003));
        }
        Path control = tmp.resolve("c.txt");
        Files.writeString(control, "at 6100 port_down 1\nat 18300 port_up 1\n"); // 5 and 15 µs at 1.22 GHz
        Path out = tmp.resolve("run");
        CliRunner r = CliRunner.run("replay", "--program", program.toString(), "--target", "tofino1", "--trace", pcap.toString(),
                "--control", control.toString(), "--out", out.toString(), "--no-progress", "--capture");
        assertEquals(0, r.exit(), r.err());
        CaptureFilesReader.Capture sent = CaptureFilesReader.read(out.resolve("capture/egress.pcapng"));
        assertEquals(List.of(1, 1), sent.frames().stream().map(CaptureFilesReader.Frame::port).toList());
        CaptureFilesReader.Capture drops = CaptureFilesReader.read(out.resolve("capture/drops.pcapng"));
        assertEquals(1, drops.frames().size());
        CaptureFilesReader.Frame dropped = drops.frames().get(0);
        assertEquals("tm_port_down_flush", dropped.comment());
        // the 10 µs frame (source 10.0.0.2), dropped on reaching the traffic manager: cycle 12,200 + 134
        // (pktgen.p4's parser to traffic manager) = 12,334, 10,109 ns
        assertEquals("0a000002", HexFormat.of().formatHex(dropped.bytes(), 26, 30));
        assertEquals(10_109, dropped.ns());
        JsonNode report = new ObjectMapper().readTree(out.resolve("report.json").toFile());
        assertEquals(List.of(3L, 2L, 1L, 1L), List.of(report.at("/counters/in").asLong(), report.at("/counters/out").asLong(),
                report.at("/counters/dropped").asLong(), report.at("/counters/dropped_by_cause/tm_port_down_flush").asLong()),
                report.path("counters").toString());
    }
}
