package dev.rmtemu.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import java.util.function.LongSupplier;

/**
 * Thread CPU time per packet and medians, shared by the CPU-time pairs ({@link EngineCpuPairs},
 * {@link MidstCpuPairs}, {@link CliCpuPairs}): on a shared machine a thread's CPU time, unlike
 * wall-clock time, does not count the time another process held the core.
 */
final class CpuTime {
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private CpuTime() {
    }

    /** The calling thread's CPU time per packet of one run of {@code run} over {@code packets} packets. */
    static double nsPerPacket(LongSupplier run, int packets) {
        long start = THREADS.getCurrentThreadCpuTime();
        long sink = run.getAsLong();
        long ns = THREADS.getCurrentThreadCpuTime() - start;
        if (sink == Long.MIN_VALUE) {
            System.out.print(""); // keeps the result alive
        }
        return (double) ns / packets;
    }

    static double median(double[] v) {
        double[] s = v.clone();
        Arrays.sort(s);
        return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
    }
}
