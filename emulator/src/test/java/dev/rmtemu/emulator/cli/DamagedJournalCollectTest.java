package dev.rmtemu.emulator.cli;

import dev.rmtemu.emulator.journal.JournalReader;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Stream;
import java.util.zip.CRC32C;

import static dev.rmtemu.emulator.cli.CollectCommandTest.run;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 30 point 11: forged and damaged export journals. Reproducer:
 * {@code rmtemu collect --journal RUN} on a run whose journal/ was damaged. Before the
 * journal had a manifest, a bit flip in its header, a cycle file that is a directory or
 * starts with random bytes gave "internal error: ...IORuntimeException" (exit 1), and a
 * 0-byte cycle file made collect wait ~23 s. Now: one line naming the journal, exit 2 for
 * a closed (sealed) journal, 6 for one whose run did not finish (no manifest); collect
 * writes nothing, so every journal file survives as it was.
 */
class DamagedJournalCollectTest {
    /** A guard against the ~23 s header wait of old, not a speed target: refusals take well under a second. */
    private static final long MAX_REFUSAL_MS = 12_000;

    @TempDir
    Path runDir;
    Path journalDir;
    Path cycleFile;
    Path manifest;

    @BeforeEach
    void writeJournal() throws IOException {
        CollectCommandTest.writeRun(runDir, true);
        journalDir = runDir.resolve("journal");
        manifest = journalDir.resolve(JournalReader.MANIFEST);
        try (Stream<Path> s = Files.list(journalDir)) {
            cycleFile = s.filter(p -> p.toString().endsWith(".cq4")).findFirst().orElseThrow();
        }
    }

    /** Runs collect; checks one stderr line, nothing printed as an internal error, a quick answer, files unchanged. */
    private CollectCommandTest.Result collect() throws IOException {
        Map<String, byte[]> before = snapshot();
        long t0 = System.nanoTime();
        CollectCommandTest.Result r = run("collect", "--journal", runDir.toString(), "--hex-bytes", "0");
        long ms = (System.nanoTime() - t0) / 1_000_000;
        assertTrue(ms < MAX_REFUSAL_MS, "collect took " + ms + " ms");
        assertFalse(r.err().contains("internal error"), r.err());
        assertTrue(r.err().lines().count() <= 1, r.err());
        Map<String, byte[]> after = snapshot();
        assertEquals(before.keySet(), after.keySet());
        for (String f : before.keySet()) {
            assertArrayEquals(before.get(f), after.get(f), f + " changed");
        }
        return r;
    }

    private Map<String, byte[]> snapshot() throws IOException {
        Map<String, byte[]> files = new TreeMap<>();
        try (Stream<Path> s = Files.list(journalDir)) {
            for (Path p : s.toList()) {
                files.put(p.getFileName().toString(), Files.isRegularFile(p) ? Files.readAllBytes(p) : new byte[0]);
            }
        }
        return files;
    }

    private String unsealedPrefix() {
        return "rmtemu: journal " + journalDir + ": damaged export journal of a run that did not finish (no "
                + JournalReader.MANIFEST + "): ";
    }

    private String sealedPrefix() {
        return "rmtemu: journal " + journalDir + ": damaged export journal: ";
    }

    /** Writes the manifest's entry for the cycle file again with its size and CRC32C as they are now (a forgery). */
    private void reseal() throws IOException {
        byte[] bytes = Files.readAllBytes(cycleFile);
        CRC32C crc = new CRC32C();
        crc.update(bytes);
        String key = "file." + cycleFile.getFileName() + "=";
        StringBuilder sb = new StringBuilder();
        for (String line : Files.readAllLines(manifest, StandardCharsets.UTF_8)) {
            sb.append(line.startsWith(key) ? key + bytes.length + " crc32c=" + Long.toHexString(crc.getValue()) : line)
                    .append('\n');
        }
        Files.writeString(manifest, sb.toString(), StandardCharsets.UTF_8);
    }

    private static byte[] random(int n, long seed) {
        byte[] b = new byte[n];
        new Random(seed).nextBytes(b);
        return b;
    }

    @Test
    void aClosedJournalIsSealedAndReadsAsBefore() throws IOException {
        List<String> lines = Files.readAllLines(manifest);
        assertEquals(List.of("format=rmtemu-export-journal 1", "messages=3", "end=complete"), lines.subList(0, 3));
        assertTrue(lines.stream().anyMatch(l -> l.startsWith("file." + cycleFile.getFileName() + "=")), lines.toString());
        assertTrue(lines.stream().anyMatch(l -> l.startsWith("file.metadata.cq4t=")), lines.toString());
        CollectCommandTest.Result r = collect();
        assertEquals(0, r.exit(), r.err());
    }

    @Test
    void aBitFlipInTheHeaderIsFoundByTheChecksum() throws IOException {
        byte[] b = Files.readAllBytes(cycleFile);
        b[0] ^= 1;
        Files.write(cycleFile, b);
        CollectCommandTest.Result r = collect();
        assertEquals(2, r.exit(), r.err());
        assertEquals(List.of(sealedPrefix() + "queue file " + cycleFile.getFileName()
                + " does not match its checksum (corrupt bytes)"), r.err().lines().toList());
    }

