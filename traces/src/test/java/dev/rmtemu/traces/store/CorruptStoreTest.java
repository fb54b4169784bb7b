package dev.rmtemu.traces.store;

import dev.rmtemu.model.UserError;
import dev.rmtemu.traces.PacketSource;
import dev.rmtemu.traces.spec.TraceSpec;
import dev.rmtemu.traces.gen.GeneratorKind;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;

import static dev.rmtemu.traces.TraceTestSupport.drain;
import static dev.rmtemu.traces.TraceTestSupport.gen;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The damaged stores of issue 23, each refused with one UserError naming the store
 * and what is wrong, quickly, whether it is found before opening or while reading.
 */
class CorruptStoreTest {
    private static final long MAX_FAILURE_MS = 2000;

    @TempDir
    Path dir;
    Path store;
    Path cycleFile;
    List<byte[]> records;

    @BeforeEach
    void writeStore() throws IOException {
        store = dir.resolve("s");
        TraceStoreWriter.write(gen(GeneratorKind.ISP, "packets", "2000", "flows", "50", "seed", "9"), store, null);
        try (var s = Files.list(store)) {
            cycleFile = s.filter(p -> p.toString().endsWith(".cq4")).findFirst().orElseThrow();
        }
        try (PacketSource src = TraceSpec.open(store.toString())) {
            records = drain(src); // also loads Chronicle Queue, so the timings below are of the checks
        }
    }

    /** Opens and reads the store; returns the refusal, checking it came quickly. */
    private String refusal() {
        long t0 = System.nanoTime();
        UserError e = assertThrows(UserError.class, () -> {
            try (PacketSource src = TraceSpec.open(store.toString())) {
                drain(src);
            }
        });
        long ms = (System.nanoTime() - t0) / 1_000_000;
        assertTrue(ms < MAX_FAILURE_MS, "refused after " + ms + " ms: " + e.getMessage());
        assertEquals(UserError.BAD_INPUT, e.exitCode());
        assertTrue(e.getMessage().startsWith(store + ": "), e.getMessage());
        return e.getMessage();
    }

    private static byte[] random(int n, long seed) {
        byte[] b = new byte[n];
        new Random(seed).nextBytes(b);
        return b;
    }

    @Test
    void aTruncatedCycleFile() throws IOException {
        long size = Files.size(cycleFile);
        try (RandomAccessFile f = new RandomAccessFile(cycleFile.toFile(), "rw")) {
            f.setLength(4096);
        }
        assertEquals(store + ": corrupt trace store: queue file " + cycleFile.getFileName() + " is 4096 bytes, the manifest says "
                + size + " (truncated or replaced)", refusal());
    }

    @Test
    void aZeroByteCycleFile() throws IOException {
        Files.write(cycleFile, new byte[0]);
        assertTrue(refusal().contains("queue file " + cycleFile.getFileName() + " is 0 bytes"));
    }

    @Test
    void randomBytesInTheMetadata() throws IOException {
        Path meta = store.resolve("metadata.cq4t");
        Files.write(meta, random((int) Files.size(meta), 1));
        assertEquals(store + ": corrupt trace store: queue file metadata.cq4t does not match its checksum (corrupt bytes)",
                refusal());
    }

    @Test
    void randomBytesAsACycleFileUnderTheStoresOwnName() throws IOException {
        Files.write(cycleFile, random((int) Files.size(cycleFile), 2));
        assertEquals(store + ": corrupt trace store: queue file " + cycleFile.getFileName()
                + " does not match its checksum (corrupt bytes)", refusal());
    }

    @Test
    void randomBytesAsAnotherCycleFile() throws IOException {
        Files.write(store.resolve("19700102H.cq4"), random(1 << 16, 3));
        assertEquals(store + ": corrupt trace store: queue file 19700102H.cq4 is not part of this store (the manifest"
                + " does not list it)", refusal());
        Files.delete(cycleFile);
        Files.delete(store.resolve("19700102H.cq4"));
        assertEquals(store + ": corrupt trace store: queue file " + cycleFile.getFileName() + " is missing", refusal());
    }

