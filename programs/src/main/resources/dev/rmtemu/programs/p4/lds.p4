// LDS, the lossy difference sketch (Sanjuàs-Cuxart et al., IMC 2011), as a TNA program: the
// IR program `lds` with its defaults (role both: the sender's sketch in ingress, the
// receiver's in egress; R = 4 rows of C = 8,192 cells, vLDAs of k = 5 cells, every packet
// sampled, no weights, intervals of 2^30 ns, every packet to port 1, queue 0).
//
// A cell of row r holds s = sum of timestamps, n = packet count and d = XOR of packet
// digests; a packet of flow f updates cell h_r(f) + h'_r(x) mod C of row r, where h'_r(x),
// the packet's offset in the flow's virtual LDA, is byte r of the packet hash mod k. The
// packet x is the header fields no hop rewrites (trajectory sampling): the 5-tuple, the IPv4
// identification and the TCP sequence number (0 when the packet is not TCP), 19 bytes. Every
// hash is a reflected CRC-32 (init and final XOR all ones) with its own polynomial, as
// LdsHashes gives them: h_0..h_3 over the 5-tuple with CRC-32, -32C, -32K and -32K2, the
// packet hash with -32Q and the digest with -32D over the 19 bytes. The defaults sample every
// packet and weigh every flow 1, so the IR's sampling (-AUTOSAR) and class (-XFER) hashes
// are read by nothing and not declared here.
//
// Each register array holds two banks of C cells, interleaved (cell c of bank b at 2c + b):
// the sender takes the interval id from bits 37:30 of its ingress timestamp and stamps it
// into the shim header lds_h after Ethernet (EtherType 0x88B5); the receiver reads it back
// and removes the shim; both use its low bit as the bank. A 64-bit s does not fit a tofino1
// stateful ALU (32-bit words, no carry between words), so a row is three arrays:
//   s_lo  fed the negated addend -t, it subtracts it (lo + t) and returns its predicate,
//         nonzero when it carries (-t != 0 and lo >= -t): a gateway compares a field with
//         a constant only (bf-p4c mau/gateway.cpp), so the comparison is the ALU's;
//   nd    a pair cell, n += 1 (lo) and d ^= digest (hi);
//   s_hi  += the timestamp's high word, plus 1 after a carry (a gateway on s_lo's output).
// One end takes six stages: +0 the hashes, 2·(h_r mod C) (a mask of hash bits: C is a power
// of two, a stage has no divider) and the hash bytes; +1 the offset tables, 512 constants
// each (key: hash byte and bank, data 2·(byte mod k) + bank: a PHV ALU cannot divide by
// k = 5); +2 the cell's index, wrapped modulo 2C by its width, and -t; +3 s_lo, +4 nd and
// the carry gateways, +5 s_hi, four stateful ALUs to a stage.
//
// Only IPv4 packets are sketched. The ports of the 5-tuple are those of TCP and UDP (l4_ports_h,
// the first four bytes of either); the IR twin's default parse graph also takes ICMP's type and
// code as ports, and it hashes the zeros of an absent IPv4 header.
#include <core.p4>
#include <tna.p4>

// 2C register cells: two banks of C = 8,192
typedef bit<14> index_t;
const bit<32> INDEX_SPACE = 16384;
const bit<16> LDS_ETHER_TYPE = 0x88B5;
const bit<16> IPV4_ETHER_TYPE = 0x0800;
// an interval is 2^30 ns of the sender's ingress timestamp: the interval id is its bits 37:30
#define INTERVAL_SHIFT 30
const PortId_t LDS_PORT = 1;
const QueueId_t BEST_EFFORT_QID = 0;

header ethernet_h {
    bit<48> dst_addr;
    bit<48> src_addr;
    bit<16> ether_type;
}

