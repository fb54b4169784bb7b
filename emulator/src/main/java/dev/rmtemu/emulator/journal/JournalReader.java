package dev.rmtemu.emulator.journal;

import dev.rmtemu.model.UserError;
import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.wire.DocumentContext;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.UnsafeBuffer;

import dev.rmtemu.emulator.host.HostClock;

import java.nio.charset.StandardCharsets;
import java.util.function.BooleanSupplier;
import java.nio.file.Files;
import java.nio.file.Path;
import dev.rmtemu.model.text.Printable;
import java.io.IOException;

/**
 * The collector side of an export journal: reads messages in journal order, in this
 * process or another, while the run is still writing or after it ended.
 *
 * <p>{@link #poll} hands what is there now; {@link #tail} waits for new messages until the
 * end message. The header message is consumed internally (it fills {@link #kinds()}); the
 * end message sets {@link #isEnded()}. Neither reaches the handler. One thread per reader.
 */
public final class JournalReader implements AutoCloseable {

    /** Messages per {@link #poll} call inside {@link #tail}. */
    static final int TAIL_BATCH = 1024;

    /**
     * Longest wait between looks at a live journal in {@link #tail}: a collector in another
     * process notices a new message within 1 ms without burning a core while the run is quiet.
     */
    static final long TAIL_MAX_PARK_NS = 1_000_000L;

    /**
     * Exit code of a journal without a (normal) end message or without its manifest: the run
     * did not finish, or not yet.
     */
    public static final int DID_NOT_FINISH_EXIT = 6;

    /** File name of a closed journal's manifest (its seal), beside the queue files. */
    public static final String MANIFEST = JournalManifest.FILE;

    private final Path directory;
    /** The verified seal of a closed journal; null while the run writes, or when it did not finish. */
    private final JournalManifest manifest;
    private final SingleChronicleQueue queue;
    private final ExcerptTailer tailer;
    private final UnsafeBuffer payloadView = new UnsafeBuffer(0, 0);
    private JournalKinds kinds;
    // The message being read (fields, so reading allocates nothing).
    private int kind;
    private long cycle;
    private int switchId;
    private int pipe;
    private int length;
    private long messagesRead;
    /** Size of the queue file last looked up: every message read must end within it. */
    private long queueFileBytes;
    private long endCycle = -1;
    private boolean ended;
    private boolean aborted;

    private JournalReader(Path directory) {
        this.directory = directory;
        JournalManifest seal = null;
        try {
            if (JournalManifest.present(directory)) {
                seal = JournalManifest.read(directory);
                seal.verify(directory);
            } else {
                JournalManifest.checkUnsealed(directory);
            }
        } catch (JournalManifest.JournalDamage d) {
            throw damaged(d.getMessage(), null);
        }
        this.manifest = seal;
        SingleChronicleQueue q = null;
        ExcerptTailer t;
        try {
            q = JournalFormat.open(directory, true);
            t = q.createTailer().toStart();
        } catch (Exception | InternalError e) {
            if (q != null) {
                closeQuietly(q);
            }
            throw chronicleFailure(e);
        }
        this.queue = q;
        this.tailer = t;
    }

    /**
     * A journal that Chronicle Queue cannot read: it throws undeclared checked exceptions
     * (StreamCorruptedException), IORuntimeException and friends on forged headers, and a
     * queue file shorter than its mapping faults on access as an {@link InternalError}.
     * All of them are a damaged input, not a bug.
     */
    private UserError chronicleFailure(Throwable e) {
        String detail = e.getMessage() == null ? "" : ": " + Printable.escape(e.getMessage(), 100);
        return damaged("Chronicle Queue cannot read it (" + e.getClass().getSimpleName() + detail + ")", e);
    }

