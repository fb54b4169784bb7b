package dev.rmtemu.bench;

import static dev.rmtemu.bench.CpuTime.median;
import static dev.rmtemu.bench.CpuTime.nsPerPacket;

import java.util.Locale;
import java.util.function.LongSupplier;

/**
 * The engine's two speed goals as ratios of thread CPU time, measured on a shared machine:
 * JMH's wall-clock scores move with the load other processes put on the cores, and its
 * benchmarks run minutes apart. Here each round runs, back to back in one JVM, the engine and
 * its plain-Java reference on the same in-memory traces as the JMH benchmarks
 * ({@link ReplayBenchmark#replay} {@code counter} with checks on beside
 * {@link FlatSwitchBenchmark#flatReference}; {@link MidstBenchmark#engine} beside
 * {@link MidstBenchmark#reference}), reading the thread's CPU time around each, so time the
 * thread spent off the core is not counted. Each round's ratio (reference ns per packet over
 * engine ns per packet: the engine's speed as a fraction of the reference's) is computed
 * within the round and the medians printed. Usage:
 * {@code java -cp benchmarks.jar dev.rmtemu.bench.EngineCpuPairs [ROUNDS [ONLY]]}, where ONLY
 * ({@code counter} or {@code midst}) runs that engine alone, for a profiler's shares.
 */
public final class EngineCpuPairs {
    private static final int WARMUP_ROUNDS = 4;
    /**
     * Rounds one switch runs before a fresh one, as a JMH iteration runs several invocations on
     * the switch of its set-up: the emulated clock then reaches the cycle counts (and the
     * conversions' dividends) a JMH measurement sees.
     */
    private static final int ROUNDS_PER_SWITCH = 8;

    private EngineCpuPairs() {
    }

    public static void main(String[] args) {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 12;
        String only = args.length > 1 ? args[1] : "";
        if (!only.isEmpty() && !only.equals("counter") && !only.equals("midst")) {
            throw new IllegalArgumentException("ONLY is counter or midst, not " + only);
        }
        boolean counters = !only.equals("midst");
        boolean midsts = !only.equals("counter");
        ReplayBenchmark counter = new ReplayBenchmark();
        counter.program = "counter";
        counter.enforce = true;
        counter.generate();
        FlatSwitchBenchmark flat = new FlatSwitchBenchmark();
        flat.generate();
        MidstBenchmark midst = new MidstBenchmark();
        midst.generate();
        double[] counterNs = new double[rounds];
        double[] flatNs = new double[rounds];
        double[] counterRatio = new double[rounds];
        double[] midstNs = new double[rounds];
        double[] midstRefNs = new double[rounds];
        double[] midstRatio = new double[rounds];
        for (int r = -WARMUP_ROUNDS; r < rounds; r++) {
            if ((r + WARMUP_ROUNDS) % ROUNDS_PER_SWITCH == 0) {
                counter.freshSwitch();
                flat.freshSwitch();
                midst.freshSwitch();
            }
            double c = counters ? nsPerPacket(counter::replay, ReplayBenchmark.PACKETS) : Double.NaN;
            double f = only.isEmpty() ? nsPerPacket(flat::flatReference, ReplayBenchmark.PACKETS) : Double.NaN;
            double m = midsts ? nsPerPacket(midst::engine, MidstBenchmark.PACKETS) : Double.NaN;
            double mr = only.isEmpty() ? nsPerPacket(midst::reference, MidstBenchmark.PACKETS) : Double.NaN;
            if (r >= 0) {
                counterNs[r] = c;
                flatNs[r] = f;
                counterRatio[r] = f / c;
                midstNs[r] = m;
                midstRefNs[r] = mr;
                midstRatio[r] = mr / m;
                System.out.printf(Locale.ROOT, "round %d: counter %.1f ns, flat %.1f ns (%.3fx); MIDST %.1f ns,"
                        + " reference %.1f ns (%.3fx)%n", r, c, f, f / c, m, mr, mr / m);
            }
        }
        System.out.printf(Locale.ROOT, "medians of %d rounds (CPU ns/packet): counter %.1f, flat %.1f, counter/flat %.3fx;"
                        + " MIDST %.1f, reference %.1f, MIDST/reference %.3fx%n", rounds, median(counterNs),
                median(flatNs), median(counterRatio), median(midstNs), median(midstRefNs), median(midstRatio));
    }
}
