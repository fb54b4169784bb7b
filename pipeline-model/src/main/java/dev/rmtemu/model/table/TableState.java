package dev.rmtemu.model.table;

import dev.rmtemu.model.UserError;

import java.util.Arrays;
import java.util.BitSet;

/**
 * The installed entries of one table. Exact tables use open addressing over the
 * packed key; ternary, LPM and range tables keep entries sorted by priority and match
 * first-hit, as a TCAM does (a range entry is one entry here, however many TCAM lines
 * the hardware spends on it). Lookups allocate nothing.
 */
public final class TableState {
    private final MatchTable table;
    private final long[] valueHi;
    private final long[] valueLo;
    private final long[] maskHi;
    private final long[] maskLo;
    private final int[] priority;
    private final int[] actionId;
    private final long[] actionData;
    /**
     * Per entry position, its handle: the order it was installed in (0, 1, ...). Sorted tables
     * move entries when one of higher priority arrives; the handle stays, so a direct counter
     * or meter cell stays with its entry (exact entries never move: handle = entry index).
     */
    private final int[] handle;
    private int count;
    /**
     * Exact tables: open addressing, {@value #SLOT_WORDS} longs a slot holding the key (hi,
     * lo), (entry index + 1) << 32 | action id (0 = empty) and the action data, so a probe
     * that hits reads one slot and nothing else; capacity a power of two >= 2 * size.
     */
    private final long[] slots;
    private final int slotMask;
    private static final int SLOT_WORDS = 4;
    private static final int SLOT_SHIFT = 2;
    /**
     * An exact table keyed by at most this many bits also indexes its slots by the key itself
     * (a port table, a vconn table): a lookup is one array load instead of a hash and a probe.
     */
    static final int DIRECT_KEY_BITS = 12;
    /** Per key value: its slot + 1 (0 = no entry), for narrow exact tables; null otherwise. */
    private final int[] direct;
    /**
     * The default action the control plane set (P4's table_set_default), kept as one more
     * entry after the table's capacity (and, in an exact table, one more slot after the hash
     * slots), so that a miss answers this entry and the program runs the action's block as on
     * a hit: -1 while the program's own miss block is the default.
     */
    private int defaultEntry = -1;
    /** Exact tables: the entry indexes in use (a removed entry leaves a hole, refilled first). */
    private final BitSet usedExact = new BitSet();
    /** Ternary and LPM tables: the handles in use (a removed entry's handle is reused first). */
    private final BitSet usedMasked = new BitSet();
    private int defaultSlot = -1;
    /**
     * Range tables: per entry, each key field's bounds (entry e, field i at e * fields + i),
     * inclusive, unsigned; and where each field sits in the packed key (its lowest bit and
     * mask), so a lookup compares field by field without unpacking into a scratch array.
     */
    private final long[] rangeLo;
    private final long[] rangeHi;
    private final int fields;
    private final int[] fieldShift;
    private final long[] fieldMask;
    /** The action profile this table's entries point into (its implementation); null for a direct table. */
    private MemberSelection profile;
    /** Idle timeout: each entry's last hit and TTL, by handle; null for a table without one. */
    private final EntryAging aging;
    /**
     * LPM tables: the lpm field's width and lowest bit in the packed key, and the mask of the
     * exact fields beside it (hi, lo): a prefix covers the lpm field's top bits, the exact
     * fields all theirs.
     */
    private final int lpmWidth;
    private final int lpmShift;
    private final long exactMaskHi;
    private final long exactMaskLo;

    public TableState(MatchTable table) {
        this(table, new HitClock());
    }

