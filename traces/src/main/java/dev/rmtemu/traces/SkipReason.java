package dev.rmtemu.traces;

import java.util.Arrays;
import java.util.Comparator;

/**
 * Why a captured frame did not become a packet record (a reader's {@code skipped()}), or why a
 * frame kept as a record with IP version 0 did not decode as IP (a capture reader's
 * {@code notIp()}): ARP, other ethertypes, MPLS or too many tags, short or malformed IP headers
 * are kept with their bytes, since the switch receives them too. Labels are stable report keys.
 */
public enum SkipReason {
    /** ARP / RARP frames. */
    ARP("arp"),
    /** An Ethernet (or SLL) frame whose ethertype is neither IPv4, IPv6, VLAN nor MPLS. */
    NON_IP_ETHERTYPE("non-ip-ethertype"),
    /** An MPLS label stack whose payload does not start like IPv4 or IPv6. */
    MPLS_NON_IP("mpls-non-ip"),
    /** More VLAN tags or MPLS labels than the reader follows ({@code PacketDecoder.MAX_TAGS}). */
    TOO_MANY_TAGS("too-many-tags"),
    /** The interface's link type is not one the decoder understands. */
    UNSUPPORTED_LINK_TYPE("unsupported-link-type"),
    /** Frame shorter than its link-layer header. */
    TRUNCATED_L2("truncated-l2"),
    /** Captured bytes end inside the IP header (or its IPv6 extension headers). */
    TRUNCATED_L3("truncated-l3"),
    /** Captured bytes end inside the TCP/UDP/ICMP header. */
    TRUNCATED_L4("truncated-l4"),
    /** IP header with a bad version, header length or total length. */
    BAD_IP_HEADER("bad-ip-header"),
    /** Raw-IP or loopback frame whose first nibble/family is not IPv4 or IPv6. */
    NOT_IP("not-ip"),
    /** Lenient reading skipped a frame whose captured length exceeds its original (wire) length. */
    CAPTURED_OVER_ORIGINAL("captured-over-original"),
    /**
     * Lenient reading skipped a frame whose timestamp is out of range: a fraction field of a
     * second or more, or a time (with its interface's if_tsoffset) that no 64-bit ns count holds.
     */
    BAD_TIMESTAMP("bad-timestamp"),
    /** Lenient reading stopped at a corrupt or truncated tail of the file (counted once). */
    CORRUPT_TAIL("corrupt-tail");

    private final String label;

    SkipReason(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }

    private static final SkipReason[] BY_LABEL = sortedByLabel();

    private static SkipReason[] sortedByLabel() {
        SkipReason[] r = values().clone();
        Arrays.sort(r, Comparator.comparing(SkipReason::label));
        return r;
    }

    /** All reasons in label order (the order every report uses). */
    public static SkipReason[] inLabelOrder() {
        return BY_LABEL.clone();
    }
}
