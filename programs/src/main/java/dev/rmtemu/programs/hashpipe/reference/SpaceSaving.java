package dev.rmtemu.programs.hashpipe.reference;

import dev.rmtemu.programs.hashpipe.control.FlowCount;

import java.util.ArrayList;
import java.util.List;

/**
 * Space saving (Metwally et al., ICDT 2005) with the exact minimum: m slots; a
 * monitored key is incremented; a new key replaces the slot with the smallest
 * count and inherits it (count = min + inc), so estimates never undercount.
 */
public final class SpaceSaving implements HeavyHitters {
    private final MinHeapTable table;

    public SpaceSaving(int slots) {
        table = new MinHeapTable(slots);
    }

    @Override
    public String name() {
        return "space saving";
    }

    @Override
    public void update(long lo, long hi, long inc) {
        int pos = table.find(lo, hi);
        if (pos >= 0) {
            table.raise(pos, table.count(pos) + inc);
        } else if (!table.full()) {
            table.insert(lo, hi, inc);
        } else {
            table.replaceMin(lo, hi, table.minCount() + inc);
        }
    }

    @Override
    public List<FlowCount> report() {
        List<FlowCount> out = new ArrayList<>();
        table.reportInto(out);
        out.sort(FlowCount.BY_COUNT_DESC);
        return out;
    }

    @Override
    public void reset() {
        table.clear();
    }
}