    /** A table whose entries, if it declares an idle timeout, are stamped with {@code clock}'s time when hit. */
    public TableState(MatchTable table, HitClock clock) {
        this.table = table;
        this.aging = table.options().idleTimeout() == null ? null : new EntryAging(clock, table.size());
        int n = table.size();
        // one more entry (and slot) than the capacity: the default action's
        valueHi = new long[n + 1];
        valueLo = new long[n + 1];
        maskHi = new long[n + 1];
        maskLo = new long[n + 1];
        priority = new int[n + 1];
        actionId = new int[n + 1];
        actionData = new long[n + 1];
        handle = new int[n + 1];
        handle[n] = n; // the default entry's own cell, past the entries'
        if (table.kind() == MatchKind.EXACT) {
            int cap = Integer.highestOneBit(Math.max(2, n) * 2 - 1) << 1;
            slots = new long[(cap + 1) * SLOT_WORDS];
            slotMask = cap - 1;
            direct = table.keyBits() <= DIRECT_KEY_BITS ? new int[1 << table.keyBits()] : null;
        } else {
            slots = null;
            slotMask = 0;
            direct = null;
        }
        fields = table.key().size();
        if (table.kind() == MatchKind.RANGE) {
            // only range tables carry these: a network of idle switches holds many tables (NetworkMemoryEstimate)
            fieldShift = new int[fields];
            fieldMask = new long[fields];
            int shift = 0;
            for (int i = fields - 1; i >= 0; i--) {
                // the first field is the most significant: the last sits at bit 0
                fieldShift[i] = shift;
                fieldMask[i] = table.key().get(i).mask();
                shift += table.key().get(i).width();
            }
            rangeLo = new long[(n + 1) * fields];
            rangeHi = new long[(n + 1) * fields];
        } else {
            fieldShift = null;
            fieldMask = null;
            rangeLo = null;
            rangeHi = null;
        }
        int width = 0;
        int lowest = 0;
        long mHi = 0;
        long mLo = 0;
        if (table.kind() == MatchKind.LPM) {
            int shift = 0;
            for (int i = fields - 1; i >= 0; i--) {
                int w = table.key().get(i).width();
                if (table.fieldKind(i) == MatchKind.LPM) {
                    width = w;
                    lowest = shift;
                } else {
                    long[] m = bits(shift, w);
                    mHi |= m[0];
                    mLo |= m[1];
                }
                shift += w;
            }
        }
        lpmWidth = width;
        lpmShift = lowest;
        exactMaskHi = mHi;
        exactMaskLo = mLo;
    }

    /** The (hi, lo) words of a mask of {@code width} ones from bit {@code lowest} of the 128-bit key. */
    private static long[] bits(int lowest, int width) {
        long hi = 0;
        long lo = 0;
        for (int b = lowest; b < lowest + width; b++) {
            if (b >= Long.SIZE) {
                hi |= 1L << (b - Long.SIZE);
            } else {
                lo |= 1L << b;
            }
        }
        return new long[] {hi, lo};
    }

    public MatchTable table() {
        return table;
    }

    /** The entries' hit times and TTLs (idle timeout), or null when the table declares none. */
    public EntryAging aging() {
        return aging;
    }

    /** The handle of the exact entry of this key, or -1. */
    public int handleOfExact(long keyHi, long keyLo) {
        require(MatchKind.EXACT);
        return findExact(keyHi, keyLo);
    }

    /** The handle of the ternary entry with this value, mask and priority, or -1. */
    public int handleOfTernary(long keyHi, long keyLo, long mHi, long mLo, int prio) {
        require(MatchKind.TERNARY);
        int e = masked(keyHi & mHi, keyLo & mLo, mHi, mLo, prio);
        return e < 0 ? -1 : handle[e];
    }

    /** The handle of the LPM entry of this prefix, or -1. */
    public int handleOfLpm(long keyHi, long keyLo, int prefixLen) {
        require(MatchKind.LPM);
        long[] m = lpmMask(prefixLen);
        int e = masked(keyHi & m[0], keyLo & m[1], m[0], m[1], lpmWidth - prefixLen);
        return e < 0 ? -1 : handle[e];
    }

    /** The handle of the range entry with these bounds and priority, or -1. */
    public int handleOfRange(long[] lo, long[] hi, int prio) {
        return handleOfRange(lo, hi, 0, 0, 0, 0, prio);
    }

    /** As above, for a range table whose other key fields match value (vHi, vLo) under mask (mHi, mLo). */
    public int handleOfRange(long[] lo, long[] hi, long vHi, long vLo, long mHi, long mLo, int prio) {
        require(MatchKind.RANGE);
        checkBounds(lo, hi);
        int e = ranged(lo, hi, vHi & mHi, vLo & mLo, mHi, mLo, prio);
        return e < 0 ? -1 : handle[e];
    }

