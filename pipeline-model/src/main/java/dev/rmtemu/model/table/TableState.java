package dev.rmtemu.model.table;

import dev.rmtemu.model.UserError;

import java.util.Arrays;

/**
 * The installed entries of one table. Exact tables use open addressing over the
 * packed key; ternary and LPM tables keep entries sorted by priority and match
 * first-hit, as a TCAM does. Lookups allocate nothing.
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

    public TableState(MatchTable table) {
        this.table = table;
        int n = table.size();
        valueHi = new long[n];
        valueLo = new long[n];
        maskHi = new long[n];
        maskLo = new long[n];
        priority = new int[n];
        actionId = new int[n];
        actionData = new long[n];
        handle = new int[n];
        if (table.kind() == MatchKind.EXACT) {
            int cap = Integer.highestOneBit(Math.max(2, n) * 2 - 1) << 1;
            slots = new long[cap * SLOT_WORDS];
            slotMask = cap - 1;
            direct = table.keyBits() <= DIRECT_KEY_BITS ? new int[1 << table.keyBits()] : null;
        } else {
            slots = null;
            slotMask = 0;
            direct = null;
        }
    }

    public MatchTable table() {
        return table;
    }

    public int count() {
        return count;
    }

    /** Installs an exact entry; replaces the action of an existing key. Returns the entry index. */
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
        int e = count++;
        handle[e] = e;
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
        int bits = table.keyBits();
        if (prefixLen < 0 || prefixLen > bits) {
            throw new UserError("table " + table.name() + ": prefix length " + prefixLen + " outside 0.." + bits);
        }
        long mHi = 0;
        long mLo = 0;
        for (int i = 0; i < prefixLen; i++) {
            int bit = bits - 1 - i;
            if (bit >= 64) {
                mHi |= 1L << (bit - 64);
            } else {
                mLo |= 1L << bit;
            }
        }
        // longer prefixes first: priority = bits - length
        return insertSorted(keyHi & mHi, keyLo & mLo, mHi, mLo, bits - prefixLen, action, data);
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
        handle[pos] = count;
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
        if (direct != null && hi == 0 && lo >= 0 && lo < direct.length) {
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
        return findSlot(keyHi, keyLo);
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

    /** The matching entry for a packed key, or -1 on a miss. */
    public int lookup(long keyHi, long keyLo) {
        if (slots != null) {
            return findExact(keyHi, keyLo);
        }
        for (int e = 0; e < count; e++) {
            if ((keyLo & maskLo[e]) == valueLo[e] && (keyHi & maskHi[e]) == valueHi[e]) {
                return e;
            }
        }
        return -1;
    }

    public int actionId(int entry) {
        return actionId[entry];
    }

    public long actionData(int entry) {
        return actionData[entry];
    }

    /** Removes every entry. */
    public void clear() {
        count = 0;
        if (slots != null) {
            Arrays.fill(slots, 0);
        }
        if (direct != null) {
            Arrays.fill(direct, 0);
        }
    }
}
