package dev.rmtemu.programs.wbmon.experiment;

import dev.rmtemu.programs.wbmon.program.WbmonConfig;
import dev.rmtemu.programs.wbmon.reference.WindowMonitor;

import dev.rmtemu.traces.gen.SplitMix64;

import java.util.Arrays;

/**
 * The thesis' evaluation scenarios for one vconn, as arrival orders of sequence
 * numbers fed to the reference window (the stage program is shown equal to it on
 * an impaired chain in the tests).
 */
public final class WbmonScenarios {
    /** Experiment (a): 266 packets from sequence 0, packet 165 displaced. */
    public static final int REORDER_PACKETS = 266;
    public static final int REORDER_PACKET = 165;
    /** Experiment (b): the trace starts at 32, the burst at packet 112. */
    public static final int BURST_TRACE_START = 32;
    public static final int BURST_START = 112;
    /** Packets sent after the longest burst so that every burst slot is judged. */
    public static final int BURST_TAIL = 512;

    private WbmonScenarios() {
    }

    /** A displaced packet's result: the displacement it really had (max_sn + 1 − sn on arrival) and the score. */
    public record Displaced(int requested, long actual, WindowScore score) {
    }

    /**
     * (a) Packet 165 arrives right after packet 164 + d (d &gt; 0: late by d; d &lt; 0: early,
     * before 165 + d). A late packet past the end of the trace arrives last.
     */
    public static Displaced reorder(WbmonConfig c, int d) {
        long[] order = new long[REORDER_PACKETS];
        int k = 0;
        // arrives right after this one; +1 would be right after itself, which is in order (as 0)
        long anchor = REORDER_PACKET - 1L + (d == 1 ? 0 : d);
        if (anchor < 0) {
            order[k++] = REORDER_PACKET;
        }
        boolean placed = anchor < 0;
        long maxBefore = -1;
        long actual = 0;
        for (long sn = 0; sn < REORDER_PACKETS; sn++) {
            if (sn == REORDER_PACKET) {
                continue;
            }
            order[k++] = sn;
            if (sn == anchor) {
                maxBefore = Math.max(maxBefore, max(order, k));
                order[k++] = REORDER_PACKET;
                placed = true;
            }
        }
        if (!placed) {
            maxBefore = REORDER_PACKETS - 1;
            order[k++] = REORDER_PACKET;
        }
        actual = maxBefore + 1 - REORDER_PACKET;
        return new Displaced(d, actual, WindowScore.run(c, order, k, 0, REORDER_PACKETS));
    }

    private static long max(long[] a, int n) {
        long m = -1;
        for (int i = 0; i < n; i++) {
            m = Math.max(m, a[i]);
        }
        return m;
    }

    /** (b) Packets 32 .. 112 + maxBurst + tail, with packets 112 .. 112 + burst − 1 dropped. */
    public static WindowScore burst(WbmonConfig c, int burst, int maxBurst) {
        long end = BURST_START + (long) maxBurst + BURST_TAIL;
        long[] order = new long[(int) (end - BURST_TRACE_START)];
        int k = 0;
        for (long sn = BURST_TRACE_START; sn < end; sn++) {
            if (sn < BURST_START || sn >= BURST_START + burst) {
                order[k++] = sn;
            }
        }
        return WindowScore.run(c, order, k, BURST_TRACE_START, end);
    }

    /**
     * (c) {@code packets} sequence numbers from 0; each dropped with probability
     * {@code dropRate}; each survivor reordered with probability {@code reorderRate}
     * by a displacement d = sign(x)·max(1, round(|x|)), x ~ N(0, σ²) (a reordered
     * packet moves at least one place): it arrives right after the packet sent d
     * places later (d &gt; 0) or right before the one sent |d| places earlier.
     */
    public static WindowScore realistic(WbmonConfig c, int packets, double reorderRate, double dropRate, double sigma, long seed) {
        SplitMix64 rnd = new SplitMix64(seed);
        double[] key = new double[packets];
        long[] sn = new long[packets];
        int k = 0;
        for (int i = 0; i < packets; i++) {
            if (rnd.nextDouble() < dropRate) {
                continue;
            }
            double pos = i;
            if (rnd.nextDouble() < reorderRate) {
                double x = rnd.nextGaussian() * sigma;
                long d = Math.max(1, Math.round(Math.abs(x)));
                pos = x >= 0 ? i + d + 0.5 : i - d - 0.5;
            }
            key[k] = pos;
            sn[k] = i;
            k++;
        }
        Integer[] idx = new Integer[k];
        for (int i = 0; i < k; i++) {
            idx[i] = i;
        }
        final double[] kk = key;
        Arrays.sort(idx, (a, b) -> Double.compare(kk[a], kk[b])); // stable: ties keep send order
        long[] order = new long[k];
        for (int i = 0; i < k; i++) {
            order[i] = sn[idx[i]];
        }
        return WindowScore.run(c, order, k, 0, packets);
    }

