package dev.rmtemu.model.table;

import dev.rmtemu.model.phv.Field;
import dev.rmtemu.model.phv.Gress;

import java.util.Collections;
import java.util.List;
import java.util.Locale;

/**
 * A match-action table placed in one stage: key fields (at most 128 bits in
 * all), a match kind, a capacity in entries, and per-entry action data bits
 * (for SRAM accounting). Entries are installed through the control plane, or
 * given with the program as constant entries (P4's {@code const entries}: a
 * precomputed table of constants, installed when the switch state is created).
 * A table without key fields (P4's keyless table) holds no entries: every packet
 * misses and runs its default action, which the control plane may set.
 */
public final class MatchTable {
    /** Widest key the runtime packs (two 64-bit words). */
    public static final int MAX_KEY_BITS = 128;

    private final int id;
    private final String name;
    private final MatchKind kind;
    private final Field[] key;
    private final int keyBits;
    private final int size;
    private final int actionDataBits;
    private final Gress gress;
    private final int stage;
    private final List<ConstEntry> constEntries;
    private final TableActions actions;
    private final TableOptions options;
    /** Per key field, how it matches (all {@link #kind} but in a table whose key mixes kinds). */
    private final MatchKind[] fieldKinds;

    /**
     * A constant entry: one value per key field (in key order), the action it selects and its
     * action data. An entry of a ternary, LPM or range table also has a mask per field
     * ({@code mask}, null for an exact table's entry: an exact field's mask is all its bits, an
     * lpm field's a prefix); a range table's entry has per field a high end ({@code high}: a
     * range field matches {@code key[i]..high[i]}, its mask unused). In a ternary or range table
     * the earlier of two entries that both match wins, in an LPM table the longer prefix
     * (P4_16 §14.2.1.4.1, entry priorities).
     */
    public record ConstEntry(long[] key, int action, long data, long[] mask, long[] high) {
        public ConstEntry {
            if (action < 0) {
                throw new IllegalArgumentException("a constant entry's action id is an index, not " + action);
            }
            if (mask != null && mask.length != key.length || high != null && high.length != key.length) {
                throw new IllegalArgumentException("a constant entry has a mask and a high end per key value");
            }
            if (high != null && mask == null) {
                throw new IllegalArgumentException("a range constant entry has a mask per key value too");
            }
            key = key.clone();
            mask = mask == null ? null : mask.clone();
            high = high == null ? null : high.clone();
        }

        /** An exact entry. */
        public ConstEntry(long[] key, int action, long data) {
            this(key, action, data, null, null);
        }

        /** An entry of a ternary or LPM table ({@code mask} null: an exact entry). */
        public ConstEntry(long[] key, int action, long data, long[] mask) {
            this(key, action, data, mask, null);
        }

        @Override
        public long[] key() {
            return key.clone();
        }

        @Override
        public long[] mask() {
            return mask == null ? null : mask.clone();
        }

        @Override
        public long[] high() {
            return high == null ? null : high.clone();
        }
    }

    public MatchTable(int id, String name, MatchKind kind, List<Field> key, int size, int actionDataBits, Gress gress, int stage) {
        this(id, name, kind, key, size, actionDataBits, gress, stage, List.of());
    }

    public MatchTable(int id, String name, MatchKind kind, List<Field> key, int size, int actionDataBits, Gress gress, int stage,
                      List<ConstEntry> constEntries) {
        this(id, name, kind, key, size, actionDataBits, gress, stage, constEntries, TableActions.NONE);
    }

    /** A table whose actions the control plane names ({@code actions}: each within {@code actionDataBits}). */
    public MatchTable(int id, String name, MatchKind kind, List<Field> key, int size, int actionDataBits, Gress gress, int stage,
                      List<ConstEntry> constEntries, TableActions actions) {
        this(id, name, kind, key, size, actionDataBits, gress, stage, constEntries, actions, TableOptions.NONE);
    }

