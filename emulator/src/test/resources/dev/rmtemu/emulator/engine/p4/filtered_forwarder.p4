// A forwarder with TNA's low-pass filter and WRED (P4FiltersTest): an Lpf averages each frame's
// sample.value and writes the average into sample.filtered; a DirectWred on the dmac table drops
// the frames its RED decides on sample.depth.
#include <core.p4>
#include <tna.p4>

header ethernet_h {
    bit<48> dst_addr;
    bit<48> src_addr;
    bit<16> ether_type;
}

header sample_h {
    bit<16> value;
    bit<16> filtered;
    bit<16> depth;
}

struct header_t {
    ethernet_h ethernet;
    sample_h sample;
}

struct metadata_t {
    bit<8> mark;
}
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
        pkt.extract(hdr.ethernet);
        pkt.extract(hdr.sample);
        transition accept;
    }
}

control SwitchIngress(inout header_t hdr, inout metadata_t ig_md,
                      in ingress_intrinsic_metadata_t ig_intr_md,
                      in ingress_intrinsic_metadata_from_parser_t ig_prsr_md,
                      inout ingress_intrinsic_metadata_for_deparser_t ig_dprsr_md,
                      inout ingress_intrinsic_metadata_for_tm_t ig_tm_md) {
    Lpf<bit<16>, bit<1>>(2) average;
    DirectWred<bit<16>>(8w1, 8w0) early_drop;

    action forward(PortId_t port) {
        ig_tm_md.ucast_egress_port = port;
        ig_md.mark = early_drop.execute(hdr.sample.depth);
    }

    action drop() {
        ig_dprsr_md.drop_ctl = 0x1;
    }

    table dmac {
        key = { hdr.ethernet.dst_addr : exact; }
        actions = { forward; drop; }
        default_action = drop();
        size = 16;
        filters = early_drop;
    }

    apply {
        hdr.sample.filtered = average.execute(hdr.sample.value, 0);
        dmac.apply();
        if (ig_md.mark == 1) {
            ig_dprsr_md.drop_ctl = 0x1;
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
