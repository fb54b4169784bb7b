package dev.rmtemu.traces.gen;

import dev.rmtemu.model.UserError;

import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Every parameter of a synthetic trace, with per-kind defaults from {@link #preset}.
 * {@link #toSpec()} gives the canonical {@code gen:KIND?key=value&...} string with all
 * keys in sorted order, which reproduces the trace exactly.
 *
 * @param kind           the preset
 * @param seed           SplitMix64 seed of everything random
 * @param packets        total packets to emit
 * @param flows          distinct 5-tuple flows (incast: one flow per sender, see senders)
 * @param flowSizes      how packets are shared among flows: zipf, pareto or uniform
 * @param zipfExponent   s in size(rank r) ∝ 1/r^s (used when flowSizes is zipf)
 * @param paretoShape    α of the Pareto flow-size weights, smaller = heavier tail (used when flowSizes is pareto)
 * @param sizes          packet wire-size mix
 * @param linkGbps       link rate that spaces the timestamps
 * @param load           offered load in (0, 1]: mean gap = serialisation time / load
 * @param startNs        timestamp of the first packet
 * @param ipv6Fraction   share of flows that are IPv6
 * @param tcpFraction    share of flows that are TCP
 * @param udpFraction    share of flows that are UDP (the rest ICMP echo)
 * @param ports          ingress ports the flows are spread over (port = flow hash mod ports)
 * @param senders        incast: senders to the one receiver
 * @param bursts         incast: synchronised bursts
 * @param burstIntervalNs incast: time between burst starts
 */
public record GeneratorConfig(GeneratorKind kind, long seed, long packets, int flows, FlowSizes flowSizes,
                              double zipfExponent, double paretoShape, PacketSizeMix sizes, double linkGbps,
                              double load, long startNs, double ipv6Fraction, double tcpFraction,
                              double udpFraction, int ports, int senders, int bursts, long burstIntervalNs) {

    /** How packets are shared among flows. */
    public enum FlowSizes { ZIPF, PARETO, UNIFORM }

    /** Timestamps start at 2021-01-01T00:00:00Z so converted pcaps show a plausible date. */
    public static final long DEFAULT_START_NS = 1_609_459_200_000_000_000L;
    /** Tofino-class port speed. */
    public static final double DEFAULT_LINK_GBPS = 100.0;
    /** ISP preset: the 10 M packets / 400 K flows scale of backbone traces (CAIDA-like). */
    public static final long ISP_PACKETS = 10_000_000L;
    public static final int ISP_FLOWS = 400_000;
    /** Zipf exponent 1.1: heavy-hitter experiments (HashPipe) use skews around 1. */
    public static final double ISP_ZIPF = 1.1;
    /** Pareto shape 1.2: data-centre flow sizes (most bytes in a few elephants). */
    public static final double DC_PARETO = 1.2;
    /** Data-centre mean packet size, the bimodal 850 B often quoted for DC traffic. */
    public static final int DC_MEAN_SIZE = 850;
    /** Most flows: the generator keeps about 43 bytes per flow (≈ 2.2 GB at this limit). */
    public static final int MAX_FLOWS = 50_000_000;
    /** Most incast senders; the generator scans them linearly per packet. */
    public static final int MAX_SENDERS = 4096;
    /** Most incast bursts: the generator keeps one packet count per burst (8 MB at this limit). */
    public static final int MAX_BURSTS = 1_000_000;

    /** Defaults of a preset. */
    public static GeneratorConfig preset(GeneratorKind kind) {
        switch (kind) {
            case ISP:
                return new GeneratorConfig(kind, 1, ISP_PACKETS, ISP_FLOWS, FlowSizes.ZIPF, ISP_ZIPF, DC_PARETO,
                        PacketSizeMix.parse("imix"), DEFAULT_LINK_GBPS, 0.5, DEFAULT_START_NS, 0.0, 0.85, 0.13,
                        1, 32, 10, 1_000_000L);
            case DC:
                return new GeneratorConfig(kind, 1, 1_000_000L, 20_000, FlowSizes.PARETO, ISP_ZIPF, DC_PARETO,
                        PacketSizeMix.parse("mean:" + DC_MEAN_SIZE), DEFAULT_LINK_GBPS, 0.7, DEFAULT_START_NS,
                        0.0, 0.95, 0.05, 1, 32, 10, 1_000_000L);
            case INCAST:
                return new GeneratorConfig(kind, 1, 320_000L, 32, FlowSizes.UNIFORM, ISP_ZIPF, DC_PARETO,
                        PacketSizeMix.parse("fixed:1500"), DEFAULT_LINK_GBPS, 1.0, DEFAULT_START_NS, 0.0, 1.0,
                        0.0, 1, 32, 100, 1_000_000L);
            case TCP:
                return new GeneratorConfig(kind, 1, 1_000_000L, 10_000, FlowSizes.ZIPF, ISP_ZIPF, DC_PARETO,
                        PacketSizeMix.parse("imix"), DEFAULT_LINK_GBPS, 0.5, DEFAULT_START_NS, 0.0, 1.0, 0.0,
                        1, 32, 10, 1_000_000L);
            case UNIFORM:
            default:
                return new GeneratorConfig(kind, 1, 1_000_000L, 10_000, FlowSizes.UNIFORM, ISP_ZIPF, DC_PARETO,
                        PacketSizeMix.parse("imix"), DEFAULT_LINK_GBPS, 0.5, DEFAULT_START_NS, 0.0, 0.8, 0.2,
                        1, 32, 10, 1_000_000L);
        }
    }

    /** The keys {@link #with} accepts, in the order {@link #toSpec} writes them. */
    public static final String[] KEYS = {"bursts", "dist", "flows", "gbps", "interval", "ipv6", "load", "packets",
        "pareto", "ports", "seed", "senders", "sizes", "start", "tcp", "udp", "zipf"};

    /** A copy with one parameter changed; unknown keys and bad values are a UserError. */
    public GeneratorConfig with(String key, String value) {
        try {
            switch (key) {
                case "seed":
                    return new GeneratorConfig(kind, Long.parseLong(value), packets, flows, flowSizes, zipfExponent,
                            paretoShape, sizes, linkGbps, load, startNs, ipv6Fraction, tcpFraction, udpFraction,
                            ports, senders, bursts, burstIntervalNs).validated();
                case "packets":
                    return new GeneratorConfig(kind, seed, Long.parseLong(value), flows, flowSizes, zipfExponent,
                            paretoShape, sizes, linkGbps, load, startNs, ipv6Fraction, tcpFraction, udpFraction,
                            ports, senders, bursts, burstIntervalNs).validated();
                case "flows":
                    return new GeneratorConfig(kind, seed, packets, Integer.parseInt(value), flowSizes,
                            zipfExponent, paretoShape, sizes, linkGbps, load, startNs, ipv6Fraction, tcpFraction,
                            udpFraction, ports, senders, bursts, burstIntervalNs).validated();
                case "dist": {
                    FlowSizes d;
                    try {
                        d = FlowSizes.valueOf(value.toUpperCase(Locale.ROOT));
                    } catch (IllegalArgumentException e) {
                        throw new UserError("generator key 'dist': unknown '" + value + "'; valid: zipf, pareto, uniform");
                    }
                    return new GeneratorConfig(kind, seed, packets, flows, d, zipfExponent, paretoShape, sizes,
                            linkGbps, load, startNs, ipv6Fraction, tcpFraction, udpFraction, ports, senders, bursts,
                            burstIntervalNs).validated();
                }
                case "zipf":
                    return new GeneratorConfig(kind, seed, packets, flows, flowSizes, Double.parseDouble(value),
                            paretoShape, sizes, linkGbps, load, startNs, ipv6Fraction, tcpFraction, udpFraction,
                            ports, senders, bursts, burstIntervalNs).validated();
                case "pareto":
                    return new GeneratorConfig(kind, seed, packets, flows, flowSizes, zipfExponent,
                            Double.parseDouble(value), sizes, linkGbps, load, startNs, ipv6Fraction, tcpFraction,
                            udpFraction, ports, senders, bursts, burstIntervalNs).validated();
                case "sizes":
                    return new GeneratorConfig(kind, seed, packets, flows, flowSizes, zipfExponent, paretoShape,
                            PacketSizeMix.parse(value), linkGbps, load, startNs, ipv6Fraction, tcpFraction,
                            udpFraction, ports, senders, bursts, burstIntervalNs).validated();
                case "gbps":
                    return new GeneratorConfig(kind, seed, packets, flows, flowSizes, zipfExponent, paretoShape,
                            sizes, Double.parseDouble(value), load, startNs, ipv6Fraction, tcpFraction, udpFraction,
                            ports, senders, bursts, burstIntervalNs).validated();
                case "load":
                    return new GeneratorConfig(kind, seed, packets, flows, flowSizes, zipfExponent, paretoShape,
                            sizes, linkGbps, Double.parseDouble(value), startNs, ipv6Fraction, tcpFraction,
                            udpFraction, ports, senders, bursts, burstIntervalNs).validated();
                case "start":
                    return new GeneratorConfig(kind, seed, packets, flows, flowSizes, zipfExponent, paretoShape,
                            sizes, linkGbps, load, Long.parseLong(value), ipv6Fraction, tcpFraction, udpFraction,
                            ports, senders, bursts, burstIntervalNs).validated();
                case "ipv6":
                    return new GeneratorConfig(kind, seed, packets, flows, flowSizes, zipfExponent, paretoShape,
                            sizes, linkGbps, load, startNs, Double.parseDouble(value), tcpFraction, udpFraction,
                            ports, senders, bursts, burstIntervalNs).validated();
                case "tcp":
                    return new GeneratorConfig(kind, seed, packets, flows, flowSizes, zipfExponent, paretoShape,
                            sizes, linkGbps, load, startNs, ipv6Fraction, Double.parseDouble(value), udpFraction,
                            ports, senders, bursts, burstIntervalNs).validated();
                case "udp":
                    return new GeneratorConfig(kind, seed, packets, flows, flowSizes, zipfExponent, paretoShape,
                            sizes, linkGbps, load, startNs, ipv6Fraction, tcpFraction, Double.parseDouble(value),
                            ports, senders, bursts, burstIntervalNs).validated();
                case "ports":
                    return new GeneratorConfig(kind, seed, packets, flows, flowSizes, zipfExponent, paretoShape,
                            sizes, linkGbps, load, startNs, ipv6Fraction, tcpFraction, udpFraction,
                            Integer.parseInt(value), senders, bursts, burstIntervalNs).validated();
                case "senders":
                    return new GeneratorConfig(kind, seed, packets, flows, flowSizes, zipfExponent, paretoShape,
                            sizes, linkGbps, load, startNs, ipv6Fraction, tcpFraction, udpFraction, ports,
                            Integer.parseInt(value), bursts, burstIntervalNs).validated();
                case "bursts":
                    return new GeneratorConfig(kind, seed, packets, flows, flowSizes, zipfExponent, paretoShape,
                            sizes, linkGbps, load, startNs, ipv6Fraction, tcpFraction, udpFraction, ports, senders,
                            Integer.parseInt(value), burstIntervalNs).validated();
                case "interval":
                    return new GeneratorConfig(kind, seed, packets, flows, flowSizes, zipfExponent, paretoShape,
                            sizes, linkGbps, load, startNs, ipv6Fraction, tcpFraction, udpFraction, ports, senders,
                            bursts, Long.parseLong(value)).validated();
                default:
                    throw new UserError("unknown generator key '" + key + "'; valid: " + String.join(", ", KEYS));
            }
        } catch (NumberFormatException e) {
            throw new UserError("generator key '" + key + "': '" + value + "' is not a number");
        }
    }

    /** Applies several keys (in sorted order, so the result does not depend on map order). */
    public GeneratorConfig with(Map<String, String> params) {
        GeneratorConfig c = this;
        for (Map.Entry<String, String> e : new TreeMap<>(params).entrySet()) {
            c = c.with(e.getKey(), e.getValue());
        }
        return c;
    }

    /** Checks ranges; returns this or throws a UserError naming the parameter. */
    public GeneratorConfig validated() {
        require(packets >= 0, "packets", "must be >= 0");
        require(flows >= 1 && flows <= MAX_FLOWS, "flows", "must be in [1, " + MAX_FLOWS + "]");
        require(zipfExponent >= 0 && zipfExponent <= 10, "zipf", "must be in [0, 10]");
        require(paretoShape > 0 && paretoShape <= 100, "pareto", "must be in (0, 100]");
        require(linkGbps > 0 && linkGbps <= 10_000, "gbps", "must be in (0, 10000]");
        require(load > 0 && load <= 1, "load", "must be in (0, 1]");
        require(startNs >= 0, "start", "must be >= 0");
        require(ipv6Fraction >= 0 && ipv6Fraction <= 1, "ipv6", "must be in [0, 1]");
        require(tcpFraction >= 0 && udpFraction >= 0 && tcpFraction + udpFraction <= 1.0 + 1e-9, "tcp/udp",
                "shares must be >= 0 and add up to at most 1");
        require(ports >= 1 && ports <= 65_536, "ports", "must be in [1, 65536]");
        require(senders >= 1 && senders <= MAX_SENDERS, "senders", "must be in [1, " + MAX_SENDERS + "]");
        require(bursts >= 1 && bursts <= MAX_BURSTS, "bursts", "must be in [1, " + MAX_BURSTS + "]");
        require(burstIntervalNs >= 0, "interval", "must be >= 0");
        return this;
    }

    private static void require(boolean ok, String key, String what) {
        if (!ok) {
            throw new UserError("generator key '" + key + "' " + what);
        }
    }

    /** Canonical spec: every key, sorted; {@code TraceSpec.open(toSpec())} reproduces the trace. */
    public String toSpec() {
        Map<String, String> m = new TreeMap<>();
        m.put("bursts", Integer.toString(bursts));
        m.put("dist", flowSizes.name().toLowerCase(Locale.ROOT));
        m.put("flows", Integer.toString(flows));
        m.put("gbps", Double.toString(linkGbps));
        m.put("interval", Long.toString(burstIntervalNs));
        m.put("ipv6", Double.toString(ipv6Fraction));
        m.put("load", Double.toString(load));
        m.put("packets", Long.toString(packets));
        m.put("pareto", Double.toString(paretoShape));
        m.put("ports", Integer.toString(ports));
        m.put("seed", Long.toString(seed));
        m.put("senders", Integer.toString(senders));
        m.put("sizes", sizes.spec());
        m.put("start", Long.toString(startNs));
        m.put("tcp", Double.toString(tcpFraction));
        m.put("udp", Double.toString(udpFraction));
        m.put("zipf", Double.toString(zipfExponent));
        StringBuilder sb = new StringBuilder("gen:").append(kind.label());
        char sep = '?';
        for (Map.Entry<String, String> e : m.entrySet()) {
            sb.append(sep).append(e.getKey()).append('=').append(e.getValue());
            sep = '&';
        }
        return sb.toString();
    }
}
