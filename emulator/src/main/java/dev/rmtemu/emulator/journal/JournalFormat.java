package dev.rmtemu.emulator.journal;

import net.openhft.chronicle.core.time.TimeProvider;
import net.openhft.chronicle.queue.RollCycle;
import net.openhft.chronicle.queue.rollcycles.LargeRollCycles;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import dev.rmtemu.traces.store.ChronicleLimits;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueueBuilder;

import java.nio.file.Path;

/**
 * The on-disk format of an export journal: one Chronicle Queue directory, one binary
 * document per message.
 *
 * <pre>
 * message  = kind:int32  cycle:int64  switch:int32  pipe:int32  length:int32  payload[length]
 * header   = kind 0, cycle 0, switch -1, pipe -1, payload:
 *            magic:int32 ("RMTJ")  version:int32  count:int32  { id:int32 nameLength:int32 name:ASCII }*
 * end      = kind 1, cycle = last appended cycle, switch -1, pipe -1, payload: messages:int64
 *            [status:int64, present only when the run was aborted: 1]
 * </pre>
 * Integers are little-endian (Chronicle Bytes' and Agrona's native order on x86-64 and
 * AArch64). The queue's clock is pinned, so file names and roll cycles never depend on
 * the host's time: two runs that append the same messages write the same bytes.
 */
final class JournalFormat {
    private JournalFormat() {
    }

    static final int OFFSET_KIND = 0;
    static final int OFFSET_CYCLE = 4;
    static final int OFFSET_SWITCH = 12;
    static final int OFFSET_PIPE = 16;
    static final int OFFSET_LENGTH = 20;
    /** Bytes before the payload. */
    static final int HEADER_BYTES = 24;

    /** "RMTJ" read as a little-endian int: marks an rmtemu export journal. */
    static final int MAGIC = 'R' | ('M' << 8) | ('T' << 16) | ('J' << 24);
    static final int VERSION = 1;

    /** Status word of an end message whose run was stopped early (SIGINT/SIGTERM). */
    static final long END_ABORTED = 1L;

    /** Switch and pipe fields of the journal's own messages (header, end). */
    static final int NO_SWITCH = -1;
    static final int NO_PIPE = -1;

    /** Directory of the journal inside a run directory. */
    static final String RUN_DIR_SUBDIRECTORY = "journal";

    /** Chronicle Queue's data files end with this. */
    static final String QUEUE_FILE_SUFFIX = ".cq4";

    /**
     * Queue time is pinned to the Unix epoch: the journal has one cycle file, named for
     * 1970-01-01, on every run. Emulated time lives in the messages' cycle field.
     */
    static final long PINNED_QUEUE_TIME_MS = 0L;
    static final TimeProvider PINNED_CLOCK = () -> PINNED_QUEUE_TIME_MS;

    /**
     * One cycle holds the whole run, so the roll cycle is chosen for its capacity:
     * LARGE_DAILY indexes 2^37 messages per cycle.
     */
    static final RollCycle ROLL_CYCLE = LargeRollCycles.LARGE_DAILY;

    /**
     * Queue file growth step: 1 MiB keeps a small run's journal small on disk (Chronicle
     * grows the file block by block and keeps the whole last block).
     */
    static final long BLOCK_SIZE_BYTES = 1L << 20;

    /**
     * How long a reader waits for a queue file's header to be complete. A live writer
     * completes it within microseconds of creating the file; a file whose header never
     * completes (random bytes, a forged header) is damaged, and Chronicle's default wait
     * (~23 s in all) would only delay saying so.
     */
    static final long READER_HEADER_TIMEOUT_MS = 1_000L;

    static SingleChronicleQueue open(Path dir, boolean readOnly) {
        System.setProperty("chronicle.analytics.disable", "true");
        ChronicleLimits.apply();
        SingleChronicleQueueBuilder b = SingleChronicleQueueBuilder.binary(dir)
                .rollCycle(ROLL_CYCLE)
                .timeProvider(PINNED_CLOCK)
                .blockSize(BLOCK_SIZE_BYTES)
                .readOnly(readOnly);
        if (readOnly) {
            b.timeoutMS(READER_HEADER_TIMEOUT_MS);
        }
        return b.build();
    }
}
