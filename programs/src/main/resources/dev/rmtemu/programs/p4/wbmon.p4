// WBMon (window-based drop detection between m-switches) as a TNA program: the IR program
// `wbmon` with its defaults (256 vconns, N = 4 bitmap registers of W = 32 bits, a tolerance
// window of tws = 2 slots), stage by stage as WbmonPipeline places it by hand.
//
// A packet crossing a vconn carries the shim header wbmon_h (EtherType 0x88B6 after Ethernet:
// vconn id, 32-bit sequence number, the EtherType it displaced). Downstream, ingress consumes
// it on a port where a vconn ends (wbmon_vconn_ports_in):
//   1. packets[v] += 1; started[v] = 1 (its old value: the vconn's first packet?); the slot base
//      sn & ~(W-1), sn ^ 2^31 and the low bits sn & (N*W - 1);
//   2. newest[v]: the packet's slot base when first or serially newer; the own-bit table (const
//      entries) maps the low bits to the packet's register (the action) and bit (the data);
//   3. to_clean[v] (the slot to clean, + tws*W): first: own base + tws*W; else steps by W while
//      it is serially at or before the newest; its old value to metadata;
//   4. decisions: the register to clean (or none) and the bit each register ORs in (none when
//      the packet is late), on stage 3's values (a gateway cannot test a stateful ALU's output
//      in its own stage);
//   5. the N bitmaps, one stateful ALU each: clean (read and zero) the register the clean key
//      names, OR the packet's bit into the others; the cleaned word's bytes to metadata;
//   6. zero bits of each byte of the cleaned word (popcount tables, const entries);
//   7. drops_b[v] += zero bits of byte b, one counter per byte lane.
// Upstream, egress numbers a packet leaving on a vconn (the port table, or on an ECMP port the
// flow table keyed on port and a CRC-32 fingerprint of the 5-tuple): next_seq[v]++ goes into
// the header, which is added when the packet has none; a packet leaving towards a host loses it.
//
// Serial order (RFC 1982) on 32-bit numbers: a stateful ALU compares unsigned, so "the cell is
// before IN" is two conditions, cell < IN and cell > IN ^ 2^31, joined by AND when IN >= 2^31
// and by OR below: two register actions per order, chosen by the packet's own value. The
// registers that compare hold lo/hi pairs (hi unused) so that a condition may read a second
// PHV field. The ports of the 5-tuple are those of TCP and UDP (l4_ports_h, the first four
// bytes of either); the IR twin also takes ICMP's type and code as ports.
#include <core.p4>
#include <tna.p4>

#define VCONNS 256
typedef bit<8> vconn_index_t;
const bit<16> WBMON_ETHER_TYPE = 0x88B6;
const bit<32> SEQ_HALF = 0x80000000;
// ~(W - 1): a sequence number's slot base
const bit<32> SLOT_MASK = 0xFFFFFFE0;
// N * W - 1: the low bits that name the register and the bit
const bit<32> LOW_MASK = 127;
// tws * W
const bit<32> TWS_SPAN = 64;
// a slot base masked to its register bits is (slot mod N) * W: the clean key
const bit<32> REGISTER_MASK = 96;
const bit<16> NO_REGISTER = 128;

header ethernet_h {
    bit<48> dst_addr;
    bit<48> src_addr;
    bit<16> ether_type;
}

header wbmon_h {
    bit<16> vconn_id;
    bit<32> seq_no;
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
    wbmon_h wbmon;
    ipv4_h ipv4;
    l4_ports_h l4;
}

struct metadata_t {
    bit<1> valid;
    // the started register's old value: 0 on the vconn's first packet
    bit<8> started;
    bit<32> slot_base;
    bit<16> low_bits;
    bit<32> seq_flipped;
    bit<32> own_plus_tws;
    bit<32> own_bit0;
    bit<32> own_bit1;
    bit<32> own_bit2;
    bit<32> own_bit3;
    bit<32> newest;
    bit<32> newest_flipped;
    bit<32> clean_old;
    bit<32> clean_base;
    bit<32> to_newest;
    bit<32> to_own;
    bit<1> cleaned;
    bit<16> clean_key;
    bit<32> mark_bit0;
    bit<32> mark_bit1;
    bit<32> mark_bit2;
    bit<32> mark_bit3;
    bit<32> word0;
    bit<32> word1;
    bit<32> word2;
    bit<32> word3;
    bit<8> cleaned_byte0;
    bit<8> cleaned_byte1;
    bit<8> cleaned_byte2;
    bit<8> cleaned_byte3;
    bit<32> zero_bits0;
    bit<32> zero_bits1;
    bit<32> zero_bits2;
    bit<32> zero_bits3;
}

