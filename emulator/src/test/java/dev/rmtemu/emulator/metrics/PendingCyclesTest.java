package dev.rmtemu.emulator.metrics;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.PackedHistogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Values recorded in cycles (counted, folded in on read) give exactly the histogram that
 * recording each converted value directly gives.
 */
class PendingCyclesTest {
    private static final long TOFINO1_HZ = 1_220_000_000L;
    private static final int PENDING = 4096;
    /** Initial range (ns) well inside the drawn range, so both paths widen the histogram. */
    private static final long HIGHEST_NS = 200_000;
    private static final double[] PERCENTILES = {0, 0.1, 1, 10, 25, 50, 75, 90, 99, 99.9, 99.99, 100};

    /** A cycle count: mostly below the pending bound, some above it, some beyond the initial range. */
    private static long draw(Random r) {
        int kind = r.nextInt(10);
        if (kind < 6) {
            return r.nextInt(PENDING); // pending path, including 0
        }
        if (kind == 6) {
            return PENDING - 1 + r.nextInt(3); // around the bound
        }
        if (kind < 9) {
            return PENDING + r.nextInt(240_000); // direct path, inside the initial range (244,000 cycles = 200 µs)
        }
        return 244_000 + (r.nextLong() & 0xFFFF_FFFFL); // direct path, beyond the initial range
    }

