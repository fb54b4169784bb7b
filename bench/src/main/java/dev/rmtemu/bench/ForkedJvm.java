package dev.rmtemu.bench;

import org.openjdk.jmh.annotations.Fork;

/**
 * The one place the benchmarks' fork is set up (JMH reads {@code @Fork} from the superclass):
 * one fork with the parent pom's {@code rmtemu.jvm.flags}, which forks need on their command
 * line because they start from the class path, not the benchmarks jar's manifest.
 * {@code ForkedJvmTest} holds this list equal to the pom's.
 */
@Fork(value = 1, jvmArgsAppend = {
    "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED",
    "--add-opens=java.base/java.nio=ALL-UNNAMED",
    "--add-exports=java.base/sun.nio.ch=ALL-UNNAMED",
    "--add-exports=java.base/jdk.internal.ref=ALL-UNNAMED",
    "--add-exports=java.base/jdk.internal.misc=ALL-UNNAMED",
    "-Dchronicle.analytics.disable=true",
    "-Dchronicle.announcer.disable=true"})
public abstract class ForkedJvm {
}
