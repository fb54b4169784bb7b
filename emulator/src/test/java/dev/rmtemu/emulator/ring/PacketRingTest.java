package dev.rmtemu.emulator.ring;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.junit.jupiter.api.Test;

import java.io.UncheckedIOException;
import java.io.IOException;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

class PacketRingTest {

    /** 4 KiB: 56 records, so a million records forces the reader to wait thousands of times. */
    private static final int TINY_RING_BYTES = 4096;

    private static final AtomicInteger RING_IDS = new AtomicInteger();

    private static RingConfig tinyRing() {
        return RingConfig.DEFAULT.withCapacityBytes(TINY_RING_BYTES)
                .withReaderThreadName("test-ring-reader-" + RING_IDS.incrementAndGet());
    }

    /** Bytes of a numbered record. */
    private static final int RECORD = 64;

    /** Writes a numbered 64-byte record: sequence at 0, its complement at 56, a pattern in between. */
    private static final class NumberedProducer implements RecordProducer {
        final long count;
        final long failAfter;
        final RuntimeException failure;
        long next;

        NumberedProducer(long count) {
            this(count, -1, null);
        }

        NumberedProducer(long count, long failAfter, RuntimeException failure) {
            this.count = count;
            this.failAfter = failAfter;
            this.failure = failure;
        }

        @Override
        public int fill(MutableDirectBuffer buf, int offset, int maxLength) {
            if (next == failAfter) {
                throw failure;
            }
            if (next == count) {
                return PacketRing.END;
            }
            buf.putLong(offset, next);
            for (int i = 8; i < 56; i += 8) {
                buf.putLong(offset + i, next * 31 + i);
            }
            buf.putLong(offset + 56, ~next);
            next++;
            return RECORD;
        }
    }

    /** Checks every record is the next one in sequence and intact. */
    private static final class SequenceChecker implements RecordHandler {
        long expected;

        @Override
        public void onRecord(DirectBuffer buf, int offset, int length) {
            long seq = buf.getLong(offset);
            if (length != RECORD) {
                fail("record " + seq + " arrived with " + length + " bytes, not " + RECORD);
            }
            if (seq != expected) {
                fail("record " + seq + " arrived where " + expected + " was expected");
            }
            for (int i = 8; i < 56; i += 8) {
                if (buf.getLong(offset + i) != seq * 31 + i) {
                    fail("record " + seq + " corrupted at byte " + i);
                }
            }
            if (buf.getLong(offset + 56) != ~seq) {
                fail("record " + seq + " corrupted at byte 56");
            }
            expected++;
        }
    }

    @Test
    void millionRecordsThroughATinyRingArriveCompleteAndInOrder() {
        final long n = 1_000_000;
        SequenceChecker checker = new SequenceChecker();
        try (PacketRing ring = new PacketRing(tinyRing(), new NumberedProducer(n))) {
            assertEquals(56, ring.config().recordCapacity(RECORD));
            ring.start();
            long total = ring.drainAll(checker);
            assertEquals(n, total);
            assertEquals(n, checker.expected);
            assertEquals(n, ring.recordsPublished());
            assertEquals(n, ring.recordsConsumed());
            assertTrue(ring.isEnded());
            // After the end marker the ring hands nothing more.
            assertEquals(0, ring.drain(checker, 100));
            assertEquals(n, checker.expected);
        }
    }

    @Test
    void batchDrainRespectsTheLimitAndKeepsOrder() {
        final long n = 10_000;
        final int limit = 7;
        SequenceChecker checker = new SequenceChecker();
        try (PacketRing ring = new PacketRing(tinyRing(), new NumberedProducer(n))) {
            ring.start();
            long total = 0;
            while (!ring.isEnded()) {
                int got = ring.drain(checker, limit);
                assertTrue(got <= limit, "drain handed " + got + " records with limit " + limit);
                total += got;
                Thread.onSpinWait();
            }
            assertEquals(n, total);
            assertEquals(n, checker.expected);
        }
    }

