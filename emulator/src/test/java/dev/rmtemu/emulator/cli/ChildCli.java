package dev.rmtemu.emulator.cli;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Starts the CLI in a child JVM (test helper): its stdout and stderr go to {@code log}. */
final class ChildCli {
    private ChildCli() {
    }

    static Process start(Path log, List<String> jvmArgs, String... cliArgs) throws Exception {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        // the test JVM's flags (surefire's argLine: the Chronicle opens/exports)
        for (String arg : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (arg.startsWith("--add-") || arg.startsWith("-Dchronicle.")) {
                command.add(arg);
            }
        }
        command.addAll(jvmArgs);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), Main.class.getName()));
        command.addAll(List.of(cliArgs));
        return new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    }
}
