package dev.rmtemu.emulator.topology;

/**
 * An IPv4 prefix: {@code address/length}, with no host bits set. The address is
 * an int holding the four octets big-endian (10.0.1.2 is 0x0A000102).
 */
public record Ipv4Prefix(int address, int length) implements Comparable<Ipv4Prefix> {

    public Ipv4Prefix {
        if (length < 0 || length > 32) {
            throw new IllegalArgumentException("prefix length " + length + " not in 0..32");
        }
        if ((address & ~mask(length)) != 0) {
            throw new IllegalArgumentException("host bits set in " + format(address) + "/" + length);
        }
    }

    /** Network mask of a prefix length, as an int (length 0 gives 0). */
    public static int mask(int length) {
        return length == 0 ? 0 : -1 << (32 - length);
    }

    /**
     * Parses {@code a.b.c.d} (a /32) or {@code a.b.c.d/n}.
     *
     * @throws IllegalArgumentException with a message naming what is wrong
     */
    public static Ipv4Prefix parse(String text) {
        String s = text.trim();
        int slash = s.indexOf('/');
        String addr = slash < 0 ? s : s.substring(0, slash);
        int length = 32;
        if (slash >= 0) {
            String len = s.substring(slash + 1);
            if (len.isEmpty() || len.length() > 2 || !len.chars().allMatch(Character::isDigit)) {
                throw new IllegalArgumentException("bad prefix length in '" + text + "'");
            }
            length = Integer.parseInt(len);
            if (length > 32) {
                throw new IllegalArgumentException("prefix length " + length + " > 32 in '" + text + "'");
            }
        }
        int address = parseAddress(addr, text);
        if ((address & ~mask(length)) != 0) {
            throw new IllegalArgumentException("'" + text + "' has host bits set (network is "
                    + format(address & mask(length)) + "/" + length + ")");
        }
        return new Ipv4Prefix(address, length);
    }

    private static int parseAddress(String addr, String whole) {
        String[] parts = addr.split("\\.", -1);
        if (parts.length != 4) {
            throw new IllegalArgumentException("'" + whole + "' is not an IPv4 address");
        }
        int a = 0;
        for (String p : parts) {
            if (p.isEmpty() || p.length() > 3 || !p.chars().allMatch(Character::isDigit)) {
                throw new IllegalArgumentException("'" + whole + "' is not an IPv4 address");
            }
            int octet = Integer.parseInt(p);
            if (octet > 255) {
                throw new IllegalArgumentException("octet " + octet + " > 255 in '" + whole + "'");
            }
            a = (a << 8) | octet;
        }
        return a;
    }

    /** Dotted-quad text of an address. */
    public static String format(int address) {
        return (address >>> 24) + "." + ((address >>> 16) & 0xff) + "." + ((address >>> 8) & 0xff) + "." + (address & 0xff);
    }

    /** Whether {@code ipv4} lies in this prefix. */
    public boolean contains(int ipv4) {
        return (ipv4 & mask(length)) == address;
    }

    /** Whether the two prefixes share at least one address. */
    public boolean overlaps(Ipv4Prefix other) {
        int shorter = Math.min(length, other.length);
        return ((address ^ other.address) & mask(shorter)) == 0;
    }

    /** First address, as an unsigned value in a long. */
    public long firstUnsigned() {
        return Integer.toUnsignedLong(address);
    }

    /** One past the last address, as an unsigned value in a long (up to 2^32). */
    public long endUnsigned() {
        return firstUnsigned() + (1L << (32 - length));
    }

    /** Orders by address (unsigned), then by length, shorter first. */
    @Override
    public int compareTo(Ipv4Prefix o) {
        int c = Integer.compareUnsigned(address, o.address);
        return c != 0 ? c : Integer.compare(length, o.length);
    }

    @Override
    public String toString() {
        return format(address) + "/" + length;
    }
}
