package dev.rmtemu.emulator.journal;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A collector in this JVM tails a journal that another JVM is writing. */
class CrossProcessTailTest {

    @Test
    void tailFollowsAWriterInAnotherProcessToItsEnd(@TempDir Path runDir) throws Exception {
        final int n = 4_000;
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        // Same JVM flags as this test JVM (surefire's argLine: the Chronicle opens/exports).
        for (String arg : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (arg.startsWith("--add-") || arg.startsWith("-Dchronicle.")) {
                command.add(arg);
            }
        }
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(JournalWriterProcess.class.getName());
        command.add(runDir.toString());
        command.add(Integer.toString(n));
        command.add("500");
        File log = runDir.resolve("writer.log").toFile();
        Process writer = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log).start();
        try {
            Path journalDir = runDir.resolve("journal");
            // Wait for the writer to create its journal (host time only bounds the test).
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (!(Files.isDirectory(journalDir) && ExportJournal.holdsQueueFiles(journalDir))) {
                assertTrue(writer.isAlive() || Files.isDirectory(journalDir), "writer died: " + Files.readString(log.toPath()));
                assertTrue(System.nanoTime() < deadline, "writer did not create its journal");
                Thread.sleep(10);
            }
            List<ExportJournalTest.Msg> got = new ArrayList<>();
            try (JournalReader reader = JournalReader.open(runDir)) {
                long count = reader.tail((kind, cycle, sw, pipe, payload, offset, length) -> {
                    byte[] b = new byte[length];
                    payload.getBytes(offset, b);
                    got.add(new ExportJournalTest.Msg(reader.kinds().name(kind), cycle, sw, pipe, b));
                });
                assertEquals(n, count);
                assertTrue(reader.isEnded());
            }
            assertEquals(ExportJournalTest.messages(n), got);
            assertTrue(writer.waitFor(30, TimeUnit.SECONDS));
            assertEquals(0, writer.exitValue(), Files.readString(log.toPath()));
        } finally {
            writer.destroyForcibly();
        }
    }
}
