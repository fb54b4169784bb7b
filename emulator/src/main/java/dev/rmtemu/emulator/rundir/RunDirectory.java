package dev.rmtemu.emulator.rundir;

import java.nio.file.StandardOpenOption;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rmtemu.emulator.json.Json;
import dev.rmtemu.emulator.journal.ExportJournal;
import dev.rmtemu.emulator.journal.JournalKinds;
import dev.rmtemu.model.UserError;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * The run directory of one replay (single switch or network), and the one place that
 * touches it. Its contract:
 * <ul>
 *   <li>opened only after every input has been checked (the caller's job), it is locked for
 *       the run by {@value #LOCK} holding the writer's pid: a second run into it while the
 *       first is alive is refused, a lock whose pid is dead (kill -9) is taken over;</li>
 *   <li>report.json carries the manifest ({@value #FILES_KEY}) of the files the run wrote;
 *       the next run removes exactly those and nothing else; a non-empty directory that is
 *       not a run directory is refused unless forced;</li>
 *   <li>report.json exists from the start with {@code "complete": false} and the inputs and
 *       is replaced at the end; every file is written under a temporary name and renamed into
 *       place, so a reader never sees half a file and a symlink is replaced, not followed.</li>
 * </ul>
 * The manifest is written ahead: before outputs are written, report.json already lists them
 * ({@link #plan}), so a crash in between still leaves a directory the next run can clean.
 */
public final class RunDirectory implements AutoCloseable {
    public static final String REPORT = "report.json";
    public static final String LOCK = "run.lock";
    /** Subdirectory of the export journal (written by Chronicle Queue, removed as a whole). */
    public static final String JOURNAL = "journal";
    /** report.json key of the manifest: the files (and, ending in '/', whole directories) the run wrote. */
    public static final String FILES_KEY = "files";
    public static final String COMPLETE_KEY = "complete";
    public static final String INTERRUPTED_KEY = "interrupted_by";
    /** Prefix of the temporary name a file is written under before its rename. */
    static final String TEMP_PREFIX = ".rmtemu-tmp.";

    private static final ObjectMapper JSON = Json.mapper();

    /** Writes one output file at the given (temporary) path. */
    @FunctionalInterface
    public interface FileWriter {
        void write(Path file) throws IOException;
    }

    private final Path dir;
    private final Path lock;
    private final TreeSet<String> files = new TreeSet<>();
    private ObjectNode inputs;
    private boolean closed;

    private RunDirectory(Path dir) {
        this.dir = dir;
        this.lock = dir.resolve(LOCK);
    }

    /**
     * Takes {@code dir} for a new run: creates it, locks it, removes the previous run's files
     * (only those its manifest lists) and writes the first report.json ({@code complete:
     * false}, the inputs, the manifest so far). Refuses (exit 2, one line) a directory that is
     * in use by a live run, a non-empty directory that is not a run directory unless
     * {@code force}, and a {@code journal} entry the previous run did not write.
     */
    public static RunDirectory open(Path dir, boolean force, ObjectNode inputs) {
        if (dir.toString().isEmpty()) {
            // the empty path is the working directory: a run once landed in a module's source tree that way
            throw new UserError("run directory must not be empty (it would be the working directory)");
        }
        RunDirectory rd = new RunDirectory(dir);
        rd.inputs = inputs.deepCopy();
        if (Files.exists(dir, LinkOption.NOFOLLOW_LINKS) && !Files.isDirectory(dir)) {
            throw new UserError("run directory " + dir + ": exists and is not a directory");
        }
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UserError("cannot create run directory " + dir + ": " + OutputPaths.cause(e), e);
        }
        Optional<List<String>> previous = previousManifest(dir);
        if (previous.isEmpty() && !force && !isEmptyApartFromLock(dir)) {
            throw new UserError("run directory " + dir + ": not empty and not a run directory (no "
                    + REPORT + " with a '" + FILES_KEY + "' manifest); choose another --out or add --force");
        }
        rd.lock();
        try {
            rd.removePrevious(previous.orElse(List.of()));
            if (Files.exists(dir.resolve(JOURNAL), LinkOption.NOFOLLOW_LINKS)) {
                throw new UserError("run directory " + dir + ": '" + JOURNAL
                        + "' exists and was not written by a run; move it away (it is left as it is)");
            }
            rd.files.add(REPORT);
            rd.writeReport(rd.startReport());
        } catch (RuntimeException e) {
            rd.close();
            throw e;
        }
        return rd;
    }

    public Path path() {
        return dir;
    }

    /** Creates the run's export journal in {@value #JOURNAL}/ (listed in the manifest first). */
    public ExportJournal createJournal(JournalKinds kinds) {
        plan(List.of(JOURNAL + "/"));
        return ExportJournal.create(dir, kinds);
    }

    /**
     * Adds {@code names} (relative paths; a directory ends in '/') to the manifest and rewrites
     * the interim report.json, before any of them is written.
     */
    public void plan(List<String> names) {
        for (String n : names) {
            files.add(checkedName(n));
        }
        writeReport(startReport());
    }

    /** Writes {@code name} (planned or not) under a temporary name and renames it into place. */
    public void write(String name, FileWriter writer) {
        String n = checkedName(name);
        if (!files.contains(n)) {
            plan(List.of(n));
        }
        Path target = dir.resolve(n);
        Path temp = tempFor(target);
        try {
            Files.createDirectories(target.getParent());
            Files.deleteIfExists(temp);
            writer.write(temp);
            move(temp, target);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + target + ": " + e.getMessage(), e);
        }
    }

    public void writeString(String name, String content) {
        write(name, p -> Files.writeString(p, content, StandardCharsets.UTF_8));
    }

    /**
     * Replaces report.json by the final report: {@code complete}, {@code interrupted_by} (when
     * not null), the fields of {@code report} in their order, then the manifest.
     */
    public void finish(ObjectNode report, boolean complete, String interruptedBy) {
        ObjectNode root = JSON.createObjectNode();
        root.put(Json.SCHEMA_VERSION_KEY, Json.SCHEMA_VERSION);
        root.put(COMPLETE_KEY, complete);
        if (interruptedBy != null) {
            root.put(INTERRUPTED_KEY, interruptedBy);
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = report.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            root.set(e.getKey(), e.getValue());
        }
        putFiles(root);
        writeReport(root);
    }

    /** The manifest so far, sorted. */
    public List<String> files() {
        return List.copyOf(files);
    }

    /** Releases the lock (the files stay). Idempotent. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            Files.deleteIfExists(lock);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot remove the lock " + lock + ": " + e.getMessage(), e);
        }
    }

    /**
     * The pid in {@code runDir}'s lock, if there is a lock with a readable pid. The writer is
     * alive when {@link #isAlive(long)} says so.
     */
    public static Optional<Long> lockPid(Path runDir) {
        Path lock = runDir.resolve(LOCK);
        try {
            String text = Files.readString(lock, StandardCharsets.US_ASCII).trim();
            return Optional.of(Long.parseLong(text));
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (IOException | NumberFormatException e) {
            // a lock being written this instant, or damaged: no pid to go by
            return Optional.empty();
        }
    }

    public static boolean isAlive(long pid) {
        return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
    }

    private ObjectNode startReport() {
        ObjectNode root = JSON.createObjectNode();
        root.put(Json.SCHEMA_VERSION_KEY, Json.SCHEMA_VERSION);
        root.put(COMPLETE_KEY, false);
        root.set("inputs", inputs);
        putFiles(root);
        return root;
    }

    private void putFiles(ObjectNode root) {
        ArrayNode a = root.putArray(FILES_KEY);
        files.forEach(a::add);
    }

    private void writeReport(ObjectNode report) {
        try {
            String text = JSON.writeValueAsString(report) + "\n";
            Path target = dir.resolve(REPORT);
            Path temp = tempFor(target);
            Files.deleteIfExists(temp);
            Files.writeString(temp, text, StandardCharsets.UTF_8);
            move(temp, target);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + dir.resolve(REPORT) + ": " + e.getMessage(), e);
        }
    }

    private void lock() {
        String self = Long.toString(ProcessHandle.current().pid());
        // Two attempts: the second after removing a lock whose writer is dead.
        for (int attempt = 0; attempt < 2; attempt++) {
            try {
                createLock(self);
                return;
            } catch (FileAlreadyExistsException e) {
                Optional<Long> pid = lockPid(dir);
                if (pid.isPresent() && isAlive(pid.get())) {
                    throw new UserError("run directory " + dir + ": in use by a running rmtemu process (pid " + pid.get()
                            + ", " + lock + ")");
                }
                try {
                    Files.deleteIfExists(lock);
                } catch (IOException io) {
                    throw new UserError("run directory " + dir + ": cannot remove the stale lock " + lock + ": "
                            + io.getMessage(), io);
                }
            } catch (UnsupportedOperationException | IOException e) {
                throw new UserError("run directory " + dir + ": cannot create the lock " + lock + ": " + e.getMessage(), e);
            }
        }
        throw new UserError("run directory " + dir + ": another replay took the lock " + lock + " at the same time");
    }

    /**
     * Creates the lock holding {@code pid}, atomically: a hard link to a file that already holds
     * the pid, so no reader ever sees an empty lock; where the file system has no hard links, a
     * file created exclusively.
     */
    private void createLock(String pid) throws IOException {
        Path temp = dir.resolve(TEMP_PREFIX + pid + "." + LOCK);
        Files.writeString(temp, pid + "\n", StandardCharsets.US_ASCII);
        try {
            Files.createLink(lock, temp);
        } catch (UnsupportedOperationException e) {
            Files.writeString(lock, pid + "\n", StandardCharsets.US_ASCII, StandardOpenOption.CREATE_NEW,
                    StandardOpenOption.WRITE);
        } finally {
            Files.deleteIfExists(temp);
        }
    }

    /** The manifest of the run that last wrote {@code dir}, if it is a run directory. */
    private static Optional<List<String>> previousManifest(Path dir) {
        Path report = dir.resolve(REPORT);
        if (!Files.isRegularFile(report, LinkOption.NOFOLLOW_LINKS)) {
            return Optional.empty();
        }
        try {
            JsonNode root = JSON.readTree(report.toFile());
            JsonNode list = root == null ? null : root.get(FILES_KEY);
            if (list == null || !list.isArray()) {
                return Optional.empty();
            }
            TreeSet<String> names = new TreeSet<>();
            for (JsonNode n : list) {
                if (!n.isTextual()) {
                    return Optional.empty();
                }
                names.add(checkedName(n.asText()));
            }
            return Optional.of(List.copyOf(names));
        } catch (IOException | UserError e) {
            // not a report.json this program wrote: the directory is not a run directory
            return Optional.empty();
        }
    }

    private static boolean isEmptyApartFromLock(Path dir) {
        try (Stream<Path> s = Files.list(dir)) {
            return s.allMatch(p -> p.getFileName().toString().equals(LOCK));
        } catch (IOException e) {
            throw new UserError("run directory " + dir + ": cannot list it: " + e.getMessage(), e);
        }
    }

    /** Removes each listed file (and its temporary name), each listed directory as a whole, then emptied parents. */
    private void removePrevious(List<String> previous) {
        TreeSet<Path> parents = new TreeSet<>(Comparator.reverseOrder());
        for (String name : previous) {
            Path p = dir.resolve(name);
            try {
                if (name.endsWith("/")) {
                    deleteTree(p);
                } else {
                    Files.deleteIfExists(p);
                    Files.deleteIfExists(tempFor(p));
                }
                for (Path q = p.getParent(); q != null && !q.equals(dir); q = q.getParent()) {
                    parents.add(q);
                }
            } catch (IOException e) {
                throw new UserError("run directory " + dir + ": cannot remove the previous run's " + name + ": "
                        + e.getMessage(), e);
            }
        }
        for (Path q : parents) {
            try {
                Files.deleteIfExists(q);
            } catch (DirectoryNotEmptyException e) {
                // holds a user's file: it stays
            } catch (IOException e) {
                throw new UserError("run directory " + dir + ": cannot remove " + q + ": " + e.getMessage(), e);
            }
        }
    }

    private static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        if (!Files.isDirectory(root, LinkOption.NOFOLLOW_LINKS)) {
            Files.delete(root);
            return;
        }
        try (Stream<Path> walk = Files.walk(root)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }

    /** A manifest name: relative, inside the directory, no '..' and no empty parts. */
    private static String checkedName(String name) {
        String body = name.endsWith("/") ? name.substring(0, name.length() - 1) : name;
        if (body.isEmpty() || body.startsWith("/") || body.contains("\\")) {
            throw new UserError("run directory manifest: '" + name + "' is not a relative path");
        }
        for (String part : body.split("/", -1)) {
            if (part.isEmpty() || part.equals(".") || part.equals("..")) {
                throw new UserError("run directory manifest: '" + name + "' leaves the run directory");
            }
        }
        return name;
    }

    private static Path tempFor(Path target) {
        return target.resolveSibling(TEMP_PREFIX + target.getFileName());
    }

    /** Renames over {@code target}: a symlink there is replaced, not followed. */
    private static void move(Path temp, Path target) throws IOException {
        try {
            Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(temp, target, StandardCopyOption.REPLACE_EXISTING);
        }
    }
}