    /** As above, with an idle timeout and/or an ALPM or ATCAM shape ({@link TableOptions}). */
    public MatchTable(int id, String name, MatchKind kind, List<Field> key, int size, int actionDataBits, Gress gress, int stage,
                      List<ConstEntry> constEntries, TableActions actions, TableOptions options) {
        this(id, name, kind, key, size, actionDataBits, gress, stage, constEntries, actions, options,
                Collections.nCopies(key.size(), kind));
    }

    /**
     * As above, with a match kind per key field ({@code fieldKinds}, in key order): a key that
     * mixes kinds is a table of {@link #kindOf} them (an ACL's exact protocol and range port is
     * a range table), in TCAM as bf-p4c lays out any table with a ternary, lpm or range field
     * (mau/table_layout.cpp TableLayout::setup_match_layout: layout.ternary, layout.has_range).
     */
    public MatchTable(int id, String name, MatchKind kind, List<Field> key, int size, int actionDataBits, Gress gress, int stage,
                      List<ConstEntry> constEntries, TableActions actions, TableOptions options, List<MatchKind> fieldKinds) {
        if (fieldKinds.size() != key.size()) {
            throw new IllegalArgumentException("table " + name + ": a match kind per key field");
        }
        if (!key.isEmpty() && kindOf(fieldKinds) != kind) {
            throw new IllegalArgumentException("table " + name + ": key fields matching " + fieldKinds + " make a "
                    + kindOf(fieldKinds) + " table, not " + kind);
        }
        this.fieldKinds = fieldKinds.toArray(new MatchKind[0]);
        this.options = checkOptions(name, kind, key, options);
        this.id = id;
        this.name = name;
        this.kind = kind;
        this.key = key.toArray(new Field[0]);
        int bits = 0;
        for (Field f : key) {
            bits += f.width();
        }
        if (bits > MAX_KEY_BITS) {
            throw new IllegalArgumentException("table " + name + ": key of " + bits + " bits (1.." + MAX_KEY_BITS + ")");
        }
        if (key.isEmpty() && (kind != MatchKind.EXACT || !constEntries.isEmpty())) {
            throw new IllegalArgumentException("table " + name + ": a keyless table is an exact table without entries");
        }
        if (Collections.frequency(fieldKinds, MatchKind.LPM) > 1) {
            // one prefix length decides among an entry's matches (bmv2 and P4Runtime take one lpm field a table)
            throw new IllegalArgumentException("table " + name + ": an LPM table matches one lpm field");
        }
        if (size < 1 || actionDataBits < 0 || actionDataBits > 64) {
            throw new IllegalArgumentException("table " + name + ": size must be positive and action data 0..64 bits");
        }
        for (ConstEntry e : constEntries) {
            if ((e.mask() != null) != (kind != MatchKind.EXACT) || (e.high() != null) != (kind == MatchKind.RANGE)) {
                throw new IllegalArgumentException("table " + name + ": a " + kind.name().toLowerCase(Locale.ROOT)
                        + " table's constant entries have " + (kind == MatchKind.EXACT ? "no masks"
                        : kind == MatchKind.RANGE ? "masks and high ends" : "masks and no high ends"));
            }
        }
        if (constEntries.size() > size) {
            throw new IllegalArgumentException("table " + name + ": " + constEntries.size() + " constant entries > size " + size);
        }
        for (ConstEntry e : constEntries) {
            if (e.key().length != key.size()) {
                throw new IllegalArgumentException("table " + name + ": a constant entry needs " + key.size() + " key values");
            }
            if (actionDataBits < 64 && Long.compareUnsigned(e.data(), (1L << actionDataBits) - 1) > 0) {
                throw new IllegalArgumentException("table " + name + ": constant entry data " + e.data() + " exceeds "
                        + actionDataBits + " bits");
            }
        }
        if (actions.dataBits() > actionDataBits) {
            throw new IllegalArgumentException("table " + name + ": action parameters of " + actions.dataBits()
                    + " bits exceed its " + actionDataBits + " bits of action data");
        }
        this.actions = actions;
        this.constEntries = List.copyOf(constEntries);
        this.keyBits = bits;
        this.size = size;
        this.actionDataBits = actionDataBits;
        this.gress = gress;
        this.stage = stage;
    }

