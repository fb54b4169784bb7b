package dev.rmtemu.programs.lossradar.control;

import dev.rmtemu.programs.lossradar.program.LossRadarConfig;
import dev.rmtemu.programs.lossradar.program.Signature;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * LossRadar's root-cause analyzer (Li et al., CoNEXT 2016, §5).
 *
 * <p>Algorithm 1, bursty losses, per port and batch: losses sorted by time form a
 * burst when at least n_burst of them follow each other with gaps below t_gap. If
 * any flow's lost IP IDs in the burst are not consecutive, packets of that flow got
 * through between its losses: the burst is congestion. Otherwise flows with more than
 * n_bb (consecutive) losses are blackholes and the others congestion.
 *
 * <p>Algorithm 2, the other losses, per port and long-term interval (100 ms): a flow's
 * runs of at least n_nb consecutive IP IDs are blackholes; if more than p_syn of the
 * rest are SYNs, those SYN losses are blackholes (connections that never start) and
 * leave the rest (lines 8-11); what remains is random drops if it is spread over time:
 * with n losses in n equal time bins of the interval, more than p_rand of the bins are
 * non-empty (lines 12-14). Otherwise it stays unclassified.
 */
public final class RootCauseAnalyzer {
    /** The analyzer's parameters; defaults are the paper's. */
    public record Params(long tGapNs, int nBurst, int nBb, int nNb, double pSyn, double pRand, long intervalNs) {
        public static final long DEFAULT_T_GAP_NS = 20_000;
        public static final int DEFAULT_N_BURST = 5;
        public static final int DEFAULT_N_BB = 30;
        public static final int DEFAULT_N_NB = 5;
        public static final double DEFAULT_P_SYN = 0.9;
        public static final double DEFAULT_P_RAND = 0.5;
        public static final long DEFAULT_INTERVAL_NS = 100_000_000;

        public static Params defaults() {
            return new Params(DEFAULT_T_GAP_NS, DEFAULT_N_BURST, DEFAULT_N_BB, DEFAULT_N_NB, DEFAULT_P_SYN, DEFAULT_P_RAND,
                    DEFAULT_INTERVAL_NS);
        }
    }

    /** One lost packet as the analyzer sees it: its flow, IP ID, SYN flag, batch and time. */
    public record Loss(long flowHi, long flowLo, int ipId, boolean syn, long batch, long timeNs) {
        public static Loss of(LostPacket p, long batch, long timeNs) {
            return new Loss(((long) p.src() << 32) | (p.dst() & 0xFFFFFFFFL),
                    ((long) p.proto() << 32) | ((long) p.srcPort() << 16) | p.dstPort(), p.ipId(), p.syn(), batch, timeNs);
        }

        String flow() {
            return String.format("%016x%016x", flowHi, flowLo);
        }
    }

    private static final int IP_ID_MODULUS = 1 << 16;

    private final Params params;

    public RootCauseAnalyzer(Params params) {
        this.params = params;
    }

    /**
     * The time of a decoded loss from its 14-bit timestamp in 2^10 ns units
     * ({@link Signature#timestamp}): the instant after the batch start whose low 14 unit
     * bits match (the timestamp wraps every 16.8 ms, longer than a batch).
     */
    public static long unwrapNs(int tsWord, long batchStartNs) {
        long period = 1L << LossRadarConfig.TIMESTAMP_BITS;
        long startUnits = batchStartNs >>> Signature.TIMESTAMP_UNIT_SHIFT;
        long delta = Math.floorMod(tsWord - startUnits, period);
        return (startUnits + delta) << Signature.TIMESTAMP_UNIT_SHIFT;
    }

    /** Classifies the losses of one port; the result is parallel to {@code losses}. */
    public RootCause[] classify(List<Loss> losses) {
        int n = losses.size();
        RootCause[] out = new RootCause[n];
        Integer[] order = new Integer[n];
        for (int i = 0; i < n; i++) {
            order[i] = i;
        }
        Arrays.sort(order, (a, b) -> {
            int c = Long.compare(losses.get(a).timeNs(), losses.get(b).timeNs());
            return c != 0 ? c : Integer.compare(a, b);
        });
        // Algorithm 1: bursts within a batch
        int i = 0;
        while (i < n) {
            int j = i + 1;
            while (j < n && losses.get(order[j]).batch() == losses.get(order[i]).batch()
                    && losses.get(order[j]).timeNs() - losses.get(order[j - 1]).timeNs() < params.tGapNs()) {
                j++;
            }
            if (j - i >= params.nBurst()) {
                classifyBurst(losses, Arrays.asList(order).subList(i, j), out);
            }
            i = j;
        }
        // Algorithm 2: the rest, per long-term interval
        TreeMap<Long, List<Integer>> byInterval = new TreeMap<>();
        for (int k = 0; k < n; k++) {
            int idx = order[k];
            if (out[idx] == null) {
                byInterval.computeIfAbsent(losses.get(idx).timeNs() / params.intervalNs(), x -> new ArrayList<>()).add(idx);
            }
        }
        for (Map.Entry<Long, List<Integer>> e : byInterval.entrySet()) {
            classifyLongTerm(losses, e.getKey() * params.intervalNs(), e.getValue(), out);
        }
        return out;
    }

