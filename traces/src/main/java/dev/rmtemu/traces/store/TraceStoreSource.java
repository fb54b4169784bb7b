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

/** Replays a trace store ({@link TraceStore}) as a {@link PacketSource}. */
public final class TraceStoreSource implements PacketSource {
    private final Path dir;
    private final SingleChronicleQueue queue;
    private final ExcerptTailer tailer;
    private final SkipCounters skips = new SkipCounters();
    private final long expected;
    private final String source;
    private long read;

    public TraceStoreSource(Path dir) {
        if (!TraceStore.isStore(dir)) {
            throw new UserError(dir + ": not a trace store (no " + TraceStore.MANIFEST + ")");
        }
        this.dir = dir;
        Map<String, String> m = TraceStore.readManifest(dir);
        if (!("rmtemu-trace-store " + TraceStore.FORMAT_VERSION).equals(m.get("format"))
                || !Integer.toString(PacketRecord.LENGTH).equals(m.get("record_bytes"))) {
            throw new UserError(dir + ": unsupported trace store format '" + m.get("format") + "'");
        }
        try {
            this.expected = Long.parseLong(m.getOrDefault("records", "-1"));
        } catch (NumberFormatException e) {
            throw new UserError(dir + ": bad record count in " + TraceStore.MANIFEST);
        }
        this.source = m.getOrDefault("source", "?");
        for (SkipReason r : SkipReason.values()) {
            String v = m.get("skipped." + r.label());
            if (v != null) {
                try {
                    skips.add(r, Long.parseLong(v));
                } catch (NumberFormatException e) {
                    throw new UserError(dir + ": bad skip count for " + r.label() + " in " + TraceStore.MANIFEST);
                }
            }
        }
        this.queue = TraceStore.open(dir, true);
        this.tailer = queue.createTailer().toStart();
    }

    /** The record count of the manifest (unknown when the manifest has none). */
    @Override
    public long knownCount() {
        return expected >= 0 ? expected : UNKNOWN_COUNT;
    }

    @Override
    public boolean next(PacketRecord into) {
        try (DocumentContext dc = tailer.readingDocument()) {
            if (!dc.isPresent()) {
                if (read != expected) {
                    throw new UserError(dir + ": store ends after " + read + " records, manifest says " + expected);
                }
                return false;
            }
            Bytes<?> bytes = dc.wire().bytes();
            if (bytes.readRemaining() != PacketRecord.LENGTH) {
                throw new UserError(dir + ": excerpt " + read + " has " + bytes.readRemaining() + " bytes, expected "
                        + PacketRecord.LENGTH);
            }
            MutableDirectBuffer b = into.buffer();
            int off = into.offset();
            for (int i = 0; i < PacketRecord.LENGTH; i += Long.BYTES) {
                b.putLong(off + i, bytes.readLong(), ByteOrder.LITTLE_ENDIAN);
            }
        }
        read++;
        return true;
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
