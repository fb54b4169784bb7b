package dev.rmtemu.emulator.journal;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.rmtemu.model.UserError;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * Fuzz target (issue 30 point 11): a closed export journal damaged by the input, then
 * opened and read to its end as {@code rmtemu collect} reads it. Byte 0 picks the damage:
 * 0 the manifest replaced by the rest of the input; 1 bytes XORed into a file (byte 1 picks
 * the file, bit 7 of byte 1 re-seals the manifest with the damaged file's size and CRC32C,
 * a forgery that reaches Chronicle Queue; then 5-byte groups: 4-byte offset, 1-byte mask);
 * 2 as 1 with the manifest removed (a run killed before it sealed its journal); 3 an extra
 * queue file holding the rest; 4 a file cut to a length (byte 1 picks the file, bytes 2-5
 * the length, bit 7 of byte 1 re-seals). Every file is restored after each input.
 * Contract: the journal reads to its end, or a UserError naming the journal with exit 2 or
 * 6; nothing else (no Chronicle exception, no InternalError), no hang.
 */
class JournalFuzzTest {
    private static final int MESSAGES = 40;
    private static final int[] MODES = {0, 1, 2, 3, 4};
    private static Path journal;
    private static Map<String, byte[]> original;
    private static List<String> files;

    private static synchronized void ensureJournal() throws IOException {
        if (journal != null) {
            return;
        }
        Path dir = Files.createTempDirectory("rmtemu-fuzz-journal");
        dir.toFile().deleteOnExit();
        Path j = dir.resolve("journal");
        JournalKinds kinds = new JournalKinds();
        int digest = kinds.register("lossradar.digest");
        int drops = kinds.register("wbmon.drops");
        UnsafeBuffer payload = new UnsafeBuffer(new byte[48]);
        try (ExportJournal w = ExportJournal.createIn(j, kinds)) {
            for (int i = 0; i < MESSAGES; i++) {
                payload.putInt(0, i);
                w.append(i % 3 == 0 ? drops : digest, 1000L * i, i % 4, i % 2, payload, 0, 8 + i % 40);
            }
        }
        original = new TreeMap<>();
        try (Stream<Path> s = Files.list(j)) {
            for (Path p : s.toList()) {
                original.put(p.getFileName().toString(), Files.readAllBytes(p));
            }
        }
        files = List.copyOf(original.keySet());
        journal = j;
    }

    @FuzzTest(maxDuration = "10m")
    void damagedJournal(byte[] input) throws IOException {
        ensureJournal();
        if (input.length < 2) {
            return;
        }
        try {
            damage(input);
            readAll();
        } finally {
            restore();
        }
    }

    private static void readAll() {
        try (JournalReader reader = JournalReader.open(journal)) {
            JournalHandler touch = (kind, cycle, switchId, pipe, payload, offset, length) -> {
                if (length > 0) {
                    payload.getByte(offset + length - 1);
                }
            };
            while (reader.poll(touch, 256) > 0) {
                // every message handed over, its last payload byte touched
            }
        } catch (UserError e) {
            if (!e.getMessage().startsWith("journal " + journal + ": ")) {
                throw new AssertionError("refusal does not name the journal: " + e.getMessage(), e);
            }
            if (e.exitCode() != UserError.BAD_INPUT && e.exitCode() != JournalReader.DID_NOT_FINISH_EXIT) {
                throw new AssertionError("exit " + e.exitCode() + ": " + e.getMessage(), e);
            }
        }
    }

    private static void damage(byte[] in) throws IOException {
        ByteBuffer b = ByteBuffer.wrap(in).order(ByteOrder.BIG_ENDIAN);
        int mode = MODES[(b.get() & 0xFF) % MODES.length];
        switch (mode) {
            case 0 -> Files.write(journal.resolve(JournalManifest.FILE), Arrays.copyOfRange(in, 1, in.length));
            case 1, 2 -> {
                int pick = b.get() & 0xFF;
                String name = files.get(pick % files.size());
                byte[] bytes = Files.readAllBytes(journal.resolve(name));
                while (b.remaining() >= 5 && bytes.length > 0) {
                    int at = Integer.remainderUnsigned(b.getInt(), bytes.length);
                    bytes[at] ^= b.get();
                }
                Files.write(journal.resolve(name), bytes);
                if (mode == 2) {
                    Files.deleteIfExists(journal.resolve(JournalManifest.FILE));
                } else if ((pick & 0x80) != 0) {
                    reseal();
                }
            }
            case 3 -> Files.write(journal.resolve((in[1] & 1) == 0 ? "19700102L.cq4" : "extra.cq4t"),
                    Arrays.copyOfRange(in, 2, in.length));
            default -> {
                int pick = b.get() & 0xFF;
                String name = files.get(pick % files.size());
                byte[] whole = original.get(name);
                int len = b.remaining() >= 4 ? Integer.remainderUnsigned(b.getInt(), whole.length + 1) : 0;
                Files.write(journal.resolve(name), Arrays.copyOf(whole, len));
                if ((pick & 0x80) != 0 && !name.equals(JournalManifest.FILE)) {
                    reseal();
                }
            }
        }
    }

    /** The manifest written again for the files as they are now, keeping its counts: a forged journal. */
    private static void reseal() throws IOException {
        StringBuilder sb = new StringBuilder();
        for (String line : new String(original.get(JournalManifest.FILE), java.nio.charset.StandardCharsets.UTF_8)
                .split("\n")) {
            if (!line.startsWith(JournalManifest.FILE_KEY)) {
                sb.append(line).append('\n');
            }
        }
        for (Map.Entry<String, JournalManifest.QueueFile> f : JournalManifest.describe(journal).entrySet()) {
            sb.append(JournalManifest.FILE_KEY).append(f.getKey()).append('=').append(f.getValue().manifestValue())
                    .append('\n');
        }
        Files.writeString(journal.resolve(JournalManifest.FILE), sb.toString());
    }

    private static void restore() throws IOException {
        try (Stream<Path> s = Files.list(journal)) {
            for (Path p : s.toList()) {
                if (!original.containsKey(p.getFileName().toString())) {
                    Files.delete(p);
                }
            }
        }
        for (Map.Entry<String, byte[]> f : original.entrySet()) {
            Files.write(journal.resolve(f.getKey()), f.getValue());
        }
    }
}
