package dev.rmtemu.emulator.topology;

import java.util.TreeSet;
import dev.rmtemu.model.UserError;

import java.util.List;
import java.util.Set;

/**
 * Named topologies: {@code builtin:NAME?key=value&...}. Every built-in goes
 * through {@link TopologyBuilder}, so it obeys the same rules as a file.
 * Parameters common to all: {@code target}, {@code program}, {@code latency_ns},
 * {@code rate_gbps} (Abilene backbone links keep their own latency and rate).
 */
public final class BuiltinTopologies {
    public static final String PREFIX = "builtin:";

    /** Target profile of programmable switches unless {@code target=} says otherwise. */
    public static final String DEFAULT_TARGET = "tofino1";
    /**
     * Link latency of the data-centre built-ins: an assumed round 1 µs per hop
     * (tens of metres of cable at 5 ns/m plus PHY/FEC); override with latency_ns.
     */
    public static final long DC_LINK_LATENCY_NS = 1_000;
    /** Link rate of the data-centre built-ins: Tofino 1 front-panel ports are 100 GbE. */
    public static final double DC_LINK_RATE_GBPS = 100.0;
    /** Hosts per built-in subnet: last octet 1..254 (0 and 255 reserved). */
    public static final int MAX_HOSTS_PER_SUBNET = 254;
    /** Switches in a chain are at most this many (keeps names and 10.0.i.j addresses valid). */
    public static final int MAX_CHAIN_SWITCHES = 254;
    /**
     * Largest fat-tree arity: routing tables are dense (nodes × hosts ints), so
     * k=24 (3456 hosts, 720 switches) needs ~120 MB; k=16 needs ~11 MB.
     */
    public static final int MAX_FATTREE_K = 24;

    private static final Set<String> COMMON = Set.of("target", "program", "latency_ns", "rate_gbps");

    private BuiltinTopologies() {
    }

    /** Names of the built-ins, sorted. */
    public static List<String> names() {
        return List.of("abilene", "chain", "fattree", "line", "single");
    }

    /** Builds {@code builtin:NAME?params} (the prefix is required). */
    public static Topology build(String spec) {
        if (!spec.startsWith(PREFIX)) {
            throw new UserError(spec + ": built-in specs start with '" + PREFIX + "'");
        }
        String rest = spec.substring(PREFIX.length());
        int q = rest.indexOf('?');
        String name = q < 0 ? rest : rest.substring(0, q);
        BuiltinParams p = new BuiltinParams(spec, q < 0 ? null : rest.substring(q + 1));
        return switch (name) {
            case "single" -> single(spec, p);
            case "line" -> line(spec, p);
            case "chain" -> chain(spec, p);
            case "fattree" -> FatTree.build(spec, p);
            case "abilene" -> Abilene.build(spec, p);
            default -> throw new UserError(spec + ": unknown built-in topology '" + name + "' (known: "
                    + String.join(", ", names()) + ")");
        };
    }

    static Set<String> allowed(String... own) {
        TreeSet<String> s = new TreeSet<>(COMMON);
        s.addAll(List.of(own));
        return s;
    }

    /** Link and switch settings shared by the built-ins. */
    record Common(String target, String program, long latencyNs, double rateGbps) {
        static Common of(BuiltinParams p) {
            return new Common(p.string("target", DEFAULT_TARGET), p.string("program", null),
                    p.longValue("latency_ns", DC_LINK_LATENCY_NS), p.positive("rate_gbps", DC_LINK_RATE_GBPS));
        }

        int programmable(TopologyBuilder b, String name, int ports) {
            return b.programmableSwitch(name, target, ports, program, KeyValues.EMPTY);
        }

        void link(TopologyBuilder b, String x, int xp, String y, int yp) {
            b.link(x, xp, y, yp, true, latencyNs, rateGbps, KeyValues.EMPTY, KeyValues.EMPTY);
        }
    }

    static Ipv4Prefix host32(int b2, int b3, int b4) {
        return new Ipv4Prefix((10 << 24) | (b2 << 16) | (b3 << 8) | b4, 32);
    }

