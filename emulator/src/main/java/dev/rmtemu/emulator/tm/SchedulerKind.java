package dev.rmtemu.emulator.tm;

/** How an egress port picks the queue it serves next. */
public enum SchedulerKind {
    /**
     * Strict priority, Tofino-like: the queue with the HIGHEST index has the highest
     * priority (Tofino's per-queue priority levels count upward, 7 being the most urgent),
     * so queue {@code queues-1} is always served before queue 0.
     */
    STRICT_PRIORITY,
    /**
     * Deficit round robin (Shreedhar and Varghese, SIGCOMM 1995) over the port's queues in
     * index order, with a quantum in bytes per queue; long-run byte shares are proportional
     * to the quanta.
     */
    DRR
}
