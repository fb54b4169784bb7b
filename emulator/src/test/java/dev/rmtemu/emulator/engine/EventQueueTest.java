package dev.rmtemu.emulator.engine;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The event queue gives its events in (cycle, phase, tie-break, scheduling order), whichever of
 * its two stores (the ring of in-order events, the heap of the others) holds them: random
 * interleavings of schedules and pops against a sorted reference, event for event.
 */
class EventQueueTest {
    /** A scheduled event and its place in the reference order. */
    private record Ev(long cycle, int phase, int tie, long seq, int type, int payload) {
    }

    private static final Comparator<Ev> ORDER = Comparator.comparingLong(Ev::cycle).thenComparingInt(Ev::phase)
            .thenComparingInt(Ev::tie).thenComparingLong(Ev::seq);

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8})
    void popsInKeyOrderFromRingAndHeap(long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        EventQueue q = new EventQueue();
        PriorityQueue<Ev> ref = new PriorityQueue<>(ORDER);
        long seq = 0;
        long clock = 0;
        int popped = 0;
        for (int step = 0; step < 20_000; step++) {
            if (rnd.nextInt(100) < 55) {
                // mostly in time order (a link's arrivals), sometimes earlier or at the same cycle
                long at = switch (rnd.nextInt(4)) {
                    case 0 -> clock + rnd.nextInt(3);
                    case 1 -> Math.max(0, clock - rnd.nextInt(50));
                    default -> clock + rnd.nextInt(200);
                };
                int phase = rnd.nextInt(6);
                int tie = rnd.nextInt(4);
                int type = rnd.nextInt(5);
                int payload = rnd.nextInt(1 << 20);
                q.schedule(at, phase, tie, type, payload);
                ref.add(new Ev(at, phase, tie, seq++, type, payload));
                clock = Math.max(clock, at - 100);
            } else if (!ref.isEmpty()) {
                Ev e = ref.poll();
                assertEquals(e.cycle(), q.peekCycle());
                assertEquals(e.phase(), q.peekPhase());
                q.pop();
                assertEquals(e.cycle(), q.cycle(), "event " + popped);
                assertEquals(e.phase(), q.phase());
                assertEquals(e.type(), q.type());
                assertEquals(e.payload(), q.payload());
                popped++;
            }
            assertEquals(ref.size(), q.size());
        }
        List<Ev> rest = new ArrayList<>();
        while (!ref.isEmpty()) {
            rest.add(ref.poll());
        }
        for (Ev e : rest) {
            q.pop();
            assertEquals(e.payload(), q.payload());
            assertEquals(e.cycle(), q.cycle());
        }
        assertTrue(q.isEmpty());
        assertEquals(Long.MAX_VALUE, q.peekCycle());
        assertEquals(Integer.MAX_VALUE, q.peekPhase());
    }

    @Test
    void sameKeyEventsKeepTheirSchedulingOrderAcrossBothStores() {
        EventQueue q = new EventQueue();
        q.schedule(10, EventQueue.Phase.PORT_ARRIVAL, 2, 0, 1); // ring
        q.schedule(10, EventQueue.Phase.PORT_ARRIVAL, 1, 0, 2); // lower port: the heap
        q.schedule(10, EventQueue.Phase.PORT_ARRIVAL, 2, 0, 3); // after payload 1's key: the ring
        q.schedule(9, EventQueue.Phase.DEPARTURE, 0, 0, 4);     // earlier cycle: the heap
        q.schedule(10, EventQueue.Phase.PORT_ARRIVAL, 1, 0, 5); // heap, after payload 2
        int[] expected = {4, 2, 5, 1, 3};
        for (int p : expected) {
            q.pop();
            assertEquals(p, q.payload());
        }
        assertTrue(q.isEmpty());
    }
}
