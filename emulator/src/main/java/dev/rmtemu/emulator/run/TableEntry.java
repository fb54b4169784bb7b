package dev.rmtemu.emulator.run;

import dev.rmtemu.model.UserError;
import dev.rmtemu.model.phv.Field;
import dev.rmtemu.model.runtime.PipelineState;
import dev.rmtemu.model.table.MatchKind;
import dev.rmtemu.model.table.MatchTable;
import dev.rmtemu.model.table.TableState;

import java.util.List;

/**
 * One entry's match as a script gives it: a value per key field, and per kind a mask per
 * field (ternary), a prefix length (lpm) or a high end per field ({@code values} are the low
 * ends: range); ternary and range entries have a priority (the lower value wins).
 */
record TableEntry(MatchTable table, long[] values, long[] masks, int prefixLength, int priority, String shown) {
    private static final String RANGE = "->";

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
        int prefix = -1;
        for (int i = 0; i < values.length; i++) {
            String w = key.get(i);
            Field f = fields.get(i);
            switch (t.kind()) {
                case EXACT -> {
                    if (w.contains("&&&") || w.contains("/") || w.contains(RANGE)) {
                        throw new UserError("table " + t.name() + " matches exact: key " + w + " must be a plain value");
                    }
                    values[i] = ControlValues.value(w, f.width(), f.name());
                }
                case TERNARY -> {
                    int at = w.indexOf("&&&");
                    if (w.contains("/") || w.contains(RANGE)) {
                        throw new UserError("table " + t.name() + " matches ternary: key " + w + " must be VALUE&&&MASK");
                    }
                    values[i] = ControlValues.value(at < 0 ? w : w.substring(0, at), f.width(), f.name());
                    masks[i] = at < 0 ? f.mask() : ControlValues.value(w.substring(at + 3), f.width(), f.name() + " mask");
                    // bits outside the mask do not match anything: 10.0.0.1&&&255.0.0.0 is 10.0.0.0&&&255.0.0.0
                    values[i] &= masks[i];
                }
                case LPM -> {
                    int at = w.indexOf('/');
                    if (at < 0 || w.contains("&&&") || w.contains(RANGE)) {
                        throw new UserError("table " + t.name() + " matches lpm: key " + w + " must be VALUE/LENGTH");
                    }
                    values[i] = ControlValues.value(w.substring(0, at), f.width(), f.name());
                    String len = w.substring(at + 1);
                    prefix = len.matches("[0-9]{1,3}") ? Integer.parseInt(len) : -1;
                    if (prefix < 0 || prefix > f.width()) {
                        throw new UserError("prefix length " + len + " outside 0.." + f.width() + " for " + f.name());
                    }
                    // bits beyond the prefix do not match anything: 10.0.0.1/8 is 10.0.0.0/8
                    values[i] &= prefix == 0 ? 0 : f.mask() & (-1L << (f.width() - prefix));
                }
                case RANGE -> {
                    int at = w.indexOf(RANGE);
                    if (at < 0 || w.contains("&&&") || w.contains("/")) {
                        throw new UserError("table " + t.name() + " matches range: key " + w + " must be LOW->HIGH");
                    }
                    values[i] = ControlValues.value(w.substring(0, at), f.width(), f.name());
                    masks[i] = ControlValues.value(w.substring(at + RANGE.length()), f.width(), f.name());
                    if (Long.compareUnsigned(values[i], masks[i]) > 0) {
                        throw new UserError("range " + w + " of " + f.name() + " is empty: its low end is above its high end");
                    }
                }
            }
        }
        String shown = "key " + String.join(" ", key) + (prioritised(t) ? " priority " + priority : "");
        return new TableEntry(t, values, masks, prefix, priority, shown);
    }

    /** The key normalised (so 10.0.0.2 and 0x0a000002 are one key): what makes two entries the same. */
    String identity() {
        MatchTable t = table;
        int prefix = prefixLength;
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < values.length; i++) {
            b.append(i == 0 ? "" : " ").append("0x").append(Long.toHexString(values[i]));
            if (t.kind() == MatchKind.TERNARY) {
                b.append("&&&0x").append(Long.toHexString(masks[i]));
            } else if (t.kind() == MatchKind.LPM) {
                b.append('/').append(prefix);
            } else if (t.kind() == MatchKind.RANGE) {
                b.append("->0x").append(Long.toHexString(masks[i]));
            }
        }
        if (prioritised(t)) {
            b.append(" priority ").append(priority);
        }
        return b.toString();
    }

    /** Ternary and range entries overlap: each has a priority (bmv2's runtime_CLI asks for one on both). */
    static boolean prioritised(MatchTable t) {
        return t.kind() == MatchKind.TERNARY || t.kind() == MatchKind.RANGE;
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
            case RANGE -> ts.addRange(values, masks, priority, action, data);
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
        int h = switch (table.kind()) {
            case EXACT -> ts.handleOfExact(v[0], v[1]);
            case TERNARY -> {
                long[] m = PipelineState.packKey(table, masks);
                yield ts.handleOfTernary(v[0], v[1], m[0], m[1], priority);
            }
            case LPM -> ts.handleOfLpm(v[0], v[1], prefixLength);
            case RANGE -> ts.handleOfRange(values, masks, priority);
        };
        return h;
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
            case RANGE -> ts.removeRange(values, masks, priority);
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
            case RANGE -> ts.modifyRange(values, masks, priority, action, data);
        };
        gone(done);
    }

    private void gone(boolean done) {
        if (!done) {
            throw new UserError("table " + table.name() + " no longer holds the entry for " + shown);
        }
    }
}
