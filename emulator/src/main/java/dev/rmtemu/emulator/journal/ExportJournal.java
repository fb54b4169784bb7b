package dev.rmtemu.emulator.journal;

import dev.rmtemu.emulator.host.DiskFull;
import dev.rmtemu.model.UserError;
import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.wire.DocumentContext;
import org.agrona.DirectBuffer;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import java.nio.file.FileStore;

/**
 * The export journal of a run: what the data plane sends to collectors (LossRadar
 * digests, WBMon drop counters, LDS sketches, MIDST reports), in emission order, in a
 * Chronicle Queue under {@code RUN_DIR/journal/}. Collectors read it with
 * {@link JournalReader}, in this process or another ({@code rmtemu collect}).
 *
 * <p>Owned by the engine thread: create, append and close it on that thread (Chronicle
 * appenders are bound to one thread). {@link #append} allocates nothing.
 * The journal starts with a header message carrying the kind registry and ends, on
 * {@link #close()}, with an end message carrying the number of messages appended
 * ({@link #closeAborted()}: also marked aborted), and is then sealed by its manifest
 * ({@link JournalManifest}: message count, end state, every queue file's size and CRC32C).
 */
public final class ExportJournal implements AutoCloseable {

    private final Path directory;
    private final JournalKinds kinds;
    private final SingleChronicleQueue queue;
    private final ExcerptAppender appender;
    private long messages;
    private long lastCycle;
    private boolean closed;
    private Runnable onDiskFull;
    private long bytesSinceSpaceCheck;
    private FileStore store;

    private ExportJournal(Path directory, JournalKinds kinds) {
        this.directory = directory;
        this.kinds = kinds;
        this.queue = JournalFormat.open(directory, false);
        this.appender = queue.createAppender();
        writeHeader();
    }

    /**
     * Creates the journal in {@code runDir/journal/} with the given kinds (copied: later
     * registrations do not reach this journal). Refuses a directory that already holds a
     * queue, since appending to an old run's journal would mix two runs.
     */
    public static ExportJournal create(Path runDir, JournalKinds kinds) {
        return createIn(runDir.resolve(JournalFormat.RUN_DIR_SUBDIRECTORY), kinds);
    }

    /** Creates the journal directly in {@code journalDir} (see {@link #create}). */
    public static ExportJournal createIn(Path journalDir, JournalKinds kinds) {
        if (Files.exists(journalDir)) {
            if (!Files.isDirectory(journalDir)) {
                throw new UserError("export journal " + journalDir + ": exists and is not a directory");
            }
            if (holdsQueueFiles(journalDir)) {
                throw new UserError("export journal " + journalDir
                        + ": already holds a journal; use a fresh run directory");
            }
        }
        try {
            Files.createDirectories(journalDir);
        } catch (IOException e) {
            throw new UserError("export journal " + journalDir + ": cannot create directory: " + e.getMessage(), e);
        }
        return new ExportJournal(journalDir, kinds.copy());
    }

    /**
     * Appends one message: {@code length} payload bytes from {@code payload} at
     * {@code offset}, stamped with the emulated cycle, switch and pipe that emitted it.
     * {@code kind} must be a registered, non-reserved kind id.
     */
    public void append(int kind, long cycle, int switchId, int pipe, DirectBuffer payload, int offset, int length) {
        if (closed) {
            throw new IllegalStateException("export journal " + directory + " is closed");
        }
        if (!kinds.isUserKind(kind)) {
            throw new IllegalArgumentException("export journal: kind id " + kind + " is not a registered message kind");
        }
        if (length < 0 || offset < 0 || offset > payload.capacity() - length) {
            throw new IndexOutOfBoundsException("export journal: payload [" + offset + ", +" + length
                    + ") outside a buffer of " + payload.capacity() + " bytes");
        }
        bytesSinceSpaceCheck += JournalFormat.HEADER_BYTES + length;
        if (bytesSinceSpaceCheck >= SPACE_CHECK_BYTES) {
            bytesSinceSpaceCheck = 0;
            checkSpace();
        }
        long before = appender.lastIndexAppended();
        try {
            write(kind, cycle, switchId, pipe, payload, offset, length);
        } catch (InternalError e) {
            // the fault surfaces at the JVM's next check, possibly after the message was committed:
            // readers will see it then, so the end message must count it
            if (appender.lastIndexAppended() != before) {
                messages++;
                lastCycle = cycle;
            }
            throw mappedWriteFailure(e);
        }
        messages++;
        lastCycle = cycle;
    }

    /**
     * Runs {@code freeSpace} when a write finds the file system full, before the failure is
     * thrown: the run directory frees its reserve there, so the end message (marked aborted)
     * and the final report still fit.
     */
    public void onDiskFull(Runnable freeSpace) {
        this.onDiskFull = freeSpace;
    }

    /**
     * What a fault in a memory-mapped write of this journal ({@link InternalError}, raised where
     * the kernel could not back a page) is: {@link DiskFull} when the file system has no space
     * left (after running the {@link #onDiskFull} hook), else the fault itself.
     */
    public RuntimeException mappedWriteFailure(InternalError e) {
        if (!DiskFull.isMappedWriteOnFullDisk(directory, e)) {
            throw e;
        }
        Runnable free = onDiskFull;
        onDiskFull = null;
        if (free != null) {
            free.run();
        }
        return new DiskFull(directory, e);
    }

    /**
     * Bytes appended between two looks at the file system's free space: a {@code statfs} per
     * MiB of messages, nothing per message.
     */
    static final long SPACE_CHECK_BYTES = 1L << 20;
    /**
     * Free space below which the journal stops taking messages ({@link DiskFull}): well above
     * what is appended between two checks, so a mapped write never meets a full file system
     * (where the kernel raises SIGBUS and the message in flight is lost), and the end message
     * still fits.
     */
    static final long SPACE_HEADROOM_BYTES = 4 * SPACE_CHECK_BYTES;

