package dev.rmtemu.emulator.rundir;

import dev.rmtemu.model.UserError;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * Checks an output directory a user names ({@code --out}) before anything is
 * written, and says in words why a file operation failed. Shared by every
 * command that writes a run directory or a trace store, so they refuse the same
 * paths with the same one-line messages.
 */
public final class OutputPaths {
    /** Longest file-name component most file systems take (Linux NAME_MAX, in bytes). */
    public static final int MAX_NAME_BYTES = 255;

    private OutputPaths() {
    }

    /**
     * {@code given} made absolute and normalised ({@code /x/a/../b} is {@code /x/b}, whether
     * or not {@code a} exists), after checking that it can be a directory we create or
     * reuse: not empty, no component too long, neither it nor its nearest existing
     * parent a file, and that parent writable. Nothing is created.
     */
    public static Path directory(String option, Path given) {
        if (given == null || given.toString().isEmpty()) {
            throw new UserError(option + " must not be empty");
        }
        Path p = given.toAbsolutePath().normalize();
        for (Path name : p) {
            if (name.toString().getBytes(StandardCharsets.UTF_8).length > MAX_NAME_BYTES) {
                throw refusal(option, p, "File name too long");
            }
        }
        Path existing = p;
        while (existing != null && !Files.exists(existing)) {
            existing = existing.getParent();
        }
        if (existing == null) {
            throw refusal(option, p, "no existing parent directory");
        }
        if (!Files.isDirectory(existing)) {
            throw refusal(option, p, (existing.equals(p) ? "" : existing + " ") + "exists and is not a directory");
        }
        if (!Files.isWritable(existing)) {
            throw refusal(option, p, (existing.equals(p) ? "" : existing + ": ") + "Permission denied");
        }
        return p;
    }

    /** Why {@code e} happened, in the words of the operating system ("Permission denied"), without the path again. */
    public static String cause(IOException e) {
        if (e instanceof FileAlreadyExistsException) {
            return "exists and is not a directory";
        }
        if (e instanceof AccessDeniedException) {
            return "Permission denied";
        }
        if (e instanceof NoSuchFileException) {
            return "No such file or directory";
        }
        if (e instanceof FileSystemException f && f.getReason() != null) {
            return f.getReason();
        }
        return e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
    }

    private static UserError refusal(String option, Path p, String why) {
        return new UserError(option + " " + p + ": " + why);
    }
}
