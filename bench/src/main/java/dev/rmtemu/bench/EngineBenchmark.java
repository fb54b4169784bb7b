package dev.rmtemu.bench;

import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.TimeUnit;

/**
 * The JMH set-up every engine benchmark shares (JMH reads these annotations from the
 * superclass): throughput in operations per second, one fork, and the fork's JVM flags as
 * the CLI runs: the module openings Agrona and Chronicle need, and Agrona's bounds checks
 * off. A benchmark that needs other iteration counts annotates its own class.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
@Fork(value = 1, jvmArgsAppend = {"--add-opens=java.base/java.nio=ALL-UNNAMED",
    "--add-exports=java.base/jdk.internal.misc=ALL-UNNAMED", "-Dchronicle.analytics.disable=true",
    "-Dagrona.disable.bounds.checks=true"})
public abstract class EngineBenchmark {
}
