package dev.rmtemu.traces.pcap;

import dev.rmtemu.traces.PacketRecord;
import dev.rmtemu.traces.TraceFormatException;
import dev.rmtemu.traces.TraceTestSupport;
import dev.rmtemu.traces.gen.GeneratorKind;
import dev.rmtemu.traces.gen.SplitMix64;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.nio.channels.Channels;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Seeded truncations, bit flips and overwritten words of valid captures: every case
 * must end cleanly or with a TraceFormatException (strict), and always cleanly in
 * lenient mode — never another exception, never a hang.
 */
class CorruptionRobustnessTest {
    private static final int CASES_PER_FILE = 1500;
    /** Window smaller than the files, so refills and compaction are exercised too. */
    private static final int SMALL_WINDOW = 0;

    @TempDir
    Path dir;

    private List<byte[]> corpus() throws Exception {
        List<byte[]> files = new ArrayList<>();
        for (CaptureFiles.Format f : CaptureFiles.Format.values()) {
            Path p = dir.resolve("g." + f);
            try (CaptureWriter w = CaptureWriter.create(p, f);
                 var src = TraceTestSupport.gen(GeneratorKind.ISP, "packets", "60", "flows", "10", "ipv6", "0.4",
                         "ports", "3", "seed", "12")) {
                PacketRecord r = PacketRecord.allocate();
                while (src.next(r)) {
                    w.write(r);
                }
            }
            files.add(Files.readAllBytes(p));
        }
        Path shared = TraceTestSupport.sharedTraces();
        if (shared != null) {
            for (String name : new String[] {"smtp.pcap", "sample.pcapng", "udp_tcp_icmp.pcap"}) {
                if (Files.isRegularFile(shared.resolve(name))) {
                    files.add(Files.readAllBytes(shared.resolve(name)));
                }
            }
        }
        return files;
    }

    private static byte[] mutate(byte[] good, SplitMix64 rng) {
        byte[] b;
        switch (rng.nextInt(4)) {
            case 0:
                return java.util.Arrays.copyOf(good, rng.nextInt(good.length));
            case 1: {
                b = good.clone();
                int flips = 1 + rng.nextInt(8);
                for (int i = 0; i < flips; i++) {
                    int pos = rng.nextInt(b.length);
                    b[pos] ^= (byte) (1 << rng.nextInt(8));
                }
                return b;
            }
            case 2: {
                // overwrite an aligned word: hits length fields hard
                b = good.clone();
                int pos = rng.nextInt(b.length / 4) * 4;
                int v = (int) rng.nextLong();
                for (int i = 0; i < 4 && pos + i < b.length; i++) {
                    b[pos + i] = (byte) (v >>> (8 * i));
                }
                return b;
            }
            default: {
                b = good.clone();
                int pos = rng.nextInt(b.length);
                int len = Math.min(b.length - pos, 1 + rng.nextInt(64));
                for (int i = 0; i < len; i++) {
                    b[pos + i] = (byte) rng.nextLong();
                }
                return java.util.Arrays.copyOf(b, b.length - rng.nextInt(Math.min(16, b.length)));
            }
        }
    }

    @Test
    void corruptedCapturesEndCleanlyOrWithTraceFormatException() throws Exception {
        List<byte[]> files = corpus();
        assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
            SplitMix64 rng = new SplitMix64(2024);
            PacketRecord r = PacketRecord.allocate();
            int clean = 0;
            int rejected = 0;
            for (byte[] good : files) {
                for (int c = 0; c < CASES_PER_FILE; c++) {
                    byte[] bad = mutate(good, rng);
                    for (boolean lenient : new boolean[] {false, true}) {
                        try (CaptureReader rd = CaptureFiles.open("case" + c,
                                Channels.newChannel(new ByteArrayInputStream(bad)), lenient, SMALL_WINDOW)) {
                            long n = 0;
                            while (rd.next(r)) {
                                n++;
                                assertTrue(n <= bad.length / 16, "more records than the file can hold");
                            }
                            clean++;
                        } catch (TraceFormatException e) {
                            assertTrue(e.getMessage().startsWith("case" + c + ": ") && e.getMessage().contains("byte offset"),
                                    e.getMessage());
                            if (lenient && e.byteOffset() > 0 && !e.getMessage().contains("header")
                                    && !e.getMessage().contains("magic") && !e.getMessage().contains("version")
                                    && !e.getMessage().contains("not a") && !e.getMessage().contains("section")) {
                                fail("lenient reader threw past the file header: " + e.getMessage());
                            }
                            rejected++;
                        } catch (RuntimeException e) {
                            throw new AssertionError("case " + c + " (lenient=" + lenient + ") threw " + e, e);
                        }
                    }
                }
            }
            assertTrue(clean > 100 && rejected > 100, clean + " clean, " + rejected + " rejected");
        });
    }
}
