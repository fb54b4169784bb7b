// The packet generator's timer and port-down applications (PktgenTest): packets from the
// generator port (68, TNA's number for pipe 0's; rmtemu's 448) carry TNA's pktgen header, which
// the parser extracts (and ingress checks the port); ingress copies its app, batch/port and packet ids into the frame's
// last bytes and sends it to port 5; trace frames go to port 1.
#include <core.p4>
#include <tna.p4>

header ethernet_h {
    bit<48> dst_addr;
    bit<48> src_addr;
    bit<16> ether_type;
}

header ids_h {
    bit<8> app_id;
    bit<16> batch_or_port;
    bit<16> packet_id;
}

struct header_t {
    pktgen_timer_header_t timer;
    ethernet_h ethernet;
    ids_h ids;
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
        // the first byte of a generated packet is pipe_id << 3 | app_id (apps 2 and 3 here); rmtemu's
        // parser lowering selects on header bits and lookahead, not yet on ig_intr_md.ingress_port
        transition select(pkt.lookahead<bit<8>>()) {
            2 : parse_pktgen;
            3 : parse_pktgen;
            default : parse_ethernet;
        }
    }
    state parse_pktgen {
        pkt.extract(hdr.timer);
        transition parse_ethernet;
    }
    state parse_ethernet {
        pkt.extract(hdr.ethernet);
        pkt.extract(hdr.ids);
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
        if (hdr.timer.isValid() && ig_intr_md.ingress_port == 68) {
            ig_tm_md.ucast_egress_port = 5;
            hdr.ids.app_id = (bit<8>) hdr.timer.app_id;
            hdr.ids.batch_or_port = hdr.timer.batch_id;
            hdr.ids.packet_id = hdr.timer.packet_id;
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
