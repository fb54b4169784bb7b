package dev.rmtemu.emulator.run;

import dev.rmtemu.model.UserError;
import dev.rmtemu.model.phv.Field;
import dev.rmtemu.model.runtime.PipelineState;
import dev.rmtemu.model.table.MatchKind;
import dev.rmtemu.model.table.MatchTable;
import dev.rmtemu.model.table.TableState;

import java.util.List;
import java.util.Locale;

/**
 * One entry's match as a script gives it, each key field in its own kind's form as bmv2's
 * runtime_CLI reads it: a value (exact), {@code v&&&m} (ternary), {@code v/len} (lpm) or
 * {@code lo->hi} (range). Per field a value (a range's low end), a mask (an exact field's is
 * all its bits, an lpm field's its prefix, a range field's none) and a high end (range fields);
 * the lpm field's prefix length; and, in a ternary or range table, a priority (the lower value
 * wins). A key mixing kinds is a table of the widest ({@link MatchTable#kindOf}).
 */
record TableEntry(MatchTable table, long[] values, long[] masks, long[] highs, int prefixLength, int priority, String shown) {
    private static final String RANGE = "->";
    private static final String MASK = "&&&";

    /** Parses the key words ({@code v}, {@code v&&&m}, {@code v/len}, {@code lo->hi}) of {@code t}. */
    static TableEntry parse(MatchTable t, List<String> key, int priority) {
        List<Field> fields = t.key();
        if (t.keyless()) {
            // refused when the script is read, before the run (installing would refuse it too)
            PipelineState.packKey(t, new long[0]);
        }
        if (key.size() != fields.size()) {
            StringBuilder names = new StringBuilder();
            for (Field f : fields) {
                names.append(names.length() == 0 ? "" : " ").append(f.name());
            }
            throw new UserError("table " + t.name() + " needs " + fields.size() + " key field" + (fields.size() == 1 ? "" : "s")
                    + " (" + names + "), got " + key.size());
        }
        long[] values = new long[fields.size()];
        long[] masks = new long[fields.size()];
        long[] highs = new long[fields.size()];
        int prefix = -1;
        for (int i = 0; i < values.length; i++) {
            String w = key.get(i);
            Field f = fields.get(i);
            MatchKind kind = t.fieldKind(i);
            switch (kind) {
                case EXACT -> {
                    if (w.contains(MASK) || w.contains("/") || w.contains(RANGE)) {
                        throw new UserError(matches(t, i) + ": key " + w + " must be a plain value");
                    }
                    values[i] = ControlValues.value(w, f.width(), f.name());
                    masks[i] = f.mask();
                }
                case TERNARY -> {
                    int at = w.indexOf(MASK);
                    if (w.contains("/") || w.contains(RANGE)) {
                        throw new UserError(matches(t, i) + ": key " + w + " must be VALUE&&&MASK");
                    }
                    values[i] = ControlValues.value(at < 0 ? w : w.substring(0, at), f.width(), f.name());
                    masks[i] = at < 0 ? f.mask() : ControlValues.value(w.substring(at + MASK.length()), f.width(), f.name() + " mask");
                    // bits outside the mask do not match anything: 10.0.0.1&&&255.0.0.0 is 10.0.0.0&&&255.0.0.0
                    values[i] &= masks[i];
                }
                case LPM -> {
                    int at = w.indexOf('/');
                    if (at < 0 || w.contains(MASK) || w.contains(RANGE)) {
                        throw new UserError(matches(t, i) + ": key " + w + " must be VALUE/LENGTH");
                    }
                    values[i] = ControlValues.value(w.substring(0, at), f.width(), f.name());
                    String len = w.substring(at + 1);
                    prefix = len.matches("[0-9]{1,3}") ? Integer.parseInt(len) : -1;
                    if (prefix < 0 || prefix > f.width()) {
                        throw new UserError("prefix length " + len + " outside 0.." + f.width() + " for " + f.name());
                    }
                    // bits beyond the prefix do not match anything: 10.0.0.1/8 is 10.0.0.0/8
                    masks[i] = prefix == 0 ? 0 : f.mask() & (-1L << (f.width() - prefix));
                    values[i] &= masks[i];
                }
                case RANGE -> {
                    int at = w.indexOf(RANGE);
                    if (at < 0 || w.contains(MASK) || w.contains("/")) {
                        throw new UserError(matches(t, i) + ": key " + w + " must be LOW->HIGH");
                    }
                    values[i] = ControlValues.value(w.substring(0, at), f.width(), f.name());
                    highs[i] = ControlValues.value(w.substring(at + RANGE.length()), f.width(), f.name());
                    if (Long.compareUnsigned(values[i], highs[i]) > 0) {
                        throw new UserError("range " + w + " of " + f.name() + " is empty: its low end is above its high end");
                    }
                }
            }
        }
        String shown = "key " + String.join(" ", key) + (prioritised(t) ? " priority " + priority : "");
        return new TableEntry(t, values, masks, highs, prefix, priority, shown);
    }

    /** "table T matches KIND", or for a key mixing kinds "table T matches FIELD by KIND": what a refused key word breaks. */
    private static String matches(MatchTable t, int i) {
        String kind = t.fieldKind(i).name().toLowerCase(Locale.ROOT);
        return "table " + t.name() + " matches " + (t.mixedKinds() ? t.key().get(i).name() + " by " + kind : kind);
    }

