package dev.rmtemu.bench;

import static dev.rmtemu.bench.CpuTime.median;

import com.sun.management.OperatingSystemMXBean;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Locale;

/**
 * {@link CliReplayBenchmark}'s pair (the CLI's {@code rmtemu replay} beside the engine alone, on
 * the same trace) as CPU time, for a shared machine where wall-clock scores move with the
 * load: on an overloaded host the CLI's two threads get a larger share of the cores than the
 * engine's one, and its wall-clock ratio says more about the scheduler than about the CLI.
 * Each round runs, back to back in one JVM, the engine alone and then the CLI, and reads:
 * <ul>
 *   <li>{@code engine}: the engine's CPU ns per packet (the calling thread);</li>
 *   <li>{@code cli thread}: the CPU ns per packet of the thread that runs the CLI, which is the
 *       ring's consumer and so the engine thread, plus the run's checks and outputs;</li>
 *   <li>{@code cli rest}: the process's other CPU per packet during the CLI run: the ring's
 *       reader thread (decoding, generating) and the JVM's own threads (JIT, GC).</li>
 * </ul>
 * On two idle cores the CLI runs at about the rate of the slower of its two threads, so
 * {@code engine / max(cli thread, cli rest)} estimates the wall-clock ratio an unloaded host
 * gets; {@code engine / cli thread} is what the engine thread loses to the run's extras.
 * Usage: {@code java <ForkedJvm's flags> -cp benchmarks.jar dev.rmtemu.bench.CliCpuPairs
 * [ROUNDS [gen|pcap|store]]} (default: 6 rounds of each source).
 */
public final class CliCpuPairs {
    private static final int WARMUP_ROUNDS = 2;
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    private static final OperatingSystemMXBean OS =
            ManagementFactory.getPlatformMXBean(OperatingSystemMXBean.class);

    private CliCpuPairs() {
    }

    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 6;
        String[] sources = args.length > 1 ? new String[] {args[1]} : new String[] {"gen", "pcap", "store"};
        for (String source : sources) {
            run(source, rounds);
        }
    }

    private static void run(String source, int rounds) throws Exception {
        CliReplayBenchmark b = new CliReplayBenchmark();
        b.source = source;
        b.traces();
        double[] engine = new double[rounds];
        double[] cliThread = new double[rounds];
        double[] cliRest = new double[rounds];
        try {
            for (int r = -WARMUP_ROUNDS; r < rounds; r++) {
                b.freshSwitch();
                long t0 = THREADS.getCurrentThreadCpuTime();
                long sink = b.engine();
                long t1 = THREADS.getCurrentThreadCpuTime();
                long p1 = OS.getProcessCpuTime();
                sink += b.cli();
                long t2 = THREADS.getCurrentThreadCpuTime();
                long p2 = OS.getProcessCpuTime();
                if (sink == Long.MIN_VALUE) {
                    System.out.print(""); // keeps the results alive
                }
                if (r < 0) {
                    continue;
                }
                engine[r] = (double) (t1 - t0) / CliReplayBenchmark.PACKETS;
                cliThread[r] = (double) (t2 - t1) / CliReplayBenchmark.PACKETS;
                cliRest[r] = (double) ((p2 - p1) - (t2 - t1)) / CliReplayBenchmark.PACKETS;
                System.out.printf(Locale.ROOT, "%s round %d: engine %.1f ns; cli thread %.1f ns (%.3fx), cli rest %.1f ns%n",
                        source, r, engine[r], cliThread[r], engine[r] / cliThread[r], cliRest[r]);
            }
        } finally {
            b.deleteTraces();
        }
        double e = median(engine);
        double t = median(cliThread);
        double rest = median(cliRest);
        System.out.printf(Locale.ROOT, "%s medians of %d rounds (CPU ns/packet): engine %.1f, cli thread %.1f"
                        + " (engine/cli thread %.3fx), cli rest %.1f; two-core estimate engine/max %.3fx; load %s%n",
                source, rounds, e, t, e / t, rest, e / Math.max(t, rest), load());
    }

    private static String load() {
        return String.format(Locale.ROOT, "%.2f", OS.getSystemLoadAverage());
    }
}
