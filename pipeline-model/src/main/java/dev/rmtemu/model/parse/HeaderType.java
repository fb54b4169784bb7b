package dev.rmtemu.model.parse;

import java.util.List;

/**
 * A declared header type: named fields with bit widths in wire order, a whole
 * number of bytes, and optionally a variable-length tail whose length a field of
 * the header gives ({@link VarbitLength}).
 */
public record HeaderType(String name, List<HeaderField> fields, VarbitLength varbit) {
    public HeaderType {
        fields = List.copyOf(fields);
        if (fields.isEmpty()) {
            throw new IllegalArgumentException("header type " + name + " has no fields");
        }
        int bits = 0;
        for (HeaderField f : fields) {
            bits += f.bits();
        }
        if (bits % Byte.SIZE != 0) {
            throw new IllegalArgumentException("header type " + name + ": " + bits + " bits is not a whole number of bytes");
        }
        if (varbit != null) {
            int i = indexOfIn(fields, varbit.lengthField());
            if (i < 0 || fields.get(i).bits() > Long.SIZE) {
                throw new IllegalArgumentException("header type " + name + ": no length field " + varbit.lengthField());
            }
        }
    }

    /** A fixed-length header type. */
    public static HeaderType of(String name, HeaderField... fields) {
        return new HeaderType(name, List.of(fields), null);
    }

    /** A header type with a variable-length tail. */
    public static HeaderType withVarbit(String name, VarbitLength varbit, HeaderField... fields) {
        return new HeaderType(name, List.of(fields), varbit);
    }

    public int fixedBits() {
        int bits = 0;
        for (HeaderField f : fields) {
            bits += f.bits();
        }
        return bits;
    }

    public int fixedBytes() {
        return fixedBits() / Byte.SIZE;
    }

    /** Index of a field by name, or -1. */
    public int indexOf(String field) {
        return indexOfIn(fields, field);
    }

    private static int indexOfIn(List<HeaderField> fields, String field) {
        for (int i = 0; i < fields.size(); i++) {
            if (fields.get(i).name().equals(field)) {
                return i;
            }
        }
        return -1;
    }
}
