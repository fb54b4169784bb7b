package dev.rmtemu.traces.store;

/**
 * Limits on how long Chronicle Queue waits for what only damage makes it wait for, set once
 * before rmtemu builds its first queue (trace store or export journal). Chronicle reads them in
 * static initialisers, so they are JVM-wide; rmtemu is the only writer of its queues, and
 * their table-store lock is held for microseconds, so a second is plenty.
 */
public final class ChronicleLimits {
    /** Chronicle's property: how long a table store waits for its lock word before overriding it. */
    static final String TABLE_STORE_TIMEOUT_PROPERTY = "chronicle.table.store.timeoutMS";
    /**
     * One second instead of Chronicle's ten: a forged metadata file whose lock word looks held
     * (found by JournalFuzzTest) otherwise delays the one-line refusal by ten seconds.
     */
    static final long TABLE_STORE_TIMEOUT_MS = 1_000L;

    private ChronicleLimits() {
    }

    /** Sets the limits unless the user set them (a -D on the command line wins). */
    public static void apply() {
        if (System.getProperty(TABLE_STORE_TIMEOUT_PROPERTY) == null) {
            System.setProperty(TABLE_STORE_TIMEOUT_PROPERTY, Long.toString(TABLE_STORE_TIMEOUT_MS));
        }
    }
}
