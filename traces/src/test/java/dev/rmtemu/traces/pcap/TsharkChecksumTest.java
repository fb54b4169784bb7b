package dev.rmtemu.traces.pcap;

import dev.rmtemu.traces.PacketRecord;
import dev.rmtemu.traces.PacketSource;
import dev.rmtemu.traces.spec.TraceSpec;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Wireshark's own dissectors open what the generators write, with IPv4, TCP and UDP checksum
 * validation on (ICMP and ICMPv6 are always checked): every frame's IPv4 header checksum and
 * L4 checksum is good, no frame is malformed, none raises an expert warning or error. Skips when
 * {@code tshark} is not on the PATH (CI installs Debian's tshark).
 *
 * <p>The payload is synthetic (a 4-byte word for the payload hash, then zeros) and is no DNS,
 * NTP, TLS ... message, so every TCP and UDP port is decoded as plain data ({@code -d}): the test
 * checks the frames up to L4, which is what the generators claim.
 */
class TsharkChecksumTest {
    /** Wireshark expert severities: PI_WARN, PI_ERROR. */
    private static final long EXPERT_WARN = 0x00600000L;
    /** checksum.status values: 0 bad, 1 good, 2 unverified. */
    private static final String GOOD = "1";
    private static final String BAD = "0";

    @TempDir
    Path dir;
    private static String tshark;

    @BeforeAll
    static void findTshark() {
        for (String d : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            Path p = Path.of(d, "tshark");
            if (!d.isEmpty() && Files.isExecutable(p)) {
                tshark = p.toString();
                return;
            }
        }
    }

    private Path write(String spec, CaptureFiles.Format format, int snap) {
        Path f = dir.resolve("t." + format.name().toLowerCase());
        try (PacketSource src = TraceSpec.open(spec); CaptureWriter w = CaptureWriter.create(f, format, snap)) {
            PacketRecord r = PacketRecord.allocate(Math.min(snap, PacketRecord.MAX_FRAME_BYTES)); // frames as the snap keeps them
            while (src.next(r)) {
                w.write(r);
            }
        }
        return f;
    }

    /** One line per frame: number, then the checksum statuses, malformed and expert severities (tab separated). */
    private static List<String[]> dissect(Path file) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(tshark, "-n", "-r", file.toString(),
                "-d", "tcp.port==1-65535,data", "-d", "udp.port==1-65535,data",
                "-o", "ip.check_checksum:TRUE", "-o", "tcp.check_checksum:TRUE", "-o", "udp.check_checksum:TRUE",
                "-T", "fields", "-E", "separator=/t", "-E", "occurrence=a", "-E", "aggregator=;"));
        for (String field : new String[] {"frame.number", "ip.checksum.status", "tcp.checksum.status",
            "udp.checksum.status", "icmp.checksum.status", "icmpv6.checksum.status", "_ws.malformed",
            "_ws.expert.severity", "_ws.expert.message"}) {
            cmd.add("-e");
            cmd.add(field);
        }
        Path out = file.resolveSibling(file.getFileName() + ".txt");
        Process p = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
        assertTrue(p.waitFor(5, TimeUnit.MINUTES), "tshark did not finish");
        assertEquals(0, p.exitValue(), "tshark exit status on " + file);
        List<String[]> rows = new ArrayList<>();
        for (String line : Files.readAllLines(out, StandardCharsets.UTF_8)) {
            rows.add(line.split("\t", -1));
        }
        return rows;
    }

    private void check(String spec, CaptureFiles.Format format, int snap, boolean whole) throws Exception {
        assumeTrue(tshark != null, "tshark is not installed");
        Path f = write(spec, format, snap);
        List<String[]> rows = dissect(f);
        long packets;
        try (PacketSource src = TraceSpec.open(spec)) {
            packets = src.knownCount();
        }
        assertEquals(packets, rows.size(), spec + ": frames tshark read");
        for (String[] row : rows) {
            String where = spec + " " + format + " frame " + row[0] + ": " + String.join(" | ", row);
            assertTrue(row[1].isEmpty() || row[1].equals(GOOD), "IPv4 header checksum: " + where);
            int l4 = 0;
            for (int i = 2; i <= 5; i++) {
                if (!row[i].isEmpty()) {
                    l4++;
                    assertTrue(whole ? row[i].equals(GOOD) : !row[i].contains(BAD), "L4 checksum: " + where);
                }
            }
            assertEquals(1, l4, "one TCP, UDP, ICMP or ICMPv6 checksum: " + where);
            assertTrue(row[6].isEmpty(), "malformed: " + where);
            if (!row[7].isEmpty()) {
                for (String severity : row[7].split(";")) {
                    assertTrue(Long.parseLong(severity) < EXPERT_WARN, "expert warning or error: " + where);
                }
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "gen:isp?packets=5000&seed=3&gbps=10&ipv6=0.3",
        "gen:isp?packets=5000&seed=4&dist=zipf&ipv6=0.5&tcp=0.4&udp=0.3",
        "gen:dc?packets=3000&seed=3&ports=3&ipv6=0.2&tcp=0.5&udp=0.3",
        "gen:incast?packets=3000&seed=3&senders=8&bursts=3",
        "gen:tcp?packets=3000&seed=3&flows=40&ipv6=0.5",
        "gen:uniform?packets=3000&seed=3&ipv6=0.5&tcp=0.3&udp=0.3"})
    void generatedPcapAndPcapngHaveGoodChecksumsAndNoMalformedFrame(String spec) throws Exception {
        check(spec, CaptureFiles.Format.PCAP, FrameSynthesizer.WHOLE_FRAME, true);
        check(spec, CaptureFiles.Format.PCAPNG, FrameSynthesizer.WHOLE_FRAME, true);
    }

    @Test
    void framesTruncatedToASnapLengthAreNeverBadOrMalformed() throws Exception {
        check("gen:isp?packets=3000&seed=5&ipv6=0.4&tcp=0.5&udp=0.3", CaptureFiles.Format.PCAPNG, 96, false);
    }
}
