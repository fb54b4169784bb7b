// l2fwd (the IR program of pipeline-model's examples, L2FwdProgram) as a TNA program: one
// exact-match table keyed on the destination MAC whose action writes the egress port; a
// miss drops the frame (drop_ctl = 1). Entries come from the control plane:
//     table_add l2_fwd forward 02:00:0a:00:00:02 => 3
// A DirectCounter counts each entry's forwarded packets and bytes (its cell is the entry's
// handle; a miss, which drops, is not counted):
//     counter_read l2_fwd_hits HANDLE
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
        transition accept;
    }
}

control SwitchIngress(inout header_t hdr, inout metadata_t ig_md,
                      in ingress_intrinsic_metadata_t ig_intr_md,
                      in ingress_intrinsic_metadata_from_parser_t ig_prsr_md,
                      inout ingress_intrinsic_metadata_for_deparser_t ig_dprsr_md,
                      inout ingress_intrinsic_metadata_for_tm_t ig_tm_md) {
    DirectCounter<bit<64>>(CounterType_t.PACKETS_AND_BYTES) l2_fwd_hits;

    action forward(PortId_t port) {
        ig_tm_md.ucast_egress_port = port;
        l2_fwd_hits.count();
    }

    action drop() {
        ig_dprsr_md.drop_ctl = 0x1;
    }

    table l2_fwd {
        key = { hdr.ethernet.dst_addr : exact; }
        actions = { forward; drop; }
        default_action = drop();
        size = 4096;
        counters = l2_fwd_hits;
    }

    apply {
        l2_fwd.apply();
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
