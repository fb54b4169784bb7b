package dev.rmtemu.emulator.topology;

import java.util.Arrays;
import java.util.TreeSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * {@code builtin:abilene?hosts=H&programmable=all|none|PoP,...}: the Abilene
 * (Internet2) backbone as in the SNDlib "abilene" instance and Zhang's Abilene
 * traffic-matrix data: 11 PoPs and 14 backbone links (the separate ATLA-M5
 * router is left out). Switches are named by PoP code (ATLA, CHIN, ...).
 *
 * <p>Latency is an <b>approximation</b>, not measured: the great-circle
 * distance between the PoP cities (coordinates below, haversine on a 6371 km
 * sphere, computed with StrictMath so every machine gets the same numbers) at
 * {@link #FIBRE_NS_PER_KM}. Real fibre routes are longer, so these are lower
 * bounds. Backbone rate is {@link #BACKBONE_RATE_GBPS}.
 *
 * <p>Each PoP gets H hosts (default 1) {@code h{POP}{x}} on ports 1..H, each
 * owning 10.{pop}.{x}.0/24 with pop 1..11 in the order below; access links use
 * the common {@code latency_ns} / {@code rate_gbps}. Backbone ports follow,
 * H+1.. in backbone link order. With {@code hosts=0} the topology is the bare
 * 11-node, 14-link backbone.
 */
final class Abilene {
    /** Light in fibre travels at about c/1.47, ≈ 4.9 µs/km; 5 µs/km is the usual rule of thumb. */
    static final long FIBRE_NS_PER_KM = 5_000;
    /** Abilene's backbone was upgraded to OC-192c (≈10 Gb/s) in 2003-2004. */
    static final double BACKBONE_RATE_GBPS = 10.0;
    /** Mean Earth radius in km (IUGG). */
    static final double EARTH_RADIUS_KM = 6371.0;
    static final int MAX_HOSTS_PER_POP = 254;

    /** PoP code, city, latitude, longitude (degrees; city centres). */
    private record Pop(String code, String city, double lat, double lon) {
    }

    private static final List<Pop> POPS = List.of(
            new Pop("ATLA", "Atlanta", 33.749, -84.388),
            new Pop("CHIN", "Chicago", 41.878, -87.630),
            new Pop("DNVR", "Denver", 39.739, -104.990),
            new Pop("HSTN", "Houston", 29.760, -95.370),
            new Pop("IPLS", "Indianapolis", 39.768, -86.158),
            new Pop("KSCY", "Kansas City", 39.100, -94.579),
            new Pop("LOSA", "Los Angeles", 34.052, -118.244),
            new Pop("NYCM", "New York", 40.713, -74.006),
            new Pop("SNVA", "Sunnyvale", 37.369, -122.036),
            new Pop("STTL", "Seattle", 47.606, -122.332),
            new Pop("WASH", "Washington DC", 38.907, -77.037));

    /** The 14 backbone links, as PoP code pairs. */
    private static final String[][] BACKBONE = {
            {"ATLA", "HSTN"}, {"ATLA", "IPLS"}, {"ATLA", "WASH"}, {"CHIN", "IPLS"}, {"CHIN", "NYCM"},
            {"DNVR", "KSCY"}, {"DNVR", "SNVA"}, {"DNVR", "STTL"}, {"HSTN", "KSCY"}, {"HSTN", "LOSA"},
            {"IPLS", "KSCY"}, {"LOSA", "SNVA"}, {"NYCM", "WASH"}, {"SNVA", "STTL"}};

    private Abilene() {
    }

    /** Great-circle distance in km (haversine), deterministic across machines. */
    static double distanceKm(String codeA, String codeB) {
        Pop a = pop(codeA);
        Pop b = pop(codeB);
        double p1 = StrictMath.toRadians(a.lat());
        double p2 = StrictMath.toRadians(b.lat());
        double dp = p2 - p1;
        double dl = StrictMath.toRadians(b.lon() - a.lon());
        double h = StrictMath.sin(dp / 2) * StrictMath.sin(dp / 2)
                + StrictMath.cos(p1) * StrictMath.cos(p2) * StrictMath.sin(dl / 2) * StrictMath.sin(dl / 2);
        return 2 * EARTH_RADIUS_KM * StrictMath.asin(StrictMath.sqrt(h));
    }

    /** Approximate one-way latency of a backbone link in ns. */
    static long latencyNs(String codeA, String codeB) {
        return StrictMath.round(distanceKm(codeA, codeB) * FIBRE_NS_PER_KM);
    }

    private static Pop pop(String code) {
        for (Pop p : POPS) {
            if (p.code().equals(code)) {
                return p;
            }
        }
        throw new IllegalArgumentException(code);
    }

    static Topology build(String spec, BuiltinParams p) {
        p.allowOnly(BuiltinTopologies.allowed("hosts", "programmable"));
        int hosts = p.integer("hosts", 1, 0, MAX_HOSTS_PER_POP);
        TreeSet<String> choices = new TreeSet<>(Set.of("all", "none"));
        for (Pop pop : POPS) {
            choices.add(pop.code());
        }
        List<String> prog = p.list("programmable", choices);
        if (prog == null) {
            prog = List.of("all");
        }
        if ((prog.contains("all") || prog.contains("none")) && prog.size() > 1) {
            throw p.error("programmable=all or none cannot be combined with PoP names");
        }
        BuiltinTopologies.Common c = BuiltinTopologies.Common.of(p);
        TopologyBuilder b = new TopologyBuilder(spec);
        int[] degree = new int[POPS.size()];
        for (String[] l : BACKBONE) {
            degree[indexOf(l[0])]++;
            degree[indexOf(l[1])]++;
        }
        for (int i = 0; i < POPS.size(); i++) {
            String code = POPS.get(i).code();
            int ports = hosts + degree[i];
            if (prog.contains("all") || prog.contains(code)) {
                c.programmable(b, code, ports);
            } else {
                b.regularSwitch(code, ports);
            }
        }
        for (int i = 0; i < POPS.size(); i++) {
            for (int x = 1; x <= hosts; x++) {
                b.host(hostName(POPS.get(i).code(), x),
                        new Ipv4Prefix((10 << 24) | ((i + 1) << 16) | (x << 8), 24), HostRole.BOTH);
            }
        }
        for (int i = 0; i < POPS.size(); i++) {
            for (int x = 1; x <= hosts; x++) {
                c.link(b, hostName(POPS.get(i).code(), x), Node.HOST_PORT, POPS.get(i).code(), x);
            }
        }
        int[] nextPort = new int[POPS.size()];
        Arrays.fill(nextPort, hosts + 1);
        for (String[] l : BACKBONE) {
            int a = indexOf(l[0]);
            int z = indexOf(l[1]);
            b.link(l[0], nextPort[a]++, l[1], nextPort[z]++, true, latencyNs(l[0], l[1]), BACKBONE_RATE_GBPS,
                    KeyValues.EMPTY, KeyValues.EMPTY);
        }
        return b.build();
    }

    private static String hostName(String code, int x) {
        return "h" + code + x;
    }

    private static int indexOf(String code) {
        for (int i = 0; i < POPS.size(); i++) {
            if (POPS.get(i).code().equals(code)) {
                return i;
            }
        }
        throw new IllegalArgumentException(code);
    }

    /** PoP codes in node order. */
    static List<String> popCodes() {
        List<String> out = new ArrayList<>();
        for (Pop p : POPS) {
            out.add(p.code());
        }
        return out;
    }
}