    /**
     * One line naming the journal and what is wrong; exit 2 for a sealed journal (the run
     * finished, so its files were checked), {@value #DID_NOT_FINISH_EXIT} for one without its
     * manifest (the run did not finish, or is still writing).
     */
    private UserError damaged(String what, Throwable cause) {
        if (JournalManifest.present(directory)) {
            return new UserError("journal " + directory + ": damaged export journal: " + what, UserError.BAD_INPUT, cause);
        }
        return new UserError("journal " + directory + ": damaged export journal of a run that did not finish (no "
                + JournalManifest.FILE + "): " + what, DID_NOT_FINISH_EXIT, cause);
    }

    private static void closeQuietly(SingleChronicleQueue q) {
        try {
            q.close();
        } catch (Exception | InternalError ignored) {
            // already reporting why the queue is unreadable
        }
    }

    /**
     * Opens the journal in {@code dir}, or in {@code dir/journal} when {@code dir} is a run
     * directory. Throws {@link UserError} when there is no such directory or it holds no
     * journal.
     */
    public static JournalReader open(Path dir) {
        if (!Files.exists(dir)) {
            throw new UserError("journal " + dir + ": no such directory");
        }
        if (!Files.isDirectory(dir)) {
            throw new UserError("journal " + dir + ": not a directory");
        }
        Path journalDir = dir;
        if (!ExportJournal.holdsQueueFiles(dir)) {
            Path inRun = dir.resolve(JournalFormat.RUN_DIR_SUBDIRECTORY);
            if (Files.isDirectory(inRun) && ExportJournal.holdsQueueFiles(inRun)) {
                journalDir = inRun;
            } else {
                throw new UserError("journal " + dir + ": not an export journal (no "
                        + JournalFormat.QUEUE_FILE_SUFFIX + " queue files)");
            }
        }
        return new JournalReader(journalDir);
    }

    /**
     * Hands up to {@code limit} messages now in the journal to {@code handler}, in order,
     * and returns how many it handed (0: nothing new yet, or the journal has ended).
     */
    public int poll(JournalHandler handler, int limit) {
        try {
            return pollChecked(handler, limit);
        } catch (HandlerFailure e) {
            throw e.failure;
        } catch (UserError e) {
            throw e;
        } catch (Exception | InternalError e) {
            throw chronicleFailure(e);
        }
    }

    /** Carries a handler's own exception past the mapping of Chronicle's failures in {@link #poll}. */
    private static final class HandlerFailure extends RuntimeException {
        final RuntimeException failure;

        HandlerFailure(RuntimeException failure) {
            super(null, null, false, false);
            this.failure = failure;
        }
    }

    private int pollChecked(JournalHandler handler, int limit) {
        int delivered = 0;
        if (kinds == null && !readHeaderIfPresent()) {
            return 0;
        }
        while (delivered < limit && !ended) {
            try (DocumentContext dc = tailer.readingDocument()) {
                if (!dc.isPresent()) {
                    break;
                }
                Bytes<?> b = dc.wire().bytes();
                checkWithinFile(b);
                readMessageHeader(b);
                if (kind == JournalKinds.END) {
                    readEnd(b);
                    break;
                }
                if (!kinds.isUserKind(kind)) {
                    throw notAJournal("message " + (messagesRead + 1) + " has unregistered kind id " + kind);
                }
                payloadView.wrap(b.addressForRead(b.readPosition()), length);
                messagesRead++;
                delivered++;
                try {
                    handler.onMessage(kind, cycle, switchId, pipe, payloadView, 0, length);
                } catch (RuntimeException e) {
                    throw new HandlerFailure(e);
                }
            }
        }
        return delivered;
    }

    /**
     * Hands every message to {@code handler}, waiting (backoff idle) for new ones while the
     * run is still writing, and returns at the end message with the number of messages.
     */
    public long tail(JournalHandler handler) {
        return tail(handler, () -> true, Long.MAX_VALUE);
    }

