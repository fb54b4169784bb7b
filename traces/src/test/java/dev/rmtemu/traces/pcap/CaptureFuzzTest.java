package dev.rmtemu.traces.pcap;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.rmtemu.model.UserError;
import dev.rmtemu.traces.PacketRecord;
import dev.rmtemu.traces.gen.SplitMix64;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;
import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Fuzz target: pcap and pcapng captures read through an in-memory channel whose
 * reads return a random short count, strict and lenient, with a random initial
 * window. Contract: the capture is read to its end, or refused with a UserError
 * naming it; nothing else, and no hang. Input: byte 0 = mode (bit 0 lenient, the
 * rest picks the largest read), byte 1 = window, then the capture.
 * Corpus and past findings: {@code src/test/resources/.../CaptureFuzzTestInputs/}.
 */
class CaptureFuzzTest {
    static final String NAME = "fuzz-capture";
    /** Records read at most: more than any corpus file holds, and a bound on time per input. */
    private static final int MAX_RECORDS = 100_000;

    @Test
    void readersRunWithAgronasBoundsChecksOn() {
        // the CLI turns them off; under test a reader's missing length check must fault, not read past
        assertTrue(UnsafeBuffer.SHOULD_BOUNDS_CHECK);
    }

    @FuzzTest(maxDuration = "10m")
    void captureThroughShortReads(byte[] input) {
        if (input.length < 2) {
            return;
        }
        boolean lenient = (input[0] & 1) != 0;
        int maxRead = 1 + ((input[0] & 0xFF) >>> 1) * 37;
        int window = (input[1] & 0xFF) * 97;
        byte[] capture = Arrays.copyOfRange(input, 2, input.length);
        PacketRecord r = PacketRecord.allocate();
        try (CaptureReader reader = CaptureFiles.open(NAME, new ShortReads(capture, maxRead), lenient, window)) {
            for (int n = 0; n < MAX_RECORDS && reader.next(r); n++) {
                // every record decoded; its fields are the reader's business
            }
        } catch (UserError e) {
            if (!e.getMessage().contains(NAME)) {
                throw new AssertionError("refusal does not name the input: " + e.getMessage(), e);
            }
        }
    }

    /** A channel over bytes that returns between 1 and {@code maxRead} bytes per read, seeded by the content. */
    static final class ShortReads implements ReadableByteChannel {
        private final byte[] bytes;
        private final int maxRead;
        private final SplitMix64 sizes;
        private int pos;
        private boolean open = true;

        ShortReads(byte[] bytes, int maxRead) {
            this.bytes = bytes;
            this.maxRead = maxRead;
            this.sizes = new SplitMix64(Arrays.hashCode(bytes));
        }

        @Override
        public int read(ByteBuffer dst) {
            if (pos >= bytes.length) {
                return -1;
            }
            int n = Math.min(Math.min(dst.remaining(), bytes.length - pos), 1 + sizes.nextInt(maxRead));
            dst.put(bytes, pos, n);
            pos += n;
            return n;
        }

        @Override
        public boolean isOpen() {
            return open;
        }

        @Override
        public void close() {
            open = false;
        }
    }
}
