package dev.rmtemu.model.phv;

import java.util.List;

/**
 * A PHV field: a name, a width of 1..64 bits, and a slot in the runtime PHV.
 * Headers have {@code gress == null} (present in both gresses the program uses).
 */
public final class Field {
    /** Widest field the runtime PHV holds in one slot; wider headers are declared as several fields. */
    public static final int MAX_WIDTH = 64;

    private final String name;
    private final int width;
    private final FieldKind kind;
    private final Gress gress;
    private final List<String> wireFields;
    private final boolean bridged;
    private final int slot;
    private final long mask;

    /** A metadata or intrinsic field. */
    public Field(String name, int width, FieldKind kind, Gress gress, int slot) {
        this(name, width, kind, gress, List.of(), false, slot);
    }

    /**
     * A header field bound to fields of the program's parse graph ({@code wireFields}: dotted
     * names, a slice as {@code ipv6.src_addr[127:64]}, or {@code header.$valid} for a header's
     * validity bit). Several wire fields are fields of mutually exclusive headers overlaid in
     * one PHV field (p4c's mutually exclusive overlay): the parser fills it from the one it
     * extracted.
     */
    public Field(String name, int width, FieldKind kind, Gress gress, List<String> wireFields, int slot) {
        this(name, width, kind, gress, wireFields, false, slot);
    }

    /**
     * A field of the program's bridged header: ingress emits it, egress parses it back (TNA's
     * bridged metadata), so it travels with the packet inside the switch and never leaves it.
     */
    public static Field bridged(String name, int width, int slot) {
        return new Field(name, width, FieldKind.HEADER, null, List.of(), true, slot);
    }

    private Field(String name, int width, FieldKind kind, Gress gress, List<String> wireFields, boolean bridged, int slot) {
        if (width < 1 || width > MAX_WIDTH) {
            throw new IllegalArgumentException("field " + name + ": width " + width + " outside 1.." + MAX_WIDTH);
        }
        if (kind == FieldKind.HEADER && !bridged && wireFields.isEmpty()) {
            // the parser fills a header field from the frame's bytes: it must name what it holds there
            throw new IllegalArgumentException("header field " + name + " names no field of the parse graph");
        }
        this.name = name;
        this.width = width;
        this.kind = kind;
        this.gress = gress;
        this.wireFields = List.copyOf(wireFields);
        this.bridged = bridged;
        this.slot = slot;
        this.mask = width == 64 ? -1L : (1L << width) - 1;
    }

    public String name() {
        return name;
    }

    public int width() {
        return width;
    }

    public FieldKind kind() {
        return kind;
    }

    /** The gress of a metadata or intrinsic field; null for headers. */
    public Gress gress() {
        return gress;
    }

    /** The (first) parse-graph field or slice this header field holds ({@code ipv4.ttl}, {@code ipv4.$valid}); null otherwise. */
    public String wireField() {
        return wireFields.isEmpty() ? null : wireFields.get(0);
    }

    /** Every parse-graph field overlaid in this PHV field (one unless it is an overlay); empty for other fields. */
    public List<String> wireFields() {
        return wireFields;
    }

    public int slot() {
        return slot;
    }

    public long mask() {
        return mask;
    }

    /** True for a field of the program's bridged header ({@link #bridged}). */
    public boolean isBridged() {
        return bridged;
    }

    /**
     * Whether a write to this field can change the frame that leaves: a header field of the
     * parse graph, not a bridged one (egress removes it before the packet
     * leaves). Only such a write sends the packet through the deparser.
     */
    public boolean reachesFrame() {
        return kind == FieldKind.HEADER && !bridged;
    }

    public boolean visibleIn(Gress g) {
        return gress == null || gress == g;
    }

    @Override
    public String toString() {
        return name + "<" + width + ">";
    }
}
