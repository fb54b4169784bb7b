package dev.rmtemu.programs.midst.experiment;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;

class TcpLikeFlowsTest {
    private static final long RTT = 1_000_000;
    private static final long MIN_RTO = 5_000_000;
    private static final long SER = 800;

    private static TcpLikeFlows one(int window) {
        return new TcpLikeFlows(new long[] {RTT}, MIN_RTO, SER, new int[] {window});
    }

    @Test
    void initialWindowThenSlowStartCappedByTheReceiveWindow() {
        TcpLikeFlows t = one(12);
        long now = 0;
        for (int i = 1; i <= TcpLikeFlows.INITIAL_WINDOW; i++) {
            assertEquals(now, t.sendTime(0, now));
            assertEquals(i, t.send(0, now));
            if (i < TcpLikeFlows.INITIAL_WINDOW) {
                assertEquals(now + SER, t.sendTime(0, now), "back-to-back sends are one serialisation apart");
            }
            now += SER;
        }
        assertEquals(-1, t.sendTime(0, now), "window full");
        t.ack(0, 1, RTT);
        assertEquals(11.0, t.cwnd(0), 1e-9);
        t.ack(0, 2, RTT + 1);
        t.ack(0, 3, RTT + 2);
        assertEquals(12.0, t.cwnd(0), 1e-9, "capped by the receive window");
    }

    @Test
    void aGapHalvesTheWindowOncePerWindow() {
        TcpLikeFlows t = one(100);
        for (int i = 0; i < 10; i++) {
            t.send(0, i * SER);
        }
        t.ack(0, 1, RTT);
        assertEquals(11.0, t.cwnd(0), 1e-9);
        t.ack(0, 3, RTT + 1); // 2 was dropped
        assertEquals(5.5, t.cwnd(0), 1e-9);
        assertEquals(1, t.losses(0));
        t.ack(0, 6, RTT + 2); // 4, 5 dropped in the same window: no second decrease
        assertEquals(5.5, t.cwnd(0), 1e-9);
        assertEquals(3, t.losses(0));
        // in flight: 7..10 = 4 packets; window 5
        assertEquals(RTT + 2, t.sendTime(0, RTT + 2));
    }

    @Test
    void timeoutWritesOffTheWindowAndBacksOff() {
        TcpLikeFlows t = one(100);
        for (int i = 0; i < 4; i++) {
            t.send(0, 0);
        }
        assertEquals(MIN_RTO, t.timeoutAt(0), "max(min RTO, 2 RTT) after the first send");
        t.timeout(0, MIN_RTO);
        assertEquals(1.0, t.cwnd(0), 1e-9);
        assertEquals(4, t.losses(0));
        assertEquals(-1, t.timeoutAt(0), "nothing in flight");
        t.send(0, MIN_RTO);
        assertEquals(MIN_RTO + 2 * MIN_RTO, t.timeoutAt(0), "backoff doubled");
        t.ack(0, 2, MIN_RTO + 10); // a packet written off by the timeout leaves late: ignored
        assertEquals(1.0, t.cwnd(0), 1e-9);
        t.ack(0, 5, MIN_RTO + RTT);
        assertEquals(-1, t.timeoutAt(0));
        assertEquals(2.0, t.cwnd(0), 1e-9, "slow start again below ssthresh");
    }

    @Test
    void eventHeapPopsByTimeThenInsertion() {
        EventHeap h = new EventHeap();
        SplittableRandom rnd = new SplittableRandom(5);
        List<long[]> ref = new ArrayList<>();
        for (int i = 0; i < 2_000; i++) {
            long t = rnd.nextInt(300);
            h.push(t, i);
            ref.add(new long[] {t, i});
        }
        ref.sort((a, b) -> a[0] != b[0] ? Long.compare(a[0], b[0]) : Long.compare(a[1], b[1]));
        for (long[] e : ref) {
            assertEquals(e[0], h.peekTime());
            assertEquals(e[1], h.peekPayload());
            h.pop();
        }
        assertEquals(0, h.size());
    }
}
