package dev.rmtemu.model.parse;

import java.util.ArrayList;
import java.util.List;

import static dev.rmtemu.model.parse.KeySet.ANY;
import static dev.rmtemu.model.parse.KeySet.exact;

/**
 * The parse graph programs get when they declare none: Ethernet, up to two VLAN
 * tags (802.1Q 0x8100 or 802.1ad 0x88A8), ARP, IPv4 with options, IPv6 with the
 * extension headers the trace readers follow (hop-by-hop, destination options
 * before and after routing, routing, fragment), TCP with options, UDP, ICMP and
 * ICMPv6. Anything else is accepted as payload where it starts (an unknown
 * EtherType, a third tag, a later fragment, an unknown next header), so the
 * deparser gives back the frame it got.
 */
public final class DefaultParseGraph {
    public static final String NAME = "default";

    public static final int ETHERTYPE_IPV4 = 0x0800;
    public static final int ETHERTYPE_ARP = 0x0806;
    public static final int ETHERTYPE_VLAN = 0x8100;
    public static final int ETHERTYPE_QINQ = 0x88A8;
    public static final int ETHERTYPE_IPV6 = 0x86DD;
    public static final int PROTO_ICMP = 1;
    public static final int PROTO_TCP = 6;
    public static final int PROTO_UDP = 17;
    public static final int PROTO_ICMPV6 = 58;
    public static final int IPV6_HOP_BY_HOP = 0;
    public static final int IPV6_ROUTING = 43;
    public static final int IPV6_FRAGMENT = 44;
    public static final int IPV6_DEST_OPTIONS = 60;

    /** Headers in wire order: the deparser's emit order. */
    public static final List<String> EMIT_ORDER = List.of("ethernet", "vlan_outer", "vlan_inner", "arp", "ipv4",
            "ipv6", "ipv6_hop_by_hop", "ipv6_dest_opts", "ipv6_routing", "ipv6_frag", "ipv6_dest_opts_last", "tcp",
            "udp", "icmp", "icmpv6");

    private DefaultParseGraph() {
    }

    public static ParseGraph build() {
        return build(List.of());
    }

    /**
     * The default graph with a program's own shim headers between Ethernet and what follows
     * it: each is selected by its EtherType (on Ethernet or an earlier shim) and ends with an
     * {@code ether_type} field that names the next header, so the graph continues as after
     * Ethernet (VLAN, IPv4, IPv6, ARP, or payload). A shim's header instance is its name.
     */
    public static ParseGraph build(List<EtherTypeShim> shims) {
        ParseGraph.Builder b = ParseGraph.builder(shims.isEmpty() ? NAME : NAME + shimSuffix(shims));
        b.header("ethernet", StandardHeaders.ETHERNET)
                .header("vlan_outer", StandardHeaders.VLAN_TAG)
                .header("vlan_inner", StandardHeaders.VLAN_TAG)
                .header("arp", StandardHeaders.ARP)
                .header("ipv4", StandardHeaders.IPV4)
                .header("ipv6", StandardHeaders.IPV6)
                .header("ipv6_hop_by_hop", StandardHeaders.IPV6_EXTENSION)
                .header("ipv6_dest_opts", StandardHeaders.IPV6_EXTENSION)
                .header("ipv6_routing", StandardHeaders.IPV6_EXTENSION)
                .header("ipv6_frag", StandardHeaders.IPV6_FRAGMENT)
                .header("ipv6_dest_opts_last", StandardHeaders.IPV6_EXTENSION)
                .header("tcp", StandardHeaders.TCP)
                .header("udp", StandardHeaders.UDP)
                .header("icmp", StandardHeaders.ICMP)
                .header("icmpv6", StandardHeaders.ICMP);
        for (EtherTypeShim s : shims) {
            b.header(s.header(), s.type()); // after the standard headers: their indices stay the default graph's
        }
        // the start state is the first declared: a shim's state comes after it
        etherTypeBranches(b.state("parse_ethernet").extract("ethernet").select("ethernet.ether_type"), shims);
        for (EtherTypeShim s : shims) {
            etherTypeBranches(b.state("parse_" + s.header()).extract(s.header()).select(s.header() + "." + EtherTypeShim.NEXT_FIELD),
                    shims);
        }
        b.state("parse_vlan_outer").extract("vlan_outer").select("vlan_outer.ether_type")
                .when(ETHERTYPE_VLAN, "parse_vlan_inner")
                .when(ETHERTYPE_IPV4, "parse_ipv4").when(ETHERTYPE_IPV6, "parse_ipv6").when(ETHERTYPE_ARP, "parse_arp")
                .otherwise("accept");
        b.state("parse_vlan_inner").extract("vlan_inner").select("vlan_inner.ether_type")
                .when(ETHERTYPE_IPV4, "parse_ipv4").when(ETHERTYPE_IPV6, "parse_ipv6").when(ETHERTYPE_ARP, "parse_arp")
                .otherwise("accept");
        b.state("parse_arp").extract("arp").transition("accept");
        // only a first fragment (offset 0) carries the L4 header
        b.state("parse_ipv4").extract("ipv4").select("ipv4.frag_offset", "ipv4.protocol")
                .when("parse_tcp", exact(0), exact(PROTO_TCP))
                .when("parse_udp", exact(0), exact(PROTO_UDP))
                .when("parse_icmp", exact(0), exact(PROTO_ICMP))
                .otherwise("accept");
        extensionSelect(b.state("parse_ipv6").extract("ipv6").select("ipv6.next_hdr")
                .when(IPV6_HOP_BY_HOP, "parse_ipv6_hop_by_hop"), true, true, true);
        extensionSelect(b.state("parse_ipv6_hop_by_hop").extract("ipv6_hop_by_hop").select("ipv6_hop_by_hop.next_hdr"),
                true, true, true);
        extensionSelect(b.state("parse_ipv6_dest_opts").extract("ipv6_dest_opts").select("ipv6_dest_opts.next_hdr"),
                false, true, true);
        extensionSelect(b.state("parse_ipv6_routing").extract("ipv6_routing").select("ipv6_routing.next_hdr")
                .when(IPV6_DEST_OPTIONS, "parse_ipv6_dest_opts_last"), false, false, true);
        b.state("parse_ipv6_frag").extract("ipv6_frag").select("ipv6_frag.frag_offset", "ipv6_frag.next_hdr")
                .when("parse_ipv6_dest_opts_last", exact(0), exact(IPV6_DEST_OPTIONS))
                .when("parse_tcp", exact(0), exact(PROTO_TCP))
                .when("parse_udp", exact(0), exact(PROTO_UDP))
                .when("parse_icmpv6", exact(0), exact(PROTO_ICMPV6))
                .when("accept", ANY, ANY);
        upperLayer(b.state("parse_ipv6_dest_opts_last").extract("ipv6_dest_opts_last")
                .select("ipv6_dest_opts_last.next_hdr"));
        b.state("parse_tcp").extract("tcp").transition("accept");
        b.state("parse_udp").extract("udp").transition("accept");
        b.state("parse_icmp").extract("icmp").transition("accept");
        b.state("parse_icmpv6").extract("icmpv6").transition("accept");
        return b.build();
    }

