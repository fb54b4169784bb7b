package dev.rmtemu.traces.store;

import dev.rmtemu.model.text.Printable;
import java.util.regex.Pattern;
import dev.rmtemu.model.UserError;
import dev.rmtemu.traces.PacketRecord;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.zip.CRC32C;

/**
 * What a store's manifest says about it, parsed and checked: format, record count,
 * a CRC32C over the record bytes, and every queue file with its size and CRC32C.
 * {@link #verifyFiles} compares the directory with it before Chronicle Queue maps
 * anything, so a truncated, replaced or corrupted file is one clear error, not a
 * fault inside a memory-mapped read or a wait on a corrupt lock.
 *
 * @param records     records in the store
 * @param recordsCrc  CRC32C of every record's {@link PacketRecord#DECODED_BYTES} bytes, in order
 * @param files       queue file name to its size and CRC32C, in name order
 * @param entries     every manifest line as key and value (source, skip counters), in file order
 */
record StoreManifest(long records, long recordsCrc, Map<String, QueueFile> files, Map<String, String> entries) {
    static final String FORMAT = "rmtemu-trace-store " + TraceStore.FORMAT_VERSION;
    /** Prefix of the manifest keys listing queue files. */
    static final String FILE_KEY = "file.";
    /** Largest manifest read: a few hundred bytes in practice; anything much larger is not one. */
    static final int MAX_MANIFEST_BYTES = 1 << 20;
    /** Names Chronicle Queue gives its files (cycle and table stores): no separators, no control characters. */
    private static final Pattern QUEUE_FILE_NAME = Pattern.compile("[A-Za-z0-9._-]{1,255}");
    /** Prefix of the manifest keys carrying the source's skip counters. */
    static final String SKIPPED_KEY = "skipped.";
    /**
     * Most frames a store's source can have skipped: 2^48 frames need at least 4.5 PB of
     * capture record headers alone, so a larger count is a damaged or forged manifest (and
     * counts near 2^63 would overflow the totals a report adds up).
     */
    static final long MAX_SOURCE_FRAMES = 1L << 48;
    /** Longest part of the manifest's source description printed: a path and a spec, not a flood. */
    static final int MAX_SOURCE_CHARS = 300;
    /** Chunk of a queue file checksummed per read. */
    private static final int CHECK_CHUNK = 1 << 20;

    /** A queue file as the writer left it. */
    record QueueFile(long bytes, long crc) {
        String manifestValue() {
            return bytes + " crc32c=" + Long.toHexString(crc);
        }
    }

    /** Whether Chronicle Queue would read {@code name} as part of the queue. */
    static boolean isQueueFile(String name) {
        return name.endsWith(".cq4") || name.endsWith(".cq4t");
    }

    /** The queue files of a store just written, with their sizes and checksums. */
    static Map<String, QueueFile> describeFiles(Path dir) {
        Map<String, QueueFile> files = new TreeMap<>();
        try (var s = Files.list(dir)) {
            for (Path p : s.sorted().toList()) {
                String name = p.getFileName().toString();
                if (isQueueFile(name)) {
                    files.put(name, new QueueFile(Files.size(p), crc(p, dir)));
                }
            }
        } catch (IOException e) {
            throw new UserError(dir + ": cannot list the store: " + e.getMessage(), e);
        }
        return files;
    }

