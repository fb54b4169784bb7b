package dev.rmtemu.traces.store;

import dev.rmtemu.model.UserError;
import dev.rmtemu.traces.PacketRecord;
import dev.rmtemu.traces.PacketSource;
import dev.rmtemu.traces.SkipCounters;
import dev.rmtemu.traces.SkipReason;
import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.wire.DocumentContext;

import java.nio.file.Path;
import java.util.Map;
import dev.rmtemu.model.text.Printable;

/** Replays a trace store ({@link TraceStore}) as a {@link PacketSource}. */
public final class TraceStoreSource implements PacketSource {
    private final Path dir;
    private final SingleChronicleQueue queue;
    private final ExcerptTailer tailer;
    private final SkipCounters skips = new SkipCounters();
    private final long expected;
    private final long expectedCrc;
    private final int snapLength;
    /** One record as read from the queue: its metadata and frame bytes (up to the manifest's snap length). */
    private final byte[] stored;
    private final RecordChecksum crc = new RecordChecksum();
    private final String source;
    private long read;
    /** Where a stored record keeps its captured length (u32 little-endian). */
    private static final int CAPLEN = PacketRecord.CAPTURED_LENGTH_OFFSET;

    /**
     * Opens a store read-only after checking it: the manifest, then every queue file's
     * size and checksum, before Chronicle Queue maps any file.
     */
    public TraceStoreSource(Path dir) {
        if (!TraceStore.isStore(dir)) {
            throw new UserError(dir + ": not a trace store (no " + TraceStore.MANIFEST + ")");
        }
        this.dir = dir;
        StoreManifest manifest = StoreManifest.read(dir);
        Map<String, String> m = manifest.entries();
        this.expected = manifest.records();
        this.expectedCrc = manifest.recordsCrc();
        this.snapLength = manifest.snapLength();
        this.stored = new byte[PacketRecord.METADATA_BYTES + snapLength];
        // the manifest is a file anyone can edit: its text is printed escaped and cut
        this.source = Printable.escape(m.getOrDefault("source", "?"), StoreManifest.MAX_SOURCE_CHARS);
        for (SkipReason r : SkipReason.values()) {
            String v = m.get(StoreManifest.SKIPPED_KEY + r.label());
            if (v != null) {
                try {
                    skips.add(r, Long.parseLong(v));
                } catch (NumberFormatException e) {
                    throw StoreManifest.corrupt(dir, "bad skip count for " + r.label() + " in " + TraceStore.MANIFEST);
                }
            }
        }
        manifest.verifyFiles(dir);
        SingleChronicleQueue q = null;
        try {
            q = TraceStore.open(dir, true);
            this.queue = q;
            this.tailer = q.createTailer().toStart();
        } catch (Exception | InternalError e) {
            // Chronicle throws checked exceptions it does not declare (StreamCorruptedException on a
            // forged header) and faults on a mapping as InternalError: all are a damaged store
            if (q != null) {
                q.close();
            }
            throw chronicleFailure("opening it", e);
        }
    }

    /** The record count of the manifest (unknown when the manifest has none). */
    @Override
    public long knownCount() {
        return expected >= 0 ? expected : UNKNOWN_COUNT;
    }

    @Override
    public boolean next(PacketRecord into) {
        try {
            return readNext(into);
        } catch (UserError e) {
            throw e;
        } catch (Exception | InternalError e) {
            // the files were checked before opening; this is a store changed under us, or a checker gap
            throw chronicleFailure("reading record " + read, e);
        }
    }

    private boolean readNext(PacketRecord into) {
        try (DocumentContext dc = tailer.readingDocument()) {
            if (!dc.isPresent()) {
                if (read != expected) {
                    throw StoreManifest.corrupt(dir, "store ends after " + read + " records, manifest says " + expected);
                }
                if (crc.value() != expectedCrc) {
                    throw StoreManifest.corrupt(dir, "the records do not match their checksum (corrupt records)");
                }
                return false;
            }
            if (read == expected) {
                throw StoreManifest.corrupt(dir, "store has more records than the " + expected + " its manifest says");
            }
            Bytes<?> bytes = dc.wire().bytes();
            long size = bytes.readRemaining();
            if (size < PacketRecord.METADATA_BYTES) {
                throw StoreManifest.corrupt(dir, "excerpt " + read + " has " + size + " bytes, less than a record's "
                        + PacketRecord.METADATA_BYTES);
            }
            // the record's bytes as stored, in one read: Chronicle's longs are little-endian, as a
            // record's metadata words are (TraceStoreWriter writes them with writeLong)
            bytes.read(stored, 0, PacketRecord.METADATA_BYTES);
            int caplen = (stored[CAPLEN] & 0xFF) | (stored[CAPLEN + 1] & 0xFF) << 8 | (stored[CAPLEN + 2] & 0xFF) << 16
                    | stored[CAPLEN + 3] << 24;
            if (caplen < 0 || caplen > snapLength || size != PacketRecord.METADATA_BYTES + (long) caplen) {
                throw StoreManifest.corrupt(dir, "excerpt " + read + " has " + size + " bytes for a captured length of "
                        + Integer.toUnsignedString(caplen) + " (snap length " + snapLength + ")");
            }
            bytes.read(stored, PacketRecord.METADATA_BYTES, caplen);
            crc.record(stored, PacketRecord.METADATA_BYTES + caplen); // every stored byte, also those a shorter record does not keep
            // a record with less room keeps the frame's head, as a shorter snap length would
            int kept = Math.min(caplen, into.frameCapacity());
            into.buffer().putBytes(into.offset(), stored, 0, PacketRecord.METADATA_BYTES + kept);
            into.capturedLength(kept);
        }
        read++;
        return true;
    }

    private UserError chronicleFailure(String doing, Throwable e) {
        return StoreManifest.corrupt(dir, "Chronicle Queue failed " + doing + " (" + e.getClass().getSimpleName()
                + (e.getMessage() == null ? "" : ": " + Printable.escape(e.getMessage(), 80))
                + ")");
    }

    /**
     * Back to the first record, as a fresh open would be but without checking the files again:
     * a run that read the whole store to check it replays it from the start. The records may
     * then be read on another thread (the packet ring's reader) than the one that checked them.
     */
    public void rewind() {
        try {
            tailer.toStart();
            // Chronicle binds a tailer to the first thread that uses it; the hand-over is sequential
            tailer.singleThreadedCheckReset();
        } catch (Exception | InternalError e) {
            throw chronicleFailure("rewinding it", e);
        }
        read = 0;
        crc.reset();
    }

    /** Records in the store according to its manifest. */
    public long recordCount() {
        return expected;
    }

    @Override
    public SkipCounters skipped() {
        return skips;
    }

    @Override
    public String describe() {
        return "trace store " + dir + " (" + expected + " records from " + source + ")";
    }

    @Override
    public void close() {
        tailer.close();
        queue.close();
    }
}
