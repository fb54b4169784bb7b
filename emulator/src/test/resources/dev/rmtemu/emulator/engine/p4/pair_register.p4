// A pair register (a struct of two words: lo = packets, hi = bytes) updated by one
// RegisterAction, which reads two PHV fields (its lo and hi inputs) and returns the new hi
// word: every IPv4 frame leaves on port 2 with the bytes counted so far (its own included)
// as its destination address; the lo word counts the packets.
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
    bit<32> step;
    bit<32> bytes;
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
    Register<pair_t, bit<1>>(1) totals;
    RegisterAction<pair_t, bit<1>, bit<32>>(totals) count = {
        void apply(inout pair_t value, out bit<32> rv) {
            value.packets = value.packets + ig_md.step;
            value.bytes = value.bytes + ig_md.length;
            rv = value.bytes;
        }
    };

    apply {
        if (hdr.ipv4.isValid()) {
            ig_md.length = (bit<32>) hdr.ipv4.total_len;
            ig_md.step = 1;
            ig_md.bytes = count.execute(0);
            hdr.ipv4.dst_addr = ig_md.bytes;
            ig_tm_md.ucast_egress_port = 2;
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
