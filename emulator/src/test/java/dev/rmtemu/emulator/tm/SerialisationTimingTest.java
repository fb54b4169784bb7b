package dev.rmtemu.emulator.tm;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Serialisation times against hand computation. Tofino 1 clock 1.22 GHz; a 10 Gb/s port
 * sends a 1500 B frame (+20 B overhead) in 1520 × 8 / 10^10 s = 1216 ns = 1483.52 cycles.
 * gcd(1.22e9, 1e10) = 2e7, so sub-cycle fractions are over 500: 0.52 cycle = 260/500.
 */
class SerialisationTimingTest {

    private static TrafficManager tofino1(int ports, double gbps) {
        return new TrafficManager(TrafficManagerConfig.tofino1(ports, gbps));
    }

    @Test
    void singleFrameTakesExactlyItsSerialisationTime() {
        TrafficManager tm = tofino1(1, 10);
        assertEquals(500, tm.cycleFractionDenominator(0));
        assertEquals(0, tm.enqueue(0, 0, 0, 7, 1500));
        DequeueInfo info = new DequeueInfo();
        assertEquals(0, tm.dequeue(0, 0, info));
        assertEquals(7, info.packetHandle());
        assertEquals(0, info.serialisationStartCycle());
        assertEquals(1484, info.serialisationEndCycle(), "1483.52 cycles rounds up to 1484");
        assertEquals(1483, tm.portFreeCycleFloor(0));
        assertEquals(260, tm.portFreeCycleRemainder(0));
        assertEquals(1484, tm.portFreeCycle(0));
    }

    @Test
    void secondBackToBackFrameStartsExactlyOneSerialisationTimeLater() {
        TrafficManager tm = tofino1(1, 10);
        tm.enqueue(0, 0, 0, 1, 1500);
        tm.enqueue(0, 0, 0, 2, 1500);
        DequeueInfo a = new DequeueInfo();
        DequeueInfo b = new DequeueInfo();
        assertEquals(0, tm.nextDequeueCycle(0));
        tm.dequeue(0, 0, a);
        assertEquals(1484, tm.nextDequeueCycle(0));
        tm.dequeue(tm.nextDequeueCycle(0), 0, b);
        // Exact start 1483.52 (reported 1484), exact end 2967.04 (reported 2968).
        assertEquals(1484, b.serialisationStartCycle());
        assertEquals(2968, b.serialisationEndCycle());
        assertEquals(2967, tm.portFreeCycleFloor(0));
        assertEquals(20, tm.portFreeCycleRemainder(0), "0.04 cycle = 20/500");
        assertEquals(1484, b.deqTimedelta());
        assertEquals(0, a.enqQdepth());
        assertEquals(19, b.enqQdepth(), "first frame held ceil(1500/80) = 19 cells");
        assertEquals(19, a.deqQdepth(), "second frame still queued behind the first");
        assertEquals(0, b.deqQdepth());
        assertEquals(Long.MAX_VALUE, tm.nextDequeueCycle(0));
    }

    @Test
    void idlePortStartsAtTheDequeueCycle() {
        TrafficManager tm = tofino1(1, 10);
        DequeueInfo info = new DequeueInfo();
        tm.enqueue(0, 0, 0, 1, 1500);
        tm.dequeue(0, 0, info);
        tm.enqueue(5000, 0, 0, 2, 1500);
        assertEquals(5000, tm.nextDequeueCycle(0));
        tm.dequeue(5000, 0, info);
        assertEquals(5000, info.serialisationStartCycle());
        assertEquals(6484, info.serialisationEndCycle(), "5000 + 1483.52, rounded up");
        assertEquals(0, info.deqTimedelta());
    }

    @Test
    void frameArrivingJustAfterTheFractionalFreeInstantStartsOnArrival() {
        TrafficManager tm = tofino1(1, 10);
        DequeueInfo info = new DequeueInfo();
        tm.enqueue(0, 0, 0, 1, 1500);
        tm.dequeue(0, 0, info);
        // Port free at 1483.52; a frame enqueued at 1484 cannot start before 1484.
        tm.enqueue(1484, 0, 0, 2, 1500);
        tm.dequeue(1484, 0, info);
        assertEquals(1484, info.serialisationStartCycle());
        assertEquals(2968, info.serialisationEndCycle(), "1484 + 1483.52 = 2967.52 → 2968");
        assertEquals(2967, tm.portFreeCycleFloor(0));
        assertEquals(260, tm.portFreeCycleRemainder(0));
    }

