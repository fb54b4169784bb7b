package dev.rmtemu.emulator.run;

import dev.rmtemu.emulator.spi.JournalDecoder;
import dev.rmtemu.model.extern.Digest;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import java.math.BigInteger;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A learning digest in the export journal: kind {@code digest.NAME}, and a payload that names
 * its own fields, so {@code rmtemu collect} decodes it without the program:
 * <pre>
 *   u8  field count n
 *   n x (u8 name length, name in UTF-8, u8 width in bits)
 *   n x u64 value, little-endian
 * </pre>
 * The names and widths are a per-digest template written once; a message copies it and
 * fills in the values (nothing allocated per packet).
 */
public final class DigestPayload implements JournalDecoder {
    /** Kind names of digests: this prefix and the digest's name. */
    public static final String KIND_PREFIX = "digest.";
    private static final int MAX_NAME_BYTES = 255;

    /** The journal kind of {@code d}. */
    public static String kind(Digest d) {
        return KIND_PREFIX + d.name();
    }

    /** The template of {@code d}'s payload: the field count, names and widths; its values follow it. */
    public static byte[] template(Digest d) {
        int n = d.fieldNames().size();
        int size = 1;
        byte[][] names = new byte[n][];
        for (int i = 0; i < n; i++) {
            names[i] = d.fieldNames().get(i).getBytes(StandardCharsets.UTF_8);
            if (names[i].length > MAX_NAME_BYTES) {
                throw new IllegalArgumentException("digest " + d.name() + ": field name longer than " + MAX_NAME_BYTES + " bytes");
            }
            size += 2 + names[i].length;
        }
        byte[] t = new byte[size];
        t[0] = (byte) n;
        int at = 1;
        for (int i = 0; i < n; i++) {
            t[at++] = (byte) names[i].length;
            System.arraycopy(names[i], 0, t, at, names[i].length);
            at += names[i].length;
            t[at++] = (byte) d.fields().get(i).width();
        }
        return t;
    }

    /** Bytes of a message of {@code d}: its template and 8 bytes per field. */
    public static int length(byte[] template, int fields) {
        return template.length + fields * Long.BYTES;
    }

    /** Writes value {@code i} of a message whose template is {@code templateLength} bytes. */
    public static void putValue(MutableDirectBuffer buf, int templateLength, int i, long value) {
        buf.putLong(templateLength + i * Long.BYTES, value, ByteOrder.LITTLE_ENDIAN);
    }

    @Override
    public List<String> kinds() {
        return List.of(); // every digest.* kind: CollectCommand asks it for those no program decodes
    }

    /** The digest's fields by name, in order (values as unsigned numbers). */
    @Override
    public Object decode(String kind, DirectBuffer payload, int offset, int length) {
        if (length < 1) {
            throw new BadPayload(kind + " payload of 0 bytes, expected a field count");
        }
        int n = payload.getByte(offset) & 0xff;
        int at = offset + 1;
        int end = offset + length;
        String[] names = new String[n];
        for (int i = 0; i < n; i++) {
            if (at >= end) {
                throw new BadPayload(kind + " payload of " + length + " bytes ends inside field " + i + "'s name");
            }
            int len = payload.getByte(at++) & 0xff;
            if (at + len + 1 > end) {
                throw new BadPayload(kind + " payload of " + length + " bytes ends inside field " + i + "'s name");
            }
            byte[] b = new byte[len];
            payload.getBytes(at, b);
            names[i] = new String(b, StandardCharsets.UTF_8);
            at += len + 1; // the width
        }
        if (end - at != n * Long.BYTES) {
            throw new BadPayload(kind + " payload of " + length + " bytes, expected " + (at - offset + n * Long.BYTES)
                    + " for " + n + " fields");
        }
        Map<String, Object> fields = new LinkedHashMap<>();
        for (int i = 0; i < n; i++) {
            long v = payload.getLong(at + i * Long.BYTES, ByteOrder.LITTLE_ENDIAN);
            fields.put(names[i], v >= 0 ? (Object) v : new BigInteger(Long.toUnsignedString(v)));
        }
        return fields;
    }
}
