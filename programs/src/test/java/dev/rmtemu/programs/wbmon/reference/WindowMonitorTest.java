package dev.rmtemu.programs.wbmon.reference;

import dev.rmtemu.programs.wbmon.program.WbmonConfig;

import dev.rmtemu.model.UserError;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Exact drop counts of the reference window algorithm on hand-built sequences (N = 4, W = 8, tws = 2). */
class WindowMonitorTest {
    private static final WbmonConfig SMALL = new WbmonConfig(2, 4, 8, 2);

    private static WindowMonitor run(long... sns) {
        WindowMonitor m = new WindowMonitor(SMALL);
        for (long sn : sns) {
            m.receive(0, sn);
        }
        return m;
    }

    /** from..to inclusive, without the listed numbers. */
    private static List<Long> range(long from, long to, long... without) {
        List<Long> out = new ArrayList<>();
        outer:
        for (long i = from; i <= to; i++) {
            for (long x : without) {
                if (x == i) {
                    continue outer;
                }
            }
            out.add(i);
        }
        return out;
    }

    private static long[] seq(List<?>... parts) {
        List<Long> all = new ArrayList<>();
        for (List<?> p : parts) {
            for (Object o : p) {
                all.add((Long) o);
            }
        }
        return all.stream().mapToLong(Long::longValue).toArray();
    }

    @Test
    void inOrderCountsNothingAndCleansBehindTheToleranceWindow() {
        WindowMonitor m = run(seq(range(0, 63)));
        assertEquals(0, m.drops(0));
        assertEquals(0, m.unregistered(0));
        assertEquals(7, m.newestSlot(0));
        assertEquals(6, m.slotToClean(0), "slots 0..5 left the window (newest 7, tws 2) and were cleaned");
        assertEquals(48, m.judgedBelow(0));
        assertEquals(0xFF, m.bitmap(0, 6 % 4));
        assertEquals(0xFF, m.bitmap(0, 7 % 4));
        assertEquals(0, m.bitmap(0, 4 % 4), "cleaned registers are zero");
    }

    @Test
    void singleDropIsCountedOnceWhenItsSlotIsCleaned() {
        WindowMonitor m = run(seq(range(0, 23, 10)));
        assertEquals(0, m.drops(0), "slot 1 is still in the tolerance window");
        m.receive(0, 24); // newest 3: slot 1 is cleaned
        assertEquals(1, m.drops(0));
        assertEquals(0, m.bitmap(0, 1), "slot 1's register was zeroed");
        assertEquals(0xFF, m.bitmap(0, 2));
    }

    @Test
    void duplicatesAreIdempotentAndLateDuplicatesAreNotRegistered() {
        List<Long> s = new ArrayList<>(range(0, 10));
        s.add(10L); // duplicate inside the window
        s.addAll(range(11, 40));
        s.add(3L);  // duplicate of a cleaned slot: late
        s.addAll(range(41, 63));
        WindowMonitor m = run(seq(s));
        assertEquals(0, m.drops(0));
        assertEquals(66, m.packets(0));
        assertEquals(1, m.unregistered(0));
    }

    @Test
    void lateWithinToleranceIsRegisteredButBeyondItIsAFalsePositive() {
        // 10 held back until after 20: slot 1 is still in the window (newest 2)
        WindowMonitor within = run(seq(range(0, 20, 10), List.of(10L), range(21, 63)));
        assertEquals(0, within.drops(0));
        assertEquals(0, within.unregistered(0));
        // 10 held back until after 30: slot 1 was cleaned at 24, counting 10 as dropped; 10 is then not registered
        WindowMonitor beyond = run(seq(range(0, 30, 10), List.of(10L), range(31, 63)));
        assertEquals(1, beyond.drops(0));
        assertEquals(1, beyond.unregistered(0));
    }

    @Test
    void earlyPacketWithinTheIntervalAdvancesTheWindowWithoutFalseDrops() {
        WindowMonitor m = run(seq(range(0, 15), List.of(20L), range(16, 63, 20)));
        assertEquals(0, m.drops(0));
        assertEquals(0, m.unregistered(0));
    }

    @Test
    void earlyPacketBeyondTheSafetyIntervalForcesCleaningOfPendingSlots() {
        // 40 (slot 5) arrives after 15: the window jumps to slots 4..5, slots 2 and 3 are dirty and cleaned
        // before 17..31 arrive; slot 5's register still held slot 1 (dirty), so 40's bit is wiped with it.
        WindowMonitor m = run(seq(range(0, 15), List.of(40L), range(16, 63, 40)));
        assertEquals(7 + 8 + 1, m.drops(0), "17..23 and 24..31 judged lost, 40 lost with slot 1's register");
        assertEquals(1 + 14, m.unregistered(0), "17 (clean instead of register) and late 18..31");
    }

    @Test
    void burstWithinTheCleaningWindowIsCountedExactly() {
        WindowMonitor m = run(seq(range(0, 19), range(36, 79)));
        assertEquals(16, m.drops(0));
        assertEquals(0, m.unregistered(0));
    }