    /** Offset of record {@code k} in the cycle file (its 64 bytes as written), searched from {@code from}. */
    private int offsetOf(byte[] file, int k, int from) {
        byte[] rec = records.get(k); // as stored: metadata and frame bytes
        outer:
        for (int i = from; i + rec.length <= file.length; i++) {
            for (int j = 0; j < rec.length; j++) {
                if (file[i + j] != rec[j]) {
                    continue outer;
                }
            }
            return i;
        }
        throw new AssertionError("record " + k + " not found in the cycle file");
    }

    /** Flips one byte inside each of 40 records' 64 bytes (never an excerpt header or index). */
    private void flipRecordBytes() throws IOException {
        byte[] file = Files.readAllBytes(cycleFile);
        Random r = new Random(4);
        int from = 0;
        for (int k = 100; k < 1900; k += 45) {
            int at = offsetOf(file, k, from);
            file[at + r.nextInt(64)] ^= (byte) (1 + r.nextInt(255));
            from = at + 64;
        }
        Files.write(cycleFile, file);
    }

    @Test
    void flippedBytesInTheRecordsAreFoundBeforeOpening() throws IOException {
        flipRecordBytes();
        assertEquals(store + ": corrupt trace store: queue file " + cycleFile.getFileName()
                + " does not match its checksum (corrupt bytes)", refusal());
    }

    @Test
    void flippedRecordBytesBehindTheFileChecksumAreFoundByTheRecordChecksum() throws IOException {
        // a store whose file checksum was recomputed after the damage (or a change while it is read):
        // the records' own checksum, verified while reading, still refuses it
        flipRecordBytes();
        Path manifest = store.resolve(TraceStore.MANIFEST);
        String key = StoreManifest.FILE_KEY + cycleFile.getFileName();
        StoreManifest.QueueFile now = StoreManifest.describeFiles(store).get(cycleFile.getFileName().toString());
        StringBuilder sb = new StringBuilder();
        for (String line : Files.readAllLines(manifest, StandardCharsets.UTF_8)) {
            sb.append(line.startsWith(key + "=") ? key + "=" + now.manifestValue() : line).append('\n');
        }
        Files.writeString(manifest, sb.toString(), StandardCharsets.UTF_8);
        assertEquals(store + ": corrupt trace store: the records do not match their checksum (corrupt records)", refusal());
    }

    @Test
    void openVerifiedReadsTheStoreOnceToCheckItThenHandsItOutFromTheStart() throws IOException {
        try (PacketSource src = TraceSpec.openVerified(store.toString())) {
            List<byte[]> again = drain(src);
            assertEquals(records.size(), again.size());
            for (int i = 0; i < again.size(); i++) {
                assertArrayEquals(records.get(i), again.get(i), "record " + i);
            }
        }
    }

    @Test
    void openVerifiedRefusesDamageOnlyTheLastRecordShowsBeforeHandingOutOne() throws IOException {
        flipRecordBytes();
        Path manifest = store.resolve(TraceStore.MANIFEST);
        String key = StoreManifest.FILE_KEY + cycleFile.getFileName();
        StoreManifest.QueueFile now = StoreManifest.describeFiles(store).get(cycleFile.getFileName().toString());
        StringBuilder sb = new StringBuilder();
        for (String line : Files.readAllLines(manifest, StandardCharsets.UTF_8)) {
            sb.append(line.startsWith(key + "=") ? key + "=" + now.manifestValue() : line).append('\n');
        }
        Files.writeString(manifest, sb.toString(), StandardCharsets.UTF_8);
        UserError e = assertThrows(UserError.class, () -> TraceSpec.openVerified(store.toString()).close());
        assertEquals(store + ": corrupt trace store: the records do not match their checksum (corrupt records)",
                e.getMessage());
    }