    /** What may follow Ethernet (or a shim): VLAN tags, IPv4, IPv6, ARP, one of the shims, else payload. */
    private static void etherTypeBranches(ParseGraph.StateBuilder s, List<EtherTypeShim> shims) {
        s.when(ETHERTYPE_VLAN, "parse_vlan_outer").when(ETHERTYPE_QINQ, "parse_vlan_outer")
                .when(ETHERTYPE_IPV4, "parse_ipv4").when(ETHERTYPE_IPV6, "parse_ipv6").when(ETHERTYPE_ARP, "parse_arp");
        for (EtherTypeShim shim : shims) {
            s.when(shim.etherType(), "parse_" + shim.header());
        }
        s.otherwise("accept");
    }

    private static String shimSuffix(List<EtherTypeShim> shims) {
        StringBuilder sb = new StringBuilder();
        for (EtherTypeShim s : shims) {
            sb.append('+').append(s.header());
        }
        return sb.toString();
    }

    /** The emit order with the shims right after Ethernet. */
    public static List<String> emitOrder(List<EtherTypeShim> shims) {
        List<String> order = new ArrayList<>();
        order.add(EMIT_ORDER.get(0));
        for (EtherTypeShim s : shims) {
            order.add(s.header());
        }
        order.addAll(EMIT_ORDER.subList(1, EMIT_ORDER.size()));
        return order;
    }

    /** The deparser of the default graph: every header in wire order, no checksum updates. */
    public static Deparser deparser(ParseGraph g) {
        return new Deparser(g, EMIT_ORDER, List.of());
    }

    /** The IPv4 header checksum over the header's fields and options, as a TNA deparser declares it. */
    public static ChecksumUpdate ipv4Checksum() {
        return new ChecksumUpdate("ipv4", List.of("ipv4.version", "ipv4.ihl", "ipv4.diffserv", "ipv4.total_len",
                "ipv4.identification", "ipv4.flags", "ipv4.frag_offset", "ipv4.ttl", "ipv4.protocol", "ipv4.src_addr",
                "ipv4.dst_addr"), true, "ipv4.hdr_checksum");
    }

    /** The default deparser with the IPv4 header checksum updated: for programs that rewrite IPv4 fields. */
    public static Deparser deparserWithIpv4Checksum(ParseGraph g) {
        return new Deparser(g, EMIT_ORDER, List.of(ipv4Checksum()));
    }

    /** The branches after an IPv6 header or extension: the extensions allowed next, then the upper layers. */
    private static void extensionSelect(ParseGraph.StateBuilder s, boolean destOpts, boolean routing, boolean fragment) {
        if (destOpts) {
            s.when(IPV6_DEST_OPTIONS, "parse_ipv6_dest_opts");
        }
        if (routing) {
            s.when(IPV6_ROUTING, "parse_ipv6_routing");
        }
        if (fragment) {
            s.when(IPV6_FRAGMENT, "parse_ipv6_frag");
        }
        upperLayer(s);
    }

    private static void upperLayer(ParseGraph.StateBuilder s) {
        s.when(PROTO_TCP, "parse_tcp").when(PROTO_UDP, "parse_udp").when(PROTO_ICMPV6, "parse_icmpv6").otherwise("accept");
    }
}
