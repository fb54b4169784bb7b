package dev.rmtemu.model.phv;

/**
 * A decoded header field of the packet record a program without a parse graph of its own
 * may read (the programs of this repository name their fields by the parse graph instead,
 * {@code ProgramBuilder.header("ipv4.dst_addr")}). A program's own header on the wire (a
 * shim such as LossRadar's batch ID) is a header of its parse graph
 * ({@code model.parse.EtherTypeShim}); a field ingress hands egress inside the switch is a
 * bridged field ({@code ProgramBuilder.bridged}); a packet's length is better read from the
 * IP header's length field (the programs here do) or egress intrinsic metadata.
 */
public enum ParsedField {
    IPV4_SRC(32), IPV4_DST(32),
    IPV6_SRC_HI(64), IPV6_SRC_LO(64), IPV6_DST_HI(64), IPV6_DST_LO(64),
    IP_VERSION(4), PROTOCOL(8), TTL(8), IP_ID(16), TCP_FLAGS(8), TCP_SEQ(32),
    SRC_PORT(16), DST_PORT(16),
    /** The frame's wire length: not a header a Tofino ingress parses (TNA has it as egress intrinsic metadata only). */
    PACKET_LENGTH(16);

    private final int maxWidth;

    ParsedField(int maxWidth) {
        this.maxWidth = maxWidth;
    }

    /** The natural width of the record field (a declared field may be narrower). */
    public int maxWidth() {
        return maxWidth;
    }
}
