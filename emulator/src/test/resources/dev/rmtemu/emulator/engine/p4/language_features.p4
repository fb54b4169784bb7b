// The language features of P4LanguageTest, each with what it does to a frame:
// - a value set in the parser: EtherType 0x0800, or any the control plane adds to
//   special_types (pvs_add), is followed by an IPv4 header; any other frame leaves on port 0;
// - const entries: UDP (17) leaves on port 3, TCP (6) on port 4 (by an action that exits);
//   any other protocol has no egress port and is dropped;
// - a local variable: ttl_left = ttl - 1 is written back as the TTL (not for TCP: exited);
// - a CUSTOM hash: CRC-16/CCITT-FALSE of the source address, from its CRCPolynomial, goes into
//   the IPv4 header checksum field of every IPv4 frame;
// - drop_ctl: a TTL of 1 drops (bit 0), diffserv 1 cancels that drop with a later write of 0,
//   diffserv 2 writes only bit 1 (no drop);
// - egress: the egress port goes into the source MAC's low bits and the packet's length into
//   the IPv4 identification; diffserv 3 bypasses egress (frame left as ingress deparsed it);
//   diffserv 4 is dropped by egress's drop_ctl.
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

struct header_t {
    ethernet_h ethernet;
    ipv4_h ipv4;
}

struct metadata_t {}

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
    value_set<bit<16>>(4) special_types;

    state start {
        tofino_parser.apply(pkt, ig_intr_md);
        transition parse_ethernet;
    }
    state parse_ethernet {
        pkt.extract(hdr.ethernet);
        transition select(hdr.ethernet.ether_type) {
            0x0800 : parse_ipv4;
            special_types : parse_ipv4;
            default : accept;
        }
    }
    state parse_ipv4 {
        pkt.extract(hdr.ipv4);
        transition accept;
    }
}

control SwitchIngress(inout header_t hdr, inout metadata_t ig_md,
                      in ingress_intrinsic_metadata_t ig_intr_md,
                      in ingress_intrinsic_metadata_from_parser_t ig_prsr_md,
                      inout ingress_intrinsic_metadata_for_deparser_t ig_dprsr_md,
                      inout ingress_intrinsic_metadata_for_tm_t ig_tm_md) {
    CRCPolynomial<bit<16>>(16w0x1021, false, false, false, 16w0xffff, 16w0x0000) ccitt;
    Hash<bit<16>>(HashAlgorithm_t.CUSTOM, ccitt) source_hash;

    action set_port(PortId_t port) {
        ig_tm_md.ucast_egress_port = port;
    }

    action set_port_and_exit(PortId_t port) {
        ig_tm_md.ucast_egress_port = port;
        exit;
    }

    table by_protocol {
        key = { hdr.ipv4.protocol : exact; }
        actions = { set_port; set_port_and_exit; NoAction; }
        const entries = {
            17 : set_port(3);
            6 : set_port_and_exit(4);
        }
        default_action = NoAction;
    }

    apply {
        if (!hdr.ipv4.isValid()) {
            ig_tm_md.ucast_egress_port = 0;
            exit;
        }
        hdr.ipv4.hdr_checksum = source_hash.get({hdr.ipv4.src_addr});
        bit<8> ttl_left = hdr.ipv4.ttl - 1;
        by_protocol.apply();
        hdr.ipv4.ttl = ttl_left;
        if (ttl_left == 0) {
            ig_dprsr_md.drop_ctl = 1;
        }
        if (hdr.ipv4.diffserv == 1) {
            ig_dprsr_md.drop_ctl = 0;
        }
        if (hdr.ipv4.diffserv == 2) {
            ig_dprsr_md.drop_ctl = 2;
        }
        if (hdr.ipv4.diffserv == 3) {
            ig_tm_md.bypass_egress = 1;
        }
    }
}

control SwitchIngressDeparser(packet_out pkt, inout header_t hdr, in metadata_t ig_md,
                              in ingress_intrinsic_metadata_for_deparser_t ig_dprsr_md) {
    apply {
        pkt.emit(hdr);
    }
}

parser TofinoEgressParser(packet_in pkt, out egress_intrinsic_metadata_t eg_intr_md) {
    state start {
        pkt.extract(eg_intr_md);
        transition accept;
    }
}

parser SwitchEgressParser(packet_in pkt, out header_t hdr, out metadata_t eg_md,
                          out egress_intrinsic_metadata_t eg_intr_md) {
    TofinoEgressParser() tofino_parser;
    value_set<bit<16>>(4) special_types;

    state start {
        tofino_parser.apply(pkt, eg_intr_md);
        transition parse_ethernet;
    }
    state parse_ethernet {
        pkt.extract(hdr.ethernet);
        transition select(hdr.ethernet.ether_type) {
            0x0800 : parse_ipv4;
            special_types : parse_ipv4;
            default : accept;
        }
    }
    state parse_ipv4 {
        pkt.extract(hdr.ipv4);
        transition accept;
    }
}

control SwitchEgress(inout header_t hdr, inout metadata_t eg_md,
                     in egress_intrinsic_metadata_t eg_intr_md,
                     in egress_intrinsic_metadata_from_parser_t eg_prsr_md,
                     inout egress_intrinsic_metadata_for_deparser_t eg_dprsr_md,
                     inout egress_intrinsic_metadata_for_output_port_t eg_oport_md) {
    apply {
        if (hdr.ipv4.isValid()) {
            hdr.ethernet.src_addr = (bit<48>) eg_intr_md.egress_port;
            hdr.ipv4.identification = eg_intr_md.pkt_length;
            if (hdr.ipv4.diffserv == 4) {
                eg_dprsr_md.drop_ctl = 1;
            }
        }
    }
}

control SwitchEgressDeparser(packet_out pkt, inout header_t hdr, in metadata_t eg_md,
                             in egress_intrinsic_metadata_for_deparser_t eg_dprsr_md) {
    apply {
        pkt.emit(hdr);
    }
}

Pipeline(SwitchIngressParser(), SwitchIngress(), SwitchIngressDeparser(),
         SwitchEgressParser(), SwitchEgress(), SwitchEgressDeparser()) pipe;

Switch(pipe) main;
