package dev.rmtemu.emulator.host;

import dev.rmtemu.model.UserError;

import java.io.IOException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * The file system a run writes to is full: a condition the user fixes (free space or choose
 * another {@code --out}), not an internal error. One line naming the file, exit
 * {@value #EXIT_CODE}; the run ends as an interrupted one does (report.json {@code complete:
 * false} with this reason, the journal's end marked aborted, temporary files removed).
 */
public final class DiskFull extends UserError {
    /** Exit code of a run that stopped because its file system was full (README: exit codes). */
    public static final int EXIT_CODE = 7;
    /** Words of the operating system (ENOSPC), also the reason in report.json. */
    public static final String NO_SPACE = "no space left on device";
    /**
     * Free space below which a fault in a memory-mapped write (the journal's) is taken to be a
     * full file system: the kernel raises SIGBUS when it cannot back a mapped page.
     */
    static final long MAPPED_FAULT_FREE_BYTES = 1L << 20;

    private final transient Path file;

    public DiskFull(Path file, Throwable cause) {
        super(file + ": " + NO_SPACE, EXIT_CODE, cause);
        this.file = file;
    }

    /** The file that could not be written. */
    public Path file() {
        return file;
    }

    /** Whether {@code e} (or a cause of it) is the operating system's "No space left on device". */
    public static boolean isNoSpace(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            String m = t instanceof FileSystemException f && f.getReason() != null ? f.getReason() : t.getMessage();
            if (m != null && m.toLowerCase(Locale.ROOT).contains(NO_SPACE)) {
                return true;
            }
            if (t.getCause() == t) {
                break;
            }
        }
        return false;
    }

    /**
     * Whether a fault while writing a memory-mapped file under {@code dir} ({@link InternalError}
     * "a fault occurred in an unsafe memory access") came from a full file system: its free space
     * is (nearly) gone.
     */
    public static boolean isMappedWriteOnFullDisk(Path dir, Throwable e) {
        if (!(e instanceof InternalError)) {
            return false;
        }
        try {
            return Files.getFileStore(dir).getUsableSpace() < MAPPED_FAULT_FREE_BYTES;
        } catch (IOException | RuntimeException io) {
            return false;
        }
    }
}
