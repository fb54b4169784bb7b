// Every frame is resubmitted once (resubmit_type 1, a 64-bit header carrying a tag). The first
// pass rewrites ether_type to 0x1111 and sets a metadata mark; neither reaches the second pass,
// which re-parses the original bytes (the ingress deparser does not run for a resubmitted
// packet). The parser accepts a frame only when its ether_type is in the value set
// accepted_types (pvs_add); any other frame is rejected. On the second pass, a frame that
// still shows its original ether_type 0x88B5 and no mark leaves on port 1 with src_addr set to
// ingress_mac_tstamp and dst_addr to the tag; any other leaves on port 2
// (ResubmitReparseTest).
#include <core.p4>
#include <tna.p4>

header ethernet_h {
    bit<48> dst_addr;
    bit<48> src_addr;
    bit<16> ether_type;
}

struct header_t {
    ethernet_h ethernet;
}

// Tofino 1's resubmit header: 64 bits, in place of the port metadata
header resub_h {
    bit<16> tag;
    bit<48> pad;
}

struct metadata_t {
    resub_h resub_out;
    resub_h resub_in;
    bit<8> mark;
}

struct empty_t {}

parser TofinoIngressParser(packet_in pkt, inout metadata_t ig_md, out ingress_intrinsic_metadata_t ig_intr_md) {
    state start {
        pkt.extract(ig_intr_md);
        transition select(ig_intr_md.resubmit_flag) {
            1 : parse_resubmit;
            0 : parse_port_metadata;
        }
    }
    state parse_resubmit {
        pkt.extract(ig_md.resub_in);
        transition accept;
    }
    state parse_port_metadata {
        pkt.advance(PORT_METADATA_SIZE);
        transition accept;
    }
}

parser SwitchIngressParser(packet_in pkt, out header_t hdr, out metadata_t ig_md,
                           out ingress_intrinsic_metadata_t ig_intr_md) {
    TofinoIngressParser() tofino_parser;
    value_set<bit<16>>(4) accepted_types;

    state start {
        tofino_parser.apply(pkt, ig_md, ig_intr_md);
        pkt.extract(hdr.ethernet);
        transition select(hdr.ethernet.ether_type) {
            accepted_types : accept;
            default : reject;
        }
    }
}

control SwitchIngress(inout header_t hdr, inout metadata_t ig_md,
                      in ingress_intrinsic_metadata_t ig_intr_md,
                      in ingress_intrinsic_metadata_from_parser_t ig_prsr_md,
                      inout ingress_intrinsic_metadata_for_deparser_t ig_dprsr_md,
                      inout ingress_intrinsic_metadata_for_tm_t ig_tm_md) {
    apply {
        if (ig_intr_md.resubmit_flag == 0) {
            ig_md.resub_out.tag = hdr.ethernet.src_addr[15:0];
            hdr.ethernet.ether_type = 0x1111;
            ig_md.mark = 0xAB;
            ig_dprsr_md.resubmit_type = 1;
        } else if (hdr.ethernet.ether_type == 0x88B5 && ig_md.mark == 0) {
            hdr.ethernet.src_addr = ig_intr_md.ingress_mac_tstamp;
            hdr.ethernet.dst_addr = (bit<48>) ig_md.resub_in.tag;
            ig_tm_md.ucast_egress_port = 1;
        } else {
            ig_tm_md.ucast_egress_port = 2;
        }
    }
}

control SwitchIngressDeparser(packet_out pkt, inout header_t hdr, in metadata_t ig_md,
                              in ingress_intrinsic_metadata_for_deparser_t ig_dprsr_md) {
    Resubmit() resubmit;

    apply {
        if (ig_dprsr_md.resubmit_type == 1) {
            resubmit.emit(ig_md.resub_out);
        }
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
