// HashPipe (Sivaraman et al., SOSR 2017) as a TNA program: the IR program `hashpipe` with
// key=srcip (the IPv4 source address, the key of the paper's P4 code), count=packets, d = 6
// stages of 1,024 (key, count) slots and the crc32 hash family (stage i's index is a
// reflected CRC-32 with the i-th polynomial of HashPipeConfig.CRC32_POLYS, init and final
// XOR all ones).
//
// The packet's entry (key, 1) is offered to stage 0, which always inserts: a hit adds, a
// miss writes the packet's entry and evicts the resident. A later stage merges on a hit or
// fills an empty slot; on a miss it keeps the larger count and the smaller entry goes on.
// A stateful ALU returns one 32-bit word but an eviction must return the resident's key and
// its count, so every stage holds its table twice, in two pair registers (lo = key,
// hi = count) updated alike: the table's register action returns the evicted key, the
// mirror's the resident count. A stateful ALU's output reaches the PHV when its stage ends,
// so choosing what is carried on (the evicted entry, nothing, or the entry kept out) is a
// gateway between two stateful-ALU stages: 1 + 2 x 6 - 1 = 12 stages, all of tofino1's.
// A key of 0 marks an empty slot, so a source address 0.0.0.0 is counted as 0.0.0.1.
#include <core.p4>
#include <tna.p4>

#define SLOTS 1024
typedef bit<10> slot_t;

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

// The entry offered to a stage (carry_*) and the last stage's stateful-ALU outputs (out_*).
struct metadata_t {
    bit<32> carry_key;
    bit<32> carry_count;
    bit<32> out_key;
    bit<32> out_count;
}
struct empty_t {}