    public int count() {
        return count;
    }

    /** Installs an exact entry; replaces the action of an existing key. Returns the entry index (the lowest free one). */
    public int addExact(long keyHi, long keyLo, int action, long data) {
        require(MatchKind.EXACT);
        int at = findSlot(keyHi, keyLo);
        if (at >= 0) {
            int existing = slotEntry(at);
            actionId[existing] = action;
            actionData[existing] = data;
            fillSlot(at, keyHi, keyLo, existing, action, data);
            return existing;
        }
        full();
        // the lowest free index: exact entries never move, a removed entry's index is reused first
        int e = usedExact.nextClearBit(0);
        usedExact.set(e);
        count++;
        handle[e] = e;
        if (aging != null) {
            aging.forget(e);
        }
        valueHi[e] = keyHi;
        valueLo[e] = keyLo;
        actionId[e] = action;
        actionData[e] = data;
        int s = slot(keyHi, keyLo);
        while (slots[(s << SLOT_SHIFT) + 2] != 0) {
            s = (s + 1) & slotMask;
        }
        fillSlot(s, keyHi, keyLo, e, action, data);
        return e;
    }

    /** Installs a ternary entry; lower priority value wins, ties by installation order. */
    public int addTernary(long keyHi, long keyLo, long mHi, long mLo, int prio, int action, long data) {
        require(MatchKind.TERNARY);
        return insertSorted(keyHi & mHi, keyLo & mLo, mHi, mLo, prio, action, data);
    }

    /** Installs an LPM entry for a prefix of {@code prefixLen} bits of the key. */
    public int addLpm(long keyHi, long keyLo, int prefixLen, int action, long data) {
        require(MatchKind.LPM);
        long[] m = lpmMask(prefixLen);
        // longer prefixes first: priority = the lpm field's bits - length
        return insertSorted(keyHi & m[0], keyLo & m[1], m[0], m[1], lpmWidth - prefixLen, action, data);
    }

    /**
     * Installs a range entry: per key field (in key order) the bounds {@code lo[i]..hi[i]},
     * inclusive and unsigned; as for ternary entries the lower priority value wins among
     * overlapping entries, ties by installation order.
     */
    public int addRange(long[] lo, long[] hi, int prio, int action, long data) {
        return addRange(lo, hi, 0, 0, 0, 0, prio, action, data);
    }

    /**
     * Installs an entry of a range table whose key also has exact, ternary or lpm fields: those
     * fields match value (vHi, vLo) under mask (mHi, mLo) of the packed key, and their bounds in
     * {@code lo}/{@code hi} span them (0 to all ones); the range fields' bits are outside the mask.
     */
    public int addRange(long[] lo, long[] hi, long vHi, long vLo, long mHi, long mLo, int prio, int action, long data) {
        require(MatchKind.RANGE);
        checkBounds(lo, hi);
        int pos = insertSorted(vHi & mHi, vLo & mLo, mHi, mLo, prio, action, data);
        System.arraycopy(lo, 0, rangeLo, pos * fields, fields);
        System.arraycopy(hi, 0, rangeHi, pos * fields, fields);
        return pos;
    }

    /** Removes the range entry with these bounds and priority; false when there is none. */
    public boolean removeRange(long[] lo, long[] hi, int prio) {
        return removeRange(lo, hi, 0, 0, 0, 0, prio);
    }

    /** As above, for a range table whose other key fields match value (vHi, vLo) under mask (mHi, mLo). */
    public boolean removeRange(long[] lo, long[] hi, long vHi, long vLo, long mHi, long mLo, int prio) {
        require(MatchKind.RANGE);
        checkBounds(lo, hi);
        return removeMasked(ranged(lo, hi, vHi & mHi, vLo & mLo, mHi, mLo, prio));
    }

    /** Gives the range entry with these bounds and priority another action; false when there is none. */
    public boolean modifyRange(long[] lo, long[] hi, int prio, int action, long data) {
        return modifyRange(lo, hi, 0, 0, 0, 0, prio, action, data);
    }

