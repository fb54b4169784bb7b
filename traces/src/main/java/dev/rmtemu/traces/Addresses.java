package dev.rmtemu.traces;

/** Formatting of record addresses for people (tables, messages); not used per packet. */
public final class Addresses {
    private Addresses() {
    }

    /** Dotted quad of an IPv4 int (0x0A000001 is 10.0.0.1). */
    public static String ipv4(int a) {
        return ((a >>> 24) & 0xFF) + "." + ((a >>> 16) & 0xFF) + "." + ((a >>> 8) & 0xFF) + "." + (a & 0xFF);
    }

    /** IPv6 in full colon-hex form with the longest zero run compressed (RFC 5952 style). */
    public static String ipv6(long hi, long lo) {
        int[] g = new int[8];
        for (int i = 0; i < 4; i++) {
            g[i] = (int) (hi >>> (48 - 16 * i)) & 0xFFFF;
            g[4 + i] = (int) (lo >>> (48 - 16 * i)) & 0xFFFF;
        }
        int bestStart = -1;
        int bestLen = 1;
        for (int i = 0; i < 8; ) {
            if (g[i] == 0) {
                int j = i;
                while (j < 8 && g[j] == 0) {
                    j++;
                }
                if (j - i > bestLen) {
                    bestStart = i;
                    bestLen = j - i;
                }
                i = j;
            } else {
                i++;
            }
        }
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < 8; i++) {
            if (i == bestStart) {
                sb.append("::");
                i += bestLen - 1;
                continue;
            }
            if (sb.length() > 0 && sb.charAt(sb.length() - 1) != ':') {
                sb.append(':');
            }
            sb.append(Integer.toHexString(g[i]));
        }
        return sb.toString();
    }

    /** The source ({@code src} true) or destination address of a record, or "-" for non-IP. */
    public static String format(PacketRecord r, boolean src) {
        switch (r.ipVersion()) {
            case 4:
                return ipv4(src ? r.srcIpv4() : r.dstIpv4());
            case 6:
                return src ? ipv6(r.srcIpv6Hi(), r.srcIpv6Lo()) : ipv6(r.dstIpv6Hi(), r.dstIpv6Lo());
            default:
                return "-";
        }
    }
}