    /** (d) Detection delay of the drops of one run. */
    public record Detection(long drops, double meanPackets, double p50Ns, double p99Ns, double maxNs, double meanNs) {
    }

    /**
     * (d) In-order traffic at {@code pps} packets/s with Bernoulli loss: a drop is detected
     * when the packet that cleans its slot arrives; the delay is that arrival time minus
     * the time the lost packet would have arrived (no link latency).
     */
    public static Detection detection(WbmonConfig c, int packets, double lossRate, double pps, long seed) {
        WindowMonitor m = new WindowMonitor(c.withVconns(1));
        SplitMix64 rnd = new SplitMix64(seed);
        int w = c.bitsPerRegister();
        long[] delays = new long[packets]; // in packet times
        int[] n = {0};
        long[] now = {0};
        m.onClean((v, slot, word) -> {
            for (int b = 0; b < w; b++) {
                long s = slot * w + b;
                if ((word & (1L << b)) == 0 && s < packets) {
                    delays[n[0]++] = now[0] - s;
                }
            }
        });
        for (int i = 0; i < packets; i++) {
            if (rnd.nextDouble() < lossRate) {
                continue;
            }
            now[0] = i;
            m.receive(0, i);
        }
        int count = n[0];
        if (count == 0) {
            return new Detection(0, 0, 0, 0, 0, 0);
        }
        long[] d = Arrays.copyOf(delays, count);
        Arrays.sort(d);
        double sum = 0;
        for (long x : d) {
            sum += x;
        }
        double nsPerPacket = 1e9 / pps;
        double mean = sum / count;
        return new Detection(count, mean, d[(int) ((count - 1) * 0.5)] * nsPerPacket, d[(int) ((count - 1) * 0.99)] * nsPerPacket,
                d[count - 1] * nsPerPacket, mean * nsPerPacket);
    }

    /** (d) Figure 5: packets sent until the estimate first comes within ε of the loss rate, by both estimates. */
    public record Convergence(long packetsSent, long packetsWindow) {
    }

    /**
     * (d) The thesis' convergence time (Section 5.1.4): packets are sent through a vconn with
     * loss rate y, each lost with probability y; the estimate ŷ after n packets sent is the
     * fraction of them dropped, and the result is the first n with |ŷ − y| &lt; ε (the thesis'
     * definition, {@code packetsSent}). {@code packetsWindow} uses what the m-switch reports
     * instead: drops the window detected over the sequence numbers it has judged (the window
     * judges a slot tws slots after it fills). −1 when the estimate never comes within ε in
     * {@code maxPackets}.
     */
    public static Convergence convergence(WbmonConfig c, double lossRate, double epsilon, int maxPackets, long seed) {
        WindowMonitor m = new WindowMonitor(c.withVconns(1));
        SplitMix64 rnd = new SplitMix64(seed);
        long dropped = 0;
        long sent = -1;
        long window = -1;
        for (int i = 0; i < maxPackets && (sent < 0 || window < 0); i++) {
            if (rnd.nextDouble() < lossRate) {
                dropped++;
            } else {
                m.receive(0, i);
            }
            if (sent < 0 && Math.abs((double) dropped / (i + 1) - lossRate) < epsilon) {
                sent = i + 1;
            }
            long judged = m.judgedBelow(0);
            if (window < 0 && judged > 0 && Math.abs((double) m.drops(0) / judged - lossRate) < epsilon) {
                window = i + 1;
            }
        }
        return new Convergence(sent, window);
    }
}
