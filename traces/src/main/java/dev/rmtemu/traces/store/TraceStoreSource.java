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
import org.agrona.MutableDirectBuffer;

import java.nio.ByteOrder;
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
    /** One record's frame bytes as read from the queue (the manifest's snap length). */
    private final byte[] frame;
    private final RecordChecksum crc = new RecordChecksum();
    private final String source;
    private long read;

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
        this.frame = new byte[snapLength];
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
            MutableDirectBuffer b = into.buffer();
            int off = into.offset();
            for (int i = 0; i < PacketRecord.METADATA_BYTES; i += Long.BYTES) {
                long w = bytes.readLong();
                crc.word(w);
                b.putLong(off + i, w, ByteOrder.LITTLE_ENDIAN);
            }
            int caplen = into.capturedLength();
            if (caplen < 0 || caplen > snapLength || size != PacketRecord.METADATA_BYTES + (long) caplen) {
                throw StoreManifest.corrupt(dir, "excerpt " + read + " has " + size + " bytes for a captured length of "
                        + Integer.toUnsignedString(caplen) + " (snap length " + snapLength + ")");
            }
            // a record with less room keeps the frame's head, as a shorter snap length would
            int kept = Math.min(caplen, into.frameCapacity());
            bytes.read(frame, 0, caplen);
            crc.frame(frame, caplen); // every stored byte, also those a shorter record does not keep
            b.putBytes(off + PacketRecord.FRAME_OFFSET, frame, 0, kept);
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
