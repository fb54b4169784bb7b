package dev.rmtemu.traces.store;

import dev.rmtemu.model.UserError;
import dev.rmtemu.traces.PacketRecord;
import dev.rmtemu.traces.PacketSource;
import dev.rmtemu.traces.SkipReason;
import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.wire.DocumentContext;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.LongConsumer;

/** Converts a {@link PacketSource} into a trace store directory ({@link TraceStore}). */
public final class TraceStoreWriter {
    /** How often (in records) the progress callback is told the count. */
    public static final int PROGRESS_EVERY = 65_536;

    private TraceStoreWriter() {
    }

    /**
     * Writes every record of {@code source} to a new store at {@code dir} (which must
     * not exist or be empty) and returns the record count. {@code progress} (may be
     * null) receives the running count every {@link #PROGRESS_EVERY} records.
     */
    public static long write(PacketSource source, Path dir, LongConsumer progress) {
        prepare(dir);
        long n = 0;
        PacketRecord r = PacketRecord.allocate();
        RecordChecksum crc = new RecordChecksum();
        try (SingleChronicleQueue q = TraceStore.open(dir, false);
             ExcerptAppender appender = q.createAppender()) {
            while (source.next(r)) {
                try (DocumentContext dc = appender.writingDocument()) {
                    Bytes<?> bytes = dc.wire().bytes();
                    for (int i = 0; i < PacketRecord.DECODED_BYTES / Long.BYTES; i++) {
                        long w = r.word(i);
                        bytes.writeLong(w);
                        crc.word(w);
                    }
                }
                n++;
                if (progress != null && (n % PROGRESS_EVERY) == 0) {
                    progress.accept(n);
                }
            }
        }
        Map<String, String> m = new LinkedHashMap<>();
        m.put("format", StoreManifest.FORMAT);
        m.put("record_bytes", Integer.toString(PacketRecord.DECODED_BYTES));
        m.put("records", Long.toString(n));
        m.put("records_crc32c", Long.toHexString(crc.value()));
        for (Map.Entry<String, StoreManifest.QueueFile> f : StoreManifest.describeFiles(dir).entrySet()) {
            m.put(StoreManifest.FILE_KEY + f.getKey(), f.getValue().manifestValue());
        }
        m.put("source", source.describe());
        for (SkipReason reason : SkipReason.inLabelOrder()) {
            long c = source.skipped().count(reason);
            if (c != 0) {
                m.put("skipped." + reason.label(), Long.toString(c));
            }
        }
        TraceStore.writeManifest(dir, m);
        return n;
    }

    private static void prepare(Path dir) {
        try {
            if (Files.exists(dir)) {
                if (!Files.isDirectory(dir)) {
                    throw new UserError(dir + ": exists and is not a directory");
                }
                try (var s = Files.list(dir)) {
                    if (s.findAny().isPresent()) {
                        throw new UserError(dir + ": store directory is not empty");
                    }
                }
            } else {
                Files.createDirectories(dir);
            }
        } catch (IOException e) {
            throw new UserError(dir + ": cannot create store directory: " + e.getMessage(), e);
        }
    }
}
