package dev.rmtemu.emulator.network;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.atomic.AtomicIntegerArray;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

/** The barrier of a parallel network's windows: every part once per window, whatever the threads do. */
class NetworkWorkersTest {
    /**
     * Parts run exactly once per window and the window ends only when all have: with a part that
     * is slow (it sleeps) now and then, with more parts than threads, and over many windows.
     */
    @Test
    @Timeout(60)
    void everyPartRunsOncePerWindowEvenWhenOneIsSlow() {
        int parts = 3;
        int windows = 2_000;
        AtomicIntegerArray runs = new AtomicIntegerArray(parts);
        int[] seenInWindow = new int[parts];
        try (NetworkWorkers w = new NetworkWorkers(2, parts)) {
            for (int window = 1; window <= windows; window++) {
                final int expected = window - 1;
                w.runAll(part -> {
                    assertEquals(expected, runs.get(part), "part " + part + " before window " + expected);
                    if (part == 1 && expected % 500 == 0) {
                        sleep(20); // a descheduled thread: the others wait for it, nobody runs it twice
                    }
                    runs.incrementAndGet(part);
                });
                for (int p = 0; p < parts; p++) {
                    seenInWindow[p] = runs.get(p);
                    assertNull(w.failure(p));
                }
                for (int p = 0; p < parts; p++) {
                    assertEquals(window, seenInWindow[p], "part " + p + " after window " + window);
                }
            }
        }
    }

    /** A part that throws is recorded for its index; the other parts of the window still run. */
    @Test
    @Timeout(60)
    void aFailingPartIsRecordedAndTheOthersFinish() {
        AtomicIntegerArray runs = new AtomicIntegerArray(4);
        IllegalStateException boom = new IllegalStateException("boom");
        try (NetworkWorkers w = new NetworkWorkers(2, 4)) {
            w.runAll(part -> {
                runs.incrementAndGet(part);
                if (part == 2) {
                    throw boom;
                }
            });
            assertSame(boom, w.failure(2));
            assertNull(w.failure(0));
            assertNull(w.failure(3));
            for (int p = 0; p < 4; p++) {
                assertEquals(1, runs.get(p));
            }
            w.runAll(runs::incrementAndGet);
            assertNull(w.failure(2), "a failure is cleared at the next window");
        }
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