    private static String hgrm(Histogram h) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrintStream ps = new PrintStream(out, false, StandardCharsets.UTF_8);
        h.outputPercentileDistribution(ps, LatencyHistogram.HGRM_TICKS_PER_HALF_DISTANCE,
                LatencyHistogram.HGRM_VALUE_UNIT_RATIO);
        ps.flush();
        return out.toString(StandardCharsets.UTF_8);
    }

    private static String hgrm(LatencyHistogram h) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        h.writeHgrm(out);
        return out.toString(StandardCharsets.UTF_8);
    }

    private static void assertSame(Histogram ref, long refMax, LatencyHistogram direct,
                                   LatencyHistogram viaCycles) {
        Histogram got = viaCycles.copy();
        assertEquals(ref, got, "counts per bucket");
        assertEquals(ref.getTotalCount(), got.getTotalCount());
        assertEquals(ref.getTotalCount(), viaCycles.count());
        assertEquals(ref.getMinValue(), got.getMinValue());
        assertEquals(ref.getMinNonZeroValue(), got.getMinNonZeroValue());
        assertEquals(ref.getMaxValue(), got.getMaxValue());
        assertEquals(ref.getMean(), got.getMean());
        assertEquals(ref.getStdDeviation(), got.getStdDeviation());
        for (double p : PERCENTILES) {
            assertEquals(ref.getValueAtPercentile(p), got.getValueAtPercentile(p), "p" + p);
        }
        assertEquals(refMax, viaCycles.max());
        assertEquals(direct.summary(), viaCycles.summary());
        assertEquals(hgrm(ref), hgrm(viaCycles));
        assertEquals(hgrm(direct), hgrm(viaCycles));
    }

    private static void compareRandom(long clockHz, long seed) {
        LatencyMetrics conv = new LatencyMetrics(clockHz, 1, 1);
        Histogram ref = new Histogram(1, HIGHEST_NS, LatencyHistogram.SIGNIFICANT_DIGITS);
        ref.setAutoResize(true);
        LatencyHistogram direct = new LatencyHistogram("t", HIGHEST_NS);
        LatencyHistogram viaCycles = new LatencyHistogram("t", HIGHEST_NS, conv::cyclesToNs, PENDING);
        long refMax = 0;
        Random r = new Random(seed);
        long pending = 0;
        long widening = 0;
        // Reads between batches fold the pending counts in several times.
        for (int batch : new int[] {1, 0, 17, 5_000, 1, 20_000, 3}) {
            for (int i = 0; i < batch; i++) {
                long cycles = draw(r);
                pending += cycles < PENDING ? 1 : 0;
                long ns = conv.cyclesToNs(cycles);
                widening += ns > HIGHEST_NS ? 1 : 0;
                refMax = Math.max(refMax, ns);
                ref.recordValue(ns);
                direct.record(conv.cyclesToNs(cycles));
                viaCycles.recordCycles(cycles);
            }
            assertSame(ref, refMax, direct, viaCycles);
        }
        assertTrue(pending > 10_000 && widening > 1_000 && ref.getTotalCount() - pending > 5_000,
                "all paths used: " + pending + " pending, " + widening + " beyond the initial range");
    }

    @Test
    void cyclesPathEqualsDirectNanosecondsAtTofinoClock() {
        compareRandom(TOFINO1_HZ, 20261122L);
    }

    @Test
    void cyclesPathEqualsDirectNanosecondsWhenCyclesShareANanosecond() {
        // 3 GHz: three cycle values round to the same ns, so a fold records one value with several counts.
        compareRandom(3_000_000_000L, 7L);
    }

    @Test
    void pendingCyclesBeyondTheInitialRangeWidenItOnFolding() {
        // 1 GHz, initial range 100 ns, pending bound 4096 cycles: 3000 cycles is pending and widens it on folding.
        LatencyMetrics conv = new LatencyMetrics(1_000_000_000L, 1, 1);
        LatencyHistogram h = new LatencyHistogram("t", 100, conv::cyclesToNs, PENDING);
        h.recordCycles(3000);
        h.recordCycles(3000);
        h.recordCycles(40);
        h.recordCycles(10_000);
        assertEquals(4, h.count());
        assertEquals(10_000, h.max());
        assertTrue(h.summary().p50() >= 3000 && h.summary().p50() <= 3003, "p50 " + h.summary().p50());
        assertEquals(40, h.copy().getMinNonZeroValue());
    }

    @Test
    void stagedValuesEqualAPackedHistogramRecordedValueByValue() {
        // what LatencyHistogram kept before values were staged in an unpacked histogram: each value
        // recorded into the packed one at once; reads (which fold) and a reset between batches
        PackedHistogram ref = new PackedHistogram(1, HIGHEST_NS, LatencyHistogram.SIGNIFICANT_DIGITS);
        ref.setAutoResize(true);
        LatencyHistogram staged = new LatencyHistogram("t", HIGHEST_NS);
        Random r = new Random(99);
        long refMax = 0;
        for (int batch : new int[] {3, 0, 10_000, 1, 7_000, 2}) {
            if (batch == 1) {
                ref.reset();
                staged.reset();
                refMax = 0;
            }
            for (int i = 0; i < batch; i++) {
                long v = r.nextInt(4) == 0 ? r.nextLong() & 0xFF_FFFF_FFFFL : r.nextInt(300_000);
                ref.recordValue(v);
                refMax = Math.max(refMax, v);
                staged.record(v);
            }
            assertEquals(ref.getTotalCount(), staged.count());
            assertEquals(refMax, staged.max());
            assertEquals(hgrm(ref), hgrm(staged));
            Histogram got = staged.copy();
            assertEquals(ref.getMaxValue(), got.getMaxValue());
            assertEquals(ref.getMinNonZeroValue(), got.getMinNonZeroValue());
            for (double p : PERCENTILES) {
                assertEquals(ref.getValueAtPercentile(p), got.getValueAtPercentile(p), "p" + p);
            }
        }
        assertEquals(1 + 7_000 + 2, staged.count(), "the reset forgot every value before it");
    }

    @Test
    void resetForgetsPendingValues() {
        LatencyMetrics conv = new LatencyMetrics(TOFINO1_HZ, 1, 1);
        LatencyHistogram h = new LatencyHistogram("t", HIGHEST_NS, conv::cyclesToNs, PENDING);
        h.recordCycles(100);
        h.recordCycles(4000);
        h.reset();
        assertEquals(0, h.count());
        assertEquals(0, h.max());
        h.recordCycles(1220);
        assertEquals(1, h.count());
        assertEquals(1000, h.max());
        assertEquals(1000, h.copy().getMinNonZeroValue(), "no left-over pending value");
    }

    @Test
    void cyclesNeedAConversionAndNonNegativeValues() {
        LatencyHistogram plain = new LatencyHistogram("t", 1000);
        assertThrows(IllegalStateException.class, () -> plain.recordCycles(5));
        assertThrows(IllegalArgumentException.class, () -> new LatencyHistogram("t", 1000, null, 16));
        LatencyMetrics m = new LatencyMetrics(TOFINO1_HZ, 1, 1);
        assertThrows(IllegalArgumentException.class, () -> m.recordQueueingDelayCycles(0, 0, -1));
    }

    @Test
    void latencyMetricsFilesEqualDirectlyRecordedNanoseconds(@TempDir Path tmp) throws IOException {
        LatencyMetrics m = new LatencyMetrics(TOFINO1_HZ, 2, 2);
        LatencyHistogram latency = new LatencyHistogram("latency", LatencyMetrics.DEFAULT_INITIAL_HIGHEST_NS);
        LatencyHistogram[] queues = new LatencyHistogram[4];
        for (int i = 0; i < 4; i++) {
            queues[i] = new LatencyHistogram("q", LatencyMetrics.DEFAULT_INITIAL_HIGHEST_NS);
        }
        Random r = new Random(42);
        for (int i = 0; i < 30_000; i++) {
            long arrival = r.nextInt(1_000_000);
            // Mostly below the latency bound, some far above it (and a few beyond the 10 s initial range).
            long lat = i % 1000 == 0 ? 13_000_000_000L + r.nextInt(1000)
                    : r.nextInt(4) == 0 ? LatencyMetrics.LATENCY_PENDING_CYCLES + r.nextInt(100_000)
                    : 200 + r.nextInt(3000);
            long q = r.nextInt(3) == 0 ? r.nextInt(50_000) : r.nextInt(8) == 0 ? 0 : r.nextInt(200);
            int port = r.nextInt(2);
            int qid = r.nextInt(2);
            m.recordLatencyCycles(arrival, arrival + lat);
            m.recordQueueingDelayCycles(port, qid, q);
            latency.record(m.cyclesToNs(lat));
            queues[port * 2 + qid].record(m.cyclesToNs(q));
            if (i == 12_345) {
                assertEquals(latency.summary(), m.latency().summary(), "a read mid-run");
            }
        }
        List<Path> files = m.writeHgrmFiles(tmp);
        assertEquals(5, files.size());
        assertEquals(hgrm(latency), Files.readString(files.get(0), StandardCharsets.UTF_8));
        for (int i = 0; i < 4; i++) {
            assertEquals(hgrm(queues[i]), Files.readString(files.get(1 + i), StandardCharsets.UTF_8), files.get(1 + i).toString());
            assertEquals(queues[i].summary(), m.queueingDelaySummary(i / 2, i % 2));
        }
        assertEquals(latency.summary(), m.latency().summary());
        assertEquals(latency.max(), m.latency().max());
        assertTrue(m.latency().max() > LatencyMetrics.DEFAULT_INITIAL_HIGHEST_NS, "beyond 10 s, recorded as it is");
        assertArrayEquals(Files.readAllBytes(files.get(0)), hgrm(latency).getBytes(StandardCharsets.UTF_8));
    }
}
