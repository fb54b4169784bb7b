package dev.rmtemu.emulator.network;

import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The heap names the same switch a scan would: earliest next event, lowest ordinal on a tie. */
class SwitchTimelineTest {
    @Test
    void firstIsTheEarliestSwitchLowestOrdinalOnTiesUnderRandomUpdates() {
        SplittableRandom rnd = new SplittableRandom(11);
        int n = 37;
        SwitchTimeline t = new SwitchTimeline(n);
        long[] next = new long[n];
        java.util.Arrays.fill(next, Long.MAX_VALUE);
        assertEquals(0, t.first());
        for (int step = 0; step < 20_000; step++) {
            int s = rnd.nextInt(n);
            long c = rnd.nextInt(4) == 0 ? Long.MAX_VALUE : rnd.nextInt(50); // few values: many ties
            if (rnd.nextBoolean()) {
                t.set(s, c);
                next[s] = c;
            } else {
                t.earlier(s, c);
                next[s] = Math.min(next[s], c);
            }
            int best = 0;
            for (int i = 1; i < n; i++) {
                if (next[i] < next[best]) {
                    best = i;
                }
            }
            assertEquals(best, t.first(), "step " + step);
            assertEquals(next[best], t.next(t.first()));
        }
    }
}