struct egress_metadata_t {
    bit<16> vconn;
    bit<1> numbered;
    bit<1> ecmp;
    bit<32> flow;
}

// A cell a condition compares with two PHV fields: lo holds the value, hi is unused.
struct pair_t {
    bit<32> lo;
    bit<32> hi;
}

// The frame's headers, the same at ingress and at egress.
#define PARSE_FRAME \
    state parse_ethernet { \
        pkt.extract(hdr.ethernet); \
        transition select(hdr.ethernet.ether_type) { \
            WBMON_ETHER_TYPE : parse_wbmon; \
            0x0800 : parse_ipv4; \
            default : accept; \
        } \
    } \
    state parse_wbmon { \
        pkt.extract(hdr.wbmon); \
        transition select(hdr.wbmon.ether_type) { \
            0x0800 : parse_ipv4; \
            default : accept; \
        } \
    } \
    state parse_ipv4 { \
        pkt.extract(hdr.ipv4); \
        transition select(hdr.ipv4.frag_offset, hdr.ipv4.protocol) { \
            (0, 6) : parse_l4; \
            (0, 17) : parse_l4; \
            default : accept; \
        } \
    } \
    state parse_l4 { \
        pkt.extract(hdr.l4); \
        transition accept; \
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
    PARSE_FRAME
}

