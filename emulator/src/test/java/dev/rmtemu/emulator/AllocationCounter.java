package dev.rmtemu.emulator;

import java.lang.management.ManagementFactory;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The JVM's per-thread allocation counter, for the tests that check a hot path allocates nothing
 * per packet. A JVM without it skips those tests rather than failing them.
 */
public final class AllocationCounter {
    private AllocationCounter() {
    }

    /** The counter's bean; skips the calling test when the JVM has no enabled counter. */
    public static com.sun.management.ThreadMXBean threadBean() {
        java.lang.management.ThreadMXBean plain = ManagementFactory.getThreadMXBean();
        assumeTrue(plain instanceof com.sun.management.ThreadMXBean, "allocation counter not available");
        com.sun.management.ThreadMXBean bean = (com.sun.management.ThreadMXBean) plain;
        assumeTrue(bean.isThreadAllocatedMemorySupported() && bean.isThreadAllocatedMemoryEnabled(),
                "allocation counter disabled");
        return bean;
    }

    /** Bytes the calling thread has allocated so far (skips the test as {@link #threadBean} does). */
    public static long allocatedByThisThread() {
        return threadBean().getThreadAllocatedBytes(Thread.currentThread().getId());
    }
}
