// A forwarder with TNA's counters and meters (P4ExternsTest): a per-port Counter, a DirectCounter
// and a DirectMeter on the dmac table, and a byte Meter that drops what it marks RED.
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
    bit<8> color;
    bit<8> entry_color;
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
        transition accept;
    }
}

control SwitchIngress(inout header_t hdr, inout metadata_t ig_md,
                      in ingress_intrinsic_metadata_t ig_intr_md,
                      in ingress_intrinsic_metadata_from_parser_t ig_prsr_md,
                      inout ingress_intrinsic_metadata_for_deparser_t ig_dprsr_md,
                      inout ingress_intrinsic_metadata_for_tm_t ig_tm_md) {
    // bytes and packets per ingress port; per dmac entry; a policer on all traffic
    Counter<bit<32>, PortId_t>(512, CounterType_t.PACKETS_AND_BYTES) port_stats;
    DirectCounter<bit<64>>(CounterType_t.PACKETS_AND_BYTES) dmac_hits;
    DirectMeter(MeterType_t.PACKETS) dmac_rate;
    Meter<bit<2>>(4, MeterType_t.BYTES) police;

    action forward(PortId_t port) {
        ig_tm_md.ucast_egress_port = port;
        dmac_hits.count();
        ig_md.entry_color = dmac_rate.execute();
    }

    action drop() {
        ig_dprsr_md.drop_ctl = 0x1;
        dmac_hits.count();
    }

    table dmac {
        key = { hdr.ethernet.dst_addr : exact; }
        actions = { forward; drop; }
        default_action = drop();
        size = 16;
        counters = dmac_hits;
        meters = dmac_rate;
    }

    apply {
        port_stats.count(ig_intr_md.ingress_port);
        dmac.apply();
        ig_md.color = police.execute(0);
        if (ig_md.color == 3) {
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
