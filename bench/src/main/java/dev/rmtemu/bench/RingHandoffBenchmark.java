package dev.rmtemu.bench;

import dev.rmtemu.emulator.ring.PacketRing;
import dev.rmtemu.emulator.ring.RecordHandler;
import dev.rmtemu.emulator.ring.RecordProducer;
import dev.rmtemu.emulator.ring.RingConfig;
import dev.rmtemu.traces.PacketRecord;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.TimeUnit;

/**
 * Packet ring hand-off across two threads: the ring's reader thread writes 64-byte
 * records in place (eight longs, as a trace reader fills a record) as fast as the ring
 * lets it; the benchmark thread is the engine, draining batches and reading each record.
 * One operation is one record, so the score is records/s and {@code -prof gc}'s
 * {@code gc.alloc.rate.norm} is bytes allocated per record.
 *
 * <p>Run: {@code java -jar bench/target/benchmarks.jar RingHandoff -f 1 -wi 2 -i 3 -prof gc}
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
public class RingHandoffBenchmark extends ForkedJvm {

    /**
     * Bytes of each record: a packet record's metadata and 56 frame bytes, about an Ethernet,
     * IPv4 and TCP header (a multiple of 8, so every byte is written as a long).
     */
    static final int RECORD_BYTES = PacketRecord.stride(56);

    /** Records per benchmark invocation (the JMH operation count). */
    static final int RECORDS_PER_INVOCATION = 256;

    /** Most records one {@link PacketRing#drain} call may hand over. */
    @Param({"16", "256"})
    int drainLimit;

    /** Ring capacity in bytes (the emulator's default; try {@code -p capacityBytes=65536}). */
    @Param({"" + RingConfig.DEFAULT_CAPACITY_BYTES})
    int capacityBytes;

    /** Yields before a waiting side parks (the emulator's default; try {@code -p maxYields=1000}). */
    @Param({"" + RingConfig.DEFAULT_MAX_YIELDS})
    long maxYields;

    private PacketRing ring;
    private final Sink sink = new Sink();

    /** An endless trace: numbered records, every byte written. */
    static final class EndlessTrace implements RecordProducer {
        long seq;

        @Override
        public int fill(MutableDirectBuffer buf, int offset, int maxLength) {
            final long s = seq++;
            for (int i = 0; i < RECORD_BYTES; i += Long.BYTES) {
                buf.putLong(offset + i, s + i);
            }
            return RECORD_BYTES;
        }
    }

    /** Reads two fields of every record, as the engine's parser would, and checks order. */
    static final class Sink implements RecordHandler {
        long expected;
        long checksum;

        @Override
        public void onRecord(DirectBuffer buf, int offset, int length) {
            final long seq = buf.getLong(offset);
            if (seq != expected) {
                throw new IllegalStateException("record " + seq + " where " + expected + " was expected");
            }
            expected++;
            checksum += buf.getLong(offset + length - Long.BYTES);
        }
    }

    @Setup(Level.Trial)
    public void startRing() {
        ring = new PacketRing(RingConfig.DEFAULT.withCapacityBytes(capacityBytes).withMaxYields(maxYields), new EndlessTrace());
        ring.start();
    }

    @TearDown(Level.Trial)
    public void stopRing() {
        ring.close();
    }

    @Benchmark
    @OperationsPerInvocation(RECORDS_PER_INVOCATION)
    public long drainBatch() {
        int got = 0;
        while (got < RECORDS_PER_INVOCATION) {
            final int n = ring.drain(sink, Math.min(drainLimit, RECORDS_PER_INVOCATION - got));
            if (n == 0) {
                Thread.onSpinWait(); // ring momentarily empty: the reader is behind
            }
            got += n;
        }
        return sink.checksum;
    }
}
