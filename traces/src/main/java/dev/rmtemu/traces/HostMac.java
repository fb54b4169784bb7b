package dev.rmtemu.traces;

/**
 * The host map of synthesised frames: every IP host has one MAC address, derived from its
 * address, so a host's frames always carry the same MAC and two hosts' MACs differ. The
 * MACs are locally administered unicast (first octet bit 1 set, bit 0 clear), never a
 * vendor's: IPv4 a.b.c.d is {@code 02:00:a:b:c:d} (as Mininet's {@code autoSetMacs} maps
 * host numbers), IPv6 is {@code 06:} followed by the last 5 bytes of the address (its
 * interface identifier's low bytes). A frame goes from its source host's MAC to its
 * destination host's MAC, as on one Ethernet segment.
 */
public final class HostMac {
    /** First octet of an IPv4 host's MAC: locally administered, unicast. */
    public static final long IPV4_PREFIX = 0x02L << 40;
    /** First octet of an IPv6 host's MAC: locally administered, unicast, apart from the IPv4 hosts'. */
    public static final long IPV6_PREFIX = 0x06L << 40;
    private static final long LOW_40_BITS = (1L << 40) - 1;

    private HostMac() {
    }

    /** MAC (48 bits in the low bits of the long, first octet highest) of IPv4 host {@code address}. */
    public static long ofIpv4(int address) {
        return IPV4_PREFIX | (address & 0xFFFFFFFFL);
    }

    /** MAC of IPv6 host {@code hi:lo}. */
    public static long ofIpv6(long hi, long lo) {
        return IPV6_PREFIX | (lo & LOW_40_BITS);
    }

    /** MAC of the record's source ({@code src} true) or destination host; 0 for a non-IP record. */
    public static long of(PacketRecord r, boolean src) {
        switch (r.ipVersion()) {
            case 4:
                return ofIpv4(src ? r.srcIpv4() : r.dstIpv4());
            case 6:
                return src ? ofIpv6(r.srcIpv6Hi(), r.srcIpv6Lo()) : ofIpv6(r.dstIpv6Hi(), r.dstIpv6Lo());
            default:
                return 0;
        }
    }
}