// From the sender to the receiver: the sender's interval id and the EtherType it displaced.
header lds_h {
    bit<8> interval_id;
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

// TCP's bytes 4..7, extracted from TCP only. A packet that is not TCP hashes a sequence
// number of 0: the parser zeroes the PHV, and the field shares its containers with no other.
@pa_no_overlay("ingress", "hdr.tcp.seq_no")
@pa_no_overlay("egress", "hdr.tcp.seq_no")
header tcp_seq_h {
    bit<32> seq_no;
}

struct header_t {
    ethernet_h ethernet;
    lds_h lds;
    ipv4_h ipv4;
    l4_ports_h l4;
    tcp_seq_h tcp;
}

// One end's PHV: per row the vLDA's first cell 2·h_r, the packet hash's byte r, the table's
// 2·offset + bank, the register index, s_lo's carry predicate and s_hi's addend.
struct lds_end_t {
    index_t base0;
    index_t base1;
    index_t base2;
    index_t base3;
    bit<8> slice0;
    bit<8> slice1;
    bit<8> slice2;
    bit<8> slice3;
    bit<4> offset0;
    bit<4> offset1;
    bit<4> offset2;
    bit<4> offset3;
    index_t cell0;
    index_t cell1;
    index_t cell2;
    index_t cell3;
    bit<4> carry0;
    bit<4> carry1;
    bit<4> carry2;
    bit<4> carry3;
    bit<32> hi_in0;
    bit<32> hi_in1;
    bit<32> hi_in2;
    bit<32> hi_in3;
    bit<1> bank;
    bit<32> digest;
    bit<32> add_lo;
    bit<32> add_lo_neg;
    bit<16> add_hi;
}

// The n/d cell: the count (lo) and the digests' XOR (hi).
struct nd_t {
    bit<32> lo;
    bit<32> hi;
}

// The frame's headers, the same at ingress and at egress.
#define PARSE_FRAME \
    state parse_ethernet { \
        pkt.extract(hdr.ethernet); \
        transition select(hdr.ethernet.ether_type) { \
            LDS_ETHER_TYPE : parse_lds; \
            IPV4_ETHER_TYPE : parse_ipv4; \
            default : accept; \
        } \
    } \
    state parse_lds { \
        pkt.extract(hdr.lds); \
        transition select(hdr.lds.ether_type) { \
            IPV4_ETHER_TYPE : parse_ipv4; \
            default : accept; \
        } \
    } \
    state parse_ipv4 { \
        pkt.extract(hdr.ipv4); \
        transition select(hdr.ipv4.frag_offset, hdr.ipv4.protocol) { \
            (0, 6) : parse_tcp; \
            (0, 17) : parse_udp; \
            default : accept; \
        } \
    } \
    state parse_tcp { \
        pkt.extract(hdr.l4); \
        pkt.extract(hdr.tcp); \
        transition accept; \
    } \
    state parse_udp { \
        pkt.extract(hdr.l4); \
        transition accept; \
    }

// The flow (13 bytes) and the packet (19 bytes) as the hashes read them.
#define FLOW {hdr.ipv4.src_addr, hdr.ipv4.dst_addr, hdr.ipv4.protocol, hdr.l4.src_port, hdr.l4.dst_port}
#define PACKET {hdr.ipv4.src_addr, hdr.ipv4.dst_addr, hdr.ipv4.protocol, hdr.l4.src_port, hdr.l4.dst_port, \
                hdr.ipv4.identification, hdr.tcp.seq_no}

