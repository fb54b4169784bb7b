// Every frame leaves on port 1 and is mirrored by the egress deparser (egress to egress,
// mirror_type 1) to session 6 behind a one-byte mirror header 0xcd (MirrorCaptureTest); the copies
// run egress on port 3, where egress mirrors nothing.
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

struct metadata_t {
    MirrorId_t session;
    bit<8> pkt_type;
}

header mirror_h {
    bit<8> pkt_type;
}

struct empty_t {}

struct egress_metadata_t {
    MirrorId_t session;
    bit<8> pkt_type;
}

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
        pkt.extract(hdr.ethernet);
        transition accept;
    }
}

control SwitchIngress(inout header_t hdr, inout metadata_t ig_md,
                      in ingress_intrinsic_metadata_t ig_intr_md,
                      in ingress_intrinsic_metadata_from_parser_t ig_prsr_md,
                      inout ingress_intrinsic_metadata_for_deparser_t ig_dprsr_md,
                      inout ingress_intrinsic_metadata_for_tm_t ig_tm_md) {
    apply {
        ig_tm_md.ucast_egress_port = 1;
    }
}

control SwitchIngressDeparser(packet_out pkt, inout header_t hdr, in metadata_t ig_md,
                              in ingress_intrinsic_metadata_for_deparser_t ig_dprsr_md) {
    apply {
        pkt.emit(hdr);
    }
}

parser EmptyEgressParser(packet_in pkt, out empty_t hdr, out egress_metadata_t eg_md,
                         out egress_intrinsic_metadata_t eg_intr_md) {
    state start {
        transition accept;
    }
}

control MirroringEgress(inout empty_t hdr, inout egress_metadata_t eg_md,
                    in egress_intrinsic_metadata_t eg_intr_md,
                    in egress_intrinsic_metadata_from_parser_t eg_prsr_md,
                    inout egress_intrinsic_metadata_for_deparser_t eg_dprsr_md,
                    inout egress_intrinsic_metadata_for_output_port_t eg_oport_md) {
    apply {
        // the copies run egress too (on their session's port, 3): mirror only what leaves port 1
        if (eg_intr_md.egress_port == 1) {
            eg_dprsr_md.mirror_type = 1;
            eg_md.session = 6;
            eg_md.pkt_type = 0xcd;
        }
    }
}

control MirroringEgressDeparser(packet_out pkt, inout empty_t hdr, in egress_metadata_t eg_md,
                                in egress_intrinsic_metadata_for_deparser_t eg_dprsr_md) {
    Mirror() mirror;

    apply {
        if (eg_dprsr_md.mirror_type == 1) {
            mirror.emit<mirror_h>(eg_md.session, {eg_md.pkt_type});
        }
    }
}

Pipeline(SwitchIngressParser(), SwitchIngress(), SwitchIngressDeparser(),
         EmptyEgressParser(), MirroringEgress(), MirroringEgressDeparser()) pipe;

Switch(pipe) main;
