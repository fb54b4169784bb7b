package dev.rmtemu.emulator.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.rmtemu.emulator.capture.CaptureFilesReader;
import dev.rmtemu.traces.PacketRecord;
import dev.rmtemu.traces.pcap.PcapWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A P4 program's {@code Resubmit.emit} ({@code p4/resubmit_tag.p4}): the first pass packs
 * src_addr[15:0] into the 64-bit resubmit header under resubmit_type 1; on the second pass the
 * TofinoIngressParser's resubmit branch extracts it into another metadata header, and ingress
 * writes it plus one into ether_type. The capture holds each frame once, with that ether_type. A header of
 * 72 bits is refused as p4c refuses it (bf-p4c/parde/parde_spec.h: bitResubmitSize() is 64 on
 * Tofino 1; the check "digest limited to 64 bits" in bf-p4c's resubmit header packing).
 */
class ResubmitCaptureTest {
    private static byte[] frame(int srcLow) {
        byte[] f = new byte[64];
        for (int i = 0; i < 6; i++) {
            f[i] = (byte) (0x10 + i);
        }
        f[6] = 0x02;
        f[10] = (byte) (srcLow >>> 8);
        f[11] = (byte) srcLow;
        f[12] = (byte) 0x88;
        f[13] = (byte) 0xB5;
        for (int i = 14; i < f.length; i++) {
            f[i] = (byte) i;
        }
        return f;
    }

    private static PacketRecord record(long ns, byte[] frame) {
        return PacketRecord.allocate().timestampNs(ns).wireLength(frame.length).putFrame(frame, 0, frame.length);
    }

    private static Path program(Path tmp, String from, String to) throws Exception {
        String text;
        try (InputStream in = ResubmitCaptureTest.class.getResourceAsStream("p4/resubmit_tag.p4")) {
            text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        Path p = tmp.resolve("resubmit_tag.p4");
        Files.writeString(p, text.replace(from, to));
        return p;
    }

    private static CliRunner replay(Path tmp, Path program) throws Exception {
        Path pcap = tmp.resolve("t.pcap");
        try (PcapWriter w = new PcapWriter(pcap)) {
            w.write(record(0, frame(0x1234)));
            w.write(record(10_000, frame(0xBEEF)));
        }
        return CliRunner.run("replay", "--program", program.toString(), "--target", "tofino1", "--trace", pcap.toString(),
                "--out", tmp.resolve("run").toString(), "--no-progress", "--capture");
    }

    @Test
    void theResubmitHeaderReachesTheSecondPassThroughTheParser(@TempDir Path tmp) throws Exception {
        assertEtherTypes(tmp, program(tmp, "", ""), new int[] {0x1235, 0xBEF0});
    }

    /** A resubmit branch that advances over the header reads nothing: resub_in stays 0, so ether_type is 1. */
    @Test
    void aParserThatSkipsTheResubmitHeaderReadsNothing(@TempDir Path tmp) throws Exception {
        assertEtherTypes(tmp, program(tmp, "pkt.extract(ig_md.resub_in);", "pkt.advance(64);"), new int[] {1, 1});
    }

    private static void assertEtherTypes(Path tmp, Path program, int[] tags) throws Exception {
        CliRunner r = replay(tmp, program);
        assertEquals(0, r.exit(), r.err());
        CaptureFilesReader.Capture c = CaptureFilesReader.read(tmp.resolve("run/capture/egress.pcapng"));
        assertEquals(List.of(1, 1), c.frames().stream().map(CaptureFilesReader.Frame::port).toList());
        int[] src = {0x1234, 0xBEEF};
        for (int i = 0; i < 2; i++) {
            byte[] expected = frame(src[i]);
            expected[12] = (byte) (tags[i] >>> 8);
            expected[13] = (byte) tags[i];
            assertArrayEquals(expected, c.frames().get(i).bytes(), "frame " + i);
        }
        JsonNode report = new ObjectMapper().readTree(tmp.resolve("run/report.json").toFile());
        assertEquals(List.of(2L, 2L, 0L), List.of(report.at("/counters/in").asLong(), report.at("/counters/out").asLong(),
                report.at("/counters/dropped").asLong()), report.path("counters").toString());
    }

    @Test
    void aResubmitHeaderWiderThan64BitsIsRefused(@TempDir Path tmp) throws Exception {
        Path p = program(tmp, "    bit<48> pad;", "    bit<56> pad;");
        CliRunner r = replay(tmp, p);
        assertEquals(2, r.exit(), r.err());
        String text = Files.readString(p);
        int at = text.indexOf("resubmit.emit(");
        int line = 1 + (int) text.substring(0, at).chars().filter(ch -> ch == '\n').count();
        int column = at - text.lastIndexOf('\n', at - 1);
        assertEquals("rmtemu: " + p + ":" + line + ":" + column + ": resubmit type 1: resubmit header of 72 bits is wider than Tofino's 64",
                r.err().strip());
    }
}
