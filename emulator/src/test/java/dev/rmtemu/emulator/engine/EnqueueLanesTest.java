package dev.rmtemu.emulator.engine;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class EnqueueLanesTest {
    private record Entry(long cycle, int pipe, int slot) {
    }

    @Test
    void packetsLeaveInCycleThenPipeOrderWhateverTheInsertionOrder() {
        SplittableRandom rnd = new SplittableRandom(11);
        for (int round = 0; round < 200; round++) {
            int pipes = 1 + rnd.nextInt(4);
            EnqueueLanes lanes = new EnqueueLanes();
            List<Entry> pending = new ArrayList<>();
            long[] last = new long[pipes];
            long now = 0;
            int nextSlot = 0;
            for (int op = 0; op < 500; op++) {
                if (rnd.nextInt(3) > 0 || pending.isEmpty()) {
                    // a pipe's parser slots strictly increase; pipes drift apart by a busy parser
                    int p = rnd.nextInt(pipes);
                    now += rnd.nextInt(3);
                    long at = Math.max(now, last[p] + 1) + rnd.nextInt(4);
                    last[p] = at;
                    lanes.add(p, at, nextSlot);
                    pending.add(new Entry(at, p, nextSlot++));
                } else {
                    pending.sort(Comparator.comparingLong(Entry::cycle).thenComparingInt(Entry::pipe));
                    Entry first = pending.remove(0);
                    assertEquals(first.cycle(), lanes.headCycle());
                    assertEquals(first.slot(), lanes.poll());
                }
                assertEquals(pending.size(), lanes.size());
            }
        }
    }

    @Test
    void emptyLanesReportNoHead() {
        EnqueueLanes lanes = new EnqueueLanes();
        assertTrue(lanes.isEmpty());
        assertEquals(Long.MAX_VALUE, lanes.headCycle());
        for (int i = 0; i < 1000; i++) { // past several growths, wrapping the ring
            lanes.add(i % 3, 1000 - i % 7 + i, i);
            if (i % 2 == 1) {
                lanes.poll();
            }
        }
        assertEquals(500, lanes.size());
    }
}
