package dev.rmtemu.model.table;

import dev.rmtemu.model.phv.Field;
import dev.rmtemu.model.phv.Gress;

import java.util.List;

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

    /**
     * A constant entry: one value per key field (in key order), the action it selects and its
     * action data; a ternary table's entry also has a mask per field ({@code mask}, null for an
     * exact entry), and the earlier of two entries that both match wins (P4_16's const entries).
     */
    public record ConstEntry(long[] key, int action, long data, long[] mask) {
        public ConstEntry {
            if (action < 0) {
                throw new IllegalArgumentException("a constant entry's action id is an index, not " + action);
            }
            if (mask != null && mask.length != key.length) {
                throw new IllegalArgumentException("a constant entry has a mask per key value");
            }
            key = key.clone();
            mask = mask == null ? null : mask.clone();
        }

        /** An exact entry. */
        public ConstEntry(long[] key, int action, long data) {
            this(key, action, data, null);
        }

        @Override
        public long[] key() {
            return key.clone();
        }

        @Override
        public long[] mask() {
            return mask == null ? null : mask.clone();
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
        if (kind == MatchKind.LPM && key.size() != 1) {
            throw new IllegalArgumentException("table " + name + ": an LPM table matches one field");
        }
        if (size < 1 || actionDataBits < 0 || actionDataBits > 64) {
            throw new IllegalArgumentException("table " + name + ": size must be positive and action data 0..64 bits");
        }
        if (!constEntries.isEmpty() && kind != MatchKind.EXACT && kind != MatchKind.TERNARY) {
            throw new IllegalArgumentException("table " + name + ": constant entries are exact or ternary entries");
        }
        for (ConstEntry e : constEntries) {
            if ((e.mask() != null) != (kind == MatchKind.TERNARY)) {
                throw new IllegalArgumentException("table " + name + ": a ternary table's constant entries have masks, an exact table's not");
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
