// TNA on Tofino 1: widths, typedefs and constants (rmtemu's own declaration).
#ifndef RMTEMU_TOFINO1_TYPES_P4
#define RMTEMU_TOFINO1_TYPES_P4

#include <core.p4>

// Widths, as macros, so that a program can size its own fields with them.
#define PORT_ID_WIDTH 9
#define MULTICAST_GROUP_ID_WIDTH 16
#define QUEUE_ID_WIDTH 5
#define MIRROR_TYPE_WIDTH 3
#define MIRROR_ID_WIDTH 10
#define RESUBMIT_TYPE_WIDTH 3
#define DIGEST_TYPE_WIDTH 3
#define REPLICATION_ID_WIDTH 16
#define L1_EXCLUSION_ID_WIDTH 16
#define L2_EXCLUSION_ID_WIDTH 9

typedef bit<PORT_ID_WIDTH> PortId_t;                       // a device port: pipe in bits 8:7, port in 6:0
typedef bit<MULTICAST_GROUP_ID_WIDTH> MulticastGroupId_t;
typedef bit<QUEUE_ID_WIDTH> QueueId_t;
typedef bit<MIRROR_TYPE_WIDTH> MirrorType_t;
typedef bit<MIRROR_ID_WIDTH> MirrorId_t;
typedef bit<RESUBMIT_TYPE_WIDTH> ResubmitType_t;
typedef bit<DIGEST_TYPE_WIDTH> DigestType_t;
typedef bit<REPLICATION_ID_WIDTH> ReplicationId_t;
typedef bit<L1_EXCLUSION_ID_WIDTH> L1ExclusionId_t;
typedef bit<L2_EXCLUSION_ID_WIDTH> L2ExclusionId_t;
typedef error ParserError_t;

// The port metadata that precedes a packet in the ingress parser, in bits.
const bit<32> PORT_METADATA_SIZE = 32w64;

// The pipe and the port within the pipe of a device port.
#define DEVPORT_PIPE_MASK 0x180
#define DEVPORT_PIPE(port) (port)[8:7]
#define DEVPORT_PORT_MASK 0x7f
#define DEVPORT_PORT(port) (port)[6:0]

// Bits of the parser error word (parser_err in the *_from_parser_t metadata).
const bit<16> PARSER_ERROR_OK = 16w0x0000;
const bit<16> PARSER_ERROR_NO_MATCH = 16w0x0001;
const bit<16> PARSER_ERROR_PARTIAL_HDR = 16w0x0002;
const bit<16> PARSER_ERROR_CTR_RANGE = 16w0x0004;
const bit<16> PARSER_ERROR_TIMEOUT_USER = 16w0x0008;
const bit<16> PARSER_ERROR_TIMEOUT_HW = 16w0x0010;
const bit<16> PARSER_ERROR_SRC_EXT = 16w0x0020;
const bit<16> PARSER_ERROR_DST_CONT = 16w0x0040;
const bit<16> PARSER_ERROR_PHV_OWNER = 16w0x0080;
const bit<16> PARSER_ERROR_MULTIWRITE = 16w0x0100;
const bit<16> PARSER_ERROR_ARAM_MBE = 16w0x0400;
const bit<16> PARSER_ERROR_FCS = 16w0x0800;

// What a counter counts; how a meter measures; the colours a meter gives.
enum CounterType_t { PACKETS, BYTES, PACKETS_AND_BYTES }
enum MeterType_t { PACKETS, BYTES }
enum bit<8> MeterColor_t { GREEN = 8w0, YELLOW = 8w1, RED = 8w3 }

// How an action selector picks a member.
enum SelectorMode_t { FAIR, RESILIENT }

// The hash units' algorithms; CUSTOM takes its polynomial from a CRCPolynomial.
enum HashAlgorithm_t { IDENTITY, RANDOM, XOR8, XOR16, XOR32, CRC8, CRC16, CRC32, CRC64, CUSTOM }

// The operations of a stateful ALU's math unit.
enum MathOp_t { MUL, SQR, SQRT, DIV, RSQR, RSQRT }

// Match kinds Tofino adds to the core's exact, ternary and lpm.
match_kind {
    range,                 // lo <= key <= hi
    selector,              // the key an action selector hashes
    atcam_partition_index  // the partition of an algorithmic TCAM
}

// Errors Tofino's parser adds to the core's.
error {
    CounterRange,          // the parser counter left its range
    Timeout,               // the parser took too long
    PhvOwner,              // an extract into a container the other gress owns
    MultiWrite,            // a container written twice
    IbufOverflow,          // the input buffer overflowed
    IbufUnderflow          // the input buffer ran empty
}

#endif
