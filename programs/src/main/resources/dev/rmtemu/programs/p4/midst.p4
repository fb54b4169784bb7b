// MIDST (Δ-sketches for heavy losers, SOSR 2022) as a TNA program: the IR program `midst` with
// its defaults (r = 2 rows of c = 32,768 counters per sketch, one dirty word per 32 counters,
// water marks h = 1,250 and l = 125 cells, loss threshold 1, burst threshold 1,000, data to
// port 1, monitoring reports to the collector on port 2; one pipe, one queue), stage by stage
// as MidstPipeline places it by hand.
//
// Ingress keeps S_in (count-min, r rows), egress S_out of the same shape; ingress bridges the
// counts u_i, indices, dirty words and bit masks to egress in the bridged header midst_br_h
// (emitted ahead of the frame, extracted first by the egress parser, never on the wire), and
// egress estimates a flow's loss as min_i(u_i - v_i). Probes from the packet generator (the
// probe header midst_probe_h after Ethernet, EtherType 0x88B5) fetch the queue depth from egress
// and bring it back to ingress through the recirculation port: monitoring starts at depth >= h
// and stops below l. Between bursts the sketches are cleaned in the data plane: one dirty word
// per 32 counters, zeroed by passing packets and by one recirculating probe that holds the
// cleaner token. A data packet egress flags (heavy loser or bursty flow) leaves with the report
// header midst_rep_h (EtherType 0x88B6), which egress adds.
//
// Ingress                                   Egress
//  0 row hashes, index and bit position; an  0 queue depth (data: record, probe: read),
//    upstream report header goes; monitor      clean pointer
//    flag (a returning probe: the water      2 dirty words x r
//    marks); the probe's depth capped
//  1 epoch, clean pointer; dirty word;       3 counters x r -> v_i
//    bit mask 1 << pos[1:0]                  4 max(u_i, v_i); a probe: egress cleaning done?
//  2 mask << pos[3:2], gateways on pos[4];  5 d_i = max - v_i
//    the monitor flag changed?               6 min d_i, thresholds capped; cleaner token
//  3 mask << pos[4]; the probe's next trip   7 the report header
//  4 dirty words x r
//  5 counters x r -> u_i
//  6 min_i u_i
//
// Tofino's rules shape it as they shape the IR twin: the row width is a power of two (the index
// is the hash's low bits); the one-hot dirty bit 1 << (index % 32) is built by gateways on the
// bit position, shifting by constants over three stages; a decision on a register action's
// output is taken a stage later (its output goes through metadata); u - v saturating at 0 is
// max(u, v) - v over two stages; x >= T on a 32-bit value is min(x, T) == T (a gateway
// range-matches at most 12 bits, bf-p4c mau/gateway.cpp). The probe's depth against the water
// marks is such a comparison too: min(depth, h) == h, and max(depth, l) != depth for depth < l.
// (The IR twin lets a stateful ALU on a scratch cell output its predicate instead; rmtemu's P4
// front end has no RegisterAction.predicate() yet.)
// The ports of the 5-tuple are those of TCP and UDP (l4_ports_h, the first four bytes of
// either); the IR twin also takes ICMP's type and code as ports.
#include <core.p4>
#include <tna.p4>

#define COLUMNS 32768
#define WORDS 1024
typedef bit<15> counter_index_t;
typedef bit<10> word_index_t;
typedef bit<1> cell_t;

const bit<16> ETHERTYPE_IPV4 = 0x0800;
const bit<16> MIDST_PROBE_ETHER_TYPE = 0x88B5;
const bit<16> MIDST_REPORT_ETHER_TYPE = 0x88B6;
// the water marks (cells)
const bit<19> HIGH_WATER = 1250;
const bit<19> LOW_WATER = 125;
const bit<32> LOSS_THRESHOLD = 1;
const bit<32> BURST_THRESHOLD = 1000;
const PortId_t DATA_PORT = 1;
const PortId_t COLLECTOR_PORT = 2;
// a pipe's recirculation port, where the packet generator's probes enter, is TNA's local port 68
// of the pipe (pipe << 7 | 68)
const bit<7> RECIRCULATION_LOCAL_PORT = 68;
// cleaning steps of a row: its dirty words
const bit<32> STEPS = WORDS;