    /** Reads and checks the manifest of {@code dir}; every problem is a UserError naming the store. */
    static StoreManifest read(Path dir) {
        Path file = dir.resolve(TraceStore.MANIFEST);
        String text;
        try {
            long size = Files.size(file);
            if (size > MAX_MANIFEST_BYTES) {
                throw corrupt(dir, TraceStore.MANIFEST + " is " + size + " bytes, not a store manifest");
            }
            byte[] bytes = Files.readAllBytes(file);
            text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            throw corrupt(dir, TraceStore.MANIFEST + " is not UTF-8 text");
        } catch (IOException e) {
            throw new UserError(dir + ": cannot read " + TraceStore.MANIFEST + ": " + e.getMessage(), e);
        }
        Map<String, String> m = new LinkedHashMap<>();
        for (String line : text.split("\n", -1)) {
            int eq = line.indexOf('=');
            if (eq > 0) {
                m.put(line.substring(0, eq), line.substring(eq + 1));
            }
        }
        String format = m.get("format");
        if (!FORMAT.equals(format)) {
            throw new UserError(dir + ": unsupported trace store format '" + cut(format) + "' (this rmtemu reads '" + FORMAT
                    + "'; stores of format 1 have no checksums: convert the trace again)");
        }
        if (!Integer.toString(PacketRecord.DECODED_BYTES).equals(m.get("record_bytes"))) {
            throw corrupt(dir, "record_bytes is '" + cut(m.get("record_bytes")) + "', expected " + PacketRecord.DECODED_BYTES);
        }
        long records = number(dir, m, "records", 10);
        long recordsCrc = number(dir, m, "records_crc32c", 16);
        Map<String, QueueFile> files = new TreeMap<>();
        for (Map.Entry<String, String> e : m.entrySet()) {
            if (e.getKey().startsWith(FILE_KEY)) {
                String name = e.getKey().substring(FILE_KEY.length());
                if (!isQueueFile(name) || !QUEUE_FILE_NAME.matcher(name).matches()) {
                    throw corrupt(dir, "manifest lists '" + cut(name) + "', not a queue file name");
                }
                String[] v = e.getValue().split(" crc32c=", -1);
                if (v.length != 2) {
                    throw corrupt(dir, "manifest entry for " + name + " is not 'BYTES crc32c=HEX'");
                }
                files.put(name, new QueueFile(parse(dir, e.getKey(), v[0], 10), parse(dir, e.getKey(), v[1], 16)));
            }
        }
        if (files.isEmpty()) {
            throw corrupt(dir, "manifest lists no queue files");
        }
        for (Map.Entry<String, String> e : m.entrySet()) {
            if (e.getKey().startsWith(SKIPPED_KEY)) {
                long n = parse(dir, e.getKey(), e.getValue(), 10);
                if (n > MAX_SOURCE_FRAMES) {
                    throw corrupt(dir, "manifest value of '" + cut(e.getKey()) + "' is '" + n
                            + "', more frames than a capture holds (at most " + MAX_SOURCE_FRAMES + ")");
                }
            }
        }
        return new StoreManifest(records, recordsCrc, files, m);
    }

    /**
     * Checks, without mapping anything, that the directory holds exactly the queue
     * files the manifest lists, each of its size and checksum.
     */
    void verifyFiles(Path dir) {
        List<String> present = new ArrayList<>();
        try (var s = Files.list(dir)) {
            for (Path p : s.sorted().toList()) {
                String name = p.getFileName().toString();
                if (isQueueFile(name)) {
                    present.add(name);
                }
            }
        } catch (IOException e) {
            throw new UserError(dir + ": cannot list the store: " + e.getMessage(), e);
        }
        for (String name : present) {
            if (!files.containsKey(name)) {
                throw corrupt(dir, "queue file " + name + " is not part of this store (the manifest does not list it)");
            }
        }
        for (Map.Entry<String, QueueFile> f : files.entrySet()) {
            Path p = dir.resolve(f.getKey());
            if (!present.contains(f.getKey())) {
                throw corrupt(dir, "queue file " + f.getKey() + " is missing");
            }
            if (!Files.isRegularFile(p)) {
                throw corrupt(dir, f.getKey() + " is not a regular file");
            }
            long size;
            try {
                size = Files.size(p);
            } catch (IOException e) {
                throw new UserError(dir + ": cannot read " + f.getKey() + ": " + e.getMessage(), e);
            }
            if (size != f.getValue().bytes()) {
                throw corrupt(dir, "queue file " + f.getKey() + " is " + size + " bytes, the manifest says "
                        + f.getValue().bytes() + " (truncated or replaced)");
            }
            if (crc(p, dir) != f.getValue().crc()) {
                throw corrupt(dir, "queue file " + f.getKey() + " does not match its checksum (corrupt bytes)");
            }
        }
    }

    static UserError corrupt(Path dir, String what) {
        return new UserError(dir + ": corrupt trace store: " + what);
    }

    private static long crc(Path p, Path dir) {
        CRC32C crc = new CRC32C();
        ByteBuffer buf = ByteBuffer.allocateDirect(CHECK_CHUNK);
        try (FileChannel ch = FileChannel.open(p, StandardOpenOption.READ)) {
            while (ch.read(buf) > 0) {
                buf.flip();
                crc.update(buf);
                buf.clear();
            }
        } catch (IOException e) {
            throw new UserError(dir + ": cannot read " + p.getFileName() + ": " + e.getMessage(), e);
        }
        return crc.getValue();
    }

    private static long number(Path dir, Map<String, String> m, String key, int radix) {
        String v = m.get(key);
        if (v == null) {
            throw corrupt(dir, "manifest has no '" + key + "'");
        }
        return parse(dir, key, v, radix);
    }

    private static long parse(Path dir, String key, String v, int radix) {
        try {
            long n = radix == 16 ? Long.parseUnsignedLong(v, 16) : Long.parseLong(v);
            if (n < 0) {
                throw new NumberFormatException();
            }
            return n;
        } catch (NumberFormatException e) {
            throw corrupt(dir, "manifest value of '" + cut(key) + "' is '" + cut(v) + "', not a " + (radix == 16 ? "hex " : "")
                    + "count");
        }
    }

    private static String cut(String s) {
        return s == null ? "" : Printable.escape(s, 60);
    }
}