// Zero bits of every byte value (8 - popcount), the entries of each byte lane's table.
#define POPCOUNT_ENTRIES(act) \
    0x00 : act(4w8); \
    0x01 : act(4w7); \
    0x02 : act(4w7); \
    0x03 : act(4w6); \
    0x04 : act(4w7); \
    0x05 : act(4w6); \
    0x06 : act(4w6); \
    0x07 : act(4w5); \
    0x08 : act(4w7); \
    0x09 : act(4w6); \
    0x0A : act(4w6); \
    0x0B : act(4w5); \
    0x0C : act(4w6); \
    0x0D : act(4w5); \
    0x0E : act(4w5); \
    0x0F : act(4w4); \
    0x10 : act(4w7); \
    0x11 : act(4w6); \
    0x12 : act(4w6); \
    0x13 : act(4w5); \
    0x14 : act(4w6); \
    0x15 : act(4w5); \
    0x16 : act(4w5); \
    0x17 : act(4w4); \
    0x18 : act(4w6); \
    0x19 : act(4w5); \
    0x1A : act(4w5); \
    0x1B : act(4w4); \
    0x1C : act(4w5); \
    0x1D : act(4w4); \
    0x1E : act(4w4); \
    0x1F : act(4w3); \
    0x20 : act(4w7); \
    0x21 : act(4w6); \
    0x22 : act(4w6); \
    0x23 : act(4w5); \
    0x24 : act(4w6); \
    0x25 : act(4w5); \
    0x26 : act(4w5); \
    0x27 : act(4w4); \
    0x28 : act(4w6); \
    0x29 : act(4w5); \
    0x2A : act(4w5); \
    0x2B : act(4w4); \
    0x2C : act(4w5); \
    0x2D : act(4w4); \
    0x2E : act(4w4); \
    0x2F : act(4w3); \
    0x30 : act(4w6); \
    0x31 : act(4w5); \
    0x32 : act(4w5); \
    0x33 : act(4w4); \
    0x34 : act(4w5); \
    0x35 : act(4w4); \
    0x36 : act(4w4); \
    0x37 : act(4w3); \
    0x38 : act(4w5); \
    0x39 : act(4w4); \
    0x3A : act(4w4); \
    0x3B : act(4w3); \
    0x3C : act(4w4); \
    0x3D : act(4w3); \
    0x3E : act(4w3); \
    0x3F : act(4w2); \
    0x40 : act(4w7); \
    0x41 : act(4w6); \
    0x42 : act(4w6); \
    0x43 : act(4w5); \
    0x44 : act(4w6); \
    0x45 : act(4w5); \
    0x46 : act(4w5); \
    0x47 : act(4w4); \
    0x48 : act(4w6); \
    0x49 : act(4w5); \
    0x4A : act(4w5); \
    0x4B : act(4w4); \
    0x4C : act(4w5); \
    0x4D : act(4w4); \
    0x4E : act(4w4); \
    0x4F : act(4w3); \
    0x50 : act(4w6); \
    0x51 : act(4w5); \
    0x52 : act(4w5); \
    0x53 : act(4w4); \
    0x54 : act(4w5); \
    0x55 : act(4w4); \
    0x56 : act(4w4); \
    0x57 : act(4w3); \
    0x58 : act(4w5); \
    0x59 : act(4w4); \
    0x5A : act(4w4); \
    0x5B : act(4w3); \
    0x5C : act(4w4); \
    0x5D : act(4w3); \
    0x5E : act(4w3); \
    0x5F : act(4w2); \
    0x60 : act(4w6); \
    0x61 : act(4w5); \
    0x62 : act(4w5); \
    0x63 : act(4w4); \
    0x64 : act(4w5); \
    0x65 : act(4w4); \
    0x66 : act(4w4); \
    0x67 : act(4w3); \
    0x68 : act(4w5); \
    0x69 : act(4w4); \
    0x6A : act(4w4); \
    0x6B : act(4w3); \
    0x6C : act(4w4); \
    0x6D : act(4w3); \
    0x6E : act(4w3); \
    0x6F : act(4w2); \
    0x70 : act(4w5); \
    0x71 : act(4w4); \
    0x72 : act(4w4); \
    0x73 : act(4w3); \
    0x74 : act(4w4); \
    0x75 : act(4w3); \
    0x76 : act(4w3); \
    0x77 : act(4w2); \
    0x78 : act(4w4); \
    0x79 : act(4w3); \
    0x7A : act(4w3); \
    0x7B : act(4w2); \
    0x7C : act(4w3); \
    0x7D : act(4w2); \
    0x7E : act(4w2); \
    0x7F : act(4w1); \
    0x80 : act(4w7); \
    0x81 : act(4w6); \
    0x82 : act(4w6); \
    0x83 : act(4w5); \
    0x84 : act(4w6); \
    0x85 : act(4w5); \
    0x86 : act(4w5); \
    0x87 : act(4w4); \
    0x88 : act(4w6); \
    0x89 : act(4w5); \
    0x8A : act(4w5); \
    0x8B : act(4w4); \
    0x8C : act(4w5); \
    0x8D : act(4w4); \
    0x8E : act(4w4); \
    0x8F : act(4w3); \
    0x90 : act(4w6); \
    0x91 : act(4w5); \
    0x92 : act(4w5); \
    0x93 : act(4w4); \
    0x94 : act(4w5); \
    0x95 : act(4w4); \
    0x96 : act(4w4); \
    0x97 : act(4w3); \
    0x98 : act(4w5); \
    0x99 : act(4w4); \
    0x9A : act(4w4); \
    0x9B : act(4w3); \
    0x9C : act(4w4); \
    0x9D : act(4w3); \
    0x9E : act(4w3); \
    0x9F : act(4w2); \
    0xA0 : act(4w6); \
    0xA1 : act(4w5); \
    0xA2 : act(4w5); \
    0xA3 : act(4w4); \
    0xA4 : act(4w5); \
    0xA5 : act(4w4); \
    0xA6 : act(4w4); \
    0xA7 : act(4w3); \
    0xA8 : act(4w5); \
    0xA9 : act(4w4); \
    0xAA : act(4w4); \
    0xAB : act(4w3); \
    0xAC : act(4w4); \
    0xAD : act(4w3); \
    0xAE : act(4w3); \
    0xAF : act(4w2); \
    0xB0 : act(4w5); \
    0xB1 : act(4w4); \
    0xB2 : act(4w4); \
    0xB3 : act(4w3); \
    0xB4 : act(4w4); \
    0xB5 : act(4w3); \
    0xB6 : act(4w3); \
    0xB7 : act(4w2); \
    0xB8 : act(4w4); \
    0xB9 : act(4w3); \
    0xBA : act(4w3); \
    0xBB : act(4w2); \
    0xBC : act(4w3); \
    0xBD : act(4w2); \
    0xBE : act(4w2); \
    0xBF : act(4w1); \
    0xC0 : act(4w6); \
    0xC1 : act(4w5); \
    0xC2 : act(4w5); \
    0xC3 : act(4w4); \
    0xC4 : act(4w5); \
    0xC5 : act(4w4); \
    0xC6 : act(4w4); \
    0xC7 : act(4w3); \
    0xC8 : act(4w5); \
    0xC9 : act(4w4); \
    0xCA : act(4w4); \
    0xCB : act(4w3); \
    0xCC : act(4w4); \
    0xCD : act(4w3); \
    0xCE : act(4w3); \
    0xCF : act(4w2); \
    0xD0 : act(4w5); \
    0xD1 : act(4w4); \
    0xD2 : act(4w4); \
    0xD3 : act(4w3); \
    0xD4 : act(4w4); \
    0xD5 : act(4w3); \
    0xD6 : act(4w3); \
    0xD7 : act(4w2); \
    0xD8 : act(4w4); \
    0xD9 : act(4w3); \
    0xDA : act(4w3); \
    0xDB : act(4w2); \
    0xDC : act(4w3); \
    0xDD : act(4w2); \
    0xDE : act(4w2); \
    0xDF : act(4w1); \
    0xE0 : act(4w5); \
    0xE1 : act(4w4); \
    0xE2 : act(4w4); \
    0xE3 : act(4w3); \
    0xE4 : act(4w4); \
    0xE5 : act(4w3); \
    0xE6 : act(4w3); \
    0xE7 : act(4w2); \
    0xE8 : act(4w4); \
    0xE9 : act(4w3); \
    0xEA : act(4w3); \
    0xEB : act(4w2); \
    0xEC : act(4w3); \
    0xED : act(4w2); \
    0xEE : act(4w2); \
    0xEF : act(4w1); \
    0xF0 : act(4w4); \
    0xF1 : act(4w3); \
    0xF2 : act(4w3); \
    0xF3 : act(4w2); \
    0xF4 : act(4w3); \
    0xF5 : act(4w2); \
    0xF6 : act(4w2); \
    0xF7 : act(4w1); \
    0xF8 : act(4w3); \
    0xF9 : act(4w2); \
    0xFA : act(4w2); \
    0xFB : act(4w1); \
    0xFC : act(4w2); \
    0xFD : act(4w1); \
    0xFE : act(4w1); \
    0xFF : act(4w0); \