    @Test
    void aDamagedManifest() throws IOException {
        Path manifest = store.resolve(TraceStore.MANIFEST);
        String good = Files.readString(manifest);
        Files.write(manifest, random(300, 5));
        assertTrue(refusal().startsWith(store + ": "));
        Files.writeString(manifest, good.replace("records=2000", "records=2001"));
        assertEquals(store + ": corrupt trace store: store ends after 2000 records, manifest says 2001", refusal());
        Files.writeString(manifest, good.replace("records=2000", "records=-3"));
        assertEquals(store + ": corrupt trace store: manifest value of 'records' is '-3', not a count", refusal());
        Files.writeString(manifest, good.replace("format=rmtemu-trace-store 3", "format=rmtemu-trace-store 1"));
        assertTrue(refusal().startsWith(store + ": unsupported trace store format 'rmtemu-trace-store 1'"));
        // a store of the previous format holds no frame bytes: the switch could not parse its packets
        Files.writeString(manifest, good.replace("format=rmtemu-trace-store 3", "format=rmtemu-trace-store 2"));
        assertEquals(store + ": unsupported trace store format 'rmtemu-trace-store 2' (this rmtemu reads"
                + " 'rmtemu-trace-store 3'; stores of formats 1 and 2 keep no frame bytes: convert the trace again)",
                refusal());
        Files.writeString(manifest, good.replace("snap_length=256", "snap_length=0"));
        assertEquals(store + ": corrupt trace store: snap_length is 0, not in 1..65535", refusal());
        Files.writeString(manifest, good.replace("snap_length=256", "snap_length=60"));
        assertTrue(refusal().startsWith(store + ": corrupt trace store: excerpt 0 has "), "a record longer than the snap length");
        Files.writeString(manifest, good + "file.a\u0000b.cq4=1 crc32c=0\n");
        assertEquals(store + ": corrupt trace store: manifest lists 'a\\u0000b.cq4', not a queue file name", refusal());
        Files.write(manifest, new byte[] {'f', (byte) 0xFF, '\n'});
        assertEquals(store + ": corrupt trace store: " + TraceStore.MANIFEST + " is not UTF-8 text", refusal());
    }

    /** Writes the manifest again with the queue files' sizes and checksums as they are now (a forged store). */
    private void recomputeFileChecksums() throws IOException {
        Path manifest = store.resolve(TraceStore.MANIFEST);
        var now = StoreManifest.describeFiles(store);
        StringBuilder sb = new StringBuilder();
        for (String line : Files.readAllLines(manifest, StandardCharsets.UTF_8)) {
            int eq = line.indexOf('=');
            String key = eq > 0 ? line.substring(0, eq) : "";
            if (key.startsWith(StoreManifest.FILE_KEY) && now.containsKey(key.substring(StoreManifest.FILE_KEY.length()))) {
                line = key + "=" + now.get(key.substring(StoreManifest.FILE_KEY.length())).manifestValue();
            }
            sb.append(line).append('\n');
        }
        Files.writeString(manifest, sb.toString(), StandardCharsets.UTF_8);
    }

    /**
     * Issue 30 point 11: one bit flipped in the cycle file's header with the manifest's file
     * checksum recomputed reached the user as "internal error: java.io.StreamCorruptedException"
     * (exit 1). A flip in every 16th of the first 512 bytes must read as before or be one UserError
     * naming the store.
     */
    @Test
    void forgedHeaderBitFlipsAreUserErrors() throws IOException {
        byte[] good = Files.readAllBytes(cycleFile);
        String goodManifest = Files.readString(store.resolve(TraceStore.MANIFEST));
        int refused = 0;
        for (int at = 0; at < 512; at += 16) {
            byte[] bad = good.clone();
            bad[at] ^= (byte) (1 << (at % 8));
            Files.write(cycleFile, bad);
            recomputeFileChecksums();
            try (PacketSource src = TraceSpec.open(store.toString())) {
                drain(src);
            } catch (UserError e) {
                assertTrue(e.getMessage().startsWith(store + ": corrupt trace store: "), "byte " + at + ": " + e.getMessage());
                assertEquals(UserError.BAD_INPUT, e.exitCode());
                refused++;
            }
            Files.writeString(store.resolve(TraceStore.MANIFEST), goodManifest);
        }
        assertTrue(refused > 0, "no header flip was refused");
    }
}
