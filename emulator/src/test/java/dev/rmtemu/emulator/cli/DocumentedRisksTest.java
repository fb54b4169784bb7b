package dev.rmtemu.emulator.cli;

import dev.rmtemu.emulator.rundir.RunDirectory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 30 point 15: two facts a user must be told. A user's program (FILE.java, JAR!CLASS)
 * is code that runs as the user, even for show and resources: every --program option says
 * so. A run that inherits SIGINT as ignored keeps ignoring it: replay's help says so, and
 * the child-process test below shows that it is true and that SIGTERM still stops the run.
 */
class DocumentedRisksTest {
    /** Help text without its white space: picocli wraps lines anywhere, even inside "JAR!CLASS". */
    private static String oneLine(String help) {
        return help.replaceAll("\\s+", "");
    }

    @Test
    void everyProgramOptionSaysAUsersProgramRunsAsTheUser() {
        for (String command : List.of("replay", "show", "resources")) {
            CliRunner r = CliRunner.run(command, "--help");
            assertEquals(0, r.exit(), r.err());
            assertTrue(oneLine(r.out()).contains(oneLine(HelpText.PROGRAM_IS_CODE)), command + " --help:\n" + r.out());
        }
    }

    @Test
    void replayHelpSaysAnInheritedIgnoredSigintStaysIgnored() {
        CliRunner r = CliRunner.run("replay", "--help");
        assertTrue(oneLine(r.out()).contains(oneLine(HelpText.SIGINT_INHERITED_IGNORED)), r.out());
    }

    @Test
    @EnabledOnOs({OS.LINUX, OS.MAC})
    void aRunStartedWithSigintIgnoredIgnoresItAndStopsOnSigterm(@TempDir Path tmp) throws Exception {
        Path out = tmp.resolve("run");
        Path log = tmp.resolve("child.log");
        List<String> command = new ArrayList<>(List.of("sh", "-c", "trap '' INT; exec \"$@\"", "sh",
                Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        for (String arg : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (arg.startsWith("--add-") || arg.startsWith("-Dchronicle.")) {
                command.add(arg);
            }
        }
        command.addAll(List.of("-Xmx256m", "-cp", System.getProperty("java.class.path"), Main.class.getName(),
                "replay", "--program", "counter", "--trace", "gen:isp?packets=2000000000&flows=5000&seed=9",
                "--timing", "back-to-back", "--no-progress", "--out", out.toString()));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (!Files.exists(out.resolve(RunDirectory.LOCK))) {
                assertTrue(p.isAlive(), "replay died: " + Files.readString(log));
                assertTrue(System.nanoTime() < deadline, "replay did not start");
                Thread.sleep(20);
            }
            Thread.sleep(500);
            assertEquals(0, new ProcessBuilder("kill", "-INT", Long.toString(p.pid())).start().waitFor());
            assertTrue(!p.waitFor(2, TimeUnit.SECONDS), "SIGINT stopped a run that inherited it as ignored");
            p.destroy(); // SIGTERM
            assertTrue(p.waitFor(20, TimeUnit.SECONDS), "replay did not stop on SIGTERM");
            String said = Files.readString(log);
            assertEquals(143, p.exitValue(), said);
            assertTrue(said.contains("rmtemu: replay interrupted by SIGTERM after "), said);
            assertTrue(Files.readString(out.resolve("report.json")).contains("\"complete\" : false"));
        } finally {
            p.destroyForcibly();
        }
    }
}
