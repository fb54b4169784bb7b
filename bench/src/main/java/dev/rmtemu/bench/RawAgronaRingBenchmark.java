package dev.rmtemu.bench;

import dev.rmtemu.emulator.ring.RingConfig;
import org.agrona.BitUtil;
import org.agrona.BufferUtil;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.MessageHandler;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.OneToOneRingBuffer;
import org.agrona.concurrent.ringbuffer.RingBufferDescriptor;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.TimeUnit;

/**
 * Baseline for {@link RingHandoffBenchmark}: the bare Agrona one-to-one ring with the same
 * record size, capacity and batch, a plain producer thread that copies each record in with
 * {@code write} and busy-spins when the ring is full, no markers, no counters. The gap
 * between the two is what the packet ring's own bookkeeping and waiting policy cost.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
public class RawAgronaRingBenchmark extends ForkedJvm {

    private OneToOneRingBuffer ring;
    private Thread producer;
    private volatile boolean running;
    private final Reader reader = new Reader();

    static final class Reader implements MessageHandler {
        long checksum;

        @Override
        public void onMessage(int msgTypeId, MutableDirectBuffer buffer, int index, int length) {
            checksum += buffer.getLong(index) + buffer.getLong(index + RingHandoffBenchmark.RECORD_BYTES - Long.BYTES);
        }
    }

    @Setup(Level.Trial)
    public void start() {
        ring = new OneToOneRingBuffer(new UnsafeBuffer(BufferUtil.allocateDirectAligned(
                RingConfig.DEFAULT_CAPACITY_BYTES + RingBufferDescriptor.TRAILER_LENGTH, BitUtil.CACHE_LINE_LENGTH)));
        running = true;
        producer = new Thread(() -> {
            UnsafeBuffer record = new UnsafeBuffer(new byte[RingHandoffBenchmark.RECORD_BYTES]);
            long seq = 0;
            while (running) {
                for (int i = 0; i < RingHandoffBenchmark.RECORD_BYTES; i += Long.BYTES) {
                    record.putLong(i, seq + i);
                }
                if (ring.write(1, record, 0, RingHandoffBenchmark.RECORD_BYTES)) {
                    seq++;
                } else {
                    Thread.onSpinWait();
                }
            }
        }, "raw-agrona-producer");
        producer.setDaemon(true);
        producer.start();
    }

    @TearDown(Level.Trial)
    public void stop() throws InterruptedException {
        running = false;
        producer.join();
    }

    @Benchmark
    @OperationsPerInvocation(RingHandoffBenchmark.RECORDS_PER_INVOCATION)
    public long drainBatch() {
        int got = 0;
        while (got < RingHandoffBenchmark.RECORDS_PER_INVOCATION) {
            final int n = ring.read(reader, RingHandoffBenchmark.RECORDS_PER_INVOCATION - got);
            if (n == 0) {
                Thread.onSpinWait();
            }
            got += n;
        }
        return reader.checksum;
    }
}
