package dev.rmtemu.emulator.engine;

import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DequeueCalendarTest {
    @Test
    void dequeuesComeOutByCycleThenPort() {
        SplittableRandom rnd = new SplittableRandom(5);
        for (int round = 0; round < 100; round++) {
            int ports = 1 + rnd.nextInt(70);
            DequeueCalendar cal = new DequeueCalendar(ports);
            // reference: (cycle, port) pairs in order
            TreeSet<long[]> ref = new TreeSet<>((a, b) -> a[0] != b[0] ? Long.compare(a[0], b[0]) : Long.compare(a[1], b[1]));
            for (int op = 0; op < 2000; op++) {
                int port = rnd.nextInt(ports);
                if (rnd.nextBoolean() && !cal.pending(port)) {
                    long cycle = rnd.nextInt(50); // many ties
                    cal.schedule(port, cycle);
                    ref.add(new long[] {cycle, port});
                } else if (!ref.isEmpty()) {
                    long[] first = ref.pollFirst();
                    assertEquals(first[0], cal.headCycle());
                    assertEquals(first[1], cal.headPort());
                    assertEquals(first[1], cal.poll());
                    assertFalse(cal.pending((int) first[1]));
                }
                assertEquals(ref.isEmpty(), cal.isEmpty());
            }
        }
    }

    @Test
    void aPortHasOneDequeuePendingAtMost() {
        DequeueCalendar cal = new DequeueCalendar(4);
        assertEquals(Long.MAX_VALUE, cal.headCycle());
        cal.schedule(2, 10);
        assertTrue(cal.pending(2));
        assertThrows(IllegalStateException.class, () -> cal.schedule(2, 12));
    }
}
