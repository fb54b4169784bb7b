// A register counter: one 32-bit cell per ingress port counts the port's packets, and a
// hash of the flow's addresses picks a second counter; both through RegisterActions.
#include <core.p4>
#include <tna.p4>

#include "common_headers.p4"

#define COUNTER_CELLS 1024
#define INDEX_BITS 10

struct metadata_t {
    bit<INDEX_BITS> flow_index;
    bit<32> port_count;
}

parser SwitchIngressParser(
        packet_in pkt,
        out header_t hdr,
        out metadata_t ig_md,
        out ingress_intrinsic_metadata_t ig_intr_md) {
    TofinoIngressParser() tofino_parser;

    state start {
        tofino_parser.apply(pkt, ig_intr_md);
        transition parse_ethernet;
    }

    state parse_ethernet {
        pkt.extract(hdr.ethernet);
        transition select(hdr.ethernet.ether_type) {
            ETHERTYPE_IPV4: parse_ipv4;
            default: accept;
        }
    }

    state parse_ipv4 {
        pkt.extract(hdr.ipv4);
        transition accept;
    }
}

control SwitchIngress(
        inout header_t hdr,
        inout metadata_t ig_md,
        in ingress_intrinsic_metadata_t ig_intr_md,
        in ingress_intrinsic_metadata_from_parser_t ig_intr_prsr_md,
        inout ingress_intrinsic_metadata_for_deparser_t ig_intr_dprsr_md,
        inout ingress_intrinsic_metadata_for_tm_t ig_intr_tm_md) {

    Register<bit<32>, PortId_t>(512, 0) port_packets;
    Register<bit<32>, bit<INDEX_BITS>>(COUNTER_CELLS) flow_packets;

    RegisterAction<bit<32>, PortId_t, bit<32>>(port_packets) count_port = {
        void apply(inout bit<32> value, out bit<32> read_value) {
            read_value = value;
            value = value + 1;
        }
    };

    RegisterAction<bit<32>, bit<INDEX_BITS>, bit<32>>(flow_packets) count_flow = {
        void apply(inout bit<32> value) {
            if (value < 32w0xffffffff) {
                value = value |+| 1;
            }
        }
    };

    Hash<bit<INDEX_BITS>>(HashAlgorithm_t.CRC16) flow_hash;
    CRCPolynomial<bit<32>>(32w0x04C11DB7, true, false, false, 32w0xFFFFFFFF, 32w0xFFFFFFFF) crc32c;
    Hash<bit<32>>(HashAlgorithm_t.CUSTOM, crc32c) custom_hash;

    apply {
        ig_md.port_count = count_port.execute(ig_intr_md.ingress_port);
        if (hdr.ipv4.isValid()) {
            ig_md.flow_index = flow_hash.get({hdr.ipv4.src_addr, hdr.ipv4.dst_addr, hdr.ipv4.protocol});
            count_flow.execute(ig_md.flow_index);
        }
        ig_intr_tm_md.ucast_egress_port = ig_intr_md.ingress_port;
    }
}

control SwitchIngressDeparser(
        packet_out pkt,
        inout header_t hdr,
        in metadata_t ig_md,
        in ingress_intrinsic_metadata_for_deparser_t ig_intr_dprsr_md) {
    apply {
        pkt.emit(hdr);
    }
}

Pipeline(SwitchIngressParser(),
         SwitchIngress(),
         SwitchIngressDeparser(),
         EmptyEgressParser(),
         EmptyEgress(),
         EmptyEgressDeparser()) pipe;

Switch(pipe) main;
