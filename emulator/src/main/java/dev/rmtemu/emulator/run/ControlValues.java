package dev.rmtemu.emulator.run;

import dev.rmtemu.model.UserError;

import java.math.BigInteger;
import java.util.regex.Pattern;

/**
 * Values as runtime_CLI users type them: decimal, {@code 0x} hex, a dotted IPv4 address,
 * a MAC address ({@code aa:bb:cc:dd:ee:ff}) or an IPv6 address ({@code 2001:db8::1}), each
 * unsigned and checked against the width of the key field, parameter or cell it goes to.
 */
final class ControlValues {
    /** Digits beyond which no value of at most 128 bits can be written: not parsed at all. */
    private static final int MAX_DIGITS = 64;
    private static final Pattern DECIMAL = Pattern.compile("[0-9]+");
    private static final Pattern HEX = Pattern.compile("0[xX][0-9a-fA-F]+");
    private static final Pattern IPV4 = Pattern.compile("[0-9]{1,3}(\\.[0-9]{1,3}){3}");
    private static final Pattern MAC = Pattern.compile("[0-9a-fA-F]{1,2}(:[0-9a-fA-F]{1,2}){5}");
    private static final Pattern IPV6_GROUP = Pattern.compile("[0-9a-fA-F]{1,4}");
    private static final int IPV6_GROUPS = 8;

    private ControlValues() {
    }

    /** {@code w} as a value of at most {@code width} bits for {@code what} (a field or parameter name). */
    static long value(String w, int width, String what) {
        BigInteger v = unsigned(w);
        if (v == null) {
            throw new UserError("'" + w + "' is not a value (decimal, 0x hex, IPv4, IPv6 or MAC address)");
        }
        if (v.bitLength() > width) {
            throw new UserError("value " + w + " does not fit " + what + "'s " + width + " bits");
        }
        return v.longValue();
    }

    /** An unsigned value in any of the accepted forms, or null when {@code w} is none of them. */
    static BigInteger unsigned(String w) {
        if (w.length() > MAX_DIGITS + 2) {
            return null;
        }
        if (DECIMAL.matcher(w).matches()) {
            return new BigInteger(w);
        }
        if (HEX.matcher(w).matches()) {
            return new BigInteger(w.substring(2), 16);
        }
        if (IPV4.matcher(w).matches()) {
            return ipv4(w);
        }
        if (MAC.matcher(w).matches()) {
            BigInteger v = BigInteger.ZERO;
            for (String b : w.split(":")) {
                v = v.shiftLeft(Byte.SIZE).or(BigInteger.valueOf(Integer.parseInt(b, 16)));
            }
            return v;
        }
        return w.indexOf(':') >= 0 ? ipv6(w) : null;
    }

    private static BigInteger ipv4(String w) {
        long v = 0;
        for (String part : w.split("\\.")) {
            int b = Integer.parseInt(part);
            if (b > 255) {
                return null;
            }
            v = (v << Byte.SIZE) | b;
        }
        return BigInteger.valueOf(v);
    }

    /** RFC 4291 text: eight hex groups, one run of zero groups as {@code ::}, optionally a dotted IPv4 tail. */
    private static BigInteger ipv6(String w) {
        int gap = w.indexOf("::");
        if (gap >= 0 && w.indexOf("::", gap + 1) >= 0) {
            return null;
        }
        String head = gap >= 0 ? w.substring(0, gap) : w;
        String tail = gap >= 0 ? w.substring(gap + 2) : "";
        BigInteger[] h = groups(head);
        BigInteger[] t = groups(tail);
        if (h == null || t == null) {
            return null;
        }
        int given = h.length + t.length;
        if (gap < 0 ? given != IPV6_GROUPS : given >= IPV6_GROUPS) {
            return null;
        }
        BigInteger v = BigInteger.ZERO;
        for (BigInteger g : h) {
            v = v.shiftLeft(16).or(g);
        }
        v = v.shiftLeft(16 * (IPV6_GROUPS - given));
        for (BigInteger g : t) {
            v = v.shiftLeft(16).or(g);
        }
        return v;
    }

    /** The 16-bit groups of one side of an IPv6 address (a dotted IPv4 tail counts as two), or null. */
    private static BigInteger[] groups(String part) {
        if (part.isEmpty()) {
            return new BigInteger[0];
        }
        String[] g = part.split(":", -1);
        int n = g.length;
        boolean v4 = IPV4.matcher(g[n - 1]).matches();
        BigInteger[] out = new BigInteger[v4 ? n + 1 : n];
        for (int i = 0; i < (v4 ? n - 1 : n); i++) {
            if (!IPV6_GROUP.matcher(g[i]).matches()) {
                return null;
            }
            out[i] = new BigInteger(g[i], 16);
        }
        if (v4) {
            BigInteger a = ipv4(g[n - 1]);
            if (a == null) {
                return null;
            }
            out[n - 1] = a.shiftRight(16);
            out[n] = a.and(BigInteger.valueOf(0xFFFF));
        }
        return out;
    }
}