    /**
     * As {@link #tail(JournalHandler)}, but also returns (without the end message) once the
     * writer is gone: while nothing new arrives, {@code writerAlive} is asked at most every
     * {@code checkEveryNs} of host time, and when it says no, a last look takes whatever the
     * writer wrote before it went.
     */
    public long tail(JournalHandler handler, BooleanSupplier writerAlive, long checkEveryNs) {
        IdleStrategy idle = new BackoffIdleStrategy(
                BackoffIdleStrategy.DEFAULT_MAX_SPINS, BackoffIdleStrategy.DEFAULT_MAX_YIELDS,
                BackoffIdleStrategy.DEFAULT_MIN_PARK_PERIOD_NS, TAIL_MAX_PARK_NS);
        long lastCheck = HostClock.nanos();
        while (!ended) {
            int n = poll(handler, TAIL_BATCH);
            if (n == 0 && HostClock.nanos() - lastCheck >= checkEveryNs) {
                lastCheck = HostClock.nanos();
                if (!writerAlive.getAsBoolean()) {
                    while (!ended && poll(handler, TAIL_BATCH) > 0) {
                        // what the writer appended before it went
                    }
                    break;
                }
            }
            idle.idle(n);
        }
        return messagesRead;
    }

    /** The kind registry from the journal's header; null until the header has been read. */
    public JournalKinds kinds() {
        return kinds;
    }

    /**
     * Reads the header message now if it has not been read yet; returns false if the
     * journal holds no message yet (a run that has only just created it).
     */
    public boolean readHeaderIfPresent() {
        if (kinds != null) {
            return true;
        }
        try {
            return readHeaderChecked();
        } catch (UserError e) {
            throw e;
        } catch (Exception | InternalError e) {
            throw chronicleFailure(e);
        }
    }

    private boolean readHeaderChecked() {
        try (DocumentContext dc = tailer.readingDocument()) {
            if (!dc.isPresent()) {
                return false;
            }
            Bytes<?> b = dc.wire().bytes();
            checkWithinFile(b);
            readMessageHeader(b);
            readHeader(b);
        }
        return true;
    }

    /** True once the end message has been read. */
    public boolean isEnded() {
        return ended;
    }

    /** True once an end message marked aborted has been read: the run was stopped early. */
    public boolean isAborted() {
        return aborted;
    }

    /** Messages handed to handlers so far (header and end not counted). */
    public long messagesRead() {
        return messagesRead;
    }

    /** Cycle stamped on the end message (the run's last message's cycle); -1 before the end. */
    public long endCycle() {
        return endCycle;
    }

    public Path directory() {
        return directory;
    }

    /** Whether the journal's manifest is there now (a run still writing when this reader opened may have sealed it since). */
    public boolean isSealedNow() {
        return JournalManifest.present(directory);
    }

    /** Whether the journal was sealed by its manifest when opened (its run finished and closed it). */
    public boolean isSealed() {
        return manifest != null;
    }

    @Override
    public void close() {
        try {
            tailer.close();
            queue.close();
        } catch (Exception | InternalError e) {
            throw chronicleFailure(e);
        }
    }

    /**
     * Refuses a message whose end lies past the end of the queue file. The document's bytes
     * are a window on the memory-mapped file (positions are file offsets); a forged length
     * would let a read run past the file's end, which faults (SIGBUS) instead of failing.
     * The size is looked up again only when a message ends past the last size seen (a live
     * journal grows).
     */
    private void checkWithinFile(Bytes<?> b) {
        long end = b.readLimit();
        if (end <= queueFileBytes) {
            return;
        }
        queueFileBytes = largestCycleFile(directory);
        if (end > queueFileBytes) {
            throw notAJournal("message " + (messagesRead + 1) + " ends at byte " + end + ", past the end of its queue file ("
                    + queueFileBytes + " bytes)");
        }
    }

    /** Bytes of the largest cycle file (the journal's pinned clock gives it one). */
    private static long largestCycleFile(Path dir) {
        long max = 0;
        try (var s = Files.list(dir)) {
            for (Path p : s.toList()) {
                if (p.getFileName().toString().endsWith(JournalFormat.QUEUE_FILE_SUFFIX)) {
                    max = Math.max(max, Files.size(p));
                }
            }
        } catch (IOException e) {
            throw new UserError("journal " + dir + ": cannot list it: " + e.getMessage(), e);
        }
        return max;
    }

