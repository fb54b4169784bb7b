// Table entries fixed by the program (P4_16 14.2.1.4) and tables whose keys mix match kinds.
// The IPv4 DSCP byte (diffserv) picks the table a TCP frame meets:
//   1: route      - lpm const entries: the longest prefix wins, whatever the order;
//   2: by_length  - range const entries: the earlier entry wins where ranges overlap;
//   3: acl        - exact protocol + range destination port + ternary source address, const,
//                   in order (an ACL: ssh from 10/8 passes, other well-known ports drop);
//   4: acl_cp     - exact + lpm + range, entries from the control plane with priorities;
//   5: vrf_route  - exact ttl + lpm destination, entries from the control plane, longest prefix.
// A frame no entry sends anywhere is dropped (no egress port written). Frames leave unchanged.
#include <core.p4>
#include <tna.p4>

header ethernet_h {
    bit<48> dst_addr;
    bit<48> src_addr;
    bit<16> ether_type;
}

header ipv4_h {
    bit<4> version;
    bit<4> ihl;
    bit<8> diffserv;
    bit<16> total_len;
    bit<16> identification;
    bit<3> flags;
    bit<13> frag_offset;
    bit<8> ttl;
    bit<8> protocol;
    bit<16> hdr_checksum;
    bit<32> src_addr;
    bit<32> dst_addr;
}

header tcp_h {
    bit<16> src_port;
    bit<16> dst_port;
    bit<32> seq_no;
    bit<32> ack_no;
    bit<4> data_offset;
    bit<4> res;
    bit<8> flags;
    bit<16> window;
    bit<16> checksum;
    bit<16> urgent_ptr;
}

struct header_t {
    ethernet_h ethernet;
    ipv4_h ipv4;
    tcp_h tcp;
}

struct metadata_t {}
struct empty_t {}

parser TofinoIngressParser(packet_in pkt, out ingress_intrinsic_metadata_t ig_intr_md) {
    state start {
        pkt.extract(ig_intr_md);
        transition select(ig_intr_md.resubmit_flag) {
            1 : parse_resubmit;
            0 : parse_port_metadata;
        }
    }
    state parse_resubmit {
        transition reject;
    }
    state parse_port_metadata {
        pkt.advance(PORT_METADATA_SIZE);
        transition accept;
    }
}

parser SwitchIngressParser(packet_in pkt, out header_t hdr, out metadata_t ig_md,
                           out ingress_intrinsic_metadata_t ig_intr_md) {
    TofinoIngressParser() tofino_parser;

    state start {
        tofino_parser.apply(pkt, ig_intr_md);
        transition parse_ethernet;
    }
    state parse_ethernet {
        pkt.extract(hdr.ethernet);
        transition select(hdr.ethernet.ether_type) {
            0x0800 : parse_ipv4;
            default : accept;
        }
    }
    state parse_ipv4 {
        pkt.extract(hdr.ipv4);
        transition select(hdr.ipv4.protocol) {
            6 : parse_tcp;
            default : accept;
        }
    }
    state parse_tcp {
        pkt.extract(hdr.tcp);
        transition accept;
    }
}

control SwitchIngress(inout header_t hdr, inout metadata_t ig_md,
                      in ingress_intrinsic_metadata_t ig_intr_md,
                      in ingress_intrinsic_metadata_from_parser_t ig_prsr_md,
                      inout ingress_intrinsic_metadata_for_deparser_t ig_dprsr_md,
                      inout ingress_intrinsic_metadata_for_tm_t ig_tm_md) {
    action to_port(PortId_t port) {
        ig_tm_md.ucast_egress_port = port;
    }
    action deny() {
        ig_dprsr_md.drop_ctl = 1;
    }

    table route {
        key = { hdr.ipv4.dst_addr : lpm; }
        actions = { to_port; NoAction; }
        const entries = {
            0x0A000000 &&& 0xFF000000 : to_port(1);   // 10.0.0.0/8
            0x0A010000 &&& 0xFFFF0000 : to_port(2);   // 10.1.0.0/16
            0x0A010200 &&& 0xFFFFFF00 : to_port(3);   // 10.1.2.0/24
            0x0A010205 : to_port(4);                  // 10.1.2.5/32
            _ : to_port(5);                           // 0.0.0.0/0
        }
    }

    table by_length {
        key = { hdr.ipv4.total_len : range; }
        actions = { to_port; NoAction; }
        const entries = {
            100 .. 199 : to_port(6);
            0 .. 1499 : to_port(7);
            150 .. 160 : to_port(8);                  // inside the first: never wins
            1500 : to_port(9);
        }
        size = 64;
    }

    table acl {
        key = {
            hdr.ipv4.protocol : exact;
            hdr.tcp.dst_port : range;
            hdr.ipv4.src_addr : ternary;
        }
        actions = { to_port; deny; }
        const entries = {
            (17, _, _) : to_port(13);                 // UDP: no TCP frame is one
            (6, 22, 0x0A000000 &&& 0xFF000000) : to_port(10);
            (6, 0 .. 1023, _) : deny();
            (6, _, _) : to_port(12);
        }
        size = 200;
    }

    table acl_cp {
        key = {
            hdr.ipv4.protocol : exact;
            hdr.ipv4.src_addr : lpm;
            hdr.tcp.dst_port : range;
        }
        actions = { to_port; deny; }
        size = 64;
    }

    table vrf_route {
        key = {
            hdr.ipv4.ttl : exact;
            hdr.ipv4.dst_addr : lpm;
        }
        actions = { to_port; NoAction; }
        size = 64;
    }

    apply {
        if (hdr.tcp.isValid()) {
            if (hdr.ipv4.diffserv == 1) {
                route.apply();
            }
            if (hdr.ipv4.diffserv == 2) {
                by_length.apply();
            }
            if (hdr.ipv4.diffserv == 3) {
                acl.apply();
            }
            if (hdr.ipv4.diffserv == 4) {
                acl_cp.apply();
            }
            if (hdr.ipv4.diffserv == 5) {
                vrf_route.apply();
            }
        }
    }
}

control SwitchIngressDeparser(packet_out pkt, inout header_t hdr, in metadata_t ig_md,
                              in ingress_intrinsic_metadata_for_deparser_t ig_dprsr_md) {
    apply {
        pkt.emit(hdr);
    }
}

parser EmptyEgressParser(packet_in pkt, out empty_t hdr, out empty_t eg_md,
                         out egress_intrinsic_metadata_t eg_intr_md) {
    state start {
        transition accept;
    }
}

control EmptyEgress(inout empty_t hdr, inout empty_t eg_md,
                    in egress_intrinsic_metadata_t eg_intr_md,
                    in egress_intrinsic_metadata_from_parser_t eg_prsr_md,
                    inout egress_intrinsic_metadata_for_deparser_t eg_dprsr_md,
                    inout egress_intrinsic_metadata_for_output_port_t eg_oport_md) {
    apply {}
}

control EmptyEgressDeparser(packet_out pkt, inout empty_t hdr, in empty_t eg_md,
                            in egress_intrinsic_metadata_for_deparser_t eg_dprsr_md) {
    apply {}
}

Pipeline(SwitchIngressParser(), SwitchIngress(), SwitchIngressDeparser(),
         EmptyEgressParser(), EmptyEgress(), EmptyEgressDeparser()) pipe;

Switch(pipe) main;