    /** As above, for a range table whose other key fields match value (vHi, vLo) under mask (mHi, mLo). */
    public boolean modifyRange(long[] lo, long[] hi, long vHi, long vLo, long mHi, long mLo, int prio, int action, long data) {
        require(MatchKind.RANGE);
        checkBounds(lo, hi);
        return modifyMasked(ranged(lo, hi, vHi & mHi, vLo & mLo, mHi, mLo, prio), action, data);
    }

    private void checkBounds(long[] lo, long[] hi) {
        if (lo.length != fields || hi.length != fields) {
            throw new UserError("table " + table.name() + " has " + fields + " key fields, got " + lo.length + " ranges");
        }
        for (int i = 0; i < fields; i++) {
            String name = table.key().get(i).name();
            if ((lo[i] & ~fieldMask[i]) != 0 || (hi[i] & ~fieldMask[i]) != 0) {
                throw new UserError("table " + table.name() + ": range " + Long.toUnsignedString(lo[i]) + "->"
                        + Long.toUnsignedString(hi[i]) + " exceeds " + name + "'s " + table.key().get(i).width() + " bits");
            }
            if (Long.compareUnsigned(lo[i], hi[i]) > 0) {
                throw new UserError("table " + table.name() + ": range " + Long.toUnsignedString(lo[i]) + "->"
                        + Long.toUnsignedString(hi[i]) + " of " + name + " is empty (low > high)");
            }
        }
    }

    /** The index of the range entry with exactly these bounds, value, mask and priority, or -1. */
    private int ranged(long[] lo, long[] hi, long vHi, long vLo, long mHi, long mLo, int prio) {
        for (int e = 0; e < count; e++) {
            if (priority[e] == prio && valueHi[e] == vHi && valueLo[e] == vLo && maskHi[e] == mHi && maskLo[e] == mLo
                    && Arrays.equals(rangeLo, e * fields, (e + 1) * fields, lo, 0, fields)
                    && Arrays.equals(rangeHi, e * fields, (e + 1) * fields, hi, 0, fields)) {
                return e;
            }
        }
        return -1;
    }

    /**
     * The high and low words of an LPM table's mask for a prefix of {@code prefixLen} bits of its
     * lpm field, every bit of the exact fields beside it.
     */
    private long[] lpmMask(int prefixLen) {
        if (prefixLen < 0 || prefixLen > lpmWidth) {
            throw new UserError("table " + table.name() + ": prefix length " + prefixLen + " outside 0.." + lpmWidth);
        }
        long[] m = bits(lpmShift + lpmWidth - prefixLen, prefixLen);
        return new long[] {m[0] | exactMaskHi, m[1] | exactMaskLo};
    }

    /** Removes the exact entry of this key; false when there is none. */
    public boolean removeExact(long keyHi, long keyLo) {
        require(MatchKind.EXACT);
        int s = findSlot(keyHi, keyLo);
        if (s < 0) {
            return false;
        }
        int e = slotEntry(s);
        if (direct != null && keyHi == 0 && keyLo >= 0 && keyLo < direct.length) {
            direct[(int) keyLo] = 0;
        }
        // linear probing: close the hole by moving back each later slot of the run whose home is not between the hole and it
        int hole = s;
        int j = s;
        while (true) {
            j = (j + 1) & slotMask;
            int at = j << SLOT_SHIFT;
            if (slots[at + 2] == 0) {
                break;
            }
            int home = slot(slots[at], slots[at + 1]);
            boolean stays = hole <= j ? home > hole && home <= j : home > hole || home <= j;
            if (!stays) {
                System.arraycopy(slots, at, slots, hole << SLOT_SHIFT, SLOT_WORDS);
                long hi = slots[at];
                long lo = slots[at + 1];
                if (direct != null && hi == 0 && lo >= 0 && lo < direct.length) {
                    direct[(int) lo] = hole + 1;
                }
                hole = j;
            }
        }
        Arrays.fill(slots, hole << SLOT_SHIFT, (hole + 1) << SLOT_SHIFT, 0);
        usedExact.clear(e);
        if (aging != null) {
            aging.forget(e);
        }
        count--;
        return true;
    }

