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
import java.util.HexFormat;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A resubmitted packet re-enters the ingress parser with its original bytes and the parser runs
 * from its start (p4lang/p4-spec wiki "How to do resubmit in PSA?": "The original packet is
 * resubmitted to the ingress parser"; TNA's TofinoIngressParser reads the resubmit header where
 * the port metadata was). {@code p4/resubmit_reparse.p4}'s first pass rewrites ether_type and sets a
 * metadata mark before resubmitting; the second pass must see neither, and ingress_mac_tstamp
 * is still the first arrival's (taken "at the ingress MAC", TNA's tofino1_base.p4). A parser
 * that refuses the frame on the second pass drops it as any parser error.
 */
class ResubmitReparseTest {
    private static final int ETHER_TYPE = 0x88B5;

    private static byte[] frame(int srcLow) {
        byte[] f = new byte[64];
        for (int i = 0; i < 6; i++) {
            f[i] = (byte) (0x10 + i);
        }
        f[6] = 0x02;
        f[10] = (byte) (srcLow >>> 8);
        f[11] = (byte) srcLow;
        f[12] = (byte) (ETHER_TYPE >>> 8);
        f[13] = (byte) ETHER_TYPE;
        for (int i = 14; i < f.length; i++) {
            f[i] = (byte) i;
        }
        return f;
    }

    private static final String RESUBMIT_BRANCH = "        pkt.extract(ig_md.resub_in);\n        transition accept;\n";

    private static CliRunner replay(Path tmp, String control) throws Exception {
        return replay(tmp, control, RESUBMIT_BRANCH);
    }

    /** Replays the two frames through resubmit_reparse.p4 whose resubmit branch's state body is {@code resubmitBranch}. */
    private static CliRunner replay(Path tmp, String control, String resubmitBranch) throws Exception {
        Path program = tmp.resolve("resubmit_reparse.p4");
        String text;
        try (InputStream in = ResubmitReparseTest.class.getResourceAsStream("p4/resubmit_reparse.p4")) {
            text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        assertEquals(true, text.contains(RESUBMIT_BRANCH), "the resubmit branch of p4/resubmit_reparse.p4");
        Files.writeString(program, text.replace(RESUBMIT_BRANCH, resubmitBranch));
        Path pcap = tmp.resolve("t.pcap");
        try (PcapWriter w = new PcapWriter(pcap)) {
            for (long ns : new long[] {1_000, 10_000}) {
                byte[] f = frame((int) ns);
                w.write(PacketRecord.allocate().timestampNs(ns).wireLength(f.length).putFrame(f, 0, f.length));
            }
        }
        Path script = tmp.resolve("control.txt");
        Files.writeString(script, control);
        return CliRunner.run("replay", "--program", program.toString(), "--target", "tofino1", "--trace", pcap.toString(),
                "--control", script.toString(), "--out", tmp.resolve("run").toString(), "--no-progress", "--capture");
    }

    private static JsonNode counters(Path tmp) throws Exception {
        return new ObjectMapper().readTree(tmp.resolve("run/report.json").toFile()).path("counters");
    }

    /**
     * Both frames leave on port 1 with their original ether_type: the second pass saw 0x88B5
     * (not the first pass's 0x1111) and mark 0 (not 0xAB). Its src_addr is ingress_mac_tstamp:
     * the arrival's 0 and 9000 ns (the replay's clock starts at the trace's first packet), not
     * the resubmitted pass's later time; dst_addr is the tag the resubmit header carried
     * (src_addr's low 16 bits on arrival).
     */
    @Test
    void theSecondPassReparsesTheOriginalBytesAndKeepsTheFirstMacTimestamp(@TempDir Path tmp) throws Exception {
        CliRunner r = replay(tmp, "pvs_add accepted_types 0x88b5\n");
        assertEquals(0, r.exit(), r.err());
        CaptureFilesReader.Capture c = CaptureFilesReader.read(tmp.resolve("run/capture/egress.pcapng"));
        assertEquals(List.of(1, 1), c.frames().stream().map(CaptureFilesReader.Frame::port).toList());
        int[] tags = {1_000, 10_000};
        long[] macTstamps = {0, 9_000};
        for (int i = 0; i < 2; i++) {
            byte[] expected = frame(tags[i]);
            byte[] dst = {0, 0, 0, 0, (byte) (tags[i] >>> 8), (byte) tags[i]};
            System.arraycopy(dst, 0, expected, 0, 6);
            for (int b = 0; b < 6; b++) {
                expected[6 + b] = (byte) (macTstamps[i] >>> 8 * (5 - b));
            }
            assertEquals(HexFormat.of().formatHex(expected), HexFormat.of().formatHex(c.frames().get(i).bytes()), "frame " + i);
        }
        JsonNode n = counters(tmp);
        assertEquals(List.of(2L, 2L, 0L), List.of(n.path("in").asLong(), n.path("out").asLong(), n.path("dropped").asLong()),
                n.toString());
    }

    /**
     * The control plane empties the parser's value set at cycle 1, after the first frame's first
     * pass (at cycle 0: the replay's clock starts at the trace's first packet) and before its
     * resubmitted pass: the second parse rejects the frame, dropped as parser_error. The second
     * frame (9000 ns, cycle 10980 at 1.22 GHz) is rejected on its first pass. Its twin, emptying
     * the set only after both frames left, drops none.
     */
    @Test
    void aFrameTheParserRejectsOnTheSecondPassIsAParserErrorItsTwinLeaves(@TempDir Path tmp) throws Exception {
        CliRunner r = replay(tmp, "pvs_add accepted_types 0x88b5\nat 1 pvs_clear accepted_types\n");
        assertEquals(0, r.exit(), r.err());
        JsonNode n = counters(tmp);
        assertEquals(List.of(2L, 0L, 2L, 2L), List.of(n.path("in").asLong(), n.path("out").asLong(), n.path("dropped").asLong(),
                n.path("dropped_by_cause").path("parser_error").asLong()), n.toString());

        Path twin = tmp.resolve("twin");
        Files.createDirectories(twin);
        CliRunner t = replay(twin, "pvs_add accepted_types 0x88b5\nat 100000 pvs_clear accepted_types\n");
        assertEquals(0, t.exit(), t.err());
        JsonNode m = counters(twin);
        assertEquals(List.of(2L, 2L, 0L), List.of(m.path("in").asLong(), m.path("out").asLong(), m.path("dropped").asLong()),
                m.toString());
    }

    /**
     * TNA's boilerplate TofinoIngressParser rejects in its resubmit branch
     * ({@code state parse_resubmit { transition reject; }}): every resubmitted packet is a
     * parser error of kind reject, though its frame parsed on the first pass.
     */
    @Test
    void aResubmitBranchThatRejectsDropsEveryResubmittedPacketAsAParserError(@TempDir Path tmp) throws Exception {
        CliRunner r = replay(tmp, "pvs_add accepted_types 0x88b5\n", "        transition reject;\n");
        assertEquals(0, r.exit(), r.err());
        JsonNode n = counters(tmp);
        assertEquals(List.of(2L, 0L, 2L, 2L, 2L), List.of(n.path("in").asLong(), n.path("out").asLong(), n.path("dropped").asLong(),
                n.path("dropped_by_cause").path("parser_error").asLong(), n.path("parser_errors").path("reject").asLong()),
                n.toString());
    }
}