// A slot: the flow key and its count.
struct slot_pair_t {
    bit<32> lo;
    bit<32> hi;
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
        transition parse_ethernet;
    }
    state parse_ethernet {
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

// Stage i's index hash, its table and its mirror.
#define HASHPIPE_TABLE(i, poly) \
    CRCPolynomial<bit<32>>(poly, true, false, false, 0xFFFFFFFF, 0xFFFFFFFF) crc32_p##i; \
    Hash<slot_t>(HashAlgorithm_t.CUSTOM, crc32_p##i) hp_s##i##_index; \
    Register<slot_pair_t, slot_t>(SLOTS) hashpipe_s##i; \
    Register<slot_pair_t, slot_t>(SLOTS) hashpipe_s##i##_mirror;

// Stage 0 always inserts (c0: hit): a hit adds, a miss writes the carried entry. The table's
// action returns the evicted key, the mirror's the evicted count (0: the slot was empty).
#define INSERT_ACTIONS(i) \
    RegisterAction<slot_pair_t, slot_t, bit<32>>(hashpipe_s##i) evict_key_s##i = { \
        void apply(inout slot_pair_t value, out bit<32> rv) { \
            if (value.lo == ig_md.carry_key) { \
                value.hi = value.hi + ig_md.carry_count; \
            } else { \
                rv = value.lo; \
                value.lo = ig_md.carry_key; \
                value.hi = ig_md.carry_count; \
            } \
        } \
    }; \
    RegisterAction<slot_pair_t, slot_t, bit<32>>(hashpipe_s##i##_mirror) evict_count_s##i = { \
        void apply(inout slot_pair_t value, out bit<32> rv) { \
            if (value.lo == ig_md.carry_key) { \
                value.hi = value.hi + ig_md.carry_count; \
            } else { \
                rv = value.hi; \
                value.lo = ig_md.carry_key; \
                value.hi = ig_md.carry_count; \
            } \
        } \
    };

// A later stage merges on a hit (c0) and keeps the larger count on a miss (c1: the resident's
// count is below the carried one; an empty slot has count 0 and is filled, evicting nothing).
// The table's action returns the evicted key only when it evicts (0: the entry was kept out);
// the mirror's returns the resident count on every miss.
#define MERGE_ACTIONS(i) \
    RegisterAction<slot_pair_t, slot_t, bit<32>>(hashpipe_s##i) evict_key_s##i = { \
        void apply(inout slot_pair_t value, out bit<32> rv) { \
            if (value.lo == ig_md.carry_key) { \
                value.hi = value.hi + ig_md.carry_count; \
            } else if (value.hi < ig_md.carry_count) { \
                rv = value.lo; \
                value.lo = ig_md.carry_key; \
                value.hi = ig_md.carry_count; \
            } \
        } \
    }; \
    RegisterAction<slot_pair_t, slot_t, bit<32>>(hashpipe_s##i##_mirror) evict_count_s##i = { \
        void apply(inout slot_pair_t value, out bit<32> rv) { \
            if (value.lo == ig_md.carry_key) { \
                value.hi = value.hi + ig_md.carry_count; \
            } else { \
                rv = value.hi; \
                if (value.hi < ig_md.carry_count) { \
                    value.lo = ig_md.carry_key; \
                    value.hi = ig_md.carry_count; \
                } \
            } \
        } \
    };

// One pass of stage i: both stateful ALUs on the carried entry's slot.
#define HASHPIPE_STAGE(i) \
        ig_md.out_key = evict_key_s##i.execute(hp_s##i##_index.get({ig_md.carry_key})); \
        ig_md.out_count = evict_count_s##i.execute(hp_s##i##_index.get({ig_md.carry_key}));

// After stage 0 a miss always evicts the resident (out_count 0: the slot was empty).
#define CARRY_EVICTED \
        if (ig_md.out_count == 0) { \
            ig_md.carry_key = 0; \
            ig_md.carry_count = 0; \
        } else { \
            ig_md.carry_key = ig_md.out_key; \
            ig_md.carry_count = ig_md.out_count; \
        }
// Later, out_key 0 on a miss means the resident was larger: the carried entry goes on.
#define CARRY_EVICTED_OR_KEPT_OUT \
        if (ig_md.out_count == 0) { \
            ig_md.carry_key = 0; \
            ig_md.carry_count = 0; \
        } else if (ig_md.out_key != 0) { \
            ig_md.carry_key = ig_md.out_key; \
            ig_md.carry_count = ig_md.out_count; \
        }

control SwitchIngress(inout header_t hdr, inout metadata_t ig_md,
                      in ingress_intrinsic_metadata_t ig_intr_md,
                      in ingress_intrinsic_metadata_from_parser_t ig_prsr_md,
                      inout ingress_intrinsic_metadata_for_deparser_t ig_dprsr_md,
                      inout ingress_intrinsic_metadata_for_tm_t ig_tm_md) {
    HASHPIPE_TABLE(0, 0x04C11DB7)
    INSERT_ACTIONS(0)
    HASHPIPE_TABLE(1, 0x1EDC6F41)
    MERGE_ACTIONS(1)
    HASHPIPE_TABLE(2, 0x741B8CD7)
    MERGE_ACTIONS(2)
    HASHPIPE_TABLE(3, 0x32583499)
    MERGE_ACTIONS(3)
    HASHPIPE_TABLE(4, 0x814141AB)
    MERGE_ACTIONS(4)
    HASHPIPE_TABLE(5, 0xA833982B)
    MERGE_ACTIONS(5)

    apply {
        ig_md.carry_key = max(hdr.ipv4.src_addr, 1);
        ig_md.carry_count = 1;
        ig_tm_md.ucast_egress_port = 1;
        HASHPIPE_STAGE(0)
        CARRY_EVICTED
        HASHPIPE_STAGE(1)
        CARRY_EVICTED_OR_KEPT_OUT
        HASHPIPE_STAGE(2)
        CARRY_EVICTED_OR_KEPT_OUT
        HASHPIPE_STAGE(3)
        CARRY_EVICTED_OR_KEPT_OUT
        HASHPIPE_STAGE(4)
        CARRY_EVICTED_OR_KEPT_OUT
        HASHPIPE_STAGE(5)
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
