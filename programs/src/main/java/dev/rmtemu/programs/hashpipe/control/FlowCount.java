package dev.rmtemu.programs.hashpipe.control;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/** A flow key (lo, hi) with a count: an estimate from a table, or the true count. */
public record FlowCount(long keyLo, long keyHi, long count) {
    /** Largest count first; ties by key (unsigned), so lists are deterministic. */
    public static final Comparator<FlowCount> BY_COUNT_DESC = (a, b) -> {
        int c = Long.compare(b.count, a.count);
        if (c != 0) {
            return c;
        }
        c = Long.compareUnsigned(a.keyHi, b.keyHi);
        return c != 0 ? c : Long.compareUnsigned(a.keyLo, b.keyLo);
    };

    /** All entries of a map, sorted by {@link #BY_COUNT_DESC}. */
    public static List<FlowCount> sorted(KeyCountMap m) {
        List<FlowCount> out = new ArrayList<>(m.size());
        for (int i = 0; i < m.capacity(); i++) {
            if (m.occupied(i)) {
                out.add(new FlowCount(m.keyLo(i), m.keyHi(i), m.value(i)));
            }
        }
        out.sort(BY_COUNT_DESC);
        return out;
    }

    /** The first {@code k} of a sorted list. */
    public static List<FlowCount> top(List<FlowCount> sorted, int k) {
        return List.copyOf(sorted.subList(0, Math.min(k, sorted.size())));
    }
}
