// TNA's port numbers (P4PortNumbersTest): ingress writes the ingress port it sees into the frame
// and forwards by the pipe in its bits 8:7 (ingress_port >> 7): a packet of pipe 1 goes to port
// 130 (pipe 1's port 2), any other to the port in the low 9 bits of its destination address;
// egress writes the egress port it sees.
#include <core.p4>
#include <tna.p4>

header ethernet_h {
    bit<48> dst_addr;
    bit<48> src_addr;
    bit<16> ether_type;
}

header ports_h {
    bit<16> ingress;
    bit<16> egress;
}

struct header_t {
    ethernet_h ethernet;
    ports_h ports;
}

struct metadata_t {
    bit<2> pipe;
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
        pkt.extract(hdr.ports);
        transition accept;
    }
}

control SwitchIngress(inout header_t hdr, inout metadata_t ig_md,
                      in ingress_intrinsic_metadata_t ig_intr_md,
                      in ingress_intrinsic_metadata_from_parser_t ig_prsr_md,
                      inout ingress_intrinsic_metadata_for_deparser_t ig_dprsr_md,
                      inout ingress_intrinsic_metadata_for_tm_t ig_tm_md) {
    apply {
        hdr.ports.ingress = (bit<16>) ig_intr_md.ingress_port;
        ig_md.pipe = (bit<2>) (ig_intr_md.ingress_port >> 7);
        if (ig_md.pipe == 1) {
            ig_tm_md.ucast_egress_port = 130;
        } else {
            ig_tm_md.ucast_egress_port = (PortId_t) hdr.ethernet.dst_addr[8:0];
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

    state start {
        tofino_parser.apply(pkt, eg_intr_md);
        pkt.extract(hdr.ethernet);
        pkt.extract(hdr.ports);
        transition accept;
    }
}

control SwitchEgress(inout header_t hdr, inout metadata_t eg_md,
                     in egress_intrinsic_metadata_t eg_intr_md,
                     in egress_intrinsic_metadata_from_parser_t eg_prsr_md,
                     inout egress_intrinsic_metadata_for_deparser_t eg_dprsr_md,
                     inout egress_intrinsic_metadata_for_output_port_t eg_oport_md) {
    apply {
        hdr.ports.egress = (bit<16>) eg_intr_md.egress_port;
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
