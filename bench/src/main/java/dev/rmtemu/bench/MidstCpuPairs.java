package dev.rmtemu.bench;

import static dev.rmtemu.bench.CpuTime.median;
import static dev.rmtemu.bench.CpuTime.nsPerPacket;

import java.util.Locale;
import java.util.function.LongSupplier;

/**
 * What MIDST's engine benchmark compares, in thread CPU time, back to back in one JVM (as
 * {@link EngineCpuPairs} does for the goal's pair): per round the plain-Java reference
 * ({@link MidstBenchmark#reference}: the two sketches' arithmetic per packet), the program's own
 * passes ({@link MidstBenchmark#stagePasses}: parser, ingress and egress pass per packet, no
 * traffic manager), the switch with monitoring held on and no probes
 * ({@link MidstBenchmark#engineHeldOn}) and the benchmark's switch ({@link MidstBenchmark#engine}:
 * probes every 2 µs, recirculations, reports inserted, the collector), each as CPU ns per trace
 * packet and as the reference's fraction of it; medians at the end. Usage:
 * {@code java -cp benchmarks.jar dev.rmtemu.bench.MidstCpuPairs [ROUNDS]}.
 */
public final class MidstCpuPairs {
    private static final int WARMUP_ROUNDS = 4;
    /** Rounds one switch runs before a fresh one, as in {@link EngineCpuPairs}. */
    private static final int ROUNDS_PER_SWITCH = 8;

    private MidstCpuPairs() {
    }

    public static void main(String[] args) {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 12;
        MidstBenchmark midst = new MidstBenchmark();
        midst.generate();
        String[] names = {"reference", "stagePasses", "engineHeldOn", "engine"};
        LongSupplier[] runs = {midst::reference, midst::stagePasses, midst::engineHeldOn, midst::engine};
        double[][] ns = new double[runs.length][rounds];
        double[][] ratio = new double[runs.length][rounds];
        for (int r = -WARMUP_ROUNDS; r < rounds; r++) {
            if ((r + WARMUP_ROUNDS) % ROUNDS_PER_SWITCH == 0) {
                midst.freshSwitch();
            }
            double[] round = new double[runs.length];
            for (int k = 0; k < runs.length; k++) {
                round[k] = nsPerPacket(runs[k], MidstBenchmark.PACKETS);
            }
            if (r < 0) {
                continue;
            }
            StringBuilder line = new StringBuilder("round " + r + ":");
            for (int k = 0; k < runs.length; k++) {
                ns[k][r] = round[k];
                ratio[k][r] = round[0] / round[k];
                line.append(String.format(Locale.ROOT, " %s %.1f ns (%.3fx)", names[k], round[k], ratio[k][r]));
            }
            System.out.println(line);
        }
        StringBuilder line = new StringBuilder("medians of " + rounds + " rounds (CPU ns/packet, reference's fraction):");
        for (int k = 0; k < runs.length; k++) {
            line.append(String.format(Locale.ROOT, " %s %.1f (%.3fx)", names[k], median(ns[k]), median(ratio[k])));
        }
        System.out.println(line);
    }
}
