// The parser's forms: port_metadata_unpack, value sets, select on tuples with masks,
// ranges and don't-cares, a sub-parser, header stacks, lookahead, verify, and a table with
// ternary and range keys, const entries with priorities, and switch on action_run.
#include <core.p4>
#include <tna.p4>

#include "common_headers.p4"

@pa_no_overlay("ingress", "ig_md.port_md.tenant")
header port_metadata_h {
    bit<16> tenant;
    bit<48> unused;
}

struct port_metadata_t {
    bit<16> tenant;
    bit<48> unused;
}

header mpls_h {
    bit<20> label;
    bit<3> tc;
    bit<1> bos;
    bit<8> ttl;
}

struct parsed_t {
    ethernet_h ethernet;
    vlan_tag_h[2] vlan;
    mpls_h[4] mpls;
    ipv4_h ipv4;
    tcp_h tcp;
    udp_h udp;
}

struct metadata_t {
    port_metadata_t port_md;
    bit<8> class;
    bit<16> l4_lookahead;
}

enum bit<8> Class_t {
    NONE = 0,
    WEB = 1,
    DNS = 2
}

parser SwitchIngressParser(
        packet_in pkt,
        out parsed_t hdr,
        out metadata_t ig_md,
        out ingress_intrinsic_metadata_t ig_intr_md) {
    value_set<bit<16>>(4) tunnel_ports;
    value_set<tuple<bit<16>, bit<8>>>(8) special;

    state start {
        pkt.extract(ig_intr_md);
        ig_md.port_md = port_metadata_unpack<port_metadata_t>(pkt);
        transition parse_ethernet;
    }

    state parse_ethernet {
        pkt.extract(hdr.ethernet);
        transition select(hdr.ethernet.ether_type, hdr.ethernet.dst_addr[47:40]) {
            (ETHERTYPE_VLAN, _) : parse_vlan;
            (0x8847, 8w0x01 &&& 8w0x01) : parse_mpls;
            (ETHERTYPE_IPV4, default) : parse_ipv4;
            (0x0600 .. 0x06ff, _) : reject;
            default : accept;
        }
    }

    state parse_vlan {
        pkt.extract(hdr.vlan.next);
        transition select(hdr.vlan.last.ether_type) {
            ETHERTYPE_VLAN : parse_vlan;
            ETHERTYPE_IPV4 : parse_ipv4;
            default : accept;
        }
    }

    state parse_mpls {
        pkt.extract(hdr.mpls.next);
        transition select(hdr.mpls.last.bos) {
            0 : parse_mpls;
            1 : accept;
        }
    }

    state parse_ipv4 {
        pkt.extract(hdr.ipv4);
        verify(hdr.ipv4.ihl >= 5, error.HeaderTooShort);
        transition select(hdr.ipv4.frag_offset, hdr.ipv4.protocol) {
            (0, IP_PROTO_TCP) : parse_tcp;
            (0, IP_PROTO_UDP) : parse_udp;
            default : accept;
        }
    }

    state parse_tcp {
        ig_md.l4_lookahead = pkt.lookahead<bit<16>>();
        pkt.extract(hdr.tcp);
        transition select(hdr.tcp.dst_port) {
            tunnel_ports : accept;
            0 .. 1023 : accept;
            default : accept;
        }
    }

    state parse_udp {
        pkt.extract(hdr.udp);
        transition select(hdr.udp.dst_port, hdr.ipv4.protocol) {
            special : accept;
            default : accept;
        }
    }
}

control SwitchIngress(
        inout parsed_t hdr,
        inout metadata_t ig_md,
        in ingress_intrinsic_metadata_t ig_intr_md,
        in ingress_intrinsic_metadata_from_parser_t ig_intr_prsr_md,
        inout ingress_intrinsic_metadata_for_deparser_t ig_intr_dprsr_md,
        inout ingress_intrinsic_metadata_for_tm_t ig_intr_tm_md) {

    action set_class(bit<8> c) {
        ig_md.class = c;
    }

    action to_port(PortId_t port) {
        ig_intr_tm_md.ucast_egress_port = port;
    }

    @pragma stage 1
    table classify {
        key = {
            hdr.ipv4.protocol : ternary;
            hdr.tcp.dst_port : range @name("port");
            hdr.ipv4.dst_addr[31:24] : exact;
        }
        actions = { set_class; NoAction; }
        const entries = {
            priority = 10: (IP_PROTO_TCP, 80 .. 80, _) : set_class((bit<8>) Class_t.WEB);
            (IP_PROTO_UDP &&& 0xff, 53 .. 53, 10) : set_class(8w2);
            (_, _, _) : NoAction();
        }
        default_action = NoAction;
        size = 64;
    }

    table steer {
        key = { ig_md.class : exact; }
        actions = { to_port; @defaultonly NoAction; }
        size = 8;
    }

    apply {
        switch (classify.apply().action_run) {
            set_class: {
                if (steer.apply().miss) {
                    ig_intr_dprsr_md.drop_ctl = 1;
                }
            }
            NoAction: {}
            default: {
                exit;
            }
        }
        if (ig_md.port_md.tenant == 0)
            if (hdr.ipv4.isValid())
                hdr.ipv4.ttl = hdr.ipv4.ttl - 1;
            else
                hdr.ethernet.setInvalid();
        bit<16> shifted = (bit<16>) ig_md.class << 8 >> 2;
        ig_md.l4_lookahead = shifted ++ 8w0 == 24w0 ? 16w1 : 16w0;
    }
}

control SwitchIngressDeparser(
        packet_out pkt,
        inout parsed_t hdr,
        in metadata_t ig_md,
        in ingress_intrinsic_metadata_for_deparser_t ig_intr_dprsr_md) {
    apply {
        pkt.emit(hdr);
    }
}

Pipeline(SwitchIngressParser(),
         SwitchIngress(),
         SwitchIngressDeparser(),
         EmptyEgressParser(),
         EmptyEgress(),
         EmptyEgressDeparser()) pipe;

Switch(pipe) main;
