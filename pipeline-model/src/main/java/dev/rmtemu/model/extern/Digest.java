package dev.rmtemu.model.extern;

import dev.rmtemu.model.phv.Field;

import java.util.List;

/**
 * A learning digest: TNA's {@code Digest<T>.pack(data)} in the ingress deparser, chosen by the
 * value the control wrote to {@code ig_dprsr_md.digest_type} ({@link #type()}, 1..{@value #MAX_TYPE};
 * 0 sends none). Its fields are T's, in T's order, with their names: what the control plane
 * receives for every packet whose digest type selects it, dropped or not (the deparser runs
 * for every packet; drop_ctl discards the packet, not its digest).
 */
public final class Digest {
    /** digest_type is 3 bits ({@code DigestType_t}, TNA's tofino1_base.p4): types 1..7 select a digest. */
    public static final int MAX_TYPE = 7;
    /** A digest field is carried in a 64-bit word (rmtemu's PHV values); wider fields are refused. */
    public static final int MAX_FIELD_BITS = 64;

    private final int id;
    private final String name;
    private final int type;
    private final List<String> fieldNames;
    private final List<Field> fields;

    public Digest(int id, String name, int type, List<String> fieldNames, List<Field> fields) {
        if (type < 1 || type > MAX_TYPE) {
            throw new IllegalArgumentException("digest " + name + ": digest_type " + type + " outside 1.." + MAX_TYPE);
        }
        if (fieldNames.size() != fields.size() || fields.isEmpty()) {
            throw new IllegalArgumentException("digest " + name + ": one name per field, at least one field");
        }
        if (fieldNames.stream().distinct().count() != fieldNames.size()) {
            throw new IllegalArgumentException("digest " + name + ": two fields share a name");
        }
        for (Field f : fields) {
            if (f.width() > MAX_FIELD_BITS) {
                throw new IllegalArgumentException("digest " + name + ": field " + f.name() + " of " + f.width()
                        + " bits is wider than " + MAX_FIELD_BITS);
            }
        }
        this.id = id;
        this.name = name;
        this.type = type;
        this.fieldNames = List.copyOf(fieldNames);
        this.fields = List.copyOf(fields);
    }

    public int id() {
        return id;
    }

    public String name() {
        return name;
    }

    /** The digest_type value that selects it. */
    public int type() {
        return type;
    }

    /** Its fields' names (T's member names), in order. */
    public List<String> fieldNames() {
        return fieldNames;
    }

    /** The PHV fields packed, in order. */
    public List<Field> fields() {
        return fields;
    }

    @Override
    public String toString() {
        return name + "[type " + type + ": " + String.join(", ", fieldNames) + "]";
    }
}
