package dev.rmtemu.emulator.metrics;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LatencyMetricsTest {
    private static final long TOFINO1_HZ = 1_220_000_000L;

    @Test
    void oneToThousandGivesExactPercentiles() {
        LatencyHistogram h = new LatencyHistogram("t", 1_000_000);
        for (int v = 1; v <= 1000; v++) {
            h.record(v);
        }
        PercentileSummary s = h.summary();
        assertEquals(1000, s.count());
        assertEquals(500, s.p50());
        assertEquals(900, s.p90());
        assertEquals(990, s.p99());
        assertEquals(999, s.p999());
        assertEquals(1000, s.p9999());
        assertEquals(1000, s.max());
        assertEquals(500.5, s.mean(), 1e-9);
    }

    @Test
    void largeValuesKeepThreeSignificantDigits() {
        LatencyHistogram h = new LatencyHistogram("t", 10_000_000_000L);
        h.record(123_456_789L);
        long p50 = h.summary().p50();
        // HdrHistogram reports the bucket's highest equivalent value (0.1 % above), capped at the exact max.
        assertEquals(123_456_789L, p50);
        h.record(123_000_000L);
        h.record(123_000_000L);
        long p50b = h.summary().p50();
        assertTrue(p50b >= 123_000_000L && p50b <= 123_000_000L * 1.001, "p50 " + p50b);
    }

    @Test
    void valuesBeyondTheInitialRangeWidenTheHistogramAndNothingIsClamped() {
        LatencyHistogram h = new LatencyHistogram("t", 1000);
        h.record(10);
        h.record(5000);
        h.record(1_000_000_000_000L);
        h.record(1_000_000_000_000_000L);
        assertEquals(4, h.count());
        PercentileSummary s = h.summary();
        assertEquals(1_000_000_000_000_000L, s.max());
        long p50 = s.p50();
        assertTrue(p50 >= 5000 && p50 <= 5005, "p50 " + p50);
        assertEquals(s.max(), s.p90(), "the top bucket's bound lies beyond the max: capped");
        assertThrows(IllegalArgumentException.class, () -> h.record(-1));
    }

    @Test
    void cyclesBecomeNanosecondsRoundedHalfUp() {
        LatencyMetrics m = new LatencyMetrics(TOFINO1_HZ, 1, 1);
        assertEquals(1000, m.cyclesToNs(1220));
        assertEquals(1, m.cyclesToNs(1), "0.82 ns");
        assertEquals(0, m.cyclesToNs(0));
        assertEquals(1216, m.cyclesToNs(1484), "1216.39 ns");
        assertEquals(1215, m.cyclesToNs(1482), "1214.75 ns → 1215");
        // 10 s of cycles, far beyond cycles × 10^9 fitting in a long.
        assertEquals(10_000_000_000L, m.cyclesToNs(12_200_000_000L));
        assertEquals(7_559_999_999_999L, new LatencyMetrics(1_000_000_000L, 1, 1).cyclesToNs(7_559_999_999_999L));
        // Long.MAX_VALUE cycles at 1.22 GHz: 9223372036854775807 × 50 / 61 = 7560141013815390005.74 → …006
        assertEquals(7_560_141_013_815_390_006L, m.cyclesToNs(Long.MAX_VALUE));
        // A clock that is not a divisor of 10^9: 3 GHz, 1 cycle = 0.333 ns → 0, 2 cycles → 1.
        LatencyMetrics three = new LatencyMetrics(3_000_000_000L, 1, 1);
        assertEquals(0, three.cyclesToNs(1));
        assertEquals(1, three.cyclesToNs(2));
        assertEquals(1_000_000_000L, three.cyclesToNs(3_000_000_000L));
    }

    @Test
    void recordsLatencyQueueingAndHostSeparately() {
        LatencyMetrics m = new LatencyMetrics(TOFINO1_HZ, 2, 4);
        m.recordLatencyCycles(100, 100 + 1220);
        m.recordLatencyCycles(0, 2440);
        m.recordQueueingDelayCycles(1, 3, 12_200);
        m.recordHostProcessingNs(350);
        assertEquals(2, m.latency().count());
        assertEquals(2000, m.latency().summary().max());
        assertEquals(10_000, m.queueingDelaySummary(1, 3).max(), "max is exact, not a bucket bound");
        // the bucket of 10,000 ends at 10,007 (3 digits); a percentile is capped at the exact max
        assertEquals(10_000, m.queueingDelaySummary(1, 3).p50(), "percentiles are bucket bounds, at most the max");
        assertEquals(0, m.queueingDelaySummary(0, 0).count());
        assertEquals(List.of("host-processing", "latency", "queueing-port1-q3"), List.copyOf(m.summaries().keySet()));
        assertEquals(List.of("latency", "queueing-port1-q3"), List.copyOf(m.emulatedSummaries().keySet()));
        assertThrows(IllegalArgumentException.class, () -> m.recordQueueingDelayCycles(2, 0, 1));
        assertThrows(IllegalArgumentException.class, () -> m.recordLatencyCycles(10, 9));
    }

    @Test
    void summaryMapAndJsonHaveStableSortedKeys() {
        LatencyHistogram h = new LatencyHistogram("t", 1000);
        h.record(4);
        h.record(8);
        PercentileSummary s = h.summary();
        assertEquals(List.of("count", "max", "mean", "p50", "p90", "p99", "p99_9", "p99_99"),
                List.copyOf(s.toMap().keySet()));
        // the shared JSON writer gives the record the same keys, in the same order, numbers as numbers
        assertEquals("{\"count\":2,\"max\":8,\"mean\":6.0,\"p50\":4,\"p90\":8,"
                + "\"p99\":8,\"p99_9\":8,\"p99_99\":8}", dev.rmtemu.emulator.json.Json.line(s));
        assertEquals(PercentileSummary.EMPTY, new LatencyHistogram("e", 10).summary());
    }

    private static LatencyMetrics sample() {
        LatencyMetrics m = new LatencyMetrics(TOFINO1_HZ, 2, 2);
        for (int i = 0; i < 10_000; i++) {
            m.recordLatencyCycles(i, i + 200 + (i * 7919L) % 50_000);
            m.recordQueueingDelayCycles(i % 2, (i / 2) % 2, (i * 104_729L) % 30_000);
        }
        return m;
    }

    @Test
    void hgrmFilesAreIdenticalOnTwoRuns(@TempDir Path tmp) throws IOException {
        List<Path> a = sample().writeHgrmFiles(tmp.resolve("a"));
        List<Path> b = sample().writeHgrmFiles(tmp.resolve("b"));
        assertEquals(List.of("latency.hgrm", "queueing-port0-q0.hgrm", "queueing-port0-q1.hgrm",
                "queueing-port1-q0.hgrm", "queueing-port1-q1.hgrm"), a.stream().map(p -> p.getFileName().toString()).toList());
        for (int i = 0; i < a.size(); i++) {
            assertArrayEquals(Files.readAllBytes(a.get(i)), Files.readAllBytes(b.get(i)), a.get(i).toString());
        }
        String text = Files.readString(a.get(0), StandardCharsets.UTF_8);
        assertTrue(text.contains("Value     Percentile TotalCount 1/(1-Percentile)"), text);
        assertTrue(text.contains("Total count    =        10000]"), text);
    }

    @Test
    void hgrmOfKnownValuesListsThemInNanoseconds() {
        LatencyHistogram h = new LatencyHistogram("t", 1000);
        for (int v = 1; v <= 1000; v++) {
            h.record(v);
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        h.writeHgrm(out);
        String text = out.toString(StandardCharsets.UTF_8);
        assertTrue(text.contains("     500.000 0.500000000000        500           2.00"), text);
        assertTrue(text.contains("#[Max     =     1000.000, Total count    =         1000]"), text);
    }
}
