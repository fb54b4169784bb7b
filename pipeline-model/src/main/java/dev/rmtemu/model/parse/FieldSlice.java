package dev.rmtemu.model.parse;

/**
 * Bits {@code hi..lo} of a header field, named as P4 slices it: {@code ipv6.src_addr[127:64]};
 * a name without brackets is the whole field. How a PHV field names the wire bits it holds.
 */
public record FieldSlice(String field, int hi, int lo) {
    /** Parses {@code NAME} or {@code NAME[HI:LO]} against {@code g}; refuses a slice outside the field. */
    public static FieldSlice parse(ParseGraph g, String name) {
        int open = name.indexOf('[');
        String base = open < 0 ? name : name.substring(0, open);
        FieldRef ref = g.field(base);
        if (open < 0) {
            return new FieldSlice(base, ref.bits() - 1, 0);
        }
        int colon = name.indexOf(':', open);
        if (colon < 0 || !name.endsWith("]")) {
            throw new IllegalArgumentException("a slice is NAME[HI:LO]");
        }
        int hi;
        int lo;
        try {
            hi = Integer.parseInt(name.substring(open + 1, colon));
            lo = Integer.parseInt(name.substring(colon + 1, name.length() - 1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("a slice is NAME[HI:LO]");
        }
        if (lo < 0 || hi < lo || hi >= ref.bits()) {
            throw new IllegalArgumentException("slice outside the field's " + ref.bits() + " bits");
        }
        if (ref.bits() > Long.SIZE && lo < Long.SIZE && hi >= Long.SIZE) {
            throw new IllegalArgumentException("a slice of a field wider than " + Long.SIZE + " bits lies on one side of bit "
                    + Long.SIZE);
        }
        return new FieldSlice(base, hi, lo);
    }

    public int bits() {
        return hi - lo + 1;
    }

    /** The name back: {@code NAME} for a whole field of {@code fieldBits} bits, else {@code NAME[HI:LO]}. */
    public String name(int fieldBits) {
        return lo == 0 && hi == fieldBits - 1 ? field : field + "[" + hi + ":" + lo + "]";
    }
}
