package dev.rmtemu.model.phv;

/**
 * Where the parser fills a header field from: a field of the packet record.
 * {@link #CARRIED} marks a field the program adds to the packet (a bridged or
 * custom header such as a batch ID or sequence number) that travels with it.
 * A program's own header on the wire (a shim such as LossRadar's batch ID) is a header
 * of its parse graph ({@code model.parse.EtherTypeShim}), not a field of the record.
 */
public enum ParsedField {
    IPV4_SRC(32), IPV4_DST(32),
    IPV6_SRC_HI(64), IPV6_SRC_LO(64), IPV6_DST_HI(64), IPV6_DST_LO(64),
    IP_VERSION(4), PROTOCOL(8), TTL(8), IP_ID(16), TCP_FLAGS(8), TCP_SEQ(32),
    SRC_PORT(16), DST_PORT(16), PACKET_LENGTH(16), PAYLOAD_HASH(32),
    CARRIED(64);

    private final int maxWidth;

    ParsedField(int maxWidth) {
        this.maxWidth = maxWidth;
    }

    /** The natural width of the record field (a declared field may be narrower). */
    public int maxWidth() {
        return maxWidth;
    }
}
