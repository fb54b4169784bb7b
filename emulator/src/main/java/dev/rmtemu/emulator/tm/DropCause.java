package dev.rmtemu.emulator.tm;

import java.util.Locale;

/**
 * Why the traffic manager refused a packet at enqueue (tail drop). Admission checks the
 * causes in declaration order and reports the first that fails, so a packet that would
 * break several limits is always counted under the same cause.
 */
public enum DropCause {
    /** The queue's own limit in cells would be exceeded. */
    QUEUE_LIMIT,
    /** The egress port's limit in cells (all its queues together) would be exceeded. */
    PORT_LIMIT,
    /** The shared packet buffer has no room for the packet's cells. */
    BUFFER_FULL;

    /** Code returned by {@code enqueue} when the packet was admitted. */
    public static final int ADMITTED = 0;

    private static final DropCause[] BY_CODE = values();

    /** The non-zero code {@code enqueue} returns for this cause ({@code ordinal() + 1}). */
    public int code() {
        return ordinal() + 1;
    }

    /** The cause for a non-zero enqueue result code. */
    public static DropCause fromCode(int code) {
        if (code < 1 || code > BY_CODE.length) {
            throw new IllegalArgumentException("not a drop cause code: " + code);
        }
        return BY_CODE[code - 1];
    }

    /** Lower-case name used in reports and counters, e.g. {@code tm_queue_limit}. */
    public String reportName() {
        return "tm_" + name().toLowerCase(Locale.ROOT);
    }
}