    private static TreeMap<String, List<Integer>> byFlow(List<Loss> losses, List<Integer> idx) {
        TreeMap<String, List<Integer>> m = new TreeMap<>();
        for (int i : idx) {
            m.computeIfAbsent(losses.get(i).flow(), f -> new ArrayList<>()).add(i);
        }
        return m;
    }

    /** IP IDs of the given losses, sorted, unwrapped across 65535 → 0 when the set straddles it. */
    private static long[] sortedIds(List<Loss> losses, List<Integer> idx) {
        long[] ids = new long[idx.size()];
        for (int k = 0; k < ids.length; k++) {
            ids[k] = losses.get(idx.get(k)).ipId();
        }
        Arrays.sort(ids);
        // rotate at the largest gap so a run through the wrap-around stays a run
        int cut = 0;
        long widest = ids.length == 0 ? 0 : ids[0] + IP_ID_MODULUS - ids[ids.length - 1];
        for (int k = 1; k < ids.length; k++) {
            if (ids[k] - ids[k - 1] > widest) {
                widest = ids[k] - ids[k - 1];
                cut = k;
            }
        }
        long[] r = new long[ids.length];
        for (int k = 0; k < ids.length; k++) {
            int from = (cut + k) % ids.length;
            r[k] = ids[from] + (from < cut ? IP_ID_MODULUS : 0);
        }
        return r;
    }

    private void classifyBurst(List<Loss> losses, List<Integer> burst, RootCause[] out) {
        TreeMap<String, List<Integer>> flows = byFlow(losses, burst);
        boolean gap = false;
        for (List<Integer> f : flows.values()) {
            long[] ids = sortedIds(losses, f);
            for (int k = 1; k < ids.length; k++) {
                gap |= ids[k] != ids[k - 1] + 1;
            }
        }
        for (List<Integer> f : flows.values()) {
            RootCause c = !gap && f.size() > params.nBb() ? RootCause.BLACKHOLE : RootCause.CONGESTION;
            for (int i : f) {
                out[i] = c;
            }
        }
    }

    private void classifyLongTerm(List<Loss> losses, long intervalStart, List<Integer> rest, RootCause[] out) {
        List<Integer> left = new ArrayList<>();
        for (List<Integer> f : byFlow(losses, rest).values()) {
            // runs of consecutive IP IDs of length >= n_nb are blackholes
            List<Integer> sorted = new ArrayList<>(f);
            sorted.sort((a, b) -> Integer.compare(losses.get(a).ipId(), losses.get(b).ipId()));
            int s = 0;
            while (s < sorted.size()) {
                int e = s + 1;
                while (e < sorted.size() && losses.get(sorted.get(e)).ipId() == losses.get(sorted.get(e - 1)).ipId() + 1) {
                    e++;
                }
                for (int k = s; k < e; k++) {
                    if (e - s >= params.nNb()) {
                        out[sorted.get(k)] = RootCause.BLACKHOLE;
                    } else {
                        left.add(sorted.get(k));
                    }
                }
                s = e;
            }
        }
        if (left.isEmpty()) {
            return;
        }
        int syn = 0;
        for (int i : left) {
            syn += losses.get(i).syn() ? 1 : 0;
        }
        if (syn > params.pSyn() * left.size()) {
            // only the SYN losses are blackholes; the others go on to the distribution test
            List<Integer> nonSyn = new ArrayList<>();
            for (int i : left) {
                if (losses.get(i).syn()) {
                    out[i] = RootCause.BLACKHOLE;
                } else {
                    nonSyn.add(i);
                }
            }
            left = nonSyn;
        }
        if (left.isEmpty()) {
            return;
        }
        int bins = left.size();
        boolean[] used = new boolean[bins];
        for (int i : left) {
            long off = losses.get(i).timeNs() - intervalStart;
            used[(int) Math.min(bins - 1, Math.max(0, off * bins / params.intervalNs()))] = true;
        }
        int nonEmpty = 0;
        for (boolean u : used) {
            nonEmpty += u ? 1 : 0;
        }
        RootCause c = nonEmpty > params.pRand() * bins ? RootCause.RANDOM : RootCause.UNCLASSIFIED;
        for (int i : left) {
            out[i] = c;
        }
    }
}