    /** {@code single?hosts=H}: switch s1 with hosts h1..hH on ports 1..H, addresses 10.0.0.i. */
    private static Topology single(String spec, BuiltinParams p) {
        p.allowOnly(allowed("hosts"));
        int hosts = p.integer("hosts", 4, 1, MAX_HOSTS_PER_SUBNET);
        Common c = Common.of(p);
        TopologyBuilder b = new TopologyBuilder(spec);
        c.programmable(b, "s1", hosts);
        for (int i = 1; i <= hosts; i++) {
            b.host("h" + i, host32(0, 0, i), HostRole.BOTH);
        }
        for (int i = 1; i <= hosts; i++) {
            c.link(b, "h" + i, Node.HOST_PORT, "s1", i);
        }
        return b.build();
    }

    /**
     * {@code line?hosts=N}: h1..hN – s1 – s2 – h(N+1)..h(2N). Hosts on ports
     * 1..N of their switch, addresses 10.0.1.i and 10.0.2.i; s1:N+1 – s2:N+1.
     */
    private static Topology line(String spec, BuiltinParams p) {
        p.allowOnly(allowed("hosts"));
        int n = p.integer("hosts", 1, 1, MAX_HOSTS_PER_SUBNET);
        Common c = Common.of(p);
        TopologyBuilder b = new TopologyBuilder(spec);
        c.programmable(b, "s1", n + 1);
        c.programmable(b, "s2", n + 1);
        for (int side = 1; side <= 2; side++) {
            for (int i = 1; i <= n; i++) {
                b.host("h" + ((side - 1) * n + i), host32(0, side, i), HostRole.BOTH);
            }
        }
        for (int i = 1; i <= n; i++) {
            c.link(b, "h" + i, Node.HOST_PORT, "s1", i);
        }
        c.link(b, "s1", n + 1, "s2", n + 1);
        for (int i = 1; i <= n; i++) {
            c.link(b, "h" + (n + i), Node.HOST_PORT, "s2", i);
        }
        return b.build();
    }

    /**
     * {@code chain?m=M&regular=R&hosts=N}: programmable m1..mM in a row, with R
     * regular switches r{i}_1..r{i}_R between m{i} and m{i+1}. Hosts h{i}_{j}
     * (j=1..N) on m{i} ports 1..N, address 10.0.i.j. m{i} port N+1 faces m{i-1},
     * port N+2 faces m{i+1}; regular switches use port 1 towards m{i}, 2 towards m{i+1}.
     */
    private static Topology chain(String spec, BuiltinParams p) {
        p.allowOnly(allowed("m", "regular", "hosts"));
        int m = p.integer("m", 2, 2, MAX_CHAIN_SWITCHES);
        int r = p.integer("regular", 3, 0, MAX_CHAIN_SWITCHES);
        int n = p.integer("hosts", 1, 1, MAX_HOSTS_PER_SUBNET);
        Common c = Common.of(p);
        TopologyBuilder b = new TopologyBuilder(spec);
        for (int i = 1; i <= m; i++) {
            c.programmable(b, "m" + i, n + 2);
            for (int j = 1; i < m && j <= r; j++) {
                b.regularSwitch("r" + i + "_" + j, 2);
            }
        }
        for (int i = 1; i <= m; i++) {
            for (int j = 1; j <= n; j++) {
                b.host("h" + i + "_" + j, host32(0, i, j), HostRole.BOTH);
            }
        }
        for (int i = 1; i <= m; i++) {
            for (int j = 1; j <= n; j++) {
                c.link(b, "h" + i + "_" + j, Node.HOST_PORT, "m" + i, j);
            }
            if (i == m) {
                break;
            }
            String prev = "m" + i;
            int prevPort = n + 2;
            for (int j = 1; j <= r; j++) {
                String reg = "r" + i + "_" + j;
                c.link(b, prev, prevPort, reg, 1);
                prev = reg;
                prevPort = 2;
            }
            c.link(b, prev, prevPort, "m" + (i + 1), n + 1);
        }
        return b.build();
    }
}
