package dev.rmtemu.emulator.journal;

import dev.rmtemu.model.UserError;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;
import java.util.zip.CRC32C;
import dev.rmtemu.model.text.Printable;

/**
 * The seal of a closed export journal, {@value #FILE} beside its queue files: the message
 * count, how the run ended, and every queue file with its size and CRC32C (as a trace
 * store's manifest has). The writer puts it there after the queue is closed, so a journal
 * without one is a run that did not finish (or is still writing). {@link #verify} compares
 * the directory with it before Chronicle Queue maps anything: a flipped bit, a truncated,
 * replaced or extra file is one clear error, never a fault or a wait inside Chronicle.
 *
 * @param messages messages appended (header and end not counted), as the end message says
 * @param aborted  whether the end message is marked aborted
 * @param files    queue file name to its size and CRC32C, in name order
 */
record JournalManifest(long messages, boolean aborted, Map<String, QueueFile> files) {
    /** Name of the seal inside the journal directory. */
    static final String FILE = "rmtemu-journal.txt";
    static final String FORMAT = "rmtemu-export-journal " + JournalFormat.VERSION;
    static final String FILE_KEY = "file.";
    static final String END_COMPLETE = "complete";
    static final String END_ABORTED = "aborted";
    /** Largest manifest read: a few hundred bytes in practice. */
    static final int MAX_BYTES = 1 << 16;
    /** Names Chronicle Queue gives its files: no separators, no control characters. */
    private static final Pattern QUEUE_FILE_NAME = Pattern.compile("[A-Za-z0-9._-]{1,255}");
    /** Chunk of a queue file checksummed per read. */
    private static final int CHECK_CHUNK = 1 << 20;
    /** Name of the manifest while it is written (renamed into place when complete). */
    private static final String TEMP_FILE = ".rmtemu-tmp." + FILE;

    /** A queue file as the writer left it. */
    record QueueFile(long bytes, long crc) {
        String manifestValue() {
            return bytes + " crc32c=" + Long.toHexString(crc);
        }
    }

    /** Whether Chronicle Queue reads {@code name} as part of the queue (cycle files and the metadata table). */
    static boolean isQueueFile(String name) {
        return name.endsWith(JournalFormat.QUEUE_FILE_SUFFIX) || name.endsWith(JournalFormat.QUEUE_FILE_SUFFIX + "t");
    }