// A reflected CRC-32 with polynomial poly, init and final XOR all ones, as end e's hash name
// of its low W bits.
#define CRC32(e, name, poly, W) \
    CRCPolynomial<bit<32>>(poly, true, false, false, 0xFFFFFFFF, 0xFFFFFFFF) lds_##e##_##name##_poly; \
    Hash<bit<W>>(HashAlgorithm_t.CUSTOM, lds_##e##_##name##_poly) lds_##e##_##name;

// End e's hash units: h_0..h_3 over the flow (h_r mod C: 13 bits), the packet hash and the
// digest over the packet.
#define HASHES(e) \
    CRC32(e, h0, 0x04C11DB7, 13) \
    CRC32(e, h1, 0x1EDC6F41, 13) \
    CRC32(e, h2, 0x741B8CD7, 13) \
    CRC32(e, h3, 0x32583499, 13) \
    CRC32(e, packet, 0x814141AB, 32) \
    CRC32(e, digest, 0xA833982B, 32)

// (hash byte, bank) -> 2·(byte mod 5) + bank, for every byte and bank.
#define OFFSET_ENTRIES(act) \
    (0, 0) : act(0); (0, 1) : act(1); \
    (1, 0) : act(2); (1, 1) : act(3); \
    (2, 0) : act(4); (2, 1) : act(5); \
    (3, 0) : act(6); (3, 1) : act(7); \
    (4, 0) : act(8); (4, 1) : act(9); \
    (5, 0) : act(0); (5, 1) : act(1); \
    (6, 0) : act(2); (6, 1) : act(3); \
    (7, 0) : act(4); (7, 1) : act(5); \
    (8, 0) : act(6); (8, 1) : act(7); \
    (9, 0) : act(8); (9, 1) : act(9); \
    (10, 0) : act(0); (10, 1) : act(1); \
    (11, 0) : act(2); (11, 1) : act(3); \
    (12, 0) : act(4); (12, 1) : act(5); \
    (13, 0) : act(6); (13, 1) : act(7); \
    (14, 0) : act(8); (14, 1) : act(9); \
    (15, 0) : act(0); (15, 1) : act(1); \
    (16, 0) : act(2); (16, 1) : act(3); \
    (17, 0) : act(4); (17, 1) : act(5); \
    (18, 0) : act(6); (18, 1) : act(7); \
    (19, 0) : act(8); (19, 1) : act(9); \
    (20, 0) : act(0); (20, 1) : act(1); \
    (21, 0) : act(2); (21, 1) : act(3); \
    (22, 0) : act(4); (22, 1) : act(5); \
    (23, 0) : act(6); (23, 1) : act(7); \
    (24, 0) : act(8); (24, 1) : act(9); \
    (25, 0) : act(0); (25, 1) : act(1); \
    (26, 0) : act(2); (26, 1) : act(3); \
    (27, 0) : act(4); (27, 1) : act(5); \
    (28, 0) : act(6); (28, 1) : act(7); \
    (29, 0) : act(8); (29, 1) : act(9); \
    (30, 0) : act(0); (30, 1) : act(1); \
    (31, 0) : act(2); (31, 1) : act(3); \
    (32, 0) : act(4); (32, 1) : act(5); \
    (33, 0) : act(6); (33, 1) : act(7); \
    (34, 0) : act(8); (34, 1) : act(9); \
    (35, 0) : act(0); (35, 1) : act(1); \
    (36, 0) : act(2); (36, 1) : act(3); \
    (37, 0) : act(4); (37, 1) : act(5); \
    (38, 0) : act(6); (38, 1) : act(7); \
    (39, 0) : act(8); (39, 1) : act(9); \
    (40, 0) : act(0); (40, 1) : act(1); \
    (41, 0) : act(2); (41, 1) : act(3); \
    (42, 0) : act(4); (42, 1) : act(5); \
    (43, 0) : act(6); (43, 1) : act(7); \
    (44, 0) : act(8); (44, 1) : act(9); \
    (45, 0) : act(0); (45, 1) : act(1); \
    (46, 0) : act(2); (46, 1) : act(3); \
    (47, 0) : act(4); (47, 1) : act(5); \
    (48, 0) : act(6); (48, 1) : act(7); \
    (49, 0) : act(8); (49, 1) : act(9); \
    (50, 0) : act(0); (50, 1) : act(1); \
    (51, 0) : act(2); (51, 1) : act(3); \
    (52, 0) : act(4); (52, 1) : act(5); \
    (53, 0) : act(6); (53, 1) : act(7); \
    (54, 0) : act(8); (54, 1) : act(9); \
    (55, 0) : act(0); (55, 1) : act(1); \
    (56, 0) : act(2); (56, 1) : act(3); \
    (57, 0) : act(4); (57, 1) : act(5); \
    (58, 0) : act(6); (58, 1) : act(7); \
    (59, 0) : act(8); (59, 1) : act(9); \
    (60, 0) : act(0); (60, 1) : act(1); \
    (61, 0) : act(2); (61, 1) : act(3); \
    (62, 0) : act(4); (62, 1) : act(5); \
    (63, 0) : act(6); (63, 1) : act(7); \
    (64, 0) : act(8); (64, 1) : act(9); \
    (65, 0) : act(0); (65, 1) : act(1); \
    (66, 0) : act(2); (66, 1) : act(3); \
    (67, 0) : act(4); (67, 1) : act(5); \
    (68, 0) : act(6); (68, 1) : act(7); \
    (69, 0) : act(8); (69, 1) : act(9); \
    (70, 0) : act(0); (70, 1) : act(1); \
    (71, 0) : act(2); (71, 1) : act(3); \
    (72, 0) : act(4); (72, 1) : act(5); \
    (73, 0) : act(6); (73, 1) : act(7); \
    (74, 0) : act(8); (74, 1) : act(9); \
    (75, 0) : act(0); (75, 1) : act(1); \
    (76, 0) : act(2); (76, 1) : act(3); \
    (77, 0) : act(4); (77, 1) : act(5); \
    (78, 0) : act(6); (78, 1) : act(7); \
    (79, 0) : act(8); (79, 1) : act(9); \
    (80, 0) : act(0); (80, 1) : act(1); \
    (81, 0) : act(2); (81, 1) : act(3); \
    (82, 0) : act(4); (82, 1) : act(5); \
    (83, 0) : act(6); (83, 1) : act(7); \
    (84, 0) : act(8); (84, 1) : act(9); \
    (85, 0) : act(0); (85, 1) : act(1); \
    (86, 0) : act(2); (86, 1) : act(3); \
    (87, 0) : act(4); (87, 1) : act(5); \
    (88, 0) : act(6); (88, 1) : act(7); \
    (89, 0) : act(8); (89, 1) : act(9); \
    (90, 0) : act(0); (90, 1) : act(1); \
    (91, 0) : act(2); (91, 1) : act(3); \
    (92, 0) : act(4); (92, 1) : act(5); \
    (93, 0) : act(6); (93, 1) : act(7); \
    (94, 0) : act(8); (94, 1) : act(9); \
    (95, 0) : act(0); (95, 1) : act(1); \
    (96, 0) : act(2); (96, 1) : act(3); \
    (97, 0) : act(4); (97, 1) : act(5); \
    (98, 0) : act(6); (98, 1) : act(7); \
    (99, 0) : act(8); (99, 1) : act(9); \
    (100, 0) : act(0); (100, 1) : act(1); \
    (101, 0) : act(2); (101, 1) : act(3); \
    (102, 0) : act(4); (102, 1) : act(5); \
    (103, 0) : act(6); (103, 1) : act(7); \
    (104, 0) : act(8); (104, 1) : act(9); \
    (105, 0) : act(0); (105, 1) : act(1); \
    (106, 0) : act(2); (106, 1) : act(3); \
    (107, 0) : act(4); (107, 1) : act(5); \
    (108, 0) : act(6); (108, 1) : act(7); \
    (109, 0) : act(8); (109, 1) : act(9); \
    (110, 0) : act(0); (110, 1) : act(1); \
    (111, 0) : act(2); (111, 1) : act(3); \
    (112, 0) : act(4); (112, 1) : act(5); \
    (113, 0) : act(6); (113, 1) : act(7); \
    (114, 0) : act(8); (114, 1) : act(9); \
    (115, 0) : act(0); (115, 1) : act(1); \
    (116, 0) : act(2); (116, 1) : act(3); \
    (117, 0) : act(4); (117, 1) : act(5); \
    (118, 0) : act(6); (118, 1) : act(7); \
    (119, 0) : act(8); (119, 1) : act(9); \
    (120, 0) : act(0); (120, 1) : act(1); \
    (121, 0) : act(2); (121, 1) : act(3); \
    (122, 0) : act(4); (122, 1) : act(5); \
    (123, 0) : act(6); (123, 1) : act(7); \
    (124, 0) : act(8); (124, 1) : act(9); \
    (125, 0) : act(0); (125, 1) : act(1); \
    (126, 0) : act(2); (126, 1) : act(3); \
    (127, 0) : act(4); (127, 1) : act(5); \
    (128, 0) : act(6); (128, 1) : act(7); \
    (129, 0) : act(8); (129, 1) : act(9); \
    (130, 0) : act(0); (130, 1) : act(1); \
    (131, 0) : act(2); (131, 1) : act(3); \
    (132, 0) : act(4); (132, 1) : act(5); \
    (133, 0) : act(6); (133, 1) : act(7); \
    (134, 0) : act(8); (134, 1) : act(9); \
    (135, 0) : act(0); (135, 1) : act(1); \
    (136, 0) : act(2); (136, 1) : act(3); \
    (137, 0) : act(4); (137, 1) : act(5); \
    (138, 0) : act(6); (138, 1) : act(7); \
    (139, 0) : act(8); (139, 1) : act(9); \
    (140, 0) : act(0); (140, 1) : act(1); \
    (141, 0) : act(2); (141, 1) : act(3); \
    (142, 0) : act(4); (142, 1) : act(5); \
    (143, 0) : act(6); (143, 1) : act(7); \
    (144, 0) : act(8); (144, 1) : act(9); \
    (145, 0) : act(0); (145, 1) : act(1); \
    (146, 0) : act(2); (146, 1) : act(3); \
    (147, 0) : act(4); (147, 1) : act(5); \
    (148, 0) : act(6); (148, 1) : act(7); \
    (149, 0) : act(8); (149, 1) : act(9); \
    (150, 0) : act(0); (150, 1) : act(1); \
    (151, 0) : act(2); (151, 1) : act(3); \
    (152, 0) : act(4); (152, 1) : act(5); \
    (153, 0) : act(6); (153, 1) : act(7); \
    (154, 0) : act(8); (154, 1) : act(9); \
    (155, 0) : act(0); (155, 1) : act(1); \
    (156, 0) : act(2); (156, 1) : act(3); \
    (157, 0) : act(4); (157, 1) : act(5); \
    (158, 0) : act(6); (158, 1) : act(7); \
    (159, 0) : act(8); (159, 1) : act(9); \
    (160, 0) : act(0); (160, 1) : act(1); \
    (161, 0) : act(2); (161, 1) : act(3); \
    (162, 0) : act(4); (162, 1) : act(5); \
    (163, 0) : act(6); (163, 1) : act(7); \
    (164, 0) : act(8); (164, 1) : act(9); \
    (165, 0) : act(0); (165, 1) : act(1); \
    (166, 0) : act(2); (166, 1) : act(3); \
    (167, 0) : act(4); (167, 1) : act(5); \
    (168, 0) : act(6); (168, 1) : act(7); \
    (169, 0) : act(8); (169, 1) : act(9); \
    (170, 0) : act(0); (170, 1) : act(1); \
    (171, 0) : act(2); (171, 1) : act(3); \
    (172, 0) : act(4); (172, 1) : act(5); \
    (173, 0) : act(6); (173, 1) : act(7); \
    (174, 0) : act(8); (174, 1) : act(9); \
    (175, 0) : act(0); (175, 1) : act(1); \
    (176, 0) : act(2); (176, 1) : act(3); \
    (177, 0) : act(4); (177, 1) : act(5); \
    (178, 0) : act(6); (178, 1) : act(7); \
    (179, 0) : act(8); (179, 1) : act(9); \
    (180, 0) : act(0); (180, 1) : act(1); \
    (181, 0) : act(2); (181, 1) : act(3); \
    (182, 0) : act(4); (182, 1) : act(5); \
    (183, 0) : act(6); (183, 1) : act(7); \
    (184, 0) : act(8); (184, 1) : act(9); \
    (185, 0) : act(0); (185, 1) : act(1); \
    (186, 0) : act(2); (186, 1) : act(3); \
    (187, 0) : act(4); (187, 1) : act(5); \
    (188, 0) : act(6); (188, 1) : act(7); \
    (189, 0) : act(8); (189, 1) : act(9); \
    (190, 0) : act(0); (190, 1) : act(1); \
    (191, 0) : act(2); (191, 1) : act(3); \
    (192, 0) : act(4); (192, 1) : act(5); \
    (193, 0) : act(6); (193, 1) : act(7); \
    (194, 0) : act(8); (194, 1) : act(9); \
    (195, 0) : act(0); (195, 1) : act(1); \
    (196, 0) : act(2); (196, 1) : act(3); \
    (197, 0) : act(4); (197, 1) : act(5); \
    (198, 0) : act(6); (198, 1) : act(7); \
    (199, 0) : act(8); (199, 1) : act(9); \
    (200, 0) : act(0); (200, 1) : act(1); \
    (201, 0) : act(2); (201, 1) : act(3); \
    (202, 0) : act(4); (202, 1) : act(5); \
    (203, 0) : act(6); (203, 1) : act(7); \
    (204, 0) : act(8); (204, 1) : act(9); \
    (205, 0) : act(0); (205, 1) : act(1); \
    (206, 0) : act(2); (206, 1) : act(3); \
    (207, 0) : act(4); (207, 1) : act(5); \
    (208, 0) : act(6); (208, 1) : act(7); \
    (209, 0) : act(8); (209, 1) : act(9); \
    (210, 0) : act(0); (210, 1) : act(1); \
    (211, 0) : act(2); (211, 1) : act(3); \
    (212, 0) : act(4); (212, 1) : act(5); \
    (213, 0) : act(6); (213, 1) : act(7); \
    (214, 0) : act(8); (214, 1) : act(9); \
    (215, 0) : act(0); (215, 1) : act(1); \
    (216, 0) : act(2); (216, 1) : act(3); \
    (217, 0) : act(4); (217, 1) : act(5); \
    (218, 0) : act(6); (218, 1) : act(7); \
    (219, 0) : act(8); (219, 1) : act(9); \
    (220, 0) : act(0); (220, 1) : act(1); \
    (221, 0) : act(2); (221, 1) : act(3); \
    (222, 0) : act(4); (222, 1) : act(5); \
    (223, 0) : act(6); (223, 1) : act(7); \
    (224, 0) : act(8); (224, 1) : act(9); \
    (225, 0) : act(0); (225, 1) : act(1); \
    (226, 0) : act(2); (226, 1) : act(3); \
    (227, 0) : act(4); (227, 1) : act(5); \
    (228, 0) : act(6); (228, 1) : act(7); \
    (229, 0) : act(8); (229, 1) : act(9); \
    (230, 0) : act(0); (230, 1) : act(1); \
    (231, 0) : act(2); (231, 1) : act(3); \
    (232, 0) : act(4); (232, 1) : act(5); \
    (233, 0) : act(6); (233, 1) : act(7); \
    (234, 0) : act(8); (234, 1) : act(9); \
    (235, 0) : act(0); (235, 1) : act(1); \
    (236, 0) : act(2); (236, 1) : act(3); \
    (237, 0) : act(4); (237, 1) : act(5); \
    (238, 0) : act(6); (238, 1) : act(7); \
    (239, 0) : act(8); (239, 1) : act(9); \
    (240, 0) : act(0); (240, 1) : act(1); \
    (241, 0) : act(2); (241, 1) : act(3); \
    (242, 0) : act(4); (242, 1) : act(5); \
    (243, 0) : act(6); (243, 1) : act(7); \
    (244, 0) : act(8); (244, 1) : act(9); \
    (245, 0) : act(0); (245, 1) : act(1); \
    (246, 0) : act(2); (246, 1) : act(3); \
    (247, 0) : act(4); (247, 1) : act(5); \
    (248, 0) : act(6); (248, 1) : act(7); \
    (249, 0) : act(8); (249, 1) : act(9); \
    (250, 0) : act(0); (250, 1) : act(1); \
    (251, 0) : act(2); (251, 1) : act(3); \
    (252, 0) : act(4); (252, 1) : act(5); \
    (253, 0) : act(6); (253, 1) : act(7); \
    (254, 0) : act(8); (254, 1) : act(9); \
    (255, 0) : act(0); (255, 1) : act(1); \

// Row r of end e (metadata md): its offset table and its three arrays with their stateful ALUs.
#define ROW(e, md, r) \
    action lds_##e##_set_offset##r(bit<4> offset) { \
        md.offset##r = offset; \
    } \
    table lds_##e##_offset##r { \
        key = { \
            md.slice##r : exact; \
            md.bank : exact; \
        } \
        actions = { lds_##e##_set_offset##r; } \
        size = 512; \
        const entries = { \
            OFFSET_ENTRIES(lds_##e##_set_offset##r) \
        } \
    } \
    Register<bit<32>, index_t>(INDEX_SPACE) lds_##e##_s_lo_##r; \
    RegisterAction<bit<32>, index_t, bit<4>>(lds_##e##_s_lo_##r) lds_##e##_add_lo_##r = { \
        void apply(inout bit<32> value, out bit<4> rv) { \
            if (value >= md.add_lo_neg) { \
                if (md.add_lo_neg != 0) { \
                    rv = this.predicate(value >= md.add_lo_neg, md.add_lo_neg != 0); \
                } \
            } \
            value = value - md.add_lo_neg; \
        } \
    }; \
    Register<nd_t, index_t>(INDEX_SPACE) lds_##e##_nd_##r; \
    RegisterAction<nd_t, index_t, bit<32>>(lds_##e##_nd_##r) lds_##e##_count_xor_##r = { \
        void apply(inout nd_t value) { \
            value.lo = value.lo + 1; \
            value.hi = value.hi ^ md.digest; \
        } \
    }; \
    Register<bit<32>, index_t>(INDEX_SPACE) lds_##e##_s_hi_##r; \
    RegisterAction<bit<32>, index_t, bit<32>>(lds_##e##_s_hi_##r) lds_##e##_add_hi_##r = { \
        void apply(inout bit<32> value) { \
            value = value + md.hi_in##r; \
        } \
    };

// +0: the vLDA's first cell 2·(h_r mod C) and the packet hash's byte r.
#define CELL_AND_BYTE(e, md, r) \
    md.base##r = (index_t) lds_##e##_h##r.get(FLOW) << 1; \
    md.slice##r = lds_##e##_packet.get(PACKET)[8 * r + 7:8 * r];

// +2: the register index 2·base + 2·offset + bank, wrapped by its 14 bits.
#define INDEX(md, r) md.cell##r = md.base##r + (index_t) md.offset##r;

// +4: s_hi's addend, the timestamp's high word plus s_lo's carry.
#define CARRY(md, r) \
    if (md.carry##r != 0) { \
        md.hi_in##r = (bit<32>) md.add_hi + 1; \
    } else { \
        md.hi_in##r = (bit<32>) md.add_hi; \
    }

// Both ends, from the timestamp ts on: +0 .. +5 (the offset tables apply in +1). The sketch
// keeps IPv4 packets: one gateway around the twelve stateful ALUs, which placement spreads four
// to a stage (s_lo, then n/d beside the carry gateways, then s_hi), as p4c places the action
// table it synthesizes for each register call.
#define SKETCH(e, md, ts) \
    CELL_AND_BYTE(e, md, 0) CELL_AND_BYTE(e, md, 1) CELL_AND_BYTE(e, md, 2) CELL_AND_BYTE(e, md, 3) \
    md.digest = lds_##e##_digest.get(PACKET); \
    md.add_lo = ts[31:0]; \
    md.add_hi = ts[47:32]; \
    lds_##e##_offset0.apply(); \
    lds_##e##_offset1.apply(); \
    lds_##e##_offset2.apply(); \
    lds_##e##_offset3.apply(); \
    INDEX(md, 0) INDEX(md, 1) INDEX(md, 2) INDEX(md, 3) \
    md.add_lo_neg = 0 - md.add_lo; \
    if (hdr.ipv4.isValid()) { \
        md.carry0 = lds_##e##_add_lo_0.execute(md.cell0); \
        md.carry1 = lds_##e##_add_lo_1.execute(md.cell1); \
        md.carry2 = lds_##e##_add_lo_2.execute(md.cell2); \
        md.carry3 = lds_##e##_add_lo_3.execute(md.cell3); \
        lds_##e##_count_xor_0.execute(md.cell0); \
        lds_##e##_count_xor_1.execute(md.cell1); \
        lds_##e##_count_xor_2.execute(md.cell2); \
        lds_##e##_count_xor_3.execute(md.cell3); \
        CARRY(md, 0) CARRY(md, 1) CARRY(md, 2) CARRY(md, 3) \
        lds_##e##_add_hi_0.execute(md.cell0); \
        lds_##e##_add_hi_1.execute(md.cell1); \
        lds_##e##_add_hi_2.execute(md.cell2); \
        lds_##e##_add_hi_3.execute(md.cell3); \
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

parser SwitchIngressParser(packet_in pkt, out header_t hdr, out lds_end_t ig_md,
                           out ingress_intrinsic_metadata_t ig_intr_md) {
    TofinoIngressParser() tofino_parser;

    state start {
        tofino_parser.apply(pkt, ig_intr_md);
        transition parse_ethernet;
    }
    PARSE_FRAME
}

// The sender: its sketch, the interval id into the shim, and the packet to port 1.
control SwitchIngress(inout header_t hdr, inout lds_end_t ig_md,
                      in ingress_intrinsic_metadata_t ig_intr_md,
                      in ingress_intrinsic_metadata_from_parser_t ig_prsr_md,
                      inout ingress_intrinsic_metadata_for_deparser_t ig_dprsr_md,
                      inout ingress_intrinsic_metadata_for_tm_t ig_tm_md) {
    HASHES(tx)
    ROW(tx, ig_md, 0)
    ROW(tx, ig_md, 1)
    ROW(tx, ig_md, 2)
    ROW(tx, ig_md, 3)

    apply {
        // the interval id is a bit slice of the timestamp, the bank its low bit
        ig_md.bank = ig_intr_md.ingress_mac_tstamp[INTERVAL_SHIFT:INTERVAL_SHIFT];
        hdr.lds.interval_id = ig_intr_md.ingress_mac_tstamp[INTERVAL_SHIFT + 7:INTERVAL_SHIFT];
        if (!hdr.lds.isValid()) {
            // Ethernet's EtherType moves into the shim, Ethernet announces the shim
            hdr.lds.setValid();
            hdr.lds.ether_type = hdr.ethernet.ether_type;
            hdr.ethernet.ether_type = LDS_ETHER_TYPE;
        }
        ig_tm_md.ucast_egress_port = LDS_PORT;
        ig_tm_md.qid = BEST_EFFORT_QID;
        SKETCH(tx, ig_md, ig_intr_md.ingress_mac_tstamp)
    }
}

control SwitchIngressDeparser(packet_out pkt, inout header_t hdr, in lds_end_t ig_md,
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

parser SwitchEgressParser(packet_in pkt, out header_t hdr, out lds_end_t eg_md,
                          out egress_intrinsic_metadata_t eg_intr_md) {
    TofinoEgressParser() tofino_parser;

    state start {
        tofino_parser.apply(pkt, eg_intr_md);
        transition parse_ethernet;
    }
    PARSE_FRAME
}

// The receiver: the bank from the sender's interval id, its sketch, and the shim removed.
control SwitchEgress(inout header_t hdr, inout lds_end_t eg_md,
                     in egress_intrinsic_metadata_t eg_intr_md,
                     in egress_intrinsic_metadata_from_parser_t eg_prsr_md,
                     inout egress_intrinsic_metadata_for_deparser_t eg_dprsr_md,
                     inout egress_intrinsic_metadata_for_output_port_t eg_oport_md) {
    HASHES(rx)
    ROW(rx, eg_md, 0)
    ROW(rx, eg_md, 1)
    ROW(rx, eg_md, 2)
    ROW(rx, eg_md, 3)

    apply {
        eg_md.bank = hdr.lds.interval_id[0:0];
        if (hdr.lds.isValid()) {
            // the receiver is the shim's last hop: Ethernet gets its EtherType back
            hdr.lds.setInvalid();
            hdr.ethernet.ether_type = hdr.lds.ether_type;
        }
        SKETCH(rx, eg_md, eg_prsr_md.global_tstamp)
    }
}

control SwitchEgressDeparser(packet_out pkt, inout header_t hdr, in lds_end_t eg_md,
                             in egress_intrinsic_metadata_for_deparser_t eg_dprsr_md) {
    apply {
        pkt.emit(hdr);
    }
}

Pipeline(SwitchIngressParser(), SwitchIngress(), SwitchIngressDeparser(),
         SwitchEgressParser(), SwitchEgress(), SwitchEgressDeparser()) pipe;

Switch(pipe) main;