    private void checkSpace() {
        long free;
        try {
            if (store == null) {
                store = Files.getFileStore(directory);
            }
            free = store.getUsableSpace();
        } catch (IOException e) {
            return; // no answer: the mapped-write fault stays the last line of defence
        }
        if (free < SPACE_HEADROOM_BYTES) {
            Runnable hook = onDiskFull;
            onDiskFull = null;
            if (hook != null) {
                hook.run();
            }
            throw new DiskFull(directory, null);
        }
    }

    /** Messages appended so far (header and end not counted). */
    public long messagesAppended() {
        return messages;
    }

    /** The kinds this journal was created with. */
    public JournalKinds kinds() {
        return kinds;
    }

    public Path directory() {
        return directory;
    }

    /**
     * Appends the end message (cycle = the last appended message's cycle; see {@link #close(long)}) and closes the
     * queue. Idempotent. Engine thread only.
     */
    @Override
    public void close() {
        end(false, lastCycle);
    }

    /**
     * As {@link #close()}, the end message at {@code runEndCycle} (the run's last event) when that is
     * later than the last message: a run that exported nothing still ended at its last event, not at 0.
     */
    public void close(long runEndCycle) {
        end(false, Math.max(lastCycle, runEndCycle));
    }

    /**
     * As {@link #close()}, the end message marked aborted: the run stopped before its end
     * (SIGINT/SIGTERM), so the journal holds what was sent up to then and no more.
     */
    public void closeAborted() {
        end(true, lastCycle);
    }

    /** As {@link #closeAborted()}, at {@code runEndCycle} when that is later than the last message. */
    public void closeAborted(long runEndCycle) {
        end(true, Math.max(lastCycle, runEndCycle));
    }

    private void end(boolean aborted, long endCycle) {
        if (closed) {
            return;
        }
        closed = true;
        try (DocumentContext dc = appender.writingDocument()) {
            try {
                Bytes<?> b = dc.wire().bytes();
                int length = aborted ? 2 * Long.BYTES : Long.BYTES;
                writeMessageHeader(b, JournalKinds.END, endCycle, JournalFormat.NO_SWITCH, JournalFormat.NO_PIPE, length);
                b.writeLong(messages);
                if (aborted) {
                    b.writeLong(JournalFormat.END_ABORTED);
                }
            } catch (RuntimeException | InternalError e) {
                dc.rollbackOnClose();
                throw e;
            }
        } catch (RuntimeException | InternalError e) {
            if (!aborted) {
                throw e instanceof InternalError ie ? mappedWriteFailure(ie) : (RuntimeException) e;
            }
            // ending a failed run: the failure that aborted it is the one to report; without an
            // end message a reader says the run did not finish, which is true
        } finally {
            appender.close();
            queue.close();
        }
        // sealed only once everything is on disk: a journal without its manifest did not finish
        try {
            JournalManifest.write(directory, messages, aborted);
        } catch (UserError e) {
            if (!aborted) {
                throw e;
            }
            // a stopped or failing run: its own reason is the one to report; unsealed, collect says it did not finish
        }
    }

    private void writeHeader() {
        try (DocumentContext dc = appender.writingDocument()) {
            Bytes<?> b = dc.wire().bytes();
            int payloadLength = 3 * Integer.BYTES;
            for (int id = 0; id < kinds.size(); id++) {
                payloadLength += 2 * Integer.BYTES + kinds.name(id).length();
            }
            writeMessageHeader(b, JournalKinds.HEADER, 0L, JournalFormat.NO_SWITCH, JournalFormat.NO_PIPE, payloadLength);
            b.writeInt(JournalFormat.MAGIC);
            b.writeInt(JournalFormat.VERSION);
            b.writeInt(kinds.size());
            for (int id = 0; id < kinds.size(); id++) {
                byte[] name = kinds.name(id).getBytes(StandardCharsets.US_ASCII);
                b.writeInt(id);
                b.writeInt(name.length);
                b.write(name);
            }
        }
    }

    private void write(int kind, long cycle, int switchId, int pipe, DirectBuffer payload, int offset, int length) {
        try (DocumentContext dc = appender.writingDocument()) {
            try {
                Bytes<?> b = dc.wire().bytes();
                writeMessageHeader(b, kind, cycle, switchId, pipe, length);
                // Eight bytes at a time: no temporary array, works for heap and off-heap buffers.
                final int longs = length & ~(Long.BYTES - 1);
                int i = 0;
                for (; i < longs; i += Long.BYTES) {
                    b.writeLong(payload.getLong(offset + i));
                }
                for (; i < length; i++) {
                    b.writeByte(payload.getByte(offset + i));
                }
            } catch (RuntimeException | InternalError e) {
                // a message cut short (a full disk faults a mapped write) is not left for readers
                dc.rollbackOnClose();
                throw e;
            }
        }
    }

    private static void writeMessageHeader(Bytes<?> b, int kind, long cycle, int switchId, int pipe, int length) {
        b.writeInt(kind);
        b.writeLong(cycle);
        b.writeInt(switchId);
        b.writeInt(pipe);
        b.writeInt(length);
    }

    static boolean holdsQueueFiles(Path dir) {
        try (Stream<Path> files = Files.list(dir)) {
            return files.anyMatch(p -> p.getFileName().toString().endsWith(JournalFormat.QUEUE_FILE_SUFFIX));
        } catch (IOException e) {
            throw new UserError("export journal " + dir + ": cannot list directory: " + e.getMessage(), e);
        }
    }
}