// probe kinds
const bit<8> KIND_NONE = 0;
const bit<8> KIND_TO_EGRESS = 1;
const bit<8> KIND_TO_INGRESS = 2;
const bit<8> KIND_MONITOR_ON = 3;
const bit<8> KIND_MONITOR_OFF = 4;
const bit<8> KIND_CLEAN_DONE = 5;
const bit<8> KIND_RELEASE = 6;
// report flags
const bit<8> FLAG_HEAVY_LOSER = 1;
const bit<8> FLAG_BURSTY = 2;

// ingress to egress, inside the switch (29 bytes)
header midst_br_h {
    bit<1> counted;
    bit<1> monitor;
    bit<16> epoch;
    bit<32> umin;
    counter_index_t idx0;
    bit<32> u0;
    counter_index_t idx1;
    bit<32> u1;
    word_index_t word0;
    bit<32> bit0;
    word_index_t word1;
    bit<32> bit1;
    bit<4> pad;
}

header ethernet_h {
    bit<48> dst_addr;
    bit<48> src_addr;
    bit<16> ether_type;
}

header midst_probe_h {
    bit<8> kind;
    bit<5> rsvd;
    bit<19> qdepth;
    bit<1> eg_done;
    bit<1> cleaning;
    bit<1> holder;
    bit<5> rsvd2;
    bit<16> epoch;
    bit<8> home;
    bit<16> ether_type;
}

header midst_rep_h {
    bit<8> flags;
    bit<16> epoch;
    bit<32> loss;
    bit<32> burst;
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
    midst_br_h br;
    ethernet_h ethernet;
    midst_probe_h probe;
    midst_rep_h rep;
    ipv4_h ipv4;
    l4_ports_h l4;
}

struct ingress_metadata_t {
    bit<1> is_probe;
    // the monitor flag the packet found (the register's word, then its bit)
    bit<32> monitor;
    bit<1> monitor_old;
    bit<1> changed;
    bit<32> epoch;
    // a returning probe's depth against the water marks: min(depth, h), max(depth, l)
    bit<19> high_cap;
    bit<19> low_cap;
    // the dirty word to clean (STEPS or more: none), and the clean pointer's count before this packet
    bit<32> clean_word;
    bit<32> clean_left;
    bit<5> bitpos0;
    bit<5> bitpos1;
    bit<3> pos_hi0;
    bit<3> pos_hi1;
    // a row's dirty word before this packet's bit, and that bit of it (0: the counter is stale)
    bit<32> old_word0;
    bit<32> old_word1;
    bit<32> fresh0;
    bit<32> fresh1;
}

