// LossRadar (Li et al., CoNEXT 2016) as a TNA program: the IR program `lossradar` with its
// defaults (both meters on one switch; k = 3 hash functions, 96 cells per digest, so m = 32
// cells per hash; 4 metered ports; batches of 2^23 ns; every packet sent to port 1; an ACL
// of 64 ternary entries on the IPv4 destination and protocol).
//
// A packet's signature is four 32-bit words: source, destination, the L4 ports, and the
// protocol, IP ID and a flags byte (the TTL bit and SYN flag options, off here, so 0). Each
// meter keeps an invertible Bloom filter per (batch slot, port): k sub-tables of m cells,
// each cell an xorSum of four words and a count, one 32-bit register array per word, with a
// stateful ALU each (xor, add). A cell's address in an array is
//   batch slot (the batch ID's low bit) << 7 | port << 5 | CRC-32 of the signature (5 bits),
// built by shifts and ORs one VLIW operation per stage. Hash j is a reflected CRC-32 with the
// j-th polynomial of SignatureHash (CRC-32, CRC-32C, CRC-32K), init and final XOR all ones.
//
// Downstream (DM, first, on packets from ports 0..3, ACL drops included): the packet is
// filed under the batch the previous hop's UM carried in the shim header lossradar_h
// (EtherType 0x88B5 after Ethernet); per (slot, port) the pair array lr_dm_batch keeps the
// batch's first packet time (+1, in 2^10 ns units) and ID for the control plane to close it.
// Upstream (UM, last, on packets the ACL lets pass): the batch ID is the ingress timestamp's
// bits 38:23; it goes into the shim header (added when the packet came without one) after
// the DM read the carried one, and the packet is filed under egress port 1.
//
// The ports of the signature are those of TCP and UDP (l4_ports_h, the first four bytes of
// either); the IR twin also takes ICMP's type and code as ports.
#include <core.p4>
#include <tna.p4>

#define CELLS 256
typedef bit<8> cell_index_t;
typedef bit<3> state_index_t;
const bit<16> LOSSRADAR_ETHER_TYPE = 0x88B5;
// batch_shift: a batch is 2^23 ns of the ingress timestamp
const bit<8> BATCH_SHIFT = 23;
// the DM's batch-state timestamps are in units of 2^10 ns
const bit<8> STAMP_SHIFT = 10;
// the UM's egress port, and its digest's offset port << 5
const PortId_t UM_PORT = 1;
const bit<8> UM_PORT_PART = 32;
const PortId_t METERED_PORTS = 4;

header ethernet_h {
    bit<48> dst_addr;
    bit<48> src_addr;
    bit<16> ether_type;
}

header lossradar_h {
    bit<16> batch_id;
    bit<2> rsvd;
    bit<14> tstamp;
    bit<8> meter_id;
    bit<8> rsvd2;
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

header l4_ports_h {
    bit<16> src_port;
    bit<16> dst_port;
}

struct header_t {
    ethernet_h ethernet;
    lossradar_h lossradar;
    ipv4_h ipv4;
    l4_ports_h l4;
}

struct metadata_t {
    // signature word 2: the L4 ports
    bit<32> sig_ports;
    // the downstream meter
    bit<1> dm_ok;
    bit<16> dm_batch;
    bit<31> dm_stamp;
    bit<8> dm_slot_part;
    bit<7> dm_port_part;
    bit<3> dm_state_slot;
    bit<2> dm_state_port;
    state_index_t dm_state_index;
    cell_index_t dm_base;
    bit<8> dm_flags;
    bit<32> dm_sig3;
    cell_index_t dm_idx0;
    cell_index_t dm_idx1;
    cell_index_t dm_idx2;
    // the upstream meter
    bit<1> um_ok;
    bit<16> um_batch;
    bit<8> um_slot_part;
    cell_index_t um_base;
    bit<8> um_flags;
    bit<32> um_sig3;
    cell_index_t um_idx0;
    cell_index_t um_idx1;
    cell_index_t um_idx2;
}
struct empty_t {}

// The DM's batch state: the first packet's time + 1 (lo) and its batch ID (hi).
struct batch_state_t {
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
            LOSSRADAR_ETHER_TYPE : parse_lossradar;
            0x0800 : parse_ipv4;
            default : accept;
        }
    }
    state parse_lossradar {
        pkt.extract(hdr.lossradar);
        transition select(hdr.lossradar.ether_type) {
            0x0800 : parse_ipv4;
            default : accept;
        }
    }
    state parse_ipv4 {
        pkt.extract(hdr.ipv4);
        transition select(hdr.ipv4.frag_offset, hdr.ipv4.protocol) {
            (0, 6) : parse_l4;
            (0, 17) : parse_l4;
            default : accept;
        }
    }
    state parse_l4 {
        pkt.extract(hdr.l4);
        transition accept;
    }
}

