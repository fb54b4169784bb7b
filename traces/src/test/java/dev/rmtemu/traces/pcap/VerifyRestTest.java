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
import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link CaptureReader#verifyRest}, the header walk a run makes over its whole capture before it
 * starts, refuses exactly what reading the capture refuses, with the same message, and counts
 * the same frames: on good captures of both formats and on seeded cut and bit-flipped ones.
 */
class VerifyRestTest {
    private static final int CASES_PER_FORMAT = 400;

    @TempDir
    Path dir;

    private byte[] capture(CaptureFiles.Format f) throws Exception {
        Path p = dir.resolve("g." + f);
        try (CaptureWriter w = CaptureWriter.create(p, f);
             var src = TraceTestSupport.gen(GeneratorKind.ISP, "packets", "80", "flows", "10", "ipv6", "0.3",
                     "ports", "3", "seed", "34")) {
            PacketRecord r = PacketRecord.allocate();
            while (src.next(r)) {
                w.write(r);
            }
        }
        return Files.readAllBytes(p);
    }

    /** The reader's outcome over {@code bytes}: "frames N" or the refusal's message. */
    private static String read(byte[] bytes, boolean headersOnly) {
        try (CaptureReader rd = CaptureFiles.open("case", Channels.newChannel(new ByteArrayInputStream(bytes)), false, 0)) {
            if (headersOnly) {
                return "frames " + rd.verifyRest();
            }
            PacketRecord r = PacketRecord.allocate();
            while (rd.next(r)) {
                // every frame decoded into r
            }
            return "frames " + rd.framesRead();
        } catch (TraceFormatException e) {
            return e.getMessage();
        }
    }

    @Test
    void theHeaderWalkRefusesWhatReadingRefusesAndCountsTheSameFrames() throws Exception {
        for (CaptureFiles.Format f : CaptureFiles.Format.values()) {
            byte[] good = capture(f);
            assertEquals("frames 80", read(good, true), f.toString());
            assertEquals("frames 80", read(good, false), f.toString());
            SplitMix64 rng = new SplitMix64(31);
            int refused = 0;
            for (int c = 0; c < CASES_PER_FORMAT; c++) {
                byte[] bad = c % 2 == 0 ? Arrays.copyOf(good, rng.nextInt(good.length)) : good.clone();
                if (c % 2 == 1) {
                    for (int i = 1 + rng.nextInt(4); i > 0; i--) {
                        bad[rng.nextInt(bad.length)] ^= (byte) (1 << rng.nextInt(8));
                    }
                }
                String full = read(bad, false);
                assertEquals(full, read(bad, true), f + " case " + c);
                if (!full.startsWith("frames")) {
                    refused++;
                }
            }
            assertTrue(refused > CASES_PER_FORMAT / 4, f + ": " + refused + " refused");
        }
    }
}
