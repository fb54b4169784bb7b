package dev.rmtemu.programs.wbmon.experiment;

import dev.rmtemu.programs.wbmon.program.WbmonConfig;
import dev.rmtemu.programs.wbmon.reference.WindowMonitor;

import java.util.BitSet;

/**
 * Runs the reference window over one vconn's arrivals and scores what it declared
 * lost against what really happened. Only judged sequence numbers count (those in
 * cleaned slots); the last slots, still in the window when the trace ends, are not.
 *
 * @param judged         sequence numbers judged (from the first packet's slot start to the cleaning point)
 * @param lost           judged numbers that were really lost (sent, never arrived)
 * @param declared       judged numbers the window counted as drops
 * @param falsePositives declared but arrived (or never sent: below the trace start in its first slot)
 * @param falseNegatives lost but not declared
 */
public record WindowScore(long judged, long lost, long declared, long falsePositives, long falseNegatives) {

    /**
     * @param arrivals sequence numbers in arrival order (duplicates allowed)
     * @param count    how many of {@code arrivals} to use
     * @param sentFrom first sequence number sent
     * @param sentTo   one past the last sequence number sent
     */
    public static WindowScore run(WbmonConfig c, long[] arrivals, int count, long sentFrom, long sentTo) {
        WindowMonitor m = new WindowMonitor(c.withVconns(1));
        BitSet declared = new BitSet();
        int w = c.bitsPerRegister();
        m.onClean((v, slot, word) -> {
            for (int b = 0; b < w; b++) {
                if ((word & (1L << b)) == 0) {
                    declared.set((int) (slot * w + b));
                }
            }
        });
        BitSet arrived = new BitSet();
        for (int i = 0; i < count; i++) {
            m.receive(0, arrivals[i]);
            arrived.set((int) arrivals[i]);
        }
        long end = m.judgedBelow(0);
        long start = count == 0 ? 0 : arrivals[0] / w * w;
        for (int i = 0; i < count; i++) {
            start = Math.min(start, arrivals[i] / w * w);
        }
        long judged = 0;
        long lost = 0;
        long dec = 0;
        long fp = 0;
        long fn = 0;
        for (long sn = start; sn < end; sn++) {
            boolean sent = sn >= sentFrom && sn < sentTo;
            boolean got = arrived.get((int) sn);
            boolean isLost = sent && !got;
            boolean says = declared.get((int) sn);
            judged++;
            lost += isLost ? 1 : 0;
            dec += says ? 1 : 0;
            fp += says && !isLost ? 1 : 0;
            fn += isLost && !says ? 1 : 0;
        }
        return new WindowScore(judged, lost, dec, fp, fn);
    }

    /**
     * The thesis' #FP (Section 5.1): max(0, detected_drops − n_drops), a net count over the
     * judged numbers (a false negative and a false positive cancel; a per-number count is
     * {@link #falsePositives}).
     */
    public long thesisFalsePositives() {
        return Math.max(0, declared - lost);
    }

    /** The thesis' #FN: max(0, n_drops − detected_drops). */
    public long thesisFalseNegatives() {
        return Math.max(0, lost - declared);
    }

    /** #packets: judged sequence numbers that arrived (what the switch processed in the judged range). */
    public long packets() {
        return judged - lost;
    }

    /** The thesis' FPR (Section 5.1.3): #FP / #packets. */
    public double thesisFalsePositiveRate() {
        return packets() == 0 ? 0 : (double) thesisFalsePositives() / packets();
    }

    /** The thesis' Detected Drop Rate (Section 5.1.3): #drops / (#drops + #packets), #drops the detected ones. */
    public double detectedDropRate() {
        return declared + packets() == 0 ? 0 : (double) declared / (declared + packets());
    }
}
