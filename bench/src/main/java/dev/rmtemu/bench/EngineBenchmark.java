package dev.rmtemu.bench;

import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.TimeUnit;

/**
 * The JMH set-up every engine benchmark shares (JMH reads these annotations from the
 * superclass): throughput in operations per second, the fork of {@link ForkedJvm}, and
 * Agrona's bounds checks off as the CLI runs. A benchmark that needs other iteration counts
 * annotates its own class.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
public abstract class EngineBenchmark extends ForkedJvm {
    /** Agrona's bounds-check switch (read once, when its buffer classes load). */
    static final String AGRONA_BOUNDS_CHECKS = "agrona.disable.bounds.checks";

    static {
        // as the CLI runs (cli.Main): bounds checks off, set before the benchmark's first buffer
        // class loads (a superclass is initialised before its subclasses' fields and setup)
        if (System.getProperty(AGRONA_BOUNDS_CHECKS) == null) {
            System.setProperty(AGRONA_BOUNDS_CHECKS, "true");
        }
    }
}
