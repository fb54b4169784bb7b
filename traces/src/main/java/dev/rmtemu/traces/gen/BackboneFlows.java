package dev.rmtemu.traces.gen;

/**
 * The flow model of {@code dist=backbone} (the ISP preset): flows arrive through the trace as
 * a Poisson process, each with a size in packets and its own mean gap between packets, and
 * end when their packets are sent, so flows start and end all along the trace and interleave
 * as they do on a backbone link.
 *
 * <ul>
 * <li>Sizes: a share {@code miceShare} of flows are mice, 1 + a geometric number of packets
 * with mean {@code miceMeanPackets}; the rest are elephants with Pareto sizes of shape
 * {@code pareto} (the config's paretoShape), whose minimum is set so that the mean flow size
 * is packets / flows.</li>
 * <li>Packet gaps within a flow: exponential, with a per-flow mean drawn log-normal (median
 * {@code gapMedianNs}, log standard deviation {@code gapSigma}); a flow's duration is its size
 * times its mean gap, so durations are heavy-tailed as the sizes are.</li>
 * <li>Arrivals: the rate that gives the link's packet rate (gbps x load over the mean wire
 * size) with the mean flow size. The trace starts in steady state: the flows already running
 * at its first packet are drawn length-biased (sizes and gaps size-biased, position uniform),
 * as a cut from a longer capture would hold them; they send no SYN in the trace.</li>
 * </ul>
 *
 * @param miceShare       share of flows that are mice, in [0, 1)
 * @param miceMeanPackets mean packets of a mouse, at least 1
 * @param gapMedianNs     median of the per-flow mean packet gap, ns
 * @param gapSigma        log standard deviation of the per-flow mean gap
 */
public record BackboneFlows(double miceShare, double miceMeanPackets, double gapMedianNs, double gapSigma) {
    public static final double MICE_SHARE = 0.986;
    public static final double MICE_MEAN_PACKETS = 5.0;
    public static final double GAP_MEDIAN_NS = 300_000.0;
    public static final double GAP_SIGMA = 0.5;
    /**
     * The ISP preset, tuned against the statistics of the HashPipe paper's CAIDA chunks (README,
     * "Traces"): 98.6 % of flows are mice of 5 packets on average, and the 1.4 % elephants (from
     * about 800 packets up, Pareto 2.26) carry about 80 % of the packets, so the 60th and 150th
     * heaviest flows of 10 M packets hold about 6,000 and 4,000; a flow's mean packet gap has a
     * median of 300 µs, so even the largest elephants fit in a 20-s chunk.
     */
    public static final BackboneFlows ISP = new BackboneFlows(MICE_SHARE, MICE_MEAN_PACKETS, GAP_MEDIAN_NS, GAP_SIGMA);

    BackboneFlows withMiceShare(double v) {
        return new BackboneFlows(v, miceMeanPackets, gapMedianNs, gapSigma);
    }

    BackboneFlows withMiceMeanPackets(double v) {
        return new BackboneFlows(miceShare, v, gapMedianNs, gapSigma);
    }

    BackboneFlows withGapMedianNs(double v) {
        return new BackboneFlows(miceShare, miceMeanPackets, v, gapSigma);
    }

    BackboneFlows withGapSigma(double v) {
        return new BackboneFlows(miceShare, miceMeanPackets, gapMedianNs, v);
    }

    /** Mean packets per flow of a config: packets / flows. */
    static double meanFlowPackets(GeneratorConfig c) {
        return Math.max(1.0, (double) c.packets() / c.effectiveFlows());
    }

    /** Mean packets of an elephant: what the mice leave of the mean flow size. */
    double elephantMeanPackets(GeneratorConfig c) {
        return (meanFlowPackets(c) - miceShare * miceMeanPackets) / (1.0 - miceShare);
    }

    /** Smallest elephant (the Pareto scale): mean x (α − 1) / α. */
    double elephantMinPackets(GeneratorConfig c) {
        double a = c.paretoShape();
        return elephantMeanPackets(c) * (a - 1) / a;
    }

    void validate(GeneratorConfig c) {
        GeneratorConfig.require(miceShare >= 0 && miceShare < 1, "mice", "must be in [0, 1)");
        GeneratorConfig.require(miceMeanPackets >= 1 && miceMeanPackets <= 1e6, "micepkts", "must be in [1, 1e6]");
        GeneratorConfig.require(gapMedianNs >= 1 && gapMedianNs <= 1e12, "gap", "must be in [1, 1e12] ns");
        GeneratorConfig.require(gapSigma >= 0 && gapSigma <= 5, "gapsigma", "must be in [0, 5]");
        GeneratorConfig.require(c.paretoShape() > 1, "pareto",
                "must be above 1 with dist=backbone (the elephants' mean size must be finite)");
        GeneratorConfig.require(c.packets() == 0 || elephantMinPackets(c) >= 1, "flows",
                "leaves elephants under one packet: packets / flows (" + meanFlowPackets(c)
                        + ") must exceed what the mice take (mice x micepkts) by an elephant of at least one packet");
    }
}
