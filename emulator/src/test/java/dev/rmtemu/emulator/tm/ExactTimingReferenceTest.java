package dev.rmtemu.emulator.tm;

import org.junit.jupiter.api.Test;

import java.math.BigInteger;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Random arrivals on ports of several rates, checked against an independent reference
 * that keeps every instant as an exact fraction (BigInteger numerator over clock × rate
 * denominators): with one FIFO per port and an engine that dequeues as soon as
 * {@code nextDequeueCycle} allows, a frame starts at max(previous end, its arrival) and
 * ends one exact serialisation time later; reported cycles are those instants rounded up.
 */
class ExactTimingReferenceTest {
    private static final long CLOCK_HZ = TrafficManagerConfig.TOFINO1_CLOCK_HZ;
    private static final double[] RATES_GBPS = {10, 25, 40, 100, 400, 7.3};

    /** An exact non-negative rational p / q. */
    private record Fraction(BigInteger p, BigInteger q) {
        static Fraction of(long whole) {
            return new Fraction(BigInteger.valueOf(whole), BigInteger.ONE);
        }

        Fraction plus(Fraction o) {
            return new Fraction(p.multiply(o.q).add(o.p.multiply(q)), q.multiply(o.q)).reduced();
        }

        Fraction reduced() {
            BigInteger g = p.gcd(q);
            return new Fraction(p.divide(g), q.divide(g));
        }

        int compareTo(Fraction o) {
            return p.multiply(o.q).compareTo(o.p.multiply(q));
        }

        long ceil() {
            BigInteger[] qr = p.divideAndRemainder(q);
            return qr[0].longValueExact() + (qr[1].signum() == 0 ? 0 : 1);
        }
    }

    @Test
    void randomArrivalsMatchTheExactRationalReference() {
        int nPorts = RATES_GBPS.length;
        PortConfig[] ports = new PortConfig[nPorts];
        for (int p = 0; p < nPorts; p++) {
            ports[p] = new PortConfig(PortConfig.gbps(RATES_GBPS[p]), 1, SchedulerKind.STRICT_PRIORITY, List.of(),
                    1_000_000, 1_000_000);
        }
        TrafficManager tm = new TrafficManager(new TrafficManagerConfig(CLOCK_HZ, 80, 20, 10_000_000, List.of(ports)));
        SplittableRandom rnd = new SplittableRandom(20261121L);
        Fraction[] refEnd = new Fraction[nPorts];
        for (int p = 0; p < nPorts; p++) {
            refEnd[p] = Fraction.of(0);
        }
        DequeueInfo info = new DequeueInfo();
        int n = 20_000;
        int[] port = new int[n];
        int[] bytes = new int[n];
        long cycle = 0;
        int checked = 0;
        for (int i = 0; i <= n; i++) {
            long arrival = Long.MAX_VALUE;
            if (i < n) {
                // Bursty gaps: often 0 (back to back), sometimes long enough to go idle.
                cycle += rnd.nextInt(4) == 0 ? rnd.nextInt(3000) : 0;
                arrival = cycle;
            }
            // Serve every port whose next start is at or before this arrival.
            for (int p = 0; p < nPorts; p++) {
                long c;
                while ((c = tm.nextDequeueCycle(p)) != Long.MAX_VALUE && c <= arrival) {
                    assertEquals(0, tm.dequeue(c, p, info));
                    int k = info.packetHandle();
                    Fraction arrivalK = Fraction.of(info.enqTstamp());
                    Fraction start = refEnd[p].compareTo(arrivalK) >= 0 ? refEnd[p] : arrivalK;
                    Fraction serialisation = new Fraction(
                            BigInteger.valueOf((bytes[k] + 20L) * 8).multiply(BigInteger.valueOf(CLOCK_HZ)),
                            BigInteger.valueOf(PortConfig.gbps(RATES_GBPS[p]))).reduced();
                    refEnd[p] = start.plus(serialisation);
                    assertEquals(start.ceil(), info.serialisationStartCycle(), "start of frame " + k);
                    assertEquals(refEnd[p].ceil(), info.serialisationEndCycle(), "end of frame " + k);
                    assertEquals(info.serialisationStartCycle() - info.enqTstamp(), info.deqTimedelta());
                    checked++;
                }
            }
            if (i < n) {
                port[i] = rnd.nextInt(nPorts);
                bytes[i] = 64 + rnd.nextInt(1455);
                assertEquals(0, tm.enqueue(arrival, port[i], 0, i, bytes[i]));
            }
        }
        assertEquals(n, checked);
        assertEquals(0, tm.queuedPackets());
    }
}
