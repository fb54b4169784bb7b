// TNA on Tofino 1: intrinsic metadata (rmtemu's own declaration). Field order and widths
// are the hardware's; the @padding fields fill each header to whole bytes.
#ifndef RMTEMU_TOFINO1_INTRINSICS_P4
#define RMTEMU_TOFINO1_INTRINSICS_P4

// What the ingress parser receives in front of each packet (64 bits).
@__intrinsic_metadata
header ingress_intrinsic_metadata_t {
    bit<1> resubmit_flag;          // 1 for a resubmitted packet
    @padding bit<1> _pad1;
    bit<2> packet_version;
    @padding bit<3> _pad2;
    PortId_t ingress_port;         // the port the packet came in on
    bit<48> ingress_mac_tstamp;    // arrival time at the MAC, in ns
}

// What ingress tells the traffic manager.
@__intrinsic_metadata
struct ingress_intrinsic_metadata_for_tm_t {
    PortId_t ucast_egress_port;    // where a unicast packet goes
    bit<1> bypass_egress;          // skip the egress pipeline
    bit<1> deflect_on_drop;
    bit<3> ingress_cos;
    QueueId_t qid;                 // the egress queue
    bit<3> icos_for_copy_to_cpu;
    bit<1> copy_to_cpu;
    bit<2> packet_color;
    bit<1> disable_ucast_cutthru;
    bit<1> enable_mcast_cutthru;
    MulticastGroupId_t mcast_grp_a; // first multicast group (0: none)
    MulticastGroupId_t mcast_grp_b; // second multicast group (0: none)
    bit<13> level1_mcast_hash;
    bit<13> level2_mcast_hash;
    L1ExclusionId_t level1_exclusion_id;
    L2ExclusionId_t level2_exclusion_id;
    bit<16> rid;                   // replication id
}

// What the ingress parser tells the ingress pipeline.
@__intrinsic_metadata
struct ingress_intrinsic_metadata_from_parser_t {
    bit<48> global_tstamp;         // time of arrival at ingress, in ns
    bit<32> global_ver;
    bit<16> parser_err;            // PARSER_ERROR_* bits
}

// What ingress tells its deparser.
@__intrinsic_metadata
struct ingress_intrinsic_metadata_for_deparser_t {
    bit<3> drop_ctl;               // bit 0: drop (unicast, multicast, resubmit); bit 1: no copy to CPU
    DigestType_t digest_type;
    ResubmitType_t resubmit_type;
    MirrorType_t mirror_type;
}

// What the egress parser receives in front of each packet.
@__intrinsic_metadata
header egress_intrinsic_metadata_t {
    @padding bit<7> _pad0;
    PortId_t egress_port;          // the port the packet leaves by
    @padding bit<5> _pad1;
    bit<19> enq_qdepth;            // queue depth when it was enqueued, in cells
    @padding bit<6> _pad2;
    bit<2> enq_congest_stat;
    @padding bit<14> _pad3;
    bit<18> enq_tstamp;            // time it was enqueued, in ns
    @padding bit<5> _pad4;
    bit<19> deq_qdepth;            // queue depth when it was dequeued
    @padding bit<6> _pad5;
    bit<2> deq_congest_stat;
    bit<8> app_pool_congest_stat;
    @padding bit<14> _pad6;
    bit<18> deq_timedelta;         // time it spent queued, in ns
    bit<16> egress_rid;
    @padding bit<7> _pad7;
    bit<1> egress_rid_first;
    @padding bit<3> _pad8;
    QueueId_t egress_qid;
    @padding bit<5> _pad9;
    bit<3> egress_cos;
    @padding bit<7> _pad10;
    bit<1> deflection_flag;
    bit<16> pkt_length;            // the packet's length in bytes
}

// What the egress parser tells the egress pipeline.
@__intrinsic_metadata
struct egress_intrinsic_metadata_from_parser_t {
    bit<48> global_tstamp;
    bit<32> global_ver;
    bit<16> parser_err;
}

// What egress tells its deparser.
@__intrinsic_metadata
struct egress_intrinsic_metadata_for_deparser_t {
    bit<3> drop_ctl;               // bit 0: drop; bit 1: no copy to CPU; bit 2: no mirror
    MirrorType_t mirror_type;
    bit<1> coalesce_flush;
    bit<7> coalesce_length;
}

// What egress tells the output port's MAC.
@__intrinsic_metadata
struct egress_intrinsic_metadata_for_output_port_t {
    bit<1> capture_tstamp_on_tx;
    bit<1> update_delay_on_tx;
}

// The packet generator's headers.
header pktgen_timer_header_t {
    @padding bit<3> _pad1;
    bit<2> pipe_id;
    bit<3> app_id;
    @padding bit<8> _pad2;
    bit<16> batch_id;
    bit<16> packet_id;
}

header pktgen_port_down_header_t {
    @padding bit<3> _pad1;
    bit<2> pipe_id;
    bit<3> app_id;
    @padding bit<7> _pad2;
    PortId_t port_num;
    bit<16> packet_id;
}

header pktgen_recirc_header_t {
    @padding bit<3> _pad1;
    bit<2> pipe_id;
    bit<3> app_id;
    bit<24> key;
    bit<16> packet_id;
}

// For IEEE 1588 time stamping at the egress MAC.
header ptp_metadata_t {
    bit<8> udp_cksum_byte_offset;
    bit<8> cf_byte_offset;
    bit<48> updated_cf;
}

#endif
