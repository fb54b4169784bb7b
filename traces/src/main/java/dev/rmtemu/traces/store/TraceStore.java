package dev.rmtemu.traces.store;

import dev.rmtemu.model.UserError;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueueBuilder;
import net.openhft.chronicle.queue.rollcycles.LargeRollCycles;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * Layout of a trace store: a Chronicle Queue directory with one excerpt of
 * {@code PacketRecord.DECODED_BYTES} bytes per packet (the record's bytes as eight
 * little-endian longs), plus {@value #MANIFEST} naming the source, the record count,
 * a CRC32C of the records, every queue file with its size and CRC32C, and the
 * source's skip counters (see {@link StoreManifest}). The queue runs on a fixed clock
 * ({@link #FIXED_TIME_MILLIS}) and the largest daily roll cycle, so everything lands
 * in one cycle file whatever the wall time: the same source gives the same store.
 */
public final class TraceStore {
    /** Sidecar file of a store; its presence marks a directory as a trace store. */
    public static final String MANIFEST = "rmtemu-trace-store.txt";
    /** Queue clock: the epoch, so the single cycle file is always cycle 0. */
    public static final long FIXED_TIME_MILLIS = 0L;
    /** Roll cycle with room for far more messages than any trace (2^32+ per cycle). */
    static final LargeRollCycles ROLL_CYCLE = LargeRollCycles.HUGE_DAILY;
    /** How long a reader waits for a queue file's header to be complete (a written store's always is). */
    static final long READER_HEADER_TIMEOUT_MS = 1_000L;
    /** 2: the manifest carries the checksums and file sizes the reader checks. */
    static final String FORMAT_VERSION = "2";

    private TraceStore() {
    }

    static {
        System.setProperty("chronicle.analytics.disable", "true");
        System.setProperty("chronicle.announcer.disable", "true");
    }

    /** Whether {@code dir} is a trace store directory. */
    public static boolean isStore(Path dir) {
        return Files.isDirectory(dir) && Files.isRegularFile(dir.resolve(MANIFEST));
    }

    static SingleChronicleQueue open(Path dir, boolean readOnly) {
        ChronicleLimits.apply();
        SingleChronicleQueueBuilder b = SingleChronicleQueueBuilder.binary(dir)
                .rollCycle(ROLL_CYCLE)
                .timeProvider(() -> FIXED_TIME_MILLIS);
        if (readOnly) {
            // the files were checked against the manifest: a header that never completes is a forged
            // store, and Chronicle's default wait for it (~23 s) would only delay saying so
            b.readOnly(true).timeoutMS(READER_HEADER_TIMEOUT_MS);
        }
        return b.build();
    }

    static void writeManifest(Path dir, Map<String, String> entries) {
        StringBuilder sb = new StringBuilder();
        for (Map.Entry<String, String> e : entries.entrySet()) {
            sb.append(e.getKey()).append('=').append(e.getValue().replace('\n', ' ')).append('\n');
        }
        try {
            Files.writeString(dir.resolve(MANIFEST), sb.toString(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UserError(dir + ": cannot write store manifest: " + e.getMessage(), e);
        }
    }

    /** The manifest's entries in file order, after checking it (format, counts, file list). */
    public static Map<String, String> readManifest(Path dir) {
        return StoreManifest.read(dir).entries();
    }
}