    /** Reads the fixed message header into the current-message fields. */
    private void readMessageHeader(Bytes<?> b) {
        if (b.readRemaining() < JournalFormat.HEADER_BYTES) {
            throw notAJournal("message of " + b.readRemaining() + " bytes is shorter than the "
                    + JournalFormat.HEADER_BYTES + "-byte message header");
        }
        kind = b.readInt();
        cycle = b.readLong();
        switchId = b.readInt();
        pipe = b.readInt();
        length = b.readInt();
        if (length < 0 || length != b.readRemaining()) {
            throw notAJournal("message " + (messagesRead + 1) + " says " + length
                    + " payload bytes but holds " + b.readRemaining());
        }
    }

    private void readHeader(Bytes<?> b) {
        if (kind != JournalKinds.HEADER || length < 3 * Integer.BYTES) {
            throw notAJournal("first message is not a journal header");
        }
        int magic = b.readInt();
        int version = b.readInt();
        if (magic != JournalFormat.MAGIC) {
            throw notAJournal("first message does not carry the journal magic number");
        }
        if (version != JournalFormat.VERSION) {
            throw notAJournal("journal format version " + version + ", this rmtemu reads version " + JournalFormat.VERSION);
        }
        int count = b.readInt();
        if (count < JournalKinds.FIRST_USER_KIND) {
            throw notAJournal("header lists " + count + " kinds");
        }
        JournalKinds k = new JournalKinds();
        for (int i = 0; i < count; i++) {
            if (b.readRemaining() < 2 * Integer.BYTES) {
                throw notAJournal("header truncated at kind " + i);
            }
            int id = b.readInt();
            int nameLength = b.readInt();
            if (id != i || nameLength <= 0 || nameLength > JournalKinds.MAX_NAME_LENGTH || nameLength > b.readRemaining()) {
                throw notAJournal("header entry " + i + " is malformed");
            }
            byte[] name = new byte[nameLength];
            b.read(name);
            String s = new String(name, StandardCharsets.US_ASCII);
            if (i < JournalKinds.FIRST_USER_KIND) {
                if (!s.equals(k.name(i))) {
                    throw notAJournal("header entry " + i + " is '" + s + "', expected '" + k.name(i) + "'");
                }
            } else {
                try {
                    k.register(s);
                } catch (IllegalArgumentException e) {
                    throw notAJournal("header entry " + i + ": " + e.getMessage());
                }
            }
        }
        kinds = k;
    }

    private void readEnd(Bytes<?> b) {
        long bytes = b.readRemaining();
        if (bytes != Long.BYTES && bytes != 2 * Long.BYTES) {
            throw notAJournal("end message has " + bytes + " payload bytes, expected " + Long.BYTES
                    + " or " + 2 * Long.BYTES);
        }
        long written = b.readLong();
        if (bytes == 2 * Long.BYTES) {
            long status = b.readLong();
            if (status != JournalFormat.END_ABORTED) {
                throw notAJournal("end message has status " + status + ", expected " + JournalFormat.END_ABORTED);
            }
            aborted = true;
        }
        if (written != messagesRead) {
            throw notAJournal("end message counts " + written + " messages but " + messagesRead + " were read");
        }
        if (manifest != null && (manifest.messages() != written || manifest.aborted() != aborted)) {
            throw notAJournal("end message (" + written + " messages" + (aborted ? ", aborted" : "") + ") disagrees with "
                    + JournalManifest.FILE + " (" + manifest.messages() + " messages" + (manifest.aborted() ? ", aborted" : "")
                    + ")");
        }
        endCycle = cycle;
        ended = true;
    }

    private UserError notAJournal(String what) {
        return damaged(what, null);
    }
}