    @Test
    void orderHoldsWhateverTheThreadTiming() {
        // Both sides stall at seeded random points, so the ring runs full, empty and in
        // between; the records still arrive exactly in the producer's order.
        final long n = 200_000;
        java.util.SplittableRandom producerJitter = new java.util.SplittableRandom(7);
        java.util.SplittableRandom consumerJitter = new java.util.SplittableRandom(11);
        NumberedProducer numbered = new NumberedProducer(n);
        RecordProducer jittery = (buf, offset, max) -> {
            if (producerJitter.nextInt(1000) == 0) {
                Thread.yield();
            }
            return numbered.fill(buf, offset, max);
        };
        SequenceChecker checker = new SequenceChecker();
        try (PacketRing ring = new PacketRing(tinyRing(), jittery)) {
            ring.start();
            long total = 0;
            while (!ring.isEnded()) {
                total += ring.drain(checker, 1 + consumerJitter.nextInt(64));
                for (int spin = consumerJitter.nextInt(50); spin > 0; spin--) {
                    Thread.onSpinWait();
                }
            }
            assertEquals(n, total);
            assertEquals(n, checker.expected);
        }
    }

    @Test
    void emptyTraceEndsWithZeroRecords() {
        SequenceChecker checker = new SequenceChecker();
        try (PacketRing ring = new PacketRing(tinyRing(), new NumberedProducer(0))) {
            ring.start();
            assertEquals(0, ring.drainAll(checker));
            assertTrue(ring.isEnded());
            assertEquals(0, ring.recordsPublished());
            assertEquals(0, checker.expected);
        }
    }

    @Test
    void producerExceptionSurfacesOnConsumerAfterExactlyTheRecordsBeforeIt() {
        final long n = 12_345; // more than the tiny ring holds, so the failure waits behind records
        RuntimeException corrupt = new UncheckedIOException("trace.pcap: truncated record at byte 4242",
                new IOException("short read"));
        SequenceChecker checker = new SequenceChecker();
        try (PacketRing ring = new PacketRing(tinyRing(), new NumberedProducer(Long.MAX_VALUE, n, corrupt))) {
            ring.start();
            RuntimeException thrown = assertThrows(RuntimeException.class, () -> ring.drainAll(checker));
            assertSame(corrupt, thrown);
            assertEquals(n, checker.expected);
            assertEquals(n, ring.recordsConsumed());
            // It stays failed: a later drain throws the same object again, handing nothing.
            assertSame(corrupt, assertThrows(RuntimeException.class, () -> ring.drain(checker, 10)));
            assertEquals(n, checker.expected);
        }
    }

    @Test
    void producerErrorIsCarriedToo() {
        AssertionError err = new AssertionError("generator bug");
        RecordProducer failing = (buf, offset, max) -> {
            throw err;
        };
        try (PacketRing ring = new PacketRing(tinyRing(), failing)) {
            ring.start();
            assertSame(err, assertThrows(AssertionError.class, () -> ring.drainAll((b, o, l) -> fail("no records"))));
            assertEquals(0, ring.recordsConsumed());
        }
    }

    @Test
    void handlerExceptionPropagatesAndRingStaysUsable() {
        IllegalStateException boom = new IllegalStateException("engine violation");
        SequenceChecker checker = new SequenceChecker();
        try (PacketRing ring = new PacketRing(tinyRing(), new NumberedProducer(1000))) {
            ring.start();
            RecordHandler failOn100 = (buf, off, len) -> {
                if (buf.getLong(off) == 100) {
                    throw boom;
                }
                checker.onRecord(buf, off, len);
            };
            assertSame(boom, assertThrows(IllegalStateException.class, () -> ring.drainAll(failOn100)));
            // The failing record counts as consumed; the rest follow in order.
            checker.expected = 101;
            assertEquals(1000, ring.drainAll(checker));
            assertEquals(1000, checker.expected);
        }
    }