    /** Removes the ternary entry with this value, mask and priority; false when there is none. */
    public boolean removeTernary(long keyHi, long keyLo, long mHi, long mLo, int prio) {
        require(MatchKind.TERNARY);
        return removeMasked(masked(keyHi & mHi, keyLo & mLo, mHi, mLo, prio));
    }

    /** Removes the LPM entry of this prefix; false when there is none. */
    public boolean removeLpm(long keyHi, long keyLo, int prefixLen) {
        require(MatchKind.LPM);
        long[] m = lpmMask(prefixLen);
        return removeMasked(masked(keyHi & m[0], keyLo & m[1], m[0], m[1], lpmWidth - prefixLen));
    }

    /** Gives the exact entry of this key another action; false when there is none. */
    public boolean modifyExact(long keyHi, long keyLo, int action, long data) {
        require(MatchKind.EXACT);
        int s = findSlot(keyHi, keyLo);
        if (s < 0) {
            return false;
        }
        int e = slotEntry(s);
        actionId[e] = action;
        actionData[e] = data;
        fillSlot(s, keyHi, keyLo, e, action, data);
        return true;
    }

    /** Gives the ternary entry with this value, mask and priority another action; false when there is none. */
    public boolean modifyTernary(long keyHi, long keyLo, long mHi, long mLo, int prio, int action, long data) {
        require(MatchKind.TERNARY);
        return modifyMasked(masked(keyHi & mHi, keyLo & mLo, mHi, mLo, prio), action, data);
    }

    /** Gives the LPM entry of this prefix another action; false when there is none. */
    public boolean modifyLpm(long keyHi, long keyLo, int prefixLen, int action, long data) {
        require(MatchKind.LPM);
        long[] m = lpmMask(prefixLen);
        return modifyMasked(masked(keyHi & m[0], keyLo & m[1], m[0], m[1], lpmWidth - prefixLen), action, data);
    }

    /** The index of the masked entry with exactly this value, mask and priority, or -1. */
    private int masked(long vHi, long vLo, long mHi, long mLo, int prio) {
        for (int e = 0; e < count; e++) {
            if (valueHi[e] == vHi && valueLo[e] == vLo && maskHi[e] == mHi && maskLo[e] == mLo && priority[e] == prio) {
                return e;
            }
        }
        return -1;
    }

    private boolean removeMasked(int e) {
        if (e < 0) {
            return false;
        }
        int tail = count - e - 1;
        System.arraycopy(valueHi, e + 1, valueHi, e, tail);
        System.arraycopy(valueLo, e + 1, valueLo, e, tail);
        System.arraycopy(maskHi, e + 1, maskHi, e, tail);
        System.arraycopy(maskLo, e + 1, maskLo, e, tail);
        System.arraycopy(priority, e + 1, priority, e, tail);
        System.arraycopy(actionId, e + 1, actionId, e, tail);
        System.arraycopy(actionData, e + 1, actionData, e, tail);
        usedMasked.clear(handle[e]);
        if (aging != null) {
            aging.forget(handle[e]);
        }
        System.arraycopy(handle, e + 1, handle, e, tail);
        if (rangeLo != null) {
            System.arraycopy(rangeLo, (e + 1) * fields, rangeLo, e * fields, tail * fields);
            System.arraycopy(rangeHi, (e + 1) * fields, rangeHi, e * fields, tail * fields);
        }
        count--;
        return true;
    }

    private boolean modifyMasked(int e, int action, long data) {
        if (e < 0) {
            return false;
        }
        actionId[e] = action;
        actionData[e] = data;
        return true;
    }

    /** A miss runs {@code action} with {@code data}, as a hit on an entry would (P4's table_set_default). */
    public void setDefault(int action, long data) {
        int e = table.size();
        actionId[e] = action;
        actionData[e] = data;
        defaultEntry = e;
        if (slots != null) {
            defaultSlot = slotMask + 1;
            fillSlot(defaultSlot, 0, 0, e, action, data);
        }
    }

    /** A miss runs the program's miss block again. */
    public void resetDefault() {
        defaultEntry = -1;
        defaultSlot = -1;
    }