    /** The key normalised (so 10.0.0.2 and 0x0a000002 are one key): what makes two entries the same. */
    String identity() {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < values.length; i++) {
            b.append(i == 0 ? "" : " ").append("0x").append(Long.toHexString(values[i]));
            switch (table.fieldKind(i)) {
                case TERNARY -> b.append("&&&0x").append(Long.toHexString(masks[i]));
                case LPM -> b.append('/').append(prefixLength);
                case RANGE -> b.append("->0x").append(Long.toHexString(highs[i]));
                case EXACT -> { }
            }
        }
        if (prioritised(table)) {
            b.append(" priority ").append(priority);
        }
        return b.toString();
    }

    /**
     * Ternary and range entries overlap: each has a priority (bmv2's runtime_CLI asks for one on
     * both, and on a table whose key mixes in a ternary or range field).
     */
    static boolean prioritised(MatchTable t) {
        return t.kind() == MatchKind.TERNARY || t.kind() == MatchKind.RANGE;
    }

    /** A range table's bounds: the range fields' own, the other fields' spanning every value (their masks decide). */
    private long[][] bounds() {
        long[] lo = new long[values.length];
        long[] hi = new long[values.length];
        for (int i = 0; i < values.length; i++) {
            boolean range = table.fieldKind(i) == MatchKind.RANGE;
            lo[i] = range ? values[i] : 0;
            hi[i] = range ? highs[i] : table.key().get(i).mask();
        }
        return new long[][] {lo, hi};
    }

    /** The packed value and mask words (value hi, value lo, mask hi, mask lo) of the fields that are not ranges. */
    private long[] masked() {
        long[] v = new long[values.length];
        long[] m = new long[values.length];
        for (int i = 0; i < values.length; i++) {
            if (table.fieldKind(i) != MatchKind.RANGE) {
                v[i] = values[i];
                m[i] = masks[i];
            }
        }
        long[] pv = PipelineState.packKey(table, v);
        long[] pm = PipelineState.packKey(table, m);
        return new long[] {pv[0], pv[1], pm[0], pm[1]};
    }

    /** Installs the entry. */
    void add(PipelineState s, int action, long data) {
        long[] v = PipelineState.packKey(table, values);
        TableState ts = s.table(table);
        boolean fresh = lookup(ts) < 0;
        switch (table.kind()) {
            case EXACT -> ts.addExact(v[0], v[1], action, data);
            case TERNARY -> {
                long[] m = PipelineState.packKey(table, masks);
                ts.addTernary(v[0], v[1], m[0], m[1], priority, action, data);
            }
            case LPM -> ts.addLpm(v[0], v[1], prefixLength, action, data);
            case RANGE -> {
                long[][] b = bounds();
                long[] vm = masked();
                ts.addRange(b[0], b[1], vm[0], vm[1], vm[2], vm[3], priority, action, data);
            }
        }
        if (fresh) {
            s.entryInstalled(table, lookup(ts)); // a new entry's direct register cells start afresh
        }
    }

    /** The entry's handle in the table's state; refused when it is no longer installed. */
    int handle(TableState ts) {
        int h = lookup(ts);
        gone(h >= 0);
        return h;
    }

    /** The entry's handle in the table's state, or -1 when it is not installed. */
    private int lookup(TableState ts) {
        long[] v = PipelineState.packKey(table, values);
        return switch (table.kind()) {
            case EXACT -> ts.handleOfExact(v[0], v[1]);
            case TERNARY -> {
                long[] m = PipelineState.packKey(table, masks);
                yield ts.handleOfTernary(v[0], v[1], m[0], m[1], priority);
            }
            case LPM -> ts.handleOfLpm(v[0], v[1], prefixLength);
            case RANGE -> {
                long[][] b = bounds();
                long[] vm = masked();
                yield ts.handleOfRange(b[0], b[1], vm[0], vm[1], vm[2], vm[3], priority);
            }
        };
    }

    /** Removes the entry; refused when it is no longer installed (something else removed it). */
    void remove(PipelineState s) {
        long[] v = PipelineState.packKey(table, values);
        TableState ts = s.table(table);
        boolean done = switch (table.kind()) {
            case EXACT -> ts.removeExact(v[0], v[1]);
            case TERNARY -> {
                long[] m = PipelineState.packKey(table, masks);
                yield ts.removeTernary(v[0], v[1], m[0], m[1], priority);
            }
            case LPM -> ts.removeLpm(v[0], v[1], prefixLength);
            case RANGE -> {
                long[][] b = bounds();
                long[] vm = masked();
                yield ts.removeRange(b[0], b[1], vm[0], vm[1], vm[2], vm[3], priority);
            }
        };
        gone(done);
    }

    /** Gives the installed entry another action and data. */
    void modify(PipelineState s, int action, long data) {
        long[] v = PipelineState.packKey(table, values);
        TableState ts = s.table(table);
        boolean done = switch (table.kind()) {
            case EXACT -> ts.modifyExact(v[0], v[1], action, data);
            case TERNARY -> {
                long[] m = PipelineState.packKey(table, masks);
                yield ts.modifyTernary(v[0], v[1], m[0], m[1], priority, action, data);
            }
            case LPM -> ts.modifyLpm(v[0], v[1], prefixLength, action, data);
            case RANGE -> {
                long[][] b = bounds();
                long[] vm = masked();
                yield ts.modifyRange(b[0], b[1], vm[0], vm[1], vm[2], vm[3], priority, action, data);
            }
        };
        gone(done);
    }

    private void gone(boolean done) {
        if (!done) {
            throw new UserError("table " + table.name() + " no longer holds the entry for " + shown);
        }
    }
}