    @Test
    void closeStopsAReaderBlockedOnAFullRingAndLeavesNoThread() throws Exception {
        RingConfig config = tinyRing();
        PacketRing ring = new PacketRing(config, new NumberedProducer(Long.MAX_VALUE));
        ring.start();
        // Let it fill the ring: it must then be waiting, not dropping.
        while (ring.recordsPublished() < config.recordCapacity(RECORD)) {
            Thread.onSpinWait();
        }
        assertTrue(readerAlive(config.readerThreadName()));
        assertEquals(config.recordCapacity(RECORD), ring.recordsPublished(), "a full ring must stop the reader");
        ring.close();
        assertFalse(readerAlive(config.readerThreadName()), "reader thread leaked after close");
        // Draining a closed ring hands what was published, then reports the early close.
        SequenceChecker checker = new SequenceChecker();
        IllegalStateException early = assertThrows(IllegalStateException.class, () -> ring.drainAll(checker));
        assertTrue(early.getMessage().contains("closed before the end"), early.getMessage());
        assertEquals(config.recordCapacity(RECORD), checker.expected);
        ring.close(); // idempotent
    }

    @Test
    void readerThreadIsNamedDaemonAndEndsAfterTheTrace() throws Exception {
        RingConfig config = tinyRing();
        try (PacketRing ring = new PacketRing(config, new NumberedProducer(100))) {
            ring.start();
            // 100 records do not fit in the 56-record ring: the reader is still alive here.
            Thread reader = findThread(config.readerThreadName());
            assertTrue(reader != null && reader.isAlive(), "reader thread not found by name");
            assertTrue(reader.isDaemon());
            assertEquals(100, ring.drainAll(new SequenceChecker()));
            reader.join(5_000);
            assertFalse(reader.isAlive());
        }
        assertFalse(readerAlive(config.readerThreadName()));
    }

    @Test
    void startTwiceIsRefused() {
        try (PacketRing ring = new PacketRing(tinyRing(), new NumberedProducer(1))) {
            ring.start();
            assertThrows(IllegalStateException.class, ring::start);
            assertEquals(1, ring.drainAll(new SequenceChecker()));
        }
    }

    @Test
    void badCapacitiesAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> RingConfig.DEFAULT.withCapacityBytes(3000));
        // Agrona takes messages up to an eighth of the ring: 2 KiB cannot hold a 328-byte record (72 + 256)
        IllegalArgumentException small = assertThrows(IllegalArgumentException.class,
                () -> RingConfig.DEFAULT.withCapacityBytes(2048));
        assertEquals("packet ring capacity 2048 B is too small for 328-byte records (minimum 4096 B)", small.getMessage());
        assertEquals(4096, RingConfig.DEFAULT.withCapacityBytes(4096).capacityBytes());
        assertEquals(72, PacketRing.slotBytes(64));
        assertEquals(136, PacketRing.slotBytes(126)); // 8-byte header, aligned to 8
    }

    @Test
    void aSnapLengthSizesTheLongestRecordAndGrowsATooSmallRing() {
        RingConfig tiny = tinyRing().forSnapLength(1500);
        assertEquals(72 + 1500, tiny.maxRecordBytes());
        assertEquals(16384, tiny.capacityBytes()); // 1572 x 8 = 12576, the next power of two
        RingConfig max = RingConfig.DEFAULT.forSnapLength(65_535);
        assertEquals(72 + 65_535, max.maxRecordBytes());
        assertEquals(RingConfig.DEFAULT_CAPACITY_BYTES, max.capacityBytes()); // 1 MiB / 8 = 128 KiB is enough
    }

    private static boolean readerAlive(String name) {
        Thread t = findThread(name);
        return t != null && t.isAlive();
    }

    private static Thread findThread(String name) {
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.getName().equals(name)) {
                return t;
            }
        }
        return null;
    }
}