    @Test
    void cleanInsteadOfRegisterWhenTheCleanedSlotSharesTheRegister() {
        // after 0..7 and 24 (slot 3, newest 3): slot 0 cleaned (full), slot 1 dirty; 40 is slot 5 = register 1
        WindowMonitor m = run(seq(range(0, 7), List.of(24L, 40L)));
        assertEquals(0 + 8, m.drops(0), "40 cleans slot 1 (empty: 8 drops) instead of registering in register 1");
        assertEquals(1, m.unregistered(0));
        assertEquals(0, m.bitmap(0, 1));
    }

    @Test
    void vconnsAreIndependent() {
        WindowMonitor m = new WindowMonitor(SMALL);
        for (long sn = 0; sn < 64; sn++) {
            if (sn != 5) {
                m.receive(0, sn);
            }
            m.receive(1, sn + 96);
        }
        assertEquals(1, m.drops(0));
        assertEquals(0, m.drops(1));
        assertEquals(18, m.slotToClean(1), "vconn 1 started at slot 12 (sequence 96), newest 19");
    }

    @Test
    void withoutReorderingDetectedDropsEqualTrueDrops() {
        WbmonConfig c = new WbmonConfig(8, 4, 32, 2);
        for (long seed = 1; seed <= 40; seed++) {
            SplittableRandom rnd = new SplittableRandom(seed);
            double p = new double[] {0.001, 0.01, 0.1, 0.3}[(int) (seed % 4)];
            WindowMonitor m = new WindowMonitor(c);
            int packets = 5_000 + rnd.nextInt(5_000);
            boolean[][] lost = new boolean[c.vconns()][packets];
            long[] start = new long[c.vconns()];
            for (int v = 0; v < c.vconns(); v++) {
                start[v] = rnd.nextInt(1000);
            }
            for (int i = 0; i < packets; i++) {
                for (int v = 0; v < c.vconns(); v++) {
                    if (rnd.nextDouble() < p) {
                        lost[v][i] = true;
                    } else {
                        m.receive(v, start[v] + i);
                    }
                }
            }
            for (int v = 0; v < c.vconns(); v++) {
                long firstPacket = 0;
                while (lost[v][(int) firstPacket]) {
                    firstPacket++;
                }
                long windowStart = (start[v] + firstPacket) / 32 * 32; // the first packet's slot opens the window
                long truth = Math.max(0, start[v] - windowStart);      // numbers of that slot never sent
                for (long sn = Math.max(start[v], windowStart); sn < m.judgedBelow(v); sn++) {
                    truth += lost[v][(int) (sn - start[v])] ? 1 : 0;
                }
                assertEquals(truth, m.drops(v), "seed " + seed + " vconn " + v + " p " + p);
                assertEquals(0, m.unregistered(v));
            }
        }
    }

    @Test
    void configRejectsImpossibleWindows() {
        assertThrows(UserError.class, () -> new WbmonConfig(1, 4, 12, 2));
        assertThrows(UserError.class, () -> new WbmonConfig(1, 4, 32, 4));
        assertThrows(UserError.class, () -> new WbmonConfig(0, 4, 32, 2));
        assertEquals(2, WbmonConfig.defaults().cleaning());
    }

    /**
     * The sequence number is a 32-bit header field (WBMon dissertation Section 4.2: the upstream
     * numbers every packet of a vconn), so it wraps. Detection must go on across the wrap exactly as
     * it does anywhere else: the same loss and reorder pattern, numbered from 2^32 − 200 instead of
     * from 1000, gives the same drops, the same unregistered packets and the same judged range.
     * Before, the newest slot stayed at the last slot before the wrap and every later packet was
     * "late": no drop was ever counted again.
     */
    @Test
    void detectionGoesOnAcrossTheSequenceWrap() {
        long wrapStart = (1L << WbmonConfig.SEQ_BITS) - 200;
        WindowMonitor plain = new WindowMonitor(SMALL);
        WindowMonitor wrapped = new WindowMonitor(SMALL);
        SplittableRandom rnd = new SplittableRandom(11);
        for (int i = 0; i < 2_000; i++) {
            if (rnd.nextInt(25) == 0) {
                continue; // lost
            }
            int jitter = rnd.nextInt(10) == 0 ? rnd.nextInt(7) - 3 : 0; // reordered within the tolerance window
            int k = Math.max(0, i + jitter);
            plain.receive(0, 1000 + k);
            wrapped.receive(0, (wrapStart + k) & ((1L << WbmonConfig.SEQ_BITS) - 1));
        }
        assertTrue(plain.drops(0) > 50, "losses counted: " + plain.drops(0));
        assertEquals(plain.drops(0), wrapped.drops(0), "drops across the wrap");
        assertEquals(plain.unregistered(0), wrapped.unregistered(0));
        long span = plain.judgedBelow(0) - 1000;
        assertEquals((wrapStart + span) & ((1L << WbmonConfig.SEQ_BITS) - 1), wrapped.judgedBelow(0), "judged past the wrap");
        assertTrue(wrapped.judgedBelow(0) < 2_000, "the window is past 0: " + wrapped.judgedBelow(0));
    }
}
