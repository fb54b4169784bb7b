// A DirectRegister of pair cells (lo = packets, hi = bytes) on table flows: each entry's
// action runs the DirectRegisterAction on the entry's own cell (no index) and forwards; a miss
// runs the default action unknown(), which counts in the miss entry's cell and sends the
// frame to port 9. Every IPv4 frame leaves with its flow's packet count so far (its own
// included) as its destination address.
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

struct pair_t {
    bit<32> packets;
    bit<32> bytes;
}

struct metadata_t {
    bit<32> length;
    bit<32> count;
}

parser TofinoIngressParser(packet_in pkt, out ingress_intrinsic_metadata_t ig_intr_md) {
    state start {
        pkt.extract(ig_intr_md);
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
        transition select(hdr.ethernet.ether_type) {
            0x0800 : parse_ipv4;
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
    DirectRegister<pair_t>() flow_totals;
    DirectRegisterAction<pair_t, bit<32>>(flow_totals) count_flow = {
        void apply(inout pair_t value, out bit<32> rv) {
            value.packets = value.packets + 1;
            value.bytes = value.bytes + ig_md.length;
            rv = value.packets;
        }
    };

    action forward(PortId_t port) {
        ig_md.count = count_flow.execute();
        ig_tm_md.ucast_egress_port = port;
    }

    action unknown() {
        ig_md.count = count_flow.execute();
        ig_tm_md.ucast_egress_port = 9;
    }

    table flows {
        key = { hdr.ethernet.src_addr : exact; }
        actions = { forward; unknown; }
        default_action = unknown();
        size = 4096;
        registers = flow_totals;
    }

    apply {
        if (hdr.ipv4.isValid()) {
            ig_md.length = (bit<32>) hdr.ipv4.total_len;
            flows.apply();
            hdr.ipv4.dst_addr = ig_md.count;
        }
    }
}
control SwitchIngressDeparser(packet_out pkt, inout header_t hdr, in metadata_t ig_md,
                              in ingress_intrinsic_metadata_for_deparser_t ig_dprsr_md) {
    apply {
        pkt.emit(hdr);
    }
}

struct empty_t {}

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