    @Test
    void futureEnqueueIsNotEligibleBeforeItsCycle() {
        TrafficManager tm = tofino1(1, 10);
        DequeueInfo info = new DequeueInfo();
        tm.enqueue(100, 0, 0, 1, 64);
        assertEquals(100, tm.nextDequeueCycle(0));
        assertEquals(TrafficManager.NOTHING_DEQUEUED, tm.dequeue(50, 0, info));
        assertEquals(0, tm.dequeue(100, 0, info));
    }

    @Test
    void dequeueWhileSerialisingIsAnEngineBug() {
        TrafficManager tm = tofino1(1, 10);
        DequeueInfo info = new DequeueInfo();
        tm.enqueue(0, 0, 0, 1, 1500);
        tm.enqueue(0, 0, 0, 2, 1500);
        tm.dequeue(0, 0, info);
        assertThrows(IllegalStateException.class, () -> tm.dequeue(1483, 0, info));
    }

    /**
     * 999,999 back-to-back 64 B frames at 100 Gb/s: each takes 84 × 8 × 1.22e9 / 1e11 =
     * 8.1984 cycles (fraction over 5000: 0.1984 = 992/5000). Exact total 8,198,391.8016
     * cycles, reported end 8,198,392. Rounding each frame to whole cycles would give
     * 8,999,991 — a 9.8 % drift.
     */
    @Test
    void millionFramesEndExactlyAtTheRationalTotalRoundedUp() {
        TrafficManager tm = tofino1(1, 100);
        assertEquals(5000, tm.cycleFractionDenominator(0));
        DequeueInfo info = new DequeueInfo();
        int n = 999_999;
        tm.enqueue(0, 0, 0, 0, 64);
        int next = 1;
        long cycle = 0;
        for (int i = 0; i < n; i++) {
            if (next < n) {
                tm.enqueue(cycle, 0, 0, next, 64);
                next++;
            }
            cycle = tm.nextDequeueCycle(0);
            assertEquals(0, tm.dequeue(cycle, 0, info));
        }
        assertEquals(n - 1, info.packetHandle());
        assertEquals(8_198_392L, info.serialisationEndCycle());
        assertEquals(8_198_391L, tm.portFreeCycleFloor(0));
        assertEquals(4008, tm.portFreeCycleRemainder(0), "0.8016 × 5000");
        assertEquals(n, tm.dequeuedPackets(0, 0));
        assertEquals(0, tm.queuedPackets());
    }

    @Test
    void arbitraryRateIsExactToo() {
        // 2.5 Gb/s at 1 GHz: (100 + 20) × 8 bits = 960 bits = 384 ns = 384 cycles exactly.
        TrafficManagerConfig cfg = TrafficManagerConfig.uniform(1_000_000_000L, 1, PortConfig.strictPriority(2.5));
        TrafficManager tm = new TrafficManager(cfg);
        DequeueInfo info = new DequeueInfo();
        for (int i = 0; i < 3; i++) {
            tm.enqueue(0, 0, 0, i, 100);
        }
        for (int i = 0; i < 3; i++) {
            tm.dequeue(tm.nextDequeueCycle(0), 0, info);
            assertEquals(384L * i, info.serialisationStartCycle());
            assertEquals(384L * (i + 1), info.serialisationEndCycle());
        }
    }

    @Test
    void clockAndRateConversions() {
        assertEquals(1_220_000_000L, TrafficManagerConfig.clockHz(1.22e9));
        assertEquals(400_000_000_000L, PortConfig.gbps(400));
        assertEquals(25_000_000_000L, PortConfig.gbps(25));
        assertThrows(dev.rmtemu.model.UserError.class, () -> TrafficManagerConfig.clockHz(1.5));
        assertThrows(dev.rmtemu.model.UserError.class, () -> PortConfig.gbps(0));
        assertThrows(dev.rmtemu.model.UserError.class,
                () -> PortConfig.drr(10, List.of(1500, 0)));
        assertThrows(dev.rmtemu.model.UserError.class,
                () -> new PortConfig(PortConfig.gbps(10), 2, SchedulerKind.DRR, List.of(1500), 10, 10));
    }
}