    /** Seals the closed journal in {@code dir}: writes the manifest under a temporary name, then renames it. */
    static void write(Path dir, long messages, boolean aborted) {
        StringBuilder sb = new StringBuilder();
        sb.append("format=").append(FORMAT).append('\n');
        sb.append("messages=").append(messages).append('\n');
        sb.append("end=").append(aborted ? END_ABORTED : END_COMPLETE).append('\n');
        for (Map.Entry<String, QueueFile> f : describe(dir).entrySet()) {
            sb.append(FILE_KEY).append(f.getKey()).append('=').append(f.getValue().manifestValue()).append('\n');
        }
        Path temp = dir.resolve(TEMP_FILE);
        try {
            Files.writeString(temp, sb.toString(), StandardCharsets.UTF_8);
            Files.move(temp, dir.resolve(FILE), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            try {
                Files.deleteIfExists(temp);
            } catch (IOException ignored) {
                // reporting why it could not be written
            }
            throw new UserError("export journal " + dir + ": cannot write " + FILE + ": " + e.getMessage(), e);
        }
    }

    /** The queue files in {@code dir} now, with their sizes and checksums. */
    static Map<String, QueueFile> describe(Path dir) {
        Map<String, QueueFile> files = new TreeMap<>();
        try (var s = Files.list(dir)) {
            for (Path p : s.sorted().toList()) {
                String name = p.getFileName().toString();
                if (isQueueFile(name)) {
                    files.put(name, new QueueFile(Files.size(p), crc(p)));
                }
            }
        } catch (IOException e) {
            throw new UserError("export journal " + dir + ": cannot list it: " + e.getMessage(), e);
        }
        return files;
    }

    /** Whether {@code dir} holds a manifest (the journal was closed). */
    static boolean present(Path dir) {
        return Files.exists(dir.resolve(FILE), LinkOption.NOFOLLOW_LINKS);
    }

    /** Reads and checks the manifest of {@code dir}; every problem is {@link JournalDamage}. */
    static JournalManifest read(Path dir) {
        Path file = dir.resolve(FILE);
        String text;
        try {
            if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
                throw new JournalDamage(FILE + " is not a regular file");
            }
            long size = Files.size(file);
            if (size > MAX_BYTES) {
                throw new JournalDamage(FILE + " is " + size + " bytes, not a journal manifest");
            }
            text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(Files.readAllBytes(file)))
                    .toString();
        } catch (CharacterCodingException e) {
            throw new JournalDamage(FILE + " is not UTF-8 text");
        } catch (IOException e) {
            throw new JournalDamage("cannot read " + FILE + ": " + e.getMessage());
        }
        Map<String, String> m = new LinkedHashMap<>();
        for (String line : text.split("\n", -1)) {
            int eq = line.indexOf('=');
            if (eq > 0) {
                m.put(line.substring(0, eq), line.substring(eq + 1));
            }
        }
        if (!FORMAT.equals(m.get("format"))) {
            throw new JournalDamage(FILE + " has format '" + cut(m.get("format")) + "', expected '" + FORMAT + "'");
        }
        long messages = count(m, "messages", m.get("messages"), 10);
        String end = m.get("end");
        if (!END_COMPLETE.equals(end) && !END_ABORTED.equals(end)) {
            throw new JournalDamage(FILE + " has end '" + cut(end) + "', expected '" + END_COMPLETE + "' or '"
                    + END_ABORTED + "'");
        }
        Map<String, QueueFile> files = new TreeMap<>();
        for (Map.Entry<String, String> e : m.entrySet()) {
            if (e.getKey().startsWith(FILE_KEY)) {
                String name = e.getKey().substring(FILE_KEY.length());
                if (!isQueueFile(name) || !QUEUE_FILE_NAME.matcher(name).matches()) {
                    throw new JournalDamage(FILE + " lists '" + cut(name) + "', not a queue file name");
                }
                String[] v = e.getValue().split(" crc32c=", -1);
                if (v.length != 2) {
                    throw new JournalDamage(FILE + " entry for " + name + " is not 'BYTES crc32c=HEX'");
                }
                files.put(name, new QueueFile(count(m, e.getKey(), v[0], 10), count(m, e.getKey(), v[1], 16)));
            }
        }
        if (files.isEmpty()) {
            throw new JournalDamage(FILE + " lists no queue files");
        }
        return new JournalManifest(messages, END_ABORTED.equals(end), files);
    }

    /**
     * Checks, without mapping anything, that {@code dir} holds exactly the listed queue files,
     * each of its size and checksum.
     */
    void verify(Path dir) {
        Map<String, Path> present = new TreeMap<>();
        try (var s = Files.list(dir)) {
            for (Path p : s.toList()) {
                if (isQueueFile(p.getFileName().toString())) {
                    present.put(p.getFileName().toString(), p);
                }
            }
        } catch (IOException e) {
            throw new JournalDamage("cannot list it: " + e.getMessage());
        }
        for (String name : present.keySet()) {
            if (!files.containsKey(name)) {
                throw new JournalDamage("queue file " + cut(name) + " is not part of this journal (" + FILE
                        + " does not list it)");
            }
        }
        for (Map.Entry<String, QueueFile> f : files.entrySet()) {
            Path p = present.get(f.getKey());
            if (p == null) {
                throw new JournalDamage("queue file " + f.getKey() + " is missing");
            }
            if (!Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)) {
                throw new JournalDamage("queue file " + f.getKey() + " is not a regular file");
            }
            long size;
            try {
                size = Files.size(p);
            } catch (IOException e) {
                throw new JournalDamage("cannot read " + f.getKey() + ": " + e.getMessage());
            }
            if (size != f.getValue().bytes()) {
                throw new JournalDamage("queue file " + f.getKey() + " is " + size + " bytes, " + FILE + " says "
                        + f.getValue().bytes() + " (truncated or replaced)");
            }
            long crc;
            try {
                crc = crc(p);
            } catch (IOException e) {
                throw new JournalDamage("cannot read " + f.getKey() + ": " + e.getMessage());
            }
            if (crc != f.getValue().crc()) {
                throw new JournalDamage("queue file " + f.getKey() + " does not match its checksum (corrupt bytes)");
            }
        }
    }

    /**
     * Checks what can be checked of an unsealed journal before Chronicle Queue maps it: every
     * queue file is a non-empty regular file (Chronicle waits ~23 s for the header of an empty
     * one, and cannot map a directory).
     */
    static void checkUnsealed(Path dir) {
        try (var s = Files.list(dir)) {
            for (Path p : s.sorted().toList()) {
                String name = p.getFileName().toString();
                if (!isQueueFile(name)) {
                    continue;
                }
                if (!Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)) {
                    throw new JournalDamage("queue file " + cut(name) + " is not a regular file");
                }
                if (Files.size(p) == 0) {
                    throw new JournalDamage("queue file " + cut(name) + " is 0 bytes");
                }
            }
        } catch (IOException e) {
            throw new JournalDamage("cannot list it: " + e.getMessage());
        }
    }

    private static long crc(Path p) throws IOException {
        CRC32C crc = new CRC32C();
        ByteBuffer buf = ByteBuffer.allocateDirect(CHECK_CHUNK);
        try (FileChannel ch = FileChannel.open(p, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS)) {
            while (ch.read(buf) > 0) {
                buf.flip();
                crc.update(buf);
                buf.clear();
            }
        }
        return crc.getValue();
    }

    private static long count(Map<String, String> m, String key, String v, int radix) {
        if (v == null) {
            throw new JournalDamage(FILE + " has no '" + key + "'");
        }
        try {
            long n = radix == 16 ? Long.parseUnsignedLong(v, 16) : Long.parseLong(v);
            if (n < 0) {
                throw new NumberFormatException();
            }
            return n;
        } catch (NumberFormatException e) {
            throw new JournalDamage(FILE + " value of '" + cut(key) + "' is '" + cut(v) + "', not a "
                    + (radix == 16 ? "hex " : "") + "count");
        }
    }

    private static String cut(String s) {
        return s == null ? "" : Printable.escape(s, 60);
    }

    /** What is wrong with a journal's files; {@link JournalReader} names the journal and picks the exit code. */
    static final class JournalDamage extends RuntimeException {
        JournalDamage(String what) {
            super(what, null, false, false);
        }
    }
}
