package dev.rmtemu.traces.impair;

import java.net.InetAddress;
import java.net.UnknownHostException;
import dev.rmtemu.model.UserError;
import dev.rmtemu.traces.PacketRecord;

/**
 * Drops every packet whose destination is in a prefix (IPv4 or IPv6), optionally only
 * one protocol and destination port, permanently or inside a time window
 * [fromNs, untilNs) of the packet timestamps — a failed route or a transient blackhole.
 */
public final class Blackhole implements Impairment {
    /** Protocol or port value meaning "any". */
    public static final int ANY = -1;

    private final int version;
    private final long prefixHi;
    private final long prefixLo;
    private final long maskHi;
    private final long maskLo;
    private final int protocol;
    private final int dstPort;
    private final long fromNs;
    private final long untilNs;
    private final String text;
    private int position;

    private Blackhole(int version, long prefixHi, long prefixLo, long maskHi, long maskLo, int protocol,
                      int dstPort, long fromNs, long untilNs, String text) {
        this.version = version;
        this.prefixHi = prefixHi & maskHi;
        this.prefixLo = prefixLo & maskLo;
        this.maskHi = maskHi;
        this.maskLo = maskLo;
        this.protocol = protocol;
        this.dstPort = dstPort;
        this.fromNs = fromNs;
        this.untilNs = untilNs;
        this.text = text;
    }

    /**
     * A blackhole for destination prefix {@code cidr} ("10.1.0.0/16", "2001:db8::/32"),
     * protocol and port ({@link #ANY} for any), active in [fromNs, untilNs)
     * (use {@link Long#MIN_VALUE} / {@link Long#MAX_VALUE} for permanent).
     */
    public static Blackhole of(String cidr, int protocol, int dstPort, long fromNs, long untilNs) {
        int slash = cidr.indexOf('/');
        String addr = slash < 0 ? cidr : cidr.substring(0, slash);
        byte[] bytes = parseLiteral(addr, cidr);
        int bits;
        try {
            bits = slash < 0 ? bytes.length * 8 : Integer.parseInt(cidr.substring(slash + 1));
        } catch (NumberFormatException e) {
            throw new UserError("blackhole prefix '" + cidr + "': bad prefix length");
        }
        if (bits < 0 || bits > bytes.length * 8) {
            throw new UserError("blackhole prefix '" + cidr + "': prefix length must be in [0, " + bytes.length * 8 + "]");
        }
        if (fromNs >= untilNs) {
            throw new UserError("blackhole window [" + fromNs + ", " + untilNs + ") is empty");
        }
        String text = "blackhole(" + cidr + (protocol == ANY ? "" : ", proto=" + protocol)
                + (dstPort == ANY ? "" : ", port=" + dstPort)
                + (fromNs == Long.MIN_VALUE && untilNs == Long.MAX_VALUE ? "" : ", [" + fromNs + "," + untilNs + ")ns")
                + ")";
        if (bytes.length == 4) {
            long v = ((bytes[0] & 0xFFL) << 24) | ((bytes[1] & 0xFFL) << 16) | ((bytes[2] & 0xFFL) << 8) | (bytes[3] & 0xFFL);
            long mask = bits == 0 ? 0 : (0xFFFFFFFFL << (32 - bits)) & 0xFFFFFFFFL;
            return new Blackhole(4, v, 0, mask, 0, protocol, dstPort, fromNs, untilNs, text);
        }
        long hi = 0;
        long lo = 0;
        for (int i = 0; i < 8; i++) {
            hi = (hi << 8) | (bytes[i] & 0xFF);
            lo = (lo << 8) | (bytes[8 + i] & 0xFF);
        }
        long maskHi = bits == 0 ? 0 : bits >= 64 ? -1L : -1L << (64 - bits);
        long maskLo = bits <= 64 ? 0 : bits == 128 ? -1L : -1L << (128 - bits);
        return new Blackhole(6, hi, lo, maskHi, maskLo, protocol, dstPort, fromNs, untilNs, text);
    }

    /** Parses an IP literal without any name lookup. */
    private static byte[] parseLiteral(String addr, String cidr) {
        if (addr.isEmpty() || !addr.matches("[0-9A-Fa-f:.]+")) {
            throw new UserError("blackhole prefix '" + cidr + "': not an IPv4 or IPv6 address");
        }
        try {
            return InetAddress.getByName(addr).getAddress();
        } catch (UnknownHostException e) {
            throw new UserError("blackhole prefix '" + cidr + "': not an IPv4 or IPv6 address");
        }
    }

    /** Whether the rule matches the packet (ignoring the time window). */
    public boolean matches(PacketRecord r) {
        if (r.ipVersion() != version) {
            return false;
        }
        if (protocol != ANY && r.protocol() != protocol) {
            return false;
        }
        if (dstPort != ANY && r.dstPort() != dstPort) {
            return false;
        }
        if (version == 4) {
            return ((r.dstIpv4() & 0xFFFFFFFFL) & maskHi) == prefixHi;
        }
        return (r.dstIpv6Hi() & maskHi) == prefixHi && (r.dstIpv6Lo() & maskLo) == prefixLo;
    }

    @Override
    public void decide(PacketRecord rec, long packetIndex, ImpairmentDecision out) {
        long ts = rec.timestampNs();
        if (ts >= fromNs && ts < untilNs && matches(rec)) {
            out.drop(position);
        }
    }

    @Override
    public void position(int position) {
        this.position = position;
    }

    @Override
    public String describe() {
        return text;
    }
}
