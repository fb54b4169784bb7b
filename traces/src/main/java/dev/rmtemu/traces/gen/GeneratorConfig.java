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
 * @param flows          distinct 5-tuple flows, or flow arrivals for backbone; 0 = one per
 *                       {@link #ISP_PACKETS_PER_FLOW} packets (incast: one flow per sender, see senders)
 * @param flowSizes      how packets are shared among flows: zipf, pareto, uniform or backbone
 * @param zipfExponent   s in size(rank r) ∝ 1/r^s (used when flowSizes is zipf)
 * @param paretoShape    α of the Pareto flow-size weights, smaller = heavier tail (used when flowSizes is pareto;
 *                       for backbone, the elephants' size tail)
 * @param sizes          packet wire-size mix
 * @param linkGbps       link rate that spaces the timestamps
 * @param load           offered load in (0, 1]: mean gap = serialisation time / load
 * @param startNs        timestamp of the first packet
 * @param ipv6Fraction   share of flows that are IPv6
 * @param tcpFraction    share of flows that are TCP
 * @param udpFraction    share of flows that are UDP (the rest ICMP echo)
 * @param ports          ingress ports the flows are spread over (port = flow hash mod ports; incast: sender
 *                       index mod ports), each a link of {@code linkGbps} that carries one frame at a time
 * @param senders        incast: senders to the one receiver
 * @param bursts         incast: synchronised bursts
 * @param burstIntervalNs incast: time between burst starts
 * @param backbone       flow arrivals, mice and per-flow packet gaps of {@code dist=backbone} ({@link BackboneFlows})
 */
public record GeneratorConfig(GeneratorKind kind, long seed, long packets, int flows, FlowSizes flowSizes,
                              double zipfExponent, double paretoShape, PacketSizeMix sizes, double linkGbps,
                              double load, long startNs, double ipv6Fraction, double tcpFraction,
                              double udpFraction, int ports, int senders, int bursts, long burstIntervalNs,
                              BackboneFlows backbone) {

    /**
     * How packets are shared among flows: zipf, pareto and uniform give every flow its share of
     * the whole trace (each flow spans the trace); backbone lets flows arrive, run and end
     * through the trace ({@link BackboneFlows}).
     */
    public enum FlowSizes {
        ZIPF, PARETO, UNIFORM, BACKBONE;

        static String labels() {
            StringBuilder b = new StringBuilder();
            for (FlowSizes f : values()) {
                b.append(b.length() == 0 ? "" : ", ").append(f.name().toLowerCase(Locale.ROOT));
            }
            return b.toString();
        }
    }

    /** Timestamps start at 2021-01-01T00:00:00Z so converted pcaps show a plausible date. */
    public static final long DEFAULT_START_NS = 1_609_459_200_000_000_000L;
    /** Tofino-class port speed. */
    public static final double DEFAULT_LINK_GBPS = 100.0;
    /**
     * ISP preset: one chunk of the CAIDA 2016 backbone trace the HashPipe paper used (§5: a
     * 10 Gb/s link, 50 chunks of about 20 s with 10 M packets and about 400,000 5-tuple flows).
     */
    public static final long ISP_PACKETS = 10_000_000L;
    /** Flows of the ISP preset: 0 = {@link #ISP_PACKETS_PER_FLOW} of the packet count ({@link #effectiveFlows}). */
    public static final int ISP_FLOWS = 0;
    /**
     * Packets per flow arrival of the ISP preset: tuned so a 10 M-packet trace holds about 400,000
     * flows as the paper's chunks do (flows already running when the trace starts add to those that
     * arrive in it).
     */
    public static final double ISP_PACKETS_PER_FLOW = 25.0;
    /** The paper's link: 10 Gb/s (CAIDA equinix-chicago, a 10GigE link since 2010). */
    public static final double ISP_LINK_GBPS = 10.0;
    /**
     * Load of the ISP preset: 10 M packets in about 20 s (500 K packets/s, the paper's chunks) at the
     * IMIX mean size (354 B + 20 B of preamble and gap) on 10 Gb/s: 500e3 x 374 x 8 / 10e9.
     */
    public static final double ISP_LOAD = 0.15;
    /**
     * Tail shape of the ISP preset's elephant sizes (see {@link BackboneFlows}): the paper's 60th and
     * 150th heaviest flows hold about 6,000 and 4,000 of 10 M packets (§5.4), a rank-size slope of
     * ln(150/60) / ln(6000/4000) = 2.26.
     */
    public static final double ISP_PARETO = 2.26;
    /** Zipf exponent 1.1: heavy-hitter experiments (HashPipe) use skews around 1. */
    public static final double ISP_ZIPF = 1.1;
    /** Pareto shape 1.2: data-centre flow sizes (most bytes in a few elephants). */
    public static final double DC_PARETO = 1.2;
    /** Data-centre mean packet size, the bimodal 850 B often quoted for DC traffic. */
    public static final int DC_MEAN_SIZE = 850;
    /** Most flows: the generator keeps about 43 bytes per flow (≈ 2.2 GB at this limit). */
    public static final int MAX_FLOWS = 50_000_000;
    /**
     * Incast senders by default, and the ingress ports they arrive on: each sender has its own
     * link into the switch, so the senders' bursts meet at the switch, not on one input link.
     */
    public static final int INCAST_SENDERS = 32;
    /** Most incast senders; the generator scans them linearly per packet. */
    public static final int MAX_SENDERS = 4096;
    /** Most incast bursts: the generator keeps one packet count per burst (8 MB at this limit). */
    public static final int MAX_BURSTS = 1_000_000;

    /** Defaults of a preset. */
    public static GeneratorConfig preset(GeneratorKind kind) {
        switch (kind) {
            case ISP:
                return new GeneratorConfig(kind, 1, ISP_PACKETS, ISP_FLOWS, FlowSizes.BACKBONE, ISP_ZIPF, ISP_PARETO,
                        PacketSizeMix.parse("imix"), ISP_LINK_GBPS, ISP_LOAD, DEFAULT_START_NS, 0.0, 0.85, 0.13,
                        1, 32, 10, 1_000_000L, BackboneFlows.ISP);
            case DC:
                return new GeneratorConfig(kind, 1, 1_000_000L, 20_000, FlowSizes.PARETO, ISP_ZIPF, DC_PARETO,
                        PacketSizeMix.parse("mean:" + DC_MEAN_SIZE), DEFAULT_LINK_GBPS, 0.7, DEFAULT_START_NS,
                        0.0, 0.95, 0.05, 1, 32, 10, 1_000_000L, BackboneFlows.ISP);
            case INCAST:
                return new GeneratorConfig(kind, 1, 320_000L, 32, FlowSizes.UNIFORM, ISP_ZIPF, DC_PARETO,
                        PacketSizeMix.parse("fixed:1500"), DEFAULT_LINK_GBPS, 1.0, DEFAULT_START_NS, 0.0, 1.0,
                        0.0, INCAST_SENDERS, INCAST_SENDERS, 100, 1_000_000L, BackboneFlows.ISP);
            case TCP:
                return new GeneratorConfig(kind, 1, 1_000_000L, 10_000, FlowSizes.ZIPF, ISP_ZIPF, DC_PARETO,
                        PacketSizeMix.parse("imix"), DEFAULT_LINK_GBPS, 0.5, DEFAULT_START_NS, 0.0, 1.0, 0.0,
                        1, 32, 10, 1_000_000L, BackboneFlows.ISP);
            case UNIFORM:
            default:
                return new GeneratorConfig(kind, 1, 1_000_000L, 10_000, FlowSizes.UNIFORM, ISP_ZIPF, DC_PARETO,
                        PacketSizeMix.parse("imix"), DEFAULT_LINK_GBPS, 0.5, DEFAULT_START_NS, 0.0, 0.8, 0.2,
                        1, 32, 10, 1_000_000L, BackboneFlows.ISP);
        }
    }

    /** The keys {@link #with} accepts, in the order {@link #toSpec} writes them. */
    public static final String[] KEYS = {"bursts", "dist", "flows", "gap", "gapsigma", "gbps", "interval", "ipv6",
        "load", "mice", "micepkts", "packets", "pareto", "ports", "seed", "senders", "sizes", "start", "tcp", "udp",
        "zipf"};

    /** A copy with one parameter changed; unknown keys and bad values are a UserError. */
    public GeneratorConfig with(String key, String value) {
        Draft d = new Draft(this);
        try {
            switch (key) {
                case "seed" -> d.seed = Long.parseLong(value);
                case "packets" -> d.packets = Long.parseLong(value);
                case "flows" -> d.flows = Integer.parseInt(value);
                case "dist" -> {
                    try {
                        d.flowSizes = FlowSizes.valueOf(value.toUpperCase(Locale.ROOT));
                    } catch (IllegalArgumentException e) {
                        throw new UserError("generator key 'dist': unknown '" + value + "'; valid: " + FlowSizes.labels());
                    }
                }
                case "zipf" -> d.zipfExponent = Double.parseDouble(value);
                case "pareto" -> d.paretoShape = Double.parseDouble(value);
                case "sizes" -> d.sizes = PacketSizeMix.parse(value);
                case "gbps" -> d.linkGbps = Double.parseDouble(value);
                case "load" -> d.load = Double.parseDouble(value);
                case "start" -> d.startNs = Long.parseLong(value);
                case "ipv6" -> d.ipv6Fraction = Double.parseDouble(value);
                case "tcp" -> d.tcpFraction = Double.parseDouble(value);
                case "udp" -> d.udpFraction = Double.parseDouble(value);
                case "ports" -> d.ports = Integer.parseInt(value);
                case "senders" -> d.senders = Integer.parseInt(value);
                case "bursts" -> d.bursts = Integer.parseInt(value);
                case "interval" -> d.burstIntervalNs = Long.parseLong(value);
                case "mice" -> d.backbone = d.backbone.withMiceShare(Double.parseDouble(value));
                case "micepkts" -> d.backbone = d.backbone.withMiceMeanPackets(Double.parseDouble(value));
                case "gap" -> d.backbone = d.backbone.withGapMedianNs(Double.parseDouble(value));
                case "gapsigma" -> d.backbone = d.backbone.withGapSigma(Double.parseDouble(value));
                default -> throw new UserError("unknown generator key '" + key + "'; valid: " + String.join(", ", KEYS));
            }
        } catch (NumberFormatException e) {
            throw new UserError("generator key '" + key + "': '" + value + "' is not a number");
        }
        return d.build().validated();
    }

    /** A mutable copy, so that {@link #with} changes one field without repeating the other seventeen. */
    private static final class Draft {
        GeneratorKind kind;
        long seed;
        long packets;
        int flows;
        FlowSizes flowSizes;
        double zipfExponent;
        double paretoShape;
        PacketSizeMix sizes;
        double linkGbps;
        double load;
        long startNs;
        double ipv6Fraction;
        double tcpFraction;
        double udpFraction;
        int ports;
        int senders;
        int bursts;
        long burstIntervalNs;
        BackboneFlows backbone;

        Draft(GeneratorConfig c) {
            kind = c.kind;
            seed = c.seed;
            packets = c.packets;
            flows = c.flows;
            flowSizes = c.flowSizes;
            zipfExponent = c.zipfExponent;
            paretoShape = c.paretoShape;
            sizes = c.sizes;
            linkGbps = c.linkGbps;
            load = c.load;
            startNs = c.startNs;
            ipv6Fraction = c.ipv6Fraction;
            tcpFraction = c.tcpFraction;
            udpFraction = c.udpFraction;
            ports = c.ports;
            senders = c.senders;
            bursts = c.bursts;
            burstIntervalNs = c.burstIntervalNs;
            backbone = c.backbone;
        }

        GeneratorConfig build() {
            return new GeneratorConfig(kind, seed, packets, flows, flowSizes, zipfExponent, paretoShape, sizes, linkGbps,
                    load, startNs, ipv6Fraction, tcpFraction, udpFraction, ports, senders, bursts, burstIntervalNs,
                    backbone);
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
        require(flows >= 0 && flows <= MAX_FLOWS, "flows", "must be in [0, " + MAX_FLOWS + "] (0: one flow per "
                + ISP_PACKETS_PER_FLOW + " packets)");
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
        if (flowSizes == FlowSizes.BACKBONE) {
            backbone.validate(this);
        }
        return this;
    }

    static void require(boolean ok, String key, String what) {
        if (!ok) {
            throw new UserError("generator key '" + key + "' " + what);
        }
    }

    /**
     * Flows of the trace: {@code flows}, or with flows=0 one flow (for {@code dist=backbone}, one flow
     * arrival) per {@link #ISP_PACKETS_PER_FLOW} packets, at least one.
     */
    public long effectiveFlows() {
        if (flows > 0) {
            return flows;
        }
        return Math.max(1, Math.round(packets / ISP_PACKETS_PER_FLOW));
    }

    /** Canonical spec: every key, sorted; {@code TraceSpec.open(toSpec())} reproduces the trace. */
    public String toSpec() {
        Map<String, String> m = new TreeMap<>();
        m.put("bursts", Integer.toString(bursts));
        m.put("dist", flowSizes.name().toLowerCase(Locale.ROOT));
        m.put("flows", Integer.toString(flows));
        m.put("gap", Double.toString(backbone.gapMedianNs()));
        m.put("gapsigma", Double.toString(backbone.gapSigma()));
        m.put("mice", Double.toString(backbone.miceShare()));
        m.put("micepkts", Double.toString(backbone.miceMeanPackets()));
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
