package dev.rmtemu.model.parse;

import static dev.rmtemu.model.parse.StandardHeaders.F.f;

/**
 * The header types of the default parse graph, with the field names P4
 * programs for TNA commonly use, in wire order.
 */
public final class StandardHeaders {
    /** Longest IPv4 options: IHL 15 gives 60 bytes, 20 of them fixed. */
    public static final int IPV4_MAX_OPTION_BYTES = 40;
    /** Longest TCP options: data offset 15 gives 60 bytes, 20 of them fixed. */
    public static final int TCP_MAX_OPTION_BYTES = 40;
    /**
     * Longest IPv6 extension header the default graph parses, in 8-byte units after
     * the first 8 (Hdr Ext Len). Tofino's parser shifts by a constant per TCAM row,
     * so every legal length is rows of its own: 0..15 (up to 128 bytes) keeps the
     * default graph within tofino1's 256 rows.
     */
    public static final int IPV6_EXTENSION_MAX_UNITS = 15;

    public static final HeaderType ETHERNET = HeaderType.of("ethernet_h",
            f("dst_addr", 48), f("src_addr", 48), f("ether_type", 16));
    /** An 802.1Q or 802.1ad tag, as it follows the tag protocol identifier. */
    public static final HeaderType VLAN_TAG = HeaderType.of("vlan_tag_h",
            f("pcp", 3), f("dei", 1), f("vid", 12), f("ether_type", 16));
    public static final HeaderType ARP = HeaderType.of("arp_h",
            f("hw_type", 16), f("proto_type", 16), f("hw_addr_len", 8), f("proto_addr_len", 8), f("opcode", 16),
            f("sender_hw_addr", 48), f("sender_proto_addr", 32), f("target_hw_addr", 48), f("target_proto_addr", 32));
    public static final HeaderType IPV4 = HeaderType.withVarbit("ipv4_h",
            new VarbitLength("options", "ihl", 4, -20, IPV4_MAX_OPTION_BYTES),
            f("version", 4), f("ihl", 4), f("diffserv", 8), f("total_len", 16), f("identification", 16),
            f("flags", 3), f("frag_offset", 13), f("ttl", 8), f("protocol", 8), f("hdr_checksum", 16),
            f("src_addr", 32), f("dst_addr", 32));
    public static final HeaderType IPV6 = HeaderType.of("ipv6_h",
            f("version", 4), f("traffic_class", 8), f("flow_label", 20), f("payload_len", 16), f("next_hdr", 8),
            f("hop_limit", 8), f("src_addr", 128), f("dst_addr", 128));
    /** Hop-by-hop options, routing and destination options: next header, length in 8-byte units after the first 8, data. */
    public static final HeaderType IPV6_EXTENSION = HeaderType.withVarbit("ipv6_ext_h",
            new VarbitLength("data", "hdr_ext_len", 8, 6, IPV6_EXTENSION_MAX_UNITS * 8 + 6),
            f("next_hdr", 8), f("hdr_ext_len", 8));
    public static final HeaderType IPV6_FRAGMENT = HeaderType.of("ipv6_frag_h",
            f("next_hdr", 8), f("reserved", 8), f("frag_offset", 13), f("res", 2), f("more", 1), f("identification", 32));
    public static final HeaderType TCP = HeaderType.withVarbit("tcp_h",
            new VarbitLength("options", "data_offset", 4, -20, TCP_MAX_OPTION_BYTES),
            f("src_port", 16), f("dst_port", 16), f("seq_no", 32), f("ack_no", 32), f("data_offset", 4), f("res", 4),
            f("flags", 8), f("window", 16), f("checksum", 16), f("urgent_ptr", 16));
    public static final HeaderType UDP = HeaderType.of("udp_h",
            f("src_port", 16), f("dst_port", 16), f("length", 16), f("checksum", 16));
    /** ICMP and ICMPv6: type, code, checksum and the 4-byte rest of the header. */
    public static final HeaderType ICMP = HeaderType.of("icmp_h",
            f("type", 8), f("code", 8), f("checksum", 16), f("rest", 32));

    private StandardHeaders() {
    }

    /** Shorthand for a field. */
    static final class F {
        private F() {
        }

        static HeaderField f(String name, int bits) {
            return new HeaderField(name, bits);
        }
    }
}
