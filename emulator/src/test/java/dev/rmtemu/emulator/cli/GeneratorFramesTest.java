package dev.rmtemu.emulator.cli;

import dev.rmtemu.traces.PacketRecord;
import dev.rmtemu.traces.PacketSource;
import dev.rmtemu.traces.pcap.CaptureFiles;
import dev.rmtemu.traces.pcap.CaptureReader;
import dev.rmtemu.traces.spec.TraceSpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A generated record carries the frame a written capture of it holds: the engine's ring gets
 * the bytes {@code trace convert gen:... x.pcap} writes, whole or at a snap length.
 */
class GeneratorFramesTest {
    @TempDir
    Path dir;

    private static String[] run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(args, new PrintWriter(out, true), new PrintWriter(err, true));
        return new String[] {Integer.toString(code), out.toString(), err.toString()};
    }

    /** Compares every generated record (frame capacity {@code capacity}) with the frame {@code capture} holds. */
    private static void sameFrames(String spec, Path capture, int capacity) {
        PacketRecord g = PacketRecord.allocate(capacity);
        PacketRecord c = PacketRecord.allocate(PacketRecord.MAX_FRAME_BYTES);
        long n = 0;
        try (PacketSource gen = TraceSpec.open(spec); CaptureReader rd = CaptureFiles.open(capture, false)) {
            while (gen.next(g)) {
                assertTrue(rd.next(c), "the capture ends after " + n + " frames");
                assertTrue(g.capturedLength() > 0);
                assertArrayEquals(c.frameBytes(), g.frameBytes(), "frame " + n);
                assertEquals(c.wireLength(), g.wireLength(), "frame " + n);
                // a pcap has no interfaces: its frames all arrive on port 0
                PacketRecord want = capture.toString().endsWith(".pcap")
                        ? PacketRecord.allocate(capacity).copyFrom(g).ingressPort(0) : g;
                assertTrue(want.contentEquals(c), "frame " + n + ": " + want + " vs " + c);
                n++;
            }
            assertTrue(!rd.next(c));
        }
        assertEquals(2000, n);
    }

    @Test
    void generatedFramesAreTheFramesTraceConvertWrites() {
        for (String spec : new String[] {"gen:isp?packets=2000&seed=3&gbps=10&ipv6=0.3",
            "gen:tcp?packets=2000&seed=4&flows=30&ipv6=0.5", "gen:incast?packets=2000&seed=5&senders=8&bursts=2"}) {
            Path whole = dir.resolve("whole.pcap");
            String[] r = run("trace", "convert", spec, whole.toString());
            assertEquals("0", r[0], r[2]);
            sameFrames(spec, whole, PacketRecord.MAX_FRAME_BYTES);
            // at the ring's default snap length: what `trace convert --snaplen 256` keeps
            Path cut = dir.resolve("cut.pcapng");
            r = run("trace", "convert", spec, cut.toString(), "--snaplen", "256");
            assertEquals("0", r[0], r[2]);
            sameFrames(spec, cut, PacketRecord.DEFAULT_FRAME_CAPACITY);
        }
    }

    @Test
    void replaySnaplenOutsideItsRangeIsOneLine() {
        // refused before any run directory is touched
        for (String bad : new String[] {"0", "65536", "-4"}) {
            String[] r = run("replay", "--program", "counter", "--trace", "gen:uniform?packets=10", "--snaplen", bad);
            assertEquals("2", r[0]);
            assertEquals("rmtemu: --snaplen " + bad + ": must be in [1, 65535]", r[2].strip());
        }
        String[] ok = run("replay", "--program", "counter", "--trace", "gen:uniform?packets=100&seed=1", "--snaplen", "64",
                "--json", "--out", dir.resolve("run").toString());
        assertEquals("0", ok[0], ok[2]);
    }
}