    /** The entry a miss answers: the control plane's default action, or -1 for the program's miss block. */
    public int defaultEntry() {
        return defaultEntry;
    }

    private int insertSorted(long vHi, long vLo, long mHi, long mLo, int prio, int action, long data) {
        full();
        int pos = count;
        while (pos > 0 && priority[pos - 1] > prio) {
            pos--;
        }
        int tail = count - pos;
        System.arraycopy(valueHi, pos, valueHi, pos + 1, tail);
        System.arraycopy(valueLo, pos, valueLo, pos + 1, tail);
        System.arraycopy(maskHi, pos, maskHi, pos + 1, tail);
        System.arraycopy(maskLo, pos, maskLo, pos + 1, tail);
        System.arraycopy(priority, pos, priority, pos + 1, tail);
        System.arraycopy(actionId, pos, actionId, pos + 1, tail);
        System.arraycopy(actionData, pos, actionData, pos + 1, tail);
        System.arraycopy(handle, pos, handle, pos + 1, tail);
        if (rangeLo != null) {
            System.arraycopy(rangeLo, pos * fields, rangeLo, (pos + 1) * fields, tail * fields);
            System.arraycopy(rangeHi, pos * fields, rangeHi, (pos + 1) * fields, tail * fields);
        }
        int h = usedMasked.nextClearBit(0); // a removed entry's handle is reused first, as for exact entries
        usedMasked.set(h);
        handle[pos] = h;
        if (aging != null) {
            aging.forget(h);
        }
        valueHi[pos] = vHi;
        valueLo[pos] = vLo;
        maskHi[pos] = mHi;
        maskLo[pos] = mLo;
        priority[pos] = prio;
        actionId[pos] = action;
        actionData[pos] = data;
        count++;
        return pos;
    }

    private void full() {
        if (count == table.size()) {
            throw new UserError("table " + table.name() + " is full (" + table.size() + " entries)");
        }
    }

    private void require(MatchKind kind) {
        if (table.kind() != kind) {
            throw new UserError("table " + table.name() + " is " + table.kind() + ", not " + kind);
        }
    }

    private int slot(long hi, long lo) {
        long h = (hi * 0x9E3779B97F4A7C15L) ^ lo;
        h *= 0xC2B2AE3D27D4EB4FL;
        return (int) (h ^ (h >>> 29)) & slotMask;
    }

    private void fillSlot(int s, long hi, long lo, int entry, int action, long data) {
        if (direct != null && s <= slotMask && hi == 0 && lo >= 0 && lo < direct.length) {
            direct[(int) lo] = s + 1;
        }
        int at = s << SLOT_SHIFT;
        slots[at] = hi;
        slots[at + 1] = lo;
        slots[at + 2] = ((long) (entry + 1) << Integer.SIZE) | (action & 0xFFFF_FFFFL);
        slots[at + 3] = data;
    }

    private int slotEntry(int s) {
        return (int) (slots[(s << SLOT_SHIFT) + 2] >>> Integer.SIZE) - 1;
    }

    /** The slot holding this exact key, or -1. */
    private int findSlot(long hi, long lo) {
        if (direct != null && hi == 0 && lo >= 0 && lo < direct.length) {
            return direct[(int) lo] - 1;
        }
        int s = slot(hi, lo);
        long[] w = slots;
        while (true) {
            int at = s << SLOT_SHIFT;
            if (w[at + 2] == 0) {
                return -1;
            }
            if (w[at] == hi && w[at + 1] == lo) {
                return s;
            }
            s = (s + 1) & slotMask;
        }
    }

    private int findExact(long hi, long lo) {
        int s = findSlot(hi, lo);
        return s < 0 ? -1 : slotEntry(s);
    }

    /**
     * An exact table's lookup for generated stage code: the slot of the key (-1 on a miss),
     * whose action and data {@link #slotActionId} and {@link #slotActionData} read from the
     * same cache line. The same hit or miss as {@link #lookup}.
     */
    public int lookupExactSlot(long keyHi, long keyLo) {
        int s = findSlot(keyHi, keyLo);
        if (s >= 0 && aging != null) {
            aging.hit(slotEntry(s));
        }
        return s >= 0 ? s : defaultSlot;
    }