// A bitmap register: clean it when the clean key names it (its old word out, zero in), else
// OR in the packet's bit (zero when the packet is late or registers elsewhere).
#define BITMAP(i, key) \
    Register<pair_t, vconn_index_t>(VCONNS) wbmon_bitmap_##i; \
    RegisterAction<pair_t, vconn_index_t, bit<32>>(wbmon_bitmap_##i) clean_or_register_##i = { \
        void apply(inout pair_t value, out bit<32> rv) { \
            if (ig_md.clean_key == key) { \
                rv = value.lo; \
                value.lo = 0; \
            } else { \
                value.lo = value.lo | ig_md.mark_bit##i; \
            } \
        } \
    };

// A byte lane's zero-bit table and drop counter.
#define LANE(b) \
    action zero_bits_##b(bit<4> n) { \
        ig_md.zero_bits##b = (bit<32>) n; \
    } \
    table wbmon_zero_bits_b##b { \
        key = { ig_md.cleaned_byte##b : exact; } \
        actions = { zero_bits_##b; } \
        size = 256; \
        const entries = { \
            POPCOUNT_ENTRIES(zero_bits_##b) \
        } \
    } \
    Register<bit<32>, vconn_index_t>(VCONNS) wbmon_drops_b##b; \
    RegisterAction<bit<32>, vconn_index_t, bit<32>>(wbmon_drops_b##b) add_drops_##b = { \
        void apply(inout bit<32> value) { \
            value = value + ig_md.zero_bits##b; \
        } \
    };

// The packet registers: its own bit goes to its register's input.
#define MARK_OWN \
    ig_md.mark_bit0 = ig_md.own_bit0; \
    ig_md.mark_bit1 = ig_md.own_bit1; \
    ig_md.mark_bit2 = ig_md.own_bit2; \
    ig_md.mark_bit3 = ig_md.own_bit3;

// A late packet (own base + tws*W serially before the slot to clean: its slot was cleaned) does not.
#define MARK_UNLESS_LATE \
    if (ig_md.to_own != 0) { \
        if (ig_md.to_own >= SEQ_HALF) { \
            MARK_OWN \
        } \
    } else { \
        MARK_OWN \
    }

// Bitmap i's stateful ALU on the packet's vconn; CLEAN also takes the cleaned word's bytes.
#define RUN(i) \
    clean_or_register_##i.execute(hdr.wbmon.vconn_id[7:0]);
#define CLEAN(i) \
    ig_md.word##i = clean_or_register_##i.execute(hdr.wbmon.vconn_id[7:0]); \
    ig_md.cleaned_byte0 = ig_md.word##i[7:0]; \
    ig_md.cleaned_byte1 = ig_md.word##i[15:8]; \
    ig_md.cleaned_byte2 = ig_md.word##i[23:16]; \
    ig_md.cleaned_byte3 = ig_md.word##i[31:24];

control SwitchIngress(inout header_t hdr, inout metadata_t ig_md,
                      in ingress_intrinsic_metadata_t ig_intr_md,
                      in ingress_intrinsic_metadata_from_parser_t ig_prsr_md,
                      inout ingress_intrinsic_metadata_for_deparser_t ig_dprsr_md,
                      inout ingress_intrinsic_metadata_for_tm_t ig_tm_md) {
    Register<bit<32>, vconn_index_t>(VCONNS) wbmon_packets;
    RegisterAction<bit<32>, vconn_index_t, bit<32>>(wbmon_packets) count = {
        void apply(inout bit<32> value) {
            value = value + 1;
        }
    };
    Register<bit<8>, vconn_index_t>(VCONNS) wbmon_started;
    RegisterAction<bit<8>, vconn_index_t, bit<8>>(wbmon_started) start = {
        void apply(inout bit<8> value, out bit<8> rv) {
            rv = value;
            value = 1;
        }
    };

    Register<pair_t, vconn_index_t>(VCONNS) wbmon_newest;
    RegisterAction<pair_t, vconn_index_t, bit<32>>(wbmon_newest) newest_first = {
        void apply(inout pair_t value, out bit<32> rv) {
            value.lo = ig_md.slot_base;
            rv = value.lo;
        }
    };
    // the packet's base >= 2^31: the newest is before it when seq_flipped < newest < base
    RegisterAction<pair_t, vconn_index_t, bit<32>>(wbmon_newest) advance_high = {
        void apply(inout pair_t value, out bit<32> rv) {
            if (value.lo < ig_md.slot_base) {
                if (value.lo > ig_md.seq_flipped) {
                    value.lo = ig_md.slot_base;
                }
            }
            rv = value.lo;
        }
    };
    // below 2^31: when newest < base or newest > seq_flipped
    RegisterAction<pair_t, vconn_index_t, bit<32>>(wbmon_newest) advance_low = {
        void apply(inout pair_t value, out bit<32> rv) {
            if (value.lo < ig_md.slot_base) {
                value.lo = ig_md.slot_base;
            } else if (value.lo > ig_md.seq_flipped) {
                value.lo = ig_md.slot_base;
            }
            rv = value.lo;
        }
    };

    Register<pair_t, vconn_index_t>(VCONNS) wbmon_to_clean;
    // nothing below the first packet's slot is watched
    RegisterAction<pair_t, vconn_index_t, bit<32>>(wbmon_to_clean) clean_first = {
        void apply(inout pair_t value) {
            value.lo = ig_md.newest + TWS_SPAN;
        }
    };
    RegisterAction<pair_t, vconn_index_t, bit<32>>(wbmon_to_clean) step_high = {
        void apply(inout pair_t value, out bit<32> rv) {
            rv = value.lo;
            if (value.lo <= ig_md.newest) {
                if (value.lo > ig_md.newest_flipped) {
                    value.lo = value.lo + 32;
                }
            }
        }
    };
    RegisterAction<pair_t, vconn_index_t, bit<32>>(wbmon_to_clean) step_low = {
        void apply(inout pair_t value, out bit<32> rv) {
            rv = value.lo;
            if (value.lo <= ig_md.newest) {
                value.lo = value.lo + 32;
            } else if (value.lo > ig_md.newest_flipped) {
                value.lo = value.lo + 32;
            }
        }
    };

    BITMAP(0, 0)
    BITMAP(1, 32)
    BITMAP(2, 64)
    BITMAP(3, 96)
    LANE(0)
    LANE(1)
    LANE(2)
    LANE(3)

    action track() {
        count.execute(hdr.wbmon.vconn_id[7:0]);
        ig_md.started = start.execute(hdr.wbmon.vconn_id[7:0]);
        ig_md.valid = 1;
        ig_md.slot_base = hdr.wbmon.seq_no & SLOT_MASK;
        // sn ^ 2^31 compares with a multiple of W as base ^ 2^31 does (the low bits add less than W)
        ig_md.seq_flipped = hdr.wbmon.seq_no ^ SEQ_HALF;
        ig_md.low_bits = (bit<16>) (hdr.wbmon.seq_no & LOW_MASK);
    }

    // a vconn ends on this port: its packets carry the header
    table wbmon_vconn_ports_in {
        key = { ig_intr_md.ingress_port : exact; }
        actions = { track; NoAction; }
        default_action = NoAction();
        size = 512;
    }

    action own_bit_0(bit<32> b) { ig_md.own_bit0 = b; }
    action own_bit_1(bit<32> b) { ig_md.own_bit1 = b; }
    action own_bit_2(bit<32> b) { ig_md.own_bit2 = b; }
    action own_bit_3(bit<32> b) { ig_md.own_bit3 = b; }

    // the low bits of the sequence number: the register (action) and the bit 1 << (sn mod W) (data)
    table wbmon_own_bit {
        key = { ig_md.low_bits : exact; }
        actions = { own_bit_0; own_bit_1; own_bit_2; own_bit_3; }
        size = 128;
        const entries = {
            0 : own_bit_0(32w0x1);
            1 : own_bit_0(32w0x2);
            2 : own_bit_0(32w0x4);
            3 : own_bit_0(32w0x8);
            4 : own_bit_0(32w0x10);
            5 : own_bit_0(32w0x20);
            6 : own_bit_0(32w0x40);
            7 : own_bit_0(32w0x80);
            8 : own_bit_0(32w0x100);
            9 : own_bit_0(32w0x200);
            10 : own_bit_0(32w0x400);
            11 : own_bit_0(32w0x800);
            12 : own_bit_0(32w0x1000);
            13 : own_bit_0(32w0x2000);
            14 : own_bit_0(32w0x4000);
            15 : own_bit_0(32w0x8000);
            16 : own_bit_0(32w0x10000);
            17 : own_bit_0(32w0x20000);
            18 : own_bit_0(32w0x40000);
            19 : own_bit_0(32w0x80000);
            20 : own_bit_0(32w0x100000);
            21 : own_bit_0(32w0x200000);
            22 : own_bit_0(32w0x400000);
            23 : own_bit_0(32w0x800000);
            24 : own_bit_0(32w0x1000000);
            25 : own_bit_0(32w0x2000000);
            26 : own_bit_0(32w0x4000000);
            27 : own_bit_0(32w0x8000000);
            28 : own_bit_0(32w0x10000000);
            29 : own_bit_0(32w0x20000000);
            30 : own_bit_0(32w0x40000000);
            31 : own_bit_0(32w0x80000000);
            32 : own_bit_1(32w0x1);
            33 : own_bit_1(32w0x2);
            34 : own_bit_1(32w0x4);
            35 : own_bit_1(32w0x8);
            36 : own_bit_1(32w0x10);
            37 : own_bit_1(32w0x20);
            38 : own_bit_1(32w0x40);
            39 : own_bit_1(32w0x80);
            40 : own_bit_1(32w0x100);
            41 : own_bit_1(32w0x200);
            42 : own_bit_1(32w0x400);
            43 : own_bit_1(32w0x800);
            44 : own_bit_1(32w0x1000);
            45 : own_bit_1(32w0x2000);
            46 : own_bit_1(32w0x4000);
            47 : own_bit_1(32w0x8000);
            48 : own_bit_1(32w0x10000);
            49 : own_bit_1(32w0x20000);
            50 : own_bit_1(32w0x40000);
            51 : own_bit_1(32w0x80000);
            52 : own_bit_1(32w0x100000);
            53 : own_bit_1(32w0x200000);
            54 : own_bit_1(32w0x400000);
            55 : own_bit_1(32w0x800000);
            56 : own_bit_1(32w0x1000000);
            57 : own_bit_1(32w0x2000000);
            58 : own_bit_1(32w0x4000000);
            59 : own_bit_1(32w0x8000000);
            60 : own_bit_1(32w0x10000000);
            61 : own_bit_1(32w0x20000000);
            62 : own_bit_1(32w0x40000000);
            63 : own_bit_1(32w0x80000000);
            64 : own_bit_2(32w0x1);
            65 : own_bit_2(32w0x2);
            66 : own_bit_2(32w0x4);
            67 : own_bit_2(32w0x8);
            68 : own_bit_2(32w0x10);
            69 : own_bit_2(32w0x20);
            70 : own_bit_2(32w0x40);
            71 : own_bit_2(32w0x80);
            72 : own_bit_2(32w0x100);
            73 : own_bit_2(32w0x200);
            74 : own_bit_2(32w0x400);
            75 : own_bit_2(32w0x800);
            76 : own_bit_2(32w0x1000);
            77 : own_bit_2(32w0x2000);
            78 : own_bit_2(32w0x4000);
            79 : own_bit_2(32w0x8000);
            80 : own_bit_2(32w0x10000);
            81 : own_bit_2(32w0x20000);
            82 : own_bit_2(32w0x40000);
            83 : own_bit_2(32w0x80000);
            84 : own_bit_2(32w0x100000);
            85 : own_bit_2(32w0x200000);
            86 : own_bit_2(32w0x400000);
            87 : own_bit_2(32w0x800000);
            88 : own_bit_2(32w0x1000000);
            89 : own_bit_2(32w0x2000000);
            90 : own_bit_2(32w0x4000000);
            91 : own_bit_2(32w0x8000000);
            92 : own_bit_2(32w0x10000000);
            93 : own_bit_2(32w0x20000000);
            94 : own_bit_2(32w0x40000000);
            95 : own_bit_2(32w0x80000000);
            96 : own_bit_3(32w0x1);
            97 : own_bit_3(32w0x2);
            98 : own_bit_3(32w0x4);
            99 : own_bit_3(32w0x8);
            100 : own_bit_3(32w0x10);
            101 : own_bit_3(32w0x20);
            102 : own_bit_3(32w0x40);
            103 : own_bit_3(32w0x80);
            104 : own_bit_3(32w0x100);
            105 : own_bit_3(32w0x200);
            106 : own_bit_3(32w0x400);
            107 : own_bit_3(32w0x800);
            108 : own_bit_3(32w0x1000);
            109 : own_bit_3(32w0x2000);
            110 : own_bit_3(32w0x4000);
            111 : own_bit_3(32w0x8000);
            112 : own_bit_3(32w0x10000);
            113 : own_bit_3(32w0x20000);
            114 : own_bit_3(32w0x40000);
            115 : own_bit_3(32w0x80000);
            116 : own_bit_3(32w0x100000);
            117 : own_bit_3(32w0x200000);
            118 : own_bit_3(32w0x400000);
            119 : own_bit_3(32w0x800000);
            120 : own_bit_3(32w0x1000000);
            121 : own_bit_3(32w0x2000000);
            122 : own_bit_3(32w0x4000000);
            123 : own_bit_3(32w0x8000000);
            124 : own_bit_3(32w0x10000000);
            125 : own_bit_3(32w0x20000000);
            126 : own_bit_3(32w0x40000000);
            127 : own_bit_3(32w0x80000000);
        }
    }

    apply {
        // 1. a header, of a tracked vconn, on a port where a vconn ends
        if (hdr.wbmon.isValid()) {
            if (hdr.wbmon.vconn_id < VCONNS) {
                wbmon_vconn_ports_in.apply();
            }
        }
        // 2. the newest slot; the packet's register and bit
        if (ig_md.valid == 1) {
            ig_md.own_plus_tws = ig_md.slot_base + TWS_SPAN;
            if (ig_md.started == 0) {
                ig_md.newest = newest_first.execute(hdr.wbmon.vconn_id[7:0]);
            } else if (ig_md.slot_base >= SEQ_HALF) {
                ig_md.newest = advance_high.execute(hdr.wbmon.vconn_id[7:0]);
                ig_md.newest_flipped = ig_md.newest ^ SEQ_HALF;
            } else {
                ig_md.newest = advance_low.execute(hdr.wbmon.vconn_id[7:0]);
                ig_md.newest_flipped = ig_md.newest ^ SEQ_HALF;
            }
            wbmon_own_bit.apply();
        }
        // 3. the slot to clean
        if (ig_md.valid == 1) {
            if (ig_md.started == 0) {
                clean_first.execute(hdr.wbmon.vconn_id[7:0]);
            } else if (ig_md.newest >= SEQ_HALF) {
                ig_md.clean_old = step_high.execute(hdr.wbmon.vconn_id[7:0]);
                ig_md.clean_base = ig_md.clean_old - TWS_SPAN;
                ig_md.to_newest = ig_md.newest - ig_md.clean_old;
                ig_md.to_own = ig_md.clean_old - ig_md.own_plus_tws;
            } else {
                ig_md.clean_old = step_low.execute(hdr.wbmon.vconn_id[7:0]);
                ig_md.clean_base = ig_md.clean_old - TWS_SPAN;
                ig_md.to_newest = ig_md.newest - ig_md.clean_old;
                ig_md.to_own = ig_md.clean_old - ig_md.own_plus_tws;
            }
        }
        // 4. decisions
        if (ig_md.valid == 1) {
            if (ig_md.started == 0) {
                ig_md.clean_key = NO_REGISTER;
                MARK_OWN
            } else if (ig_md.to_newest < SEQ_HALF) {
                // a dirty slot: its register's action cleans instead of registering
                ig_md.clean_key = (bit<16>) (ig_md.clean_base & REGISTER_MASK);
                ig_md.cleaned = 1;
                MARK_UNLESS_LATE
            } else {
                ig_md.clean_key = NO_REGISTER;
                MARK_UNLESS_LATE
            }
        }
        // 5. the bitmaps; the gateway on the clean key picks, for each bitmap's stateful ALU, the
        //    action that also takes the cleaned word's bytes (an ALU's output feeds only its own action)
        if (ig_md.valid == 1) {
            if (ig_md.clean_key == 0) {
                CLEAN(0) RUN(1) RUN(2) RUN(3)
            } else if (ig_md.clean_key == 32) {
                RUN(0) CLEAN(1) RUN(2) RUN(3)
            } else if (ig_md.clean_key == 64) {
                RUN(0) RUN(1) CLEAN(2) RUN(3)
            } else if (ig_md.clean_key == 96) {
                RUN(0) RUN(1) RUN(2) CLEAN(3)
            } else {
                RUN(0) RUN(1) RUN(2) RUN(3)
            }
        }
        // 6. zero bits of the cleaned word, a byte at a time
        if (ig_md.cleaned == 1) {
            wbmon_zero_bits_b0.apply();
            wbmon_zero_bits_b1.apply();
            wbmon_zero_bits_b2.apply();
            wbmon_zero_bits_b3.apply();
        }
        // 7. drops, one counter per byte lane (four table outputs cannot be summed by one instruction)
        if (ig_md.cleaned == 1) {
            add_drops_0.execute(hdr.wbmon.vconn_id[7:0]);
            add_drops_1.execute(hdr.wbmon.vconn_id[7:0]);
            add_drops_2.execute(hdr.wbmon.vconn_id[7:0]);
            add_drops_3.execute(hdr.wbmon.vconn_id[7:0]);
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

parser SwitchEgressParser(packet_in pkt, out header_t hdr, out egress_metadata_t eg_md,
                          out egress_intrinsic_metadata_t eg_intr_md) {
    TofinoEgressParser() tofino_parser;

    state start {
        tofino_parser.apply(pkt, eg_intr_md);
        transition parse_ethernet;
    }
    PARSE_FRAME
}

control SwitchEgress(inout header_t hdr, inout egress_metadata_t eg_md,
                     in egress_intrinsic_metadata_t eg_intr_md,
                     in egress_intrinsic_metadata_from_parser_t eg_prsr_md,
                     inout egress_intrinsic_metadata_for_deparser_t eg_dprsr_md,
                     inout egress_intrinsic_metadata_for_output_port_t eg_oport_md) {
    Hash<bit<32>>(HashAlgorithm_t.CRC32) wbmon_flow_fingerprint;

    Register<bit<32>, vconn_index_t>(VCONNS) wbmon_next_seq;
    RegisterAction<bit<32>, vconn_index_t, bit<32>>(wbmon_next_seq) stamp = {
        void apply(inout bit<32> value, out bit<32> rv) {
            rv = value;
            value = value + 1;
        }
    };

    action set_vconn(bit<16> vconn) {
        eg_md.vconn = vconn;
        eg_md.numbered = 1;
    }

    // the port's traffic splits over several vconns: the flow's fingerprint keys the flow table
    action ecmp() {
        eg_md.ecmp = 1;
        eg_md.flow = wbmon_flow_fingerprint.get({hdr.ipv4.src_addr, hdr.ipv4.dst_addr, hdr.ipv4.protocol,
                                                 hdr.l4.src_port, hdr.l4.dst_port});
    }

    table wbmon_vconn_ports_out {
        key = { eg_intr_md.egress_port : exact; }
        actions = { set_vconn; ecmp; NoAction; }
        default_action = NoAction();
        size = 512;
    }

    table wbmon_vconn_flows_out {
        key = {
            eg_intr_md.egress_port : exact;
            eg_md.flow : exact;
        }
        actions = { set_vconn; NoAction; }
        default_action = NoAction();
        size = 8192;
    }

    apply {
        wbmon_vconn_ports_out.apply();
        if (eg_md.ecmp == 1) {
            wbmon_vconn_flows_out.apply();
        }
        if (eg_md.numbered == 1) {
            if (!hdr.wbmon.isValid()) {
                // Ethernet's EtherType moves into the shim, Ethernet announces the shim
                hdr.wbmon.setValid();
                hdr.wbmon.ether_type = hdr.ethernet.ether_type;
                hdr.ethernet.ether_type = WBMON_ETHER_TYPE;
            }
            hdr.wbmon.vconn_id = eg_md.vconn;
            hdr.wbmon.seq_no = stamp.execute(eg_md.vconn[7:0]);
        } else if (hdr.wbmon.isValid()) {
            // towards a host: the vconn's header goes no further
            hdr.wbmon.setInvalid();
            hdr.ethernet.ether_type = hdr.wbmon.ether_type;
        }
    }
}

control SwitchEgressDeparser(packet_out pkt, inout header_t hdr, in egress_metadata_t eg_md,
                             in egress_intrinsic_metadata_for_deparser_t eg_dprsr_md) {
    apply {
        pkt.emit(hdr);
    }
}

Pipeline(SwitchIngressParser(), SwitchIngress(), SwitchIngressDeparser(),
         SwitchEgressParser(), SwitchEgress(), SwitchEgressDeparser()) pipe;

Switch(pipe) main;
