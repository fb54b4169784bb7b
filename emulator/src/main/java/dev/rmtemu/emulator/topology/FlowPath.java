package dev.rmtemu.emulator.topology;

import java.util.ArrayList;
import java.util.List;

/** The hops a packet takes from a source host to a destination host. */
public record FlowPath(List<Hop> hops) {
    public FlowPath {
        hops = List.copyOf(hops);
    }

    /** Ids of the links traversed, in order (one fewer than the hops). */
    public List<Integer> linkIds() {
        List<Integer> ids = new ArrayList<>(hops.size());
        for (Hop h : hops) {
            if (h.linkOut() >= 0) {
                ids.add(h.linkOut());
            }
        }
        return List.copyOf(ids);
    }

    /** Number of links traversed. */
    public int length() {
        return hops.size() - 1;
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder();
        for (Hop h : hops) {
            if (sb.length() > 0) {
                sb.append(" - ");
            }
            sb.append(h);
        }
        return sb.toString();
    }
}