    /** Packs the key fields' PHV values into the high word (bits 64..127 of the key). */
    public long keyHi(long[] phv) {
        return pack(phv, true);
    }

    /** Packs the key fields' PHV values into the low word (bits 0..63 of the key). */
    public long keyLo(long[] phv) {
        return pack(phv, false);
    }

    private long pack(long[] phv, boolean high) {
        // key bit string = fields concatenated, first field most significant
        long lo = 0;
        long hi = 0;
        for (Field f : key) {
            int w = f.width();
            long v = phv[f.slot()] & f.mask();
            if (w == 64) {
                hi = lo;
                lo = v;
            } else {
                hi = (hi << w) | (lo >>> (64 - w));
                lo = (lo << w) | v;
            }
        }
        return high ? hi : lo;
    }

    public int id() {
        return id;
    }

    public String name() {
        return name;
    }

    public MatchKind kind() {
        return kind;
    }

    /** How each key field matches, in key order. */
    public List<MatchKind> fieldKinds() {
        return List.of(fieldKinds);
    }

    /** How key field {@code i} matches. */
    public MatchKind fieldKind(int i) {
        return fieldKinds[i];
    }

    /** True when the key's fields match by more than one kind. */
    public boolean mixedKinds() {
        for (MatchKind k : fieldKinds) {
            if (k != kind) {
                return true;
            }
        }
        return false;
    }

    /**
     * The kind of a table whose key fields match by {@code fieldKinds}: range if any field is a
     * range, else ternary if any is ternary, else lpm if any is lpm, else exact: how p4c's bmv2
     * back end names a mixed table's match type (backends/bmv2/common/control.h,
     * ControlConverter::convertTable), and so whether bmv2's runtime_CLI asks its entries for a
     * priority (ternary and range tables do).
     */
    public static MatchKind kindOf(List<MatchKind> fieldKinds) {
        MatchKind k = MatchKind.EXACT;
        for (MatchKind f : fieldKinds) {
            if (rank(f) > rank(k)) {
                k = f;
            }
        }
        return k;
    }

    private static int rank(MatchKind k) {
        return switch (k) {
            case EXACT -> 0;
            case LPM -> 1;
            case TERNARY -> 2;
            case RANGE -> 3;
        };
    }

    public List<Field> key() {
        return List.of(key);
    }

    /** True for a table without key fields: it always misses, running its default action. */
    public boolean keyless() {
        return key.length == 0;
    }

    public int keyBits() {
        return keyBits;
    }

    public int size() {
        return size;
    }

    public int actionDataBits() {
        return actionDataBits;
    }

    public Gress gress() {
        return gress;
    }

    public int stage() {
        return stage;
    }

    /** The actions the control plane names ({@link TableActions#NONE} when the program declares none). */
    public TableActions actions() {
        return actions;
    }

    /** The table's idle timeout and algorithmic TCAM shape ({@link TableOptions#NONE} for a plain table). */
    public TableOptions options() {
        return options;
    }

    /** An ALPM is an LPM table; an ATCAM a ternary table whose key holds its partition index. */
    private static TableOptions checkOptions(String name, MatchKind kind, List<Field> key, TableOptions options) {
        if (options == null) {
            return TableOptions.NONE;
        }
        AlgorithmicTcam a = options.algorithmic();
        if (a != null && a.kind() == AlgorithmicTcam.Kind.ALPM && kind != MatchKind.LPM) {
            throw new IllegalArgumentException("table " + name + ": an Alpm implementation needs an LPM table (exactly one lpm key)");
        }
        if (a != null && a.kind() == AlgorithmicTcam.Kind.ATCAM
                && (kind != MatchKind.TERNARY || !key.contains(a.partitionIndex()))) {
            throw new IllegalArgumentException("table " + name + ": an ATCAM is a ternary table whose key holds its partition index "
                    + a.partitionIndex().name());
        }
        return options;
    }

    /** The entries the program fixes (empty: the control plane installs them all). */
    public List<ConstEntry> constEntries() {
        return constEntries;
    }
}
