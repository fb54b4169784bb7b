package dev.rmtemu.programs.hashpipe.reference;

import dev.rmtemu.programs.hashpipe.control.FlowCount;

import java.util.List;

/**
 * A heavy-hitter algorithm with a fixed memory of (key, count) slots, fed one
 * packet at a time, read out at the end of a measurement interval.
 */
public interface HeavyHitters {
    /** Short name for tables, e.g. {@code hashpipe d=6}. */
    String name();

    /** Counts {@code inc} (1 or the packet's bytes) for the key. No allocation. */
    void update(long keyLo, long keyHi, long inc);

    /** The flows it reports with their estimates, merged by key, largest first. */
    List<FlowCount> report();

    /** Empties every table for the next interval. */
    void reset();

    /** Share of occupied slots whose key is also in another slot (HashPipe's duplicates); 0 when impossible. */
    default double duplicateShare() {
        return 0;
    }
}
