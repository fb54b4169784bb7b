package dev.rmtemu.programs.lds.experiment;

import java.util.Locale;
import dev.rmtemu.model.UserError;
import dev.rmtemu.traces.gen.SplitMix64;
import dev.rmtemu.traces.impair.DelayJitter;

/**
 * Per-packet one-way delay that follows no temporal-correlation model: each flow is pinned
 * (by a hash of its id) to one of {@code paths} ECMP-like paths with its own propagation
 * delay, and to the priority or the best-effort class; a priority packet adds a small
 * Gaussian queueing delay, a best-effort one a draw from a two-mode mixture (an often
 * lightly and sometimes heavily loaded queue, {@link DelayJitter#mixture}). Packets next to
 * each other in time thus see unrelated delays, which is what defeats interpolation from
 * reference packets (RLI) and what LDS does not need.
 *
 * @param paths          ECMP-like paths
 * @param pathBaseNs     propagation delay of path 0; path i adds i × pathStepNs
 * @param pathStepNs     extra propagation per path index
 * @param priorityShare  share of flows in the priority class
 * @param priorityMeanNs priority queueing: N(mean, sigma)
 * @param prioritySigmaNs see above
 * @param lightWeight    best effort: with this probability N(lightMean, lightSigma), else N(heavyMean, heavySigma)
 */
public record DelayModel(int paths, long pathBaseNs, long pathStepNs, double priorityShare, double priorityMeanNs,
                         double prioritySigmaNs, double lightWeight, double lightMeanNs, double lightSigmaNs,
                         double heavyMeanNs, double heavySigmaNs) {
    /** Defaults: 4 paths of 10–40 µs, 20 % priority flows at 2 ± 1 µs, best effort 70 % at 20 ± 5 µs, 30 % at 200 ± 50 µs. */
    public static final DelayModel DEFAULT = new DelayModel(4, 10_000, 10_000, 0.2, 2_000, 1_000, 0.7, 20_000, 5_000,
            200_000, 50_000);

    public DelayModel {
        if (paths < 1 || pathBaseNs < 0 || pathStepNs < 0 || !(priorityShare >= 0 && priorityShare <= 1)) {
            throw new UserError("lds delay model: need paths >= 1, non-negative delays and a priority share in [0, 1]");
        }
    }

    public String describe() {
        return String.format(Locale.ROOT, "%d paths of %d..%d us; %.0f%% of flows priority N(%.0f, %.0f) us;"
                        + " best effort %.0f%% N(%.0f, %.0f) us, %.0f%% N(%.0f, %.0f) us",
                paths, pathBaseNs / 1000, (pathBaseNs + (paths - 1) * pathStepNs) / 1000, 100 * priorityShare,
                priorityMeanNs / 1000, prioritySigmaNs / 1000, 100 * lightWeight, lightMeanNs / 1000, lightSigmaNs / 1000,
                100 * (1 - lightWeight), heavyMeanNs / 1000, heavySigmaNs / 1000);
    }

    /** Per-packet delays with a seed; {@link #delayNs} allocates nothing. */
    public Sampler sampler(long seed) {
        return new Sampler(this, seed);
    }

    public static final class Sampler {
        private final DelayModel m;
        private final long flowSeed;
        private final DelayJitter priority;
        private final DelayJitter bestEffort;

        Sampler(DelayModel m, long seed) {
            this.m = m;
            this.flowSeed = SplitMix64.derive(seed, 1);
            this.priority = DelayJitter.normal(m.priorityMeanNs, m.prioritySigmaNs, SplitMix64.derive(seed, 2));
            this.bestEffort = DelayJitter.mixture(m.lightWeight, m.lightMeanNs, m.lightSigmaNs, m.heavyMeanNs, m.heavySigmaNs,
                    SplitMix64.derive(seed, 3));
        }

        public int path(int flow) {
            return (int) Long.remainderUnsigned(SplitMix64.at(flowSeed, flow), m.paths);
        }

        public boolean priority(int flow) {
            return SplitMix64.doubleAt(flowSeed ^ 0x5851F42D4C957F2DL, flow) < m.priorityShare;
        }

        /** Delay of packet {@code index} (its position in the trace) of flow {@code flow}, ns. */
        public long delayNs(int flow, long index) {
            long base = m.pathBaseNs + path(flow) * m.pathStepNs;
            return base + (priority(flow) ? priority.delayNs(index) : bestEffort.delayNs(index));
        }
    }
}
