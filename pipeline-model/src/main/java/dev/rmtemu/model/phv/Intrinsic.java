package dev.rmtemu.model.phv;

/**
 * Intrinsic metadata with Tofino's names and widths (TNA). The engine fills the
 * "read" ones before a gress runs and acts on the "write" ones after it.
 * Ingress always carries {@link #INGRESS_PORT}, {@link #UCAST_EGRESS_PORT} and
 * {@link #DROP_CTL}; egress always carries {@link #EGRESS_PORT}; others occupy
 * PHV only when a program asks for them.
 */
public enum Intrinsic {
    INGRESS_PORT("ig_intr_md.ingress_port", 9, Gress.INGRESS, true),
    /** 1 on the pass of a resubmitted packet (its parser then reads the resubmit header), else 0. */
    RESUBMIT_FLAG("ig_intr_md.resubmit_flag", 1, Gress.INGRESS, false),
    INGRESS_MAC_TSTAMP("ig_intr_md.ingress_mac_tstamp", 48, Gress.INGRESS, false),
    UCAST_EGRESS_PORT("ig_intr_tm_md.ucast_egress_port", 9, Gress.INGRESS, true),
    QID("ig_intr_tm_md.qid", 5, Gress.INGRESS, false),
    /** The first multicast tree (0: none); the packet replication engine copies it to its group's nodes. */
    MCAST_GRP("ig_intr_tm_md.mcast_grp_a", 16, Gress.INGRESS, false),
    /** The second multicast tree (0: none): its copies follow those of {@link #MCAST_GRP}. */
    MCAST_GRP_B("ig_intr_tm_md.mcast_grp_b", 16, Gress.INGRESS, false),
    /** A group's level-1 node whose L1 exclusion id (valid) equals this is not copied. */
    LEVEL1_EXCLUSION_ID("ig_intr_tm_md.level1_exclusion_id", 16, Gress.INGRESS, false),
    /** Selects the PRE's port prune table entry (the L2 XID) for the nodes whose RID is {@link #RID}. */
    LEVEL2_EXCLUSION_ID("ig_intr_tm_md.level2_exclusion_id", 9, Gress.INGRESS, false),
    /** The packet's replication id: level-2 pruning applies to the nodes of this RID only. */
    RID("ig_intr_tm_md.rid", 16, Gress.INGRESS, false),
    DROP_CTL("ig_intr_dprsr_md.drop_ctl", 3, Gress.INGRESS, true),
    RESUBMIT("ig_intr_dprsr_md.resubmit_type", 3, Gress.INGRESS, false),
    DIGEST_TYPE("ig_intr_dprsr_md.digest_type", 3, Gress.INGRESS, false),
    MIRROR_TYPE("ig_intr_dprsr_md.mirror_type", 3, Gress.INGRESS, false),
    /** Non-zero: the packet skips the egress pipeline (TNA's {@code ig_intr_tm_md.bypass_egress}). */
    BYPASS_EGRESS("ig_intr_tm_md.bypass_egress", 1, Gress.INGRESS, false),
    EGRESS_PORT("eg_intr_md.egress_port", 9, Gress.EGRESS, true),
    EGRESS_QID("eg_intr_md.egress_qid", 5, Gress.EGRESS, false),
    /** A multicast copy's level-1 node RID (0 for a unicast packet). */
    EGRESS_RID("eg_intr_md.egress_rid", 16, Gress.EGRESS, false),
    ENQ_QDEPTH("eg_intr_md.enq_qdepth", 19, Gress.EGRESS, false),
    /** The enqueue time in ns, as TNA's bit<18> (tofino1_base.p4): it wraps every 262,144 ns. */
    ENQ_TSTAMP("eg_intr_md.enq_tstamp", 18, Gress.EGRESS, false),
    DEQ_QDEPTH("eg_intr_md.deq_qdepth", 19, Gress.EGRESS, false),
    /** Time queued in ns, as TNA's bit<18> (tofino1_base.p4). */
    DEQ_TIMEDELTA("eg_intr_md.deq_timedelta", 18, Gress.EGRESS, false),
    EGRESS_GLOBAL_TSTAMP("eg_prsr_md.global_tstamp", 48, Gress.EGRESS, false),
    PKT_LENGTH("eg_intr_md.pkt_length", 16, Gress.EGRESS, false),
    EGRESS_DROP_CTL("eg_intr_dprsr_md.drop_ctl", 3, Gress.EGRESS, false),
    EGRESS_MIRROR_TYPE("eg_intr_dprsr_md.mirror_type", 3, Gress.EGRESS, false),
    /** The time the ingress parser took the packet, in ns (TNA's ig_prsr_md.global_tstamp). */
    INGRESS_GLOBAL_TSTAMP("ig_prsr_md.global_tstamp", 48, Gress.INGRESS, false);

    private final String p4Name;
    private final int width;
    private final Gress gress;
    private final boolean always;

    Intrinsic(String p4Name, int width, Gress gress, boolean always) {
        this.p4Name = p4Name;
        this.width = width;
        this.gress = gress;
        this.always = always;
    }

    public String p4Name() {
        return p4Name;
    }

    public int width() {
        return width;
    }

    public Gress gress() {
        return gress;
    }

    /** True when every program of that gress carries the field. */
    public boolean always() {
        return always;
    }
}