// The signature's CRC over its header bytes, for meter m's hash j.
#define SIGNATURE(m) {hdr.ipv4.src_addr, hdr.ipv4.dst_addr, hdr.l4.src_port, hdr.l4.dst_port, \
                      hdr.ipv4.protocol, hdr.ipv4.identification, ig_md.m##_flags}

// Hash j of meter m: CRC-32 with polynomial poly (reflected, init and final XOR all ones),
// its low 5 bits a cell of the sub-table.
#define CELL_HASH(m, j, poly) \
    CRCPolynomial<bit<32>>(poly, true, false, false, 0xFFFFFFFF, 0xFFFFFFFF) m##_crc##j; \
    Hash<bit<5>>(HashAlgorithm_t.CUSTOM, m##_crc##j) m##_hash##j;

// One xorSum word of sub-table j: the word's register and its stateful ALU (xor in the word).
#define XOR_WORD(m, j, w, word) \
    Register<bit<32>, cell_index_t>(CELLS) lr_##m##_h##j##_xor##w; \
    RegisterAction<bit<32>, cell_index_t, bit<32>>(lr_##m##_h##j##_xor##w) lr_##m##_h##j##_xor##w##_update = { \
        void apply(inout bit<32> value) { \
            value = value ^ word; \
        } \
    };

// Sub-table j of meter m: four xorSum words and the count.
#define SUB_TABLE(m, j) \
    XOR_WORD(m, j, 0, hdr.ipv4.src_addr) \
    XOR_WORD(m, j, 1, hdr.ipv4.dst_addr) \
    XOR_WORD(m, j, 2, ig_md.sig_ports) \
    XOR_WORD(m, j, 3, ig_md.m##_sig3) \
    Register<bit<32>, cell_index_t>(CELLS) lr_##m##_h##j##_count; \
    RegisterAction<bit<32>, cell_index_t, bit<32>>(lr_##m##_h##j##_count) lr_##m##_h##j##_count_update = { \
        void apply(inout bit<32> value) { \
            value = value + 1; \
        } \
    };

// A packet into the cell of sub-table j of meter m in the array of word w (xor0..xor3, count).
#define UPDATE(m, j, w) lr_##m##_h##j##_##w##_update.execute(ig_md.m##_idx##j);

control SwitchIngress(inout header_t hdr, inout metadata_t ig_md,
                      in ingress_intrinsic_metadata_t ig_intr_md,
                      in ingress_intrinsic_metadata_from_parser_t ig_prsr_md,
                      inout ingress_intrinsic_metadata_for_deparser_t ig_dprsr_md,
                      inout ingress_intrinsic_metadata_for_tm_t ig_tm_md) {
    // words 2 and 3 of the signature, packed by identity hashes of the header bytes
    Hash<bit<32>>(HashAlgorithm_t.IDENTITY) sig_ports_hash;
    Hash<bit<32>>(HashAlgorithm_t.IDENTITY) dm_sig3_hash;
    Hash<bit<32>>(HashAlgorithm_t.IDENTITY) um_sig3_hash;
    CELL_HASH(dm, 0, 0x04C11DB7)
    CELL_HASH(dm, 1, 0x1EDC6F41)
    CELL_HASH(dm, 2, 0x741B8CD7)
    CELL_HASH(um, 0, 0x04C11DB7)
    CELL_HASH(um, 1, 0x1EDC6F41)
    CELL_HASH(um, 2, 0x741B8CD7)

    Register<batch_state_t, state_index_t>(8) lr_dm_batch;
    // the batch's first packet (the cell is 0): its time + 1 and its batch ID
    RegisterAction<batch_state_t, state_index_t, bit<32>>(lr_dm_batch) lr_dm_first_packet = {
        void apply(inout batch_state_t value) {
            if (value.lo == 0) {
                value.lo = (bit<32>) ig_md.dm_stamp + 1;
                value.hi = (bit<32>) ig_md.dm_batch;
            }
        }
    };
    SUB_TABLE(dm, 0)
    SUB_TABLE(dm, 1)
    SUB_TABLE(dm, 2)
    SUB_TABLE(um, 0)
    SUB_TABLE(um, 1)
    SUB_TABLE(um, 2)

    action permit() {
    }

    action deny() {
        ig_dprsr_md.drop_ctl = 1;
    }

    table lr_acl {
        key = {
            hdr.ipv4.dst_addr : ternary;
            hdr.ipv4.protocol : ternary;
        }
        actions = { permit; deny; NoAction; }
        default_action = NoAction();
        size = 64;
    }

    apply {
        ig_md.sig_ports = sig_ports_hash.get({hdr.l4.src_port, hdr.l4.dst_port});
        lr_acl.apply();

        // the downstream meter: the carried batch, read before the UM rewrites the shim
        ig_md.dm_batch = hdr.lossradar.batch_id;
        ig_md.dm_stamp = (bit<31>) (ig_intr_md.ingress_mac_tstamp >> STAMP_SHIFT);
        ig_md.dm_slot_part = (bit<8>) (hdr.lossradar.batch_id << 7);
        ig_md.dm_state_slot = (bit<3>) (hdr.lossradar.batch_id << 2);
        ig_md.dm_port_part = (bit<7>) (ig_intr_md.ingress_port << 5);
        ig_md.dm_state_port = (bit<2>) ig_intr_md.ingress_port;
        if (ig_intr_md.ingress_port < METERED_PORTS) {
            ig_md.dm_ok = 1;
        }
        ig_md.dm_state_index = ig_md.dm_state_slot | (bit<3>) ig_md.dm_state_port;
        ig_md.dm_base = ig_md.dm_slot_part | (bit<8>) ig_md.dm_port_part;
        if (ig_md.dm_ok == 1) {
            lr_dm_first_packet.execute(ig_md.dm_state_index);
        }
        ig_md.dm_sig3 = dm_sig3_hash.get({hdr.ipv4.protocol, hdr.ipv4.identification, ig_md.dm_flags});
        ig_md.dm_idx0 = ig_md.dm_base | (bit<8>) dm_hash0.get(SIGNATURE(dm));
        ig_md.dm_idx1 = ig_md.dm_base | (bit<8>) dm_hash1.get(SIGNATURE(dm));
        ig_md.dm_idx2 = ig_md.dm_base | (bit<8>) dm_hash2.get(SIGNATURE(dm));
        // rmtemu places a gateway's body in one stage: one if per stage's four stateful ALUs
        if (ig_md.dm_ok == 1) {
            UPDATE(dm, 0, xor0) UPDATE(dm, 0, xor1) UPDATE(dm, 0, xor2) UPDATE(dm, 0, xor3)
        }
        if (ig_md.dm_ok == 1) {
            UPDATE(dm, 0, count) UPDATE(dm, 1, xor0) UPDATE(dm, 1, xor1) UPDATE(dm, 1, xor2)
        }
        if (ig_md.dm_ok == 1) {
            UPDATE(dm, 1, xor3) UPDATE(dm, 1, count) UPDATE(dm, 2, xor0) UPDATE(dm, 2, xor1)
        }
        if (ig_md.dm_ok == 1) {
            UPDATE(dm, 2, xor2) UPDATE(dm, 2, xor3) UPDATE(dm, 2, count)
        }

        // the upstream meter: the batch ID from the timestamp, into the shim header
        ig_md.um_batch = (bit<16>) (ig_intr_md.ingress_mac_tstamp >> BATCH_SHIFT);
        ig_tm_md.ucast_egress_port = UM_PORT;
        hdr.lossradar.batch_id = ig_md.um_batch;
        if (!hdr.lossradar.isValid()) {
            hdr.lossradar.setValid();
            hdr.lossradar.ether_type = hdr.ethernet.ether_type;
            hdr.ethernet.ether_type = LOSSRADAR_ETHER_TYPE;
        }
        ig_md.um_slot_part = (bit<8>) (ig_md.um_batch << 7);
        if (ig_dprsr_md.drop_ctl == 0) {
            ig_md.um_ok = 1;
        }
        ig_md.um_base = ig_md.um_slot_part | UM_PORT_PART;
        ig_md.um_idx0 = ig_md.um_base | (bit<8>) um_hash0.get(SIGNATURE(um));
        ig_md.um_idx1 = ig_md.um_base | (bit<8>) um_hash1.get(SIGNATURE(um));
        ig_md.um_idx2 = ig_md.um_base | (bit<8>) um_hash2.get(SIGNATURE(um));
        ig_md.um_sig3 = um_sig3_hash.get({hdr.ipv4.protocol, hdr.ipv4.identification, ig_md.um_flags});
        // the first beside the DM's last three, then four to a stage
        if (ig_md.um_ok == 1) {
            UPDATE(um, 0, xor0)
        }
        if (ig_md.um_ok == 1) {
            UPDATE(um, 0, xor1) UPDATE(um, 0, xor2) UPDATE(um, 0, xor3) UPDATE(um, 0, count)
        }
        if (ig_md.um_ok == 1) {
            UPDATE(um, 1, xor0) UPDATE(um, 1, xor1) UPDATE(um, 1, xor2) UPDATE(um, 1, xor3)
        }
        if (ig_md.um_ok == 1) {
            UPDATE(um, 1, count) UPDATE(um, 2, xor0) UPDATE(um, 2, xor1) UPDATE(um, 2, xor2)
        }
        if (ig_md.um_ok == 1) {
            UPDATE(um, 2, xor3) UPDATE(um, 2, count)
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
