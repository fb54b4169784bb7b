package dev.rmtemu.traces.pcap;

/** Link-layer header types (tcpdump.org LINKTYPE_* values) the decoder understands. */
public final class LinkType {
    /** BSD loopback: 4-byte address family in the capturing host's byte order. */
    public static final int NULL = 0;
    public static final int ETHERNET = 1;
    /** DLT_RAW as written on some BSDs. */
    public static final int RAW_12 = 12;
    /** DLT_RAW as written on OpenBSD. */
    public static final int RAW_14 = 14;
    /** LINKTYPE_RAW: the frame starts with an IPv4 or IPv6 header. */
    public static final int RAW = 101;
    /** OpenBSD loopback: 4-byte address family, network byte order. */
    public static final int LOOP = 108;
    /** Linux cooked capture v1, 16-byte header. */
    public static final int LINUX_SLL = 113;
    public static final int IPV4 = 228;
    public static final int IPV6 = 229;
    /** Linux cooked capture v2, 20-byte header. */
    public static final int LINUX_SLL2 = 276;

    private LinkType() {
    }

    public static boolean supported(int linkType) {
        switch (linkType) {
            case NULL: case ETHERNET: case RAW_12: case RAW_14: case RAW: case LOOP:
            case LINUX_SLL: case IPV4: case IPV6: case LINUX_SLL2:
                return true;
            default:
                return false;
        }
    }
}