    /** The action id of an exact table's slot found by {@link #lookupExactSlot}. */
    public int slotActionId(int slot) {
        return (int) slots[(slot << SLOT_SHIFT) + 2];
    }

    /** The handle of the entry in an exact table's slot found by {@link #lookupExactSlot}. */
    public int slotHandle(int slot) {
        return slotEntry(slot);
    }

    /** The handle of the entry at {@code entry} (what {@link #lookup} returned): the order it was installed in. */
    public int handle(int entry) {
        return handle[entry];
    }

    /** The action data of an exact table's slot found by {@link #lookupExactSlot}. */
    public long slotActionData(int slot) {
        return slots[(slot << SLOT_SHIFT) + 3];
    }

    /** The matching entry for a packed key; on a miss the default entry ({@link #setDefault}), or -1 without one. */
    public int lookup(long keyHi, long keyLo) {
        if (slots != null) {
            int e = findExact(keyHi, keyLo);
            if (e >= 0 && aging != null) {
                aging.hit(e);
            }
            return e >= 0 ? e : defaultEntry;
        }
        if (rangeLo != null) {
            return lookupRange(keyHi, keyLo);
        }
        for (int e = 0; e < count; e++) {
            if ((keyLo & maskLo[e]) == valueLo[e] && (keyHi & maskHi[e]) == valueHi[e]) {
                if (aging != null) {
                    aging.hit(handle[e]);
                }
                return e;
            }
        }
        return defaultEntry;
    }

    /** First hit in priority order: the other fields' bits under their mask, every field of the key within its bounds. */
    private int lookupRange(long keyHi, long keyLo) {
        for (int e = 0; e < count; e++) {
            int at = e * fields;
            boolean hit = (keyLo & maskLo[e]) == valueLo[e] && (keyHi & maskHi[e]) == valueHi[e];
            for (int i = 0; i < fields && hit; i++) {
                long v = field(keyHi, keyLo, i);
                hit = Long.compareUnsigned(v, rangeLo[at + i]) >= 0 && Long.compareUnsigned(v, rangeHi[at + i]) <= 0;
            }
            if (hit) {
                if (aging != null) {
                    aging.hit(handle[e]);
                }
                return e;
            }
        }
        return defaultEntry;
    }

    /** Key field {@code i} out of the packed 128-bit key (first field most significant). */
    private long field(long keyHi, long keyLo, int i) {
        int shift = fieldShift[i];
        long v;
        if (shift >= Long.SIZE) {
            v = keyHi >>> (shift - Long.SIZE);
        } else if (shift == 0) {
            v = keyLo;
        } else {
            v = (keyLo >>> shift) | (keyHi << (Long.SIZE - shift));
        }
        return v & fieldMask[i];
    }

    public int actionId(int entry) {
        return actionId[entry];
    }

    /** Makes this an indirect table: its entries hold {@link MemberSelection#MEMBER} or {@code GROUP} and a handle. */
    public void attachProfile(MemberSelection p) {
        this.profile = p;
    }

    /** The action profile of an indirect table, or null. */
    public MemberSelection profile() {
        return profile;
    }

    /** For an indirect table: the member entry {@code entry} runs for this packet, -1 for an empty group. */
    public int member(int entry, long[] phv) {
        return profile.select(actionId[entry], actionData[entry], phv);
    }

    /** The action id of the member {@link #member} chose. */
    public int memberActionId(int member) {
        return profile.actionId(member);
    }

    /** The action data of the member {@link #member} chose. */
    public long memberActionData(int member) {
        return profile.actionData(member);
    }

    public long actionData(int entry) {
        return actionData[entry];
    }

    /** Removes every entry (the default action stays, as P4's table_clear leaves it). */
    public void clear() {
        count = 0;
        if (aging != null) {
            aging.forgetAll();
        }
        usedExact.clear();
        usedMasked.clear();
        if (slots != null) {
            Arrays.fill(slots, 0, (slotMask + 1) << SLOT_SHIFT, 0);
        }
        if (direct != null) {
            Arrays.fill(direct, 0);
        }
    }
}
