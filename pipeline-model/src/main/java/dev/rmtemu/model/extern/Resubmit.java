package dev.rmtemu.model.extern;

import dev.rmtemu.model.phv.Field;
import dev.rmtemu.model.phv.FieldKind;
import dev.rmtemu.model.phv.Gress;

import java.util.List;

/**
 * The resubmit header of the ingress deparser: TNA's {@code Resubmit().emit<H>({fields})},
 * chosen by the value ingress wrote to {@code ig_intr_dprsr_md.resubmit_type} ({@link #type()},
 * 1..{@value #MAX_TYPE}). The packet runs ingress once more (Tofino resubmits a packet once);
 * on that pass {@code ig_intr_md.resubmit_flag} is 1 and the ingress parser, which on Tofino
 * reads the header where it reads the port metadata otherwise, hands the fields' values back
 * to ingress. A resubmit_type without a header resubmits the packet with no data.
 */
public final class Resubmit {
    /** resubmit_type is 3 bits ({@code ResubmitType_t}, TNA's tofino1_base.p4): types 1..7 select a header. */
    public static final int MAX_TYPE = 7;
    /**
     * Tofino 1's resubmit header is 64 bits: it takes the place of the port metadata
     * (TNA's {@code PORT_METADATA_SIZE = 32w64}, tofino1_specs.p4), which the ingress parser reads
     * instead; p4c's Tofino back end sizes it so (bf-p4c/parde/parde_spec.h: TofinoPardeSpec's
     * byteIngressPerPortMetadataSize() is 8, bitResubmitSize() that times 8) and refuses a wider
     * header ("digest limited to 64 bits").
     */
    public static final int MAX_BITS = 64;

    private final int type;
    private final List<String> fieldNames;
    private final List<Field> fields;
    /** Where the next pass's ingress parser extracts the header: the fields themselves, others, or none (it skips it). */
    private final List<Field> parsedFields;

    /** A resubmit header whose fields get their values back on the next pass (the parser extracts it into them). */
    public Resubmit(int type, List<String> fieldNames, List<Field> fields) {
        this(type, fieldNames, fields, fields);
    }

    /**
     * As {@link #Resubmit(int, List, List)}, the next pass's ingress parser extracting the header
     * into {@code parsedFields} (ingress metadata of the header fields' widths, as TNA's
     * TofinoIngressParser extracts it when resubmit_flag is set), or, empty, skipping it
     * (advance over it: the header's values reach no field).
     */
    public Resubmit(int type, List<String> fieldNames, List<Field> fields, List<Field> parsedFields) {
        if (type < 1 || type > MAX_TYPE) {
            throw new IllegalArgumentException("resubmit: resubmit_type " + type + " outside 1.." + MAX_TYPE);
        }
        String what = "resubmit type " + type;
        if (fieldNames.size() != fields.size()) {
            throw new IllegalArgumentException(what + ": one name per resubmit header field");
        }
        int bits = 0;
        for (Field f : fields) {
            if (f.gress() != Gress.INGRESS || f.kind() != FieldKind.METADATA) {
                throw new IllegalArgumentException(what + ": " + f.name()
                        + " is no ingress metadata (the header carries ingress metadata to the next pass)");
            }
            bits += f.width();
        }
        if (bits > MAX_BITS) {
            throw new IllegalArgumentException(what + ": resubmit header of " + bits + " bits is wider than Tofino's "
                    + MAX_BITS);
        }
        if (!parsedFields.isEmpty()) {
            if (parsedFields.size() != fields.size()) {
                throw new IllegalArgumentException(what + ": the ingress parser extracts " + parsedFields.size()
                        + " fields from a resubmit header of " + fields.size());
            }
            for (int i = 0; i < fields.size(); i++) {
                Field p = parsedFields.get(i);
                if (p.gress() != Gress.INGRESS || p.kind() != FieldKind.METADATA) {
                    throw new IllegalArgumentException(what + ": " + p.name()
                            + " is no ingress metadata (the ingress parser extracts the resubmit header into ingress metadata)");
                }
                if (p.width() != fields.get(i).width()) {
                    throw new IllegalArgumentException(what + ": the parser extracts header field " + fieldNames.get(i) + " ("
                            + fields.get(i).width() + " bits) into " + p.name() + " of " + p.width());
                }
            }
        }
        this.type = type;
        this.fieldNames = List.copyOf(fieldNames);
        this.fields = List.copyOf(fields);
        this.parsedFields = List.copyOf(parsedFields);
    }

    /** Where the next pass's ingress parser extracts the header (empty: nowhere, it skips it). */
    public List<Field> parsedFields() {
        return parsedFields;
    }

    /** The resubmit_type value that selects it. */
    public int type() {
        return type;
    }

    public List<String> fieldNames() {
        return fieldNames;
    }

    /** The header's fields, in order. */
    public List<Field> fields() {
        return fields;
    }

    /** The header's bits: the fields' values packed in order, the first in the high bits (no allocation). */
    public long pack(long[] phv) {
        long v = 0;
        for (int i = 0; i < fields.size(); i++) {
            Field f = fields.get(i);
            int w = f.width();
            v = (w == Long.SIZE ? 0 : v << w) | (phv[f.slot()] & mask(w));
        }
        return v;
    }

    /** The next pass's ingress parser: each parsed field gets its header field's value from the header's bits. */
    public void unpack(long bits, long[] phv) {
        long v = bits;
        for (int i = parsedFields.size() - 1; i >= 0; i--) {
            Field f = parsedFields.get(i);
            int w = f.width();
            phv[f.slot()] = v & mask(w);
            v = w == Long.SIZE ? 0 : v >>> w;
        }
    }

    private static long mask(int w) {
        return w == Long.SIZE ? -1L : (1L << w) - 1;
    }

    @Override
    public String toString() {
        return "resubmit type " + type + " (header: " + String.join(", ", fieldNames) + ")";
    }
}
