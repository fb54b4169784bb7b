package dev.rmtemu.model.extern;

import dev.rmtemu.model.phv.Field;
import dev.rmtemu.model.phv.FieldKind;
import dev.rmtemu.model.phv.Gress;

import java.util.Arrays;
import java.util.List;

/**
 * A mirror of one gress's deparser: TNA's {@code Mirror().emit<H>(session, {fields})}, chosen by
 * the value the gress wrote to its deparser metadata's {@code mirror_type} ({@link #type()},
 * 1..{@value #MAX_TYPE}; 0 mirrors nothing). The copy is the packet as the deparser emits it,
 * behind the mirror header H (the fields, packed in order, big-endian, a whole number of
 * bytes), sent to the session named by {@code session}'s value (ingress to egress or egress
 * to egress); the session's port and maximum length are control-plane state
 * ({@code mirroring_add}).
 */
public final class Mirror {
    /** mirror_type is 3 bits ({@code MirrorType_t}, TNA's tofino1_base.p4): types 1..7 select a mirror. */
    public static final int MAX_TYPE = 7;
    /** Mirror sessions are {@code MirrorId_t}, 10 bits; Tofino's valid sessions are 1..1015 (bf-rt $mirror.cfg). */
    public static final int SESSION_BITS = 10;
    public static final int MAX_SESSION = 1015;

    private final int id;
    private final Gress gress;
    private final int type;
    private final Field session;
    private final List<String> fieldNames;
    private final List<Field> fields;
    private final int headerBytes;
    /** The egress metadata the egress parser extracts the header into on the copy's egress pass (empty: it reads none). */
    private final List<Field> egressFields;

    public Mirror(int id, Gress gress, int type, Field session, List<String> fieldNames, List<Field> fields) {
        this(id, gress, type, session, fieldNames, fields, List.of());
    }

    /**
     * As {@link #Mirror(int, Gress, int, Field, List, List)}; on the copy's egress pass the egress
     * parser extracts the header into {@code egressFields} (egress metadata, one per header
     * field, of the same widths), as a TNA egress parser extracts a mirror header it recognises
     * by its first bytes. Empty: the egress parser reads no mirror header.
     */
    public Mirror(int id, Gress gress, int type, Field session, List<String> fieldNames, List<Field> fields,
                  List<Field> egressFields) {
        String what = gress.label() + " mirror type " + type;
        if (type < 1 || type > MAX_TYPE) {
            throw new IllegalArgumentException(gress.label() + " mirror: mirror_type " + type + " outside 1.." + MAX_TYPE);
        }
        if (session.width() > SESSION_BITS) {
            throw new IllegalArgumentException(what + ": session field " + session.name() + " of " + session.width()
                    + " bits is wider than MirrorId_t (" + SESSION_BITS + ")");
        }
        if (fieldNames.size() != fields.size()) {
            throw new IllegalArgumentException(what + ": one name per mirror header field");
        }
        int bits = 0;
        for (Field f : fields) {
            if (f.width() > Long.SIZE) {
                throw new IllegalArgumentException(what + ": field " + f.name() + " is wider than 64 bits");
            }
            bits += f.width();
        }
        if (bits % Byte.SIZE != 0) {
            throw new IllegalArgumentException(what + ": mirror header of " + bits + " bits is not a whole number of bytes");
        }
        this.id = id;
        this.gress = gress;
        this.type = type;
        this.session = session;
        this.fieldNames = List.copyOf(fieldNames);
        this.fields = List.copyOf(fields);
        this.headerBytes = bits / Byte.SIZE;
        if (!egressFields.isEmpty()) {
            if (egressFields.size() != fields.size()) {
                throw new IllegalArgumentException(what + ": the egress parser extracts " + egressFields.size()
                        + " fields from a mirror header of " + fields.size());
            }
            for (int i = 0; i < fields.size(); i++) {
                Field e = egressFields.get(i);
                if (e.gress() != Gress.EGRESS || e.kind() != FieldKind.METADATA) {
                    throw new IllegalArgumentException(what + ": " + e.name()
                            + " is no egress metadata (the egress parser extracts the mirror header into egress metadata)");
                }
                if (e.width() != fields.get(i).width()) {
                    throw new IllegalArgumentException(what + ": " + e.name() + " has " + e.width() + " bits, header field "
                            + fieldNames.get(i) + " " + fields.get(i).width());
                }
            }
        }
        this.egressFields = List.copyOf(egressFields);
    }

    public int id() {
        return id;
    }

    /** The deparser that mirrors: ingress (ingress to egress) or egress (egress to egress). */
    public Gress gress() {
        return gress;
    }

    /** The mirror_type value that selects it. */
    public int type() {
        return type;
    }

    /** The field holding the session id. */
    public Field session() {
        return session;
    }

    public List<String> fieldNames() {
        return fieldNames;
    }

    /** The mirror header's fields, in order. */
    public List<Field> fields() {
        return fields;
    }

    /** The egress metadata the copy's egress parser extracts the header into (empty: none). */
    public List<Field> egressFields() {
        return egressFields;
    }

    /** Bytes of the mirror header in front of the copy. */
    public int headerBytes() {
        return headerBytes;
    }

    /**
     * Writes the mirror header into {@code out} at {@code at}: {@code values[i]} of field i's
     * width, packed big-endian in field order (no allocation).
     */
    public void pack(long[] values, byte[] out, int at) {
        Arrays.fill(out, at, at + headerBytes, (byte) 0);
        int bit = 0;
        for (int i = 0; i < fields.size(); i++) {
            int w = fields.get(i).width();
            long v = w == Long.SIZE ? values[i] : values[i] & ((1L << w) - 1);
            for (int b = w - 1; b >= 0; b--, bit++) {
                if ((v >>> b & 1) != 0) {
                    out[at + (bit >>> 3)] |= (byte) (0x80 >>> (bit & 7));
                }
            }
        }
    }

    /**
     * The copy's egress parser: each egress field gets its header field's value back from the
     * header's bytes at {@code in[at]} (no allocation).
     */
    public void unpack(byte[] in, int at, long[] phv) {
        int bit = 0;
        for (int i = 0; i < egressFields.size(); i++) {
            Field f = egressFields.get(i);
            long v = 0;
            for (int b = 0; b < f.width(); b++, bit++) {
                v = v << 1 | (in[at + (bit >>> 3)] >>> (7 - (bit & 7)) & 1);
            }
            phv[f.slot()] = v;
        }
    }

    @Override
    public String toString() {
        return gress.label() + " mirror type " + type + " (session " + session.name() + ", header " + headerBytes + " B: "
                + String.join(", ", fieldNames) + ")";
    }
}