struct egress_metadata_t {
    bit<32> depth;
    bit<32> holder;
    bit<32> clean_word;
    bit<32> clean_left;
    bit<32> min;
    bit<32> old_word0;
    bit<32> old_word1;
    bit<32> fresh0;
    bit<32> fresh1;
    bit<32> v0;
    bit<32> v1;
    bit<32> max0;
    bit<32> max1;
    bit<32> d0;
    bit<32> d1;
    bit<32> loss_cap0;
    bit<32> loss_cap1;
    bit<32> burst_cap;
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

// the frame's headers, as both parsers read them
#define PARSE_FRAME \
    state parse_ethernet { \
        pkt.extract(hdr.ethernet); \
        transition select(hdr.ethernet.ether_type) { \
            MIDST_PROBE_ETHER_TYPE : parse_probe; \
            MIDST_REPORT_ETHER_TYPE : parse_report; \
            ETHERTYPE_IPV4 : parse_ipv4; \
            default : accept; \
        } \
    } \
    state parse_probe { \
        pkt.extract(hdr.probe); \
        transition select(hdr.probe.ether_type) { \
            ETHERTYPE_IPV4 : parse_ipv4; \
            default : accept; \
        } \
    } \
    state parse_report { \
        pkt.extract(hdr.rep); \
        transition select(hdr.rep.ether_type) { \
            ETHERTYPE_IPV4 : parse_ipv4; \
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

parser SwitchIngressParser(packet_in pkt, out header_t hdr, out ingress_metadata_t ig_md,
                           out ingress_intrinsic_metadata_t ig_intr_md) {
    TofinoIngressParser() tofino_parser;

    state start {
        tofino_parser.apply(pkt, ig_intr_md);
        transition parse_ethernet;
    }
    PARSE_FRAME
}

// Row i's hash: a reflected CRC-32 with the i-th polynomial of MidstHashes (CRC-32, CRC-32C),
// init and final XOR all ones, over the 5-tuple.
#define ROW_HASH(i, poly) \
    CRCPolynomial<bit<32>>(poly, true, false, false, 0xFFFFFFFF, 0xFFFFFFFF) midst_crc##i; \
    Hash<bit<32>>(HashAlgorithm_t.CUSTOM, midst_crc##i) midst_hash##i;

#define FIVE_TUPLE {hdr.ipv4.src_addr, hdr.ipv4.dst_addr, hdr.ipv4.protocol, hdr.l4.src_port, hdr.l4.dst_port}

// A row's dirty words: mark (OR the counter's bit in, the old word out) and clean (zero one word).
#define DIRTY_WORDS(gress, i, st, bits) \
    @stage(st) Register<bit<32>, word_index_t>(WORDS) midst_##gress##_dirty_##i; \
    RegisterAction<bit<32>, word_index_t, bit<32>>(midst_##gress##_dirty_##i) gress##_mark##i = { \
        void apply(inout bit<32> value, out bit<32> rv) { \
            rv = value; \
            value = value | bits; \
        } \
    }; \
    RegisterAction<bit<32>, word_index_t, bit<32>>(midst_##gress##_dirty_##i) gress##_zero##i = { \
        void apply(inout bit<32> value) { \
            value = 0; \
        } \
    };

// A row's counters: the first write of an interval (the counter's dirty bit was clear: fresh is 0)
// resets the counter to 1, later ones add 1; the new count out.
#define COUNTERS(gress, i, st, fresh) \
    @stage(st) Register<bit<32>, counter_index_t>(COLUMNS) midst_##gress##_count_##i; \
    RegisterAction<bit<32>, counter_index_t, bit<32>>(midst_##gress##_count_##i) gress##_count##i = { \
        void apply(inout bit<32> value, out bit<32> rv) { \
            if (fresh == 0) { \
                value = 1; \
            } else { \
                value = value + 1; \
            } \
            rv = value; \
        } \
    };

// The clean pointer counts the dirty words still to clean (0 at boot: a fresh sketch is clean):
// restart := W (a counted packet dirtied the sketch); advance: old > 0 ? -1, old out.
#define CLEAN_POINTER(name, prefix) \
    Register<bit<32>, cell_t>(1) name; \
    RegisterAction<bit<32>, cell_t, bit<32>>(name) prefix##_restart = { \
        void apply(inout bit<32> value) { \
            value = STEPS; \
        } \
    }; \
    RegisterAction<bit<32>, cell_t, bit<32>>(name) prefix##_advance = { \
        void apply(inout bit<32> value, out bit<32> rv) { \
            rv = value; \
            if (value > 0) { \
                value = value - 1; \
            } \
        } \
    };

// One step of the one-hot mask 1 << pos: gateways on the position's bits, shifts by constants.
#define MASK_STEP0(i) \
    if (ig_md.bitpos##i[1:0] == 0) { \
        hdr.br.bit##i = 1; \
    } else if (ig_md.bitpos##i[1:0] == 1) { \
        hdr.br.bit##i = 2; \
    } else if (ig_md.bitpos##i[1:0] == 2) { \
        hdr.br.bit##i = 4; \
    } else { \
        hdr.br.bit##i = 8; \
    }
// (steps 1 and 2 test the position's high bits, copied in stage 1: see SwitchIngress)
#define MASK_STEP1(i) \
    if (ig_md.pos_hi##i[1:0] == 1) { \
        hdr.br.bit##i = hdr.br.bit##i << 4; \
    } else if (ig_md.pos_hi##i[1:0] == 2) { \
        hdr.br.bit##i = hdr.br.bit##i << 8; \
    } else if (ig_md.pos_hi##i[1:0] == 3) { \
        hdr.br.bit##i = hdr.br.bit##i << 12; \
    }
#define MASK_STEP2(i) \
    if ((ig_md.pos_hi##i & 4) != 0) { \
        hdr.br.bit##i = hdr.br.bit##i << 16; \
    }

control SwitchIngress(inout header_t hdr, inout ingress_metadata_t ig_md,
                      in ingress_intrinsic_metadata_t ig_intr_md,
                      in ingress_intrinsic_metadata_from_parser_t ig_prsr_md,
                      inout ingress_intrinsic_metadata_for_deparser_t ig_dprsr_md,
                      inout ingress_intrinsic_metadata_for_tm_t ig_tm_md) {
    ROW_HASH(0, 0x04C11DB7)
    ROW_HASH(1, 0x1EDC6F41)

    // the monitor flag: a returning probe over h sets it, one under l clears it; the old flag out
    Register<bit<32>, cell_t>(1) midst_monitor;
    RegisterAction<bit<32>, cell_t, bit<32>>(midst_monitor) water_marks = {
        void apply(inout bit<32> value, out bit<32> rv) {
            rv = value;
            if (hdr.probe.qdepth >= HIGH_WATER) {
                value = 1;
            } else if (hdr.probe.qdepth < LOW_WATER) {
                value = 0;
            }
        }
    };
    RegisterAction<bit<32>, cell_t, bit<32>>(midst_monitor) read_monitor = {
        void apply(inout bit<32> value, out bit<32> rv) {
            rv = value;
        }
    };

    // the monitoring epoch: +1 when monitoring starts
    Register<bit<32>, cell_t>(1) midst_epoch;
    RegisterAction<bit<32>, cell_t, bit<32>>(midst_epoch) next_epoch = {
        void apply(inout bit<32> value, out bit<32> rv) {
            value = value + 1;
            rv = value;
        }
    };
    RegisterAction<bit<32>, cell_t, bit<32>>(midst_epoch) read_epoch = {
        void apply(inout bit<32> value, out bit<32> rv) {
            rv = value;
        }
    };
    CLEAN_POINTER(midst_in_clean_ptr, in_clean)
    DIRTY_WORDS(in, 0, 4, hdr.br.bit0)
    DIRTY_WORDS(in, 1, 4, hdr.br.bit1)
    COUNTERS(in, 0, 5, ig_md.fresh0)
    COUNTERS(in, 1, 5, ig_md.fresh1)

    // nothing to clean while monitoring
    action epoch_started() {
        ig_md.epoch = next_epoch.execute(0);
        hdr.br.epoch = (bit<16>) ig_md.epoch;
        ig_md.clean_word = STEPS;
    }

    action epoch_going() {
        ig_md.epoch = read_epoch.execute(0);
        hdr.br.epoch = (bit<16>) ig_md.epoch;
        ig_md.clean_word = STEPS;
    }

    // a counted packet: every word needs cleaning in the next off period
    action epoch_going_counted() {
        in_clean_restart.execute(0);
        ig_md.epoch = read_epoch.execute(0);
        hdr.br.epoch = (bit<16>) ig_md.epoch;
        ig_md.clean_word = STEPS;
    }

    // the word to clean is the count left - 1; none left wraps to 2^32 - 1, past every word
    action epoch_off() {
        ig_md.epoch = read_epoch.execute(0);
        hdr.br.epoch = (bit<16>) ig_md.epoch;
        ig_md.clean_left = in_clean_advance.execute(0);
        ig_md.clean_word = ig_md.clean_left - 1;
    }

    // the probe goes round again to clean
    action keep_cleaning() {
        hdr.probe.kind = KIND_TO_EGRESS;
        hdr.probe.cleaning = 1;
        ig_tm_md.ucast_egress_port = ig_intr_md.ingress_port;
    }

    apply {
        hdr.br.setValid();
        // 0: the row hashes; the monitor flag, which only a returning probe changes
        if (ig_intr_md.ingress_port[6:0] == RECIRCULATION_LOCAL_PORT) {
            ig_md.is_probe = 1;
            if (hdr.probe.kind == KIND_TO_INGRESS) {
                ig_md.monitor = water_marks.execute(0);
                ig_md.monitor_old = (bit<1>) ig_md.monitor;
                // the level kept unless stage 1 sees the water marks crossed
                hdr.br.monitor = (bit<1>) ig_md.monitor;
                ig_md.high_cap = min(hdr.probe.qdepth, HIGH_WATER);
                ig_md.low_cap = max(hdr.probe.qdepth, LOW_WATER);
            } else {
                ig_md.monitor = read_monitor.execute(0);
                ig_md.monitor_old = (bit<1>) ig_md.monitor;
                hdr.br.monitor = (bit<1>) ig_md.monitor;
                // no verdict on the water marks: the cap equals the depth
                ig_md.low_cap = hdr.probe.qdepth;
            }
        } else {
            ig_md.monitor = read_monitor.execute(0);
            ig_md.monitor_old = (bit<1>) ig_md.monitor;
            hdr.br.monitor = (bit<1>) ig_md.monitor;
            hdr.br.counted = (bit<1>) ig_md.monitor;
            // no verdict on the water marks, whatever probe header a data packet carries
            ig_md.low_cap = hdr.probe.qdepth;
            ig_tm_md.ucast_egress_port = DATA_PORT;
            hdr.br.idx0 = (counter_index_t) midst_hash0.get(FIVE_TUPLE);
            ig_md.bitpos0 = (bit<5>) midst_hash0.get(FIVE_TUPLE);
            hdr.br.idx1 = (counter_index_t) midst_hash1.get(FIVE_TUPLE);
            ig_md.bitpos1 = (bit<5>) midst_hash1.get(FIVE_TUPLE);
        }

        // 1: epoch and clean pointer: a probe over h starts monitoring, one under l stops it; a
        //    data packet while monitoring marks its words dirty
        if (ig_md.monitor_old == 1) {
            if (ig_md.low_cap != hdr.probe.qdepth) {
                hdr.br.monitor = 0;
                epoch_off();
            } else if (ig_md.is_probe == 0) {
                epoch_going_counted();
            } else {
                epoch_going();
            }
        } else {
            if (ig_md.high_cap == HIGH_WATER) {
                hdr.br.monitor = 1;
                epoch_started();
            } else {
                epoch_off();
            }
        }
        hdr.br.word0 = (word_index_t) (hdr.br.idx0 >> 5);
        hdr.br.word1 = (word_index_t) (hdr.br.idx1 >> 5);
        MASK_STEP0(0)
        MASK_STEP0(1)
        // the position's bits 4:2 for the next two steps: rmtemu places each gress greedily, ingress first,
        // and gateways on the position itself would all land in stage 1, leaving egress none there
        ig_md.pos_hi0 = ig_md.bitpos0[4:2];
        ig_md.pos_hi1 = ig_md.bitpos1[4:2];

        // 2: a report header from an upstream MIDST switch goes (Ethernet's EtherType back): this
        //    switch's egress adds its own
        if (hdr.rep.isValid()) {
            hdr.rep.setInvalid();
            hdr.ethernet.ether_type = hdr.rep.ether_type;
        }
        // whether stage 1 changed the monitor flag (the fate reads it in stage 3, where the gateways
        // have room: stage 2's hold the mask steps)
        ig_md.changed = hdr.br.monitor ^ ig_md.monitor_old;
        MASK_STEP1(0)
        MASK_STEP1(1)

        // 3: a probe's next trip: a fresh one fetches the queue depth from egress; a returning one
        //    reports a change of the monitor flag, keeps recirculating while cleaning is not done,
        //    reports a finished cleaning, or gives its cleaner token back
        MASK_STEP2(0)
        MASK_STEP2(1)
        if (ig_md.changed == 1) {
            // only a returning probe changes the flag (a fresh probe and a data packet find it as they read it)
            hdr.probe.epoch = hdr.br.epoch;
            ig_tm_md.ucast_egress_port = COLLECTOR_PORT;
            if (hdr.br.monitor == 1) {
                hdr.probe.kind = KIND_MONITOR_ON;
            } else {
                hdr.probe.kind = KIND_MONITOR_OFF;
            }
        } else if (ig_md.is_probe == 1) {
            hdr.probe.epoch = hdr.br.epoch;
            if (hdr.probe.kind == KIND_NONE) {
                hdr.probe.kind = KIND_TO_EGRESS;
                ig_tm_md.ucast_egress_port = ig_intr_md.ingress_port;
            } else if (hdr.br.monitor == 0) {
                if (ig_md.clean_left <= 1) {
                    if (hdr.probe.eg_done == 0) {
                        keep_cleaning();
                    } else if (hdr.probe.holder == 1) {
                        hdr.probe.kind = KIND_CLEAN_DONE;
                        ig_tm_md.ucast_egress_port = COLLECTOR_PORT;
                    } else {
                        ig_dprsr_md.drop_ctl = 1;
                    }
                } else {
                    keep_cleaning();
                }
            } else if (hdr.probe.holder == 1) {
                hdr.probe.kind = KIND_RELEASE;
                ig_tm_md.ucast_egress_port = ig_intr_md.ingress_port;
            } else {
                ig_dprsr_md.drop_ctl = 1;
            }
        }

        // 4: dirty words: a counted packet sets its bits (old bit 0: the counter is stale); any other
        //    zeroes the word under the clean pointer
        if (hdr.br.counted == 1) {
            ig_md.old_word0 = in_mark0.execute(hdr.br.word0);
            ig_md.fresh0 = ig_md.old_word0 & hdr.br.bit0;
            ig_md.old_word1 = in_mark1.execute(hdr.br.word1);
            ig_md.fresh1 = ig_md.old_word1 & hdr.br.bit1;
        } else if (ig_md.clean_word < STEPS) {
            in_zero0.execute((word_index_t) ig_md.clean_word);
            in_zero1.execute((word_index_t) ig_md.clean_word);
        }

        // 5: counters -> u_i
        if (hdr.br.counted == 1) {
            hdr.br.u0 = in_count0.execute(hdr.br.idx0);
            hdr.br.u1 = in_count1.execute(hdr.br.idx1);
        }

        // 6: S_in's estimate min_i u_i (bursty flows)
        if (hdr.br.counted == 1) {
            hdr.br.umin = min(hdr.br.u0, hdr.br.u1);
        }
    }
}

control SwitchIngressDeparser(packet_out pkt, inout header_t hdr, in ingress_metadata_t ig_md,
                              in ingress_intrinsic_metadata_for_deparser_t ig_dprsr_md) {
    apply {
        // the bridged header first, then the frame
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
        transition parse_bridged;
    }
    state parse_bridged {
        pkt.extract(hdr.br);
        transition parse_ethernet;
    }
    PARSE_FRAME
}

control SwitchEgress(inout header_t hdr, inout egress_metadata_t eg_md,
                     in egress_intrinsic_metadata_t eg_intr_md,
                     in egress_intrinsic_metadata_from_parser_t eg_prsr_md,
                     inout egress_intrinsic_metadata_for_deparser_t eg_dprsr_md,
                     inout egress_intrinsic_metadata_for_output_port_t eg_oport_md) {
    // the queue depth a data packet left behind at dequeue (the last packet of a burst records an empty queue)
    Register<bit<32>, cell_t>(1) midst_qdepth;
    RegisterAction<bit<32>, cell_t, bit<32>>(midst_qdepth) record_depth = {
        void apply(inout bit<32> value) {
            value = (bit<32>) eg_intr_md.deq_qdepth;
        }
    };
    RegisterAction<bit<32>, cell_t, bit<32>>(midst_qdepth) read_depth = {
        void apply(inout bit<32> value, out bit<32> rv) {
            rv = value;
        }
    };
    CLEAN_POINTER(midst_out_clean_ptr, out_clean)
    DIRTY_WORDS(out, 0, 2, hdr.br.bit0)
    DIRTY_WORDS(out, 1, 2, hdr.br.bit1)
    COUNTERS(out, 0, 3, eg_md.fresh0)
    COUNTERS(out, 1, 3, eg_md.fresh1)

    // one probe at a time recirculates for cleaning: it holds the token (acquired: 1 out, else 0)
    @stage(6) Register<bit<32>, cell_t>(1) midst_cleaner_token;
    RegisterAction<bit<32>, cell_t, bit<32>>(midst_cleaner_token) acquire = {
        void apply(inout bit<32> value, out bit<32> rv) {
            if (value == 0) {
                value = 1;
                rv = value;
            }
        }
    };
    RegisterAction<bit<32>, cell_t, bit<32>>(midst_cleaner_token) release = {
        void apply(inout bit<32> value) {
            value = 0;
        }
    };

    // a flagged packet gets the report header (Ethernet's EtherType moves into it)
    action report(bit<8> flags) {
        hdr.rep.setValid();
        hdr.rep.flags = flags;
        hdr.rep.loss = eg_md.min;
        hdr.rep.epoch = hdr.br.epoch;
        hdr.rep.burst = hdr.br.umin;
        hdr.rep.ether_type = hdr.ethernet.ether_type;
        hdr.ethernet.ether_type = MIDST_REPORT_ETHER_TYPE;
    }

    apply {
        // 0: the queue depth (a probe reads it, a data packet to the monitored port records it); the
        //    clean pointer
        if (hdr.probe.kind == KIND_TO_EGRESS) {
            eg_md.depth = read_depth.execute(0);
            hdr.probe.qdepth = (bit<19>) eg_md.depth;
            hdr.probe.kind = KIND_TO_INGRESS;
            if (hdr.br.monitor == 0) {
                eg_md.clean_left = out_clean_advance.execute(0);
                eg_md.clean_word = eg_md.clean_left - 1;
            } else {
                eg_md.clean_word = STEPS;
            }
        } else if (hdr.probe.kind == KIND_NONE) {
            // a data packet (anything else is a report on its way to the collector)
            if (eg_intr_md.egress_port == DATA_PORT) {
                record_depth.execute(0);
            }
            if (hdr.br.counted == 1) {
                out_clean_restart.execute(0);
                eg_md.clean_word = STEPS;
            } else if (hdr.br.monitor == 0) {
                eg_md.clean_left = out_clean_advance.execute(0);
                eg_md.clean_word = eg_md.clean_left - 1;
            } else {
                eg_md.clean_word = STEPS;
            }
        }

        // 2: dirty words (a counted packet is always a data packet)
        if (hdr.br.counted == 1) {
            eg_md.old_word0 = out_mark0.execute(hdr.br.word0);
            eg_md.fresh0 = eg_md.old_word0 & hdr.br.bit0;
            eg_md.old_word1 = out_mark1.execute(hdr.br.word1);
            eg_md.fresh1 = eg_md.old_word1 & hdr.br.bit1;
        } else if (hdr.probe.kind <= KIND_TO_INGRESS && eg_md.clean_word < STEPS) {
            out_zero0.execute((word_index_t) eg_md.clean_word);
            out_zero1.execute((word_index_t) eg_md.clean_word);
        }

        // 3: counters -> v_i
        if (hdr.br.counted == 1) {
            eg_md.v0 = out_count0.execute(hdr.br.idx0);
            eg_md.v1 = out_count1.execute(hdr.br.idx1);
        }

        // 4, 5: d_i = u_i - v_i saturating at 0, as max(u_i, v_i) - v_i; a returning probe learns
        //       whether egress has finished cleaning
        if (hdr.br.counted == 1) {
            eg_md.max0 = max(hdr.br.u0, eg_md.v0);
            eg_md.max1 = max(hdr.br.u1, eg_md.v1);
        } else if (hdr.probe.kind == KIND_TO_INGRESS) {
            if (hdr.br.monitor == 0) {
                if (eg_md.clean_left <= 1) {
                    hdr.probe.eg_done = 1;
                } else {
                    hdr.probe.eg_done = 0;
                }
            }
        }
        if (hdr.br.counted == 1) {
            eg_md.d0 = eg_md.max0 - eg_md.v0;
            eg_md.d1 = eg_md.max1 - eg_md.v1;
        }

        // 6: the estimate min_i d_i and the thresholds as min(x, T) (== T in stage 7); the cleaner
        //    token: a probe that goes round again for cleaning takes it (or is dropped: another probe
        //    holds it), a holder that leaves the loop gives it back
        if (hdr.probe.kind == KIND_NONE) {
            if (hdr.br.counted == 1) {
                eg_md.min = min(eg_md.d0, eg_md.d1);
                eg_md.loss_cap0 = min(eg_md.d0, LOSS_THRESHOLD);
                eg_md.loss_cap1 = min(eg_md.d1, LOSS_THRESHOLD);
                eg_md.burst_cap = min(hdr.br.umin, BURST_THRESHOLD);
            }
        } else if (hdr.probe.kind == KIND_TO_INGRESS) {
            if (hdr.probe.cleaning == 1) {
                if (hdr.probe.holder == 0) {
                    eg_md.holder = acquire.execute(0);
                    hdr.probe.holder = (bit<1>) eg_md.holder;
                    eg_dprsr_md.drop_ctl = (bit<3>) (eg_md.holder ^ 1);
                }
            }
        } else if (hdr.probe.holder == 1) {
            release.execute(0);
            hdr.probe.holder = 0;
            if (hdr.probe.kind == KIND_RELEASE) {
                eg_dprsr_md.drop_ctl = 1;
            }
        }

        // 7: a flagged packet leaves with the report header; an unflagged one as it came
        if (hdr.br.counted == 1) {
            if (eg_md.loss_cap0 == LOSS_THRESHOLD) {
                if (eg_md.loss_cap1 == LOSS_THRESHOLD) {
                    if (eg_md.burst_cap == BURST_THRESHOLD) {
                        report(FLAG_HEAVY_LOSER | FLAG_BURSTY);
                    } else {
                        report(FLAG_HEAVY_LOSER);
                    }
                } else if (eg_md.burst_cap == BURST_THRESHOLD) {
                    report(FLAG_BURSTY);
                }
            } else if (eg_md.burst_cap == BURST_THRESHOLD) {
                report(FLAG_BURSTY);
            }
        }
    }
}

control SwitchEgressDeparser(packet_out pkt, inout header_t hdr, in egress_metadata_t eg_md,
                             in egress_intrinsic_metadata_for_deparser_t eg_dprsr_md) {
    apply {
        // the bridged header stays in the switch
        pkt.emit(hdr.ethernet);
        pkt.emit(hdr.probe);
        pkt.emit(hdr.rep);
        pkt.emit(hdr.ipv4);
        pkt.emit(hdr.l4);
    }
}

Pipeline(SwitchIngressParser(), SwitchIngress(), SwitchIngressDeparser(),
         SwitchEgressParser(), SwitchEgress(), SwitchEgressDeparser()) pipe;

Switch(pipe) main;
