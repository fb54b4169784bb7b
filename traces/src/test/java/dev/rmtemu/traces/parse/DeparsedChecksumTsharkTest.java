package dev.rmtemu.traces.parse;

import dev.rmtemu.model.parse.DefaultParseGraph;
import dev.rmtemu.model.parse.PacketParser;
import dev.rmtemu.model.parse.ParseGraph;
import dev.rmtemu.model.parse.ParseResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A frame whose TTL and both MAC addresses a program rewrote leaves the deparser
 * with a valid IPv4 header checksum (options included), as tshark, with checksum
 * validation on, sees it. Skipped where tshark is not installed (CI installs it).
 */
class DeparsedChecksumTsharkTest {
    private static boolean tsharkInstalled() {
        try {
            Process p = new ProcessBuilder("tshark", "--version").redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            return p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    @Test
    void rewrittenTtlAndMacsCarryAValidChecksum(@TempDir Path dir) throws IOException, InterruptedException {
        assumeTrue(tsharkInstalled(), "tshark not installed");
        ByteBuffer f = ByteBuffer.allocate(14 + 24 + 8 + 4);
        f.put(new byte[] {2, 0, 0, 0, 0, 2, 2, 0, 0, 0, 0, 1}).putShort((short) 0x0800);
        // IPv4 with 4 bytes of options (IHL 6) and a checksum of 0: wrong before the deparser
        f.put((byte) 0x46).put((byte) 0).putShort((short) 36).putShort((short) 7).putShort((short) 0).put((byte) 64)
                .put((byte) 17).putShort((short) 0).putInt(0xC0A80001).putInt(0xC0A80002).putInt(0x01010100);
        f.putShort((short) 1000).putShort((short) 2000).putShort((short) 12).putShort((short) 0).putInt(0x64617461);
        byte[] frame = f.array();
        ParseGraph g = DefaultParseGraph.build();
        ParseResult r = new ParseResult(g);
        assertTrue(new PacketParser(g, 256).parse(frame, 0, frame.length, frame.length, r));
        r.set(g.field("ipv4.ttl"), r.get(g.field("ipv4.ttl")) - 1);
        r.set(g.field("ethernet.dst_addr"), 0x00163E112233L);
        r.set(g.field("ethernet.src_addr"), 0x00163E445566L);
        byte[] out = new byte[frame.length];
        int n = DefaultParseGraph.deparserWithIpv4Checksum(g).deparse(r, frame, 0, frame.length, out, 0);
        assertEquals(frame.length, n);

        Path pcap = dir.resolve("rewritten.pcap");
        ByteBuffer file = ByteBuffer.allocate(24 + 16 + n).order(ByteOrder.LITTLE_ENDIAN);
        file.putInt(0xA1B2C3D4).putShort((short) 2).putShort((short) 4).putInt(0).putInt(0).putInt(65535).putInt(1);
        file.putInt(1).putInt(0).putInt(n).putInt(n).put(Arrays.copyOf(out, n));
        Files.write(pcap, file.array());
        Process p = new ProcessBuilder("tshark", "-r", pcap.toString(), "-o", "ip.check_checksum:TRUE", "-T", "fields",
                "-e", "ip.checksum.status", "-e", "ip.ttl", "-e", "eth.dst", "-e", "eth.src")
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        String fields = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        assertTrue(p.waitFor(120, TimeUnit.SECONDS));
        // checksum status 1 is "Good" (0 bad, 2 unverified)
        assertEquals("1\t63\t00:16:3e:11:22:33\t00:16:3e:44:55:66", fields);
    }
}