    @Test
    void forgedHeaderBitFlipsBehindARecomputedChecksumAreOneLineExitTwo() throws IOException {
        byte[] good = Files.readAllBytes(cycleFile);
        String goodManifest = Files.readString(manifest);
        int refused = 0;
        for (int at = 0; at < 600; at += 11) {
            byte[] b = good.clone();
            b[at] ^= (byte) (1 << (at % 8));
            Files.write(cycleFile, b);
            reseal();
            CollectCommandTest.Result r = collect();
            if (r.exit() != 0) {
                assertEquals(2, r.exit(), "byte " + at + ": " + r.err());
                assertTrue(r.err().startsWith(sealedPrefix()), "byte " + at + ": " + r.err());
                refused++;
            }
            Files.writeString(manifest, goodManifest);
        }
        Files.write(cycleFile, good);
        assertTrue(refused > 0, "no forged flip was refused");
    }

    @Test
    void headerBitFlipsInAJournalWithoutItsManifestAreOneLineExitSix() throws IOException {
        // a run killed before it sealed its journal: nothing to check the files against
        Files.delete(manifest);
        byte[] good = Files.readAllBytes(cycleFile);
        int refused = 0;
        for (int at = 0; at < 600; at += 11) {
            byte[] b = good.clone();
            b[at] ^= (byte) (1 << (at % 8));
            Files.write(cycleFile, b);
            CollectCommandTest.Result r = collect();
            assertEquals(6, r.exit(), "byte " + at + ": " + r.err());
            if (r.err().startsWith(unsealedPrefix())) {
                refused++;
            } else {
                assertEquals("rmtemu: run did not finish: 3 messages (the journal has its end message but no "
                        + JournalReader.MANIFEST + ": its run was killed while closing it, or the manifest was removed)\n",
                        r.err(), "byte " + at);
            }
        }
        assertTrue(refused > 0, "no flip was refused");
    }

    @Test
    void aZeroByteCycleFile() throws IOException {
        long size = Files.size(cycleFile);
        Files.write(cycleFile, new byte[0]);
        CollectCommandTest.Result r = collect();
        assertEquals(2, r.exit(), r.err());
        assertEquals(List.of(sealedPrefix() + "queue file " + cycleFile.getFileName() + " is 0 bytes, "
                + JournalReader.MANIFEST + " says " + size + " (truncated or replaced)"), r.err().lines().toList());
        Files.delete(manifest);
        r = collect();
        assertEquals(6, r.exit(), r.err());
        assertEquals(List.of(unsealedPrefix() + "queue file " + cycleFile.getFileName() + " is 0 bytes"),
                r.err().lines().toList());
    }

    @Test
    void aCycleFileThatIsADirectory() throws IOException {
        Files.delete(cycleFile);
        Files.createDirectory(cycleFile);
        CollectCommandTest.Result r = collect();
        assertEquals(2, r.exit(), r.err());
        assertEquals(List.of(sealedPrefix() + "queue file " + cycleFile.getFileName() + " is not a regular file"),
                r.err().lines().toList());
        Files.delete(manifest);
        r = collect();
        assertEquals(6, r.exit(), r.err());
        assertEquals(List.of(unsealedPrefix() + "queue file " + cycleFile.getFileName() + " is not a regular file"),
                r.err().lines().toList());
    }

    @Test
    void aCycleFileOfRandomBytes() throws IOException {
        Files.write(cycleFile, random((int) Files.size(cycleFile), 7));
        CollectCommandTest.Result r = collect();
        assertEquals(2, r.exit(), r.err());
        assertEquals(List.of(sealedPrefix() + "queue file " + cycleFile.getFileName()
                + " does not match its checksum (corrupt bytes)"), r.err().lines().toList());
        Files.delete(manifest);
        r = collect();
        assertEquals(6, r.exit(), r.err());
        // Chronicle finds no complete header in the file within the reader's timeout: no message at all
        assertEquals(List.of("rmtemu: journal " + journalDir + ": run did not finish and its journal holds no readable "
                + "message (no " + JournalReader.MANIFEST + "; empty or damaged queue files)"), r.err().lines().toList());
    }

    @Test
    void aForgedManifest() throws IOException {
        String good = Files.readString(manifest);
        Files.writeString(manifest, good.replace("messages=3", "messages=4"));
        CollectCommandTest.Result r = collect();
        assertEquals(2, r.exit(), r.err());
        assertEquals(List.of(sealedPrefix() + "end message (3 messages) disagrees with " + JournalReader.MANIFEST
                + " (4 messages)"), r.err().lines().toList());
        Files.writeString(manifest, good.replace("format=rmtemu-export-journal 1", "format=\u001b[31mred"));
        r = collect();
        assertEquals(2, r.exit(), r.err());
        assertEquals(List.of(sealedPrefix() + JournalReader.MANIFEST + " has format '\\u001b[31mred', expected "
                + "'rmtemu-export-journal 1'"), r.err().lines().toList());
        Files.writeString(manifest, good);
        Files.write(journalDir.resolve("19700102.cq4"), random(4096, 8));
        r = collect();
        assertEquals(2, r.exit(), r.err());
        assertEquals(List.of(sealedPrefix() + "queue file 19700102.cq4 is not part of this journal ("
                + JournalReader.MANIFEST + " does not list it)"), r.err().lines().toList());
    }
}
