package dev.rmtemu.emulator.rundir;

import java.nio.file.StandardOpenOption;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rmtemu.emulator.host.DiskFull;
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
        // the lock first: a simultaneous start sees the winner's lock (and its pid), never its
        // half-written report.json as "a directory that is not a run directory"
        rd.lock();
        try {
            Optional<List<String>> previous = previousManifest(dir);
            if (previous.isEmpty() && !force && !isEmptyApartFromLock(dir)) {
                throw new UserError("run directory " + dir + ": not empty and not a run directory (no "
                        + REPORT + " with a '" + FILES_KEY + "' manifest); choose another --out or add --force");
            }
            for (String name : previous.orElse(List.of())) {
                rd.refuseLinkedParent(name);
            }
            rd.removePrevious(previous.orElse(List.of()));
            if (Files.exists(dir.resolve(JOURNAL), LinkOption.NOFOLLOW_LINKS)) {
                throw new UserError("run directory " + dir + ": '" + JOURNAL
                        + "' exists and was not written by a run; move it away (it is left as it is)");
            }
            rd.files.add(REPORT);
            rd.writeReport(rd.startReport());
            rd.takeReserve();
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
        ExportJournal journal = ExportJournal.create(dir, kinds);
        journal.onDiskFull(this::releaseReserve);
        return journal;
    }

    /**
     * Ends a run its file system stopped: frees the reserve, removes the temporary files of
     * the outputs, and rewrites report.json with {@code complete: false} and the failure as
     * {@value #INTERRUPTED_KEY}. Best effort: when even that finds no space, the report.json
     * written at the start (also {@code complete: false}) stays.
     */
    public void failed(DiskFull e) {
        releaseReserve();
        for (String name : files) {
            deleteQuietly(tempFor(dir.resolve(name.endsWith("/") ? name.substring(0, name.length() - 1) : name)));
        }
        ObjectNode report = startReport();
        report.put(INTERRUPTED_KEY, e.getMessage());
        try {
            writeReport(report);
        } catch (RuntimeException again) {
            // nothing more can be written; the first report.json says complete: false
        }
    }

    /**
     * Bytes the run keeps in {@value #RESERVE} while it runs, freed when the file system fills
     * up so that the journal's end (marked aborted) and report.json ({@code complete: false})
     * can still be written.
     */
    static final int RESERVE_BYTES = 256 * 1024;
    /** The reserve's name: a temporary name, removed when the run ends and by the next run after kill -9. */
    static final String RESERVE = TEMP_PREFIX + "space-reserve";

    private void takeReserve() {
        Path reserve = dir.resolve(RESERVE);
        try {
            Files.deleteIfExists(reserve);
            Files.write(reserve, new byte[RESERVE_BYTES]); // written, not sparse: the blocks are really taken
        } catch (IOException e) {
            deleteQuietly(reserve);
            throw writeFailure(reserve, e);
        }
    }

    private void releaseReserve() {
        deleteQuietly(dir.resolve(RESERVE));
    }

    /**
     * Adds {@code names} (relative paths; a directory ends in '/') to the manifest and rewrites
     * the interim report.json, before any of them is written. Synchronized: a network's switches
     * open their capture files from their worker threads.
     */
    public synchronized void plan(List<String> names) {
        for (String n : names) {
            refuseLinkedParent(checkedName(n));
        }
        for (String n : names) {
            files.add(n);
        }
        writeReport(startReport());
    }

    /** Writes {@code name} (planned or not) under a temporary name and renames it into place. */
    public void write(String name, FileWriter writer) {
        String n = checkedName(name);
        if (!files.contains(n)) {
            plan(List.of(n));
        }
        refuseLinkedParent(n);
        Path target = dir.resolve(n);
        Path temp = tempFor(target);
        try {
            createParents(n);
            Files.deleteIfExists(temp);
            writer.write(temp);
            move(temp, target);
        } catch (IOException e) {
            deleteQuietly(temp);
            throw writeFailure(target, e);
        }
    }

    /**
     * Starts {@code name} as a file written during the run (a capture): plans it, creates its
     * parents and returns its temporary path; {@link #commit} renames it into place. Until
     * then it is the same temporary file {@link #failed} and the next run remove.
     */
    public synchronized Path openStream(String name) {
        String n = checkedName(name);
        if (!files.contains(n)) {
            plan(List.of(n));
        }
        refuseLinkedParent(n);
        Path temp = tempFor(dir.resolve(n));
        try {
            createParents(n);
            Files.deleteIfExists(temp);
        } catch (IOException e) {
            throw writeFailure(temp, e);
        }
        return temp;
    }

    /** Renames a file started with {@link #openStream} (and closed by its writer) into place. */
    public void commit(String name) {
        Path target = dir.resolve(checkedName(name));
        try {
            move(tempFor(target), target);
        } catch (IOException e) {
            throw writeFailure(target, e);
        }
    }

    /** A failed write of {@code file} during the run: {@link DiskFull} when the file system is full. */
    public static RuntimeException writeFailure(Path file, IOException e, String what) {
        if (DiskFull.isNoSpace(e)) {
            return new DiskFull(file, e);
        }
        return new UncheckedIOException("cannot " + what + " " + file + ": " + e.getMessage(), e);
    }

    /**
     * Refuses (exit 2) a manifest or output name one of whose parent directories inside the run
     * directory is a symbolic link: writing or deleting through it would reach outside {@code --out}.
     * The last component may be a link (it is replaced or removed, never followed).
     */
    private void refuseLinkedParent(String name) {
        String body = name.endsWith("/") ? name.substring(0, name.length() - 1) : name;
        String[] parts = body.split("/");
        Path p = dir;
        for (int i = 0; i < parts.length - 1; i++) {
            p = p.resolve(parts[i]);
            if (Files.isSymbolicLink(p)) {
                throw new UserError("run directory " + dir + ": " + dir.relativize(p) + " is a symbolic link and "
                        + name + " lies below it; rmtemu follows no link inside a run directory: move the link away");
            }
        }
    }

    /** Creates the parent directories of {@code name} one by one, none through a link (checked just before). */
    private void createParents(String name) throws IOException {
        String[] parts = name.split("/");
        Path p = dir;
        for (int i = 0; i < parts.length - 1; i++) {
            p = p.resolve(parts[i]);
            if (!Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
                Files.createDirectory(p);
            }
        }
    }

    /** A failed write: "no space left on device" is {@link DiskFull}, anything else an I/O error naming the file. */
    private static RuntimeException writeFailure(Path target, IOException e) {
        if (DiskFull.isNoSpace(e)) {
            return new DiskFull(target, e);
        }
        return new UncheckedIOException("cannot write " + target + ": " + e.getMessage(), e);
    }

    private static void deleteQuietly(Path p) {
        try {
            Files.deleteIfExists(p);
        } catch (IOException ignored) {
            // best effort on a failed write; the next run removes it with its file
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
        releaseReserve();
        try {
            Files.deleteIfExists(lock);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot remove the lock " + lock + ": " + e.getMessage(), e);
        }
    }

    /**
     * The pid in {@code runDir}'s lock, if there is a lock with a readable pid. Whether that pid
     * is still the run that took the lock: {@link #liveLockHolder}.
     */
    public static Optional<Long> lockPid(Path runDir) {
        return readLock(runDir).map(LockHolder::pid);
    }

    /**
     * The pid of the run holding {@code runDir}'s lock while that run is alive: the pid is alive
     * and, when the lock recorded it, the process with that pid started when the lock's writer
     * did. A pid reused by another process after kill -9 is not the writer (empty).
     */
    public static Optional<Long> liveLockHolder(Path runDir) {
        return readLock(runDir).filter(RunDirectory::holderAlive).map(LockHolder::pid);
    }

    public static boolean isAlive(long pid) {
        return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
    }

    /** What a lock holds: the writer's pid and its start time (null in a lock that has none). */
    record LockHolder(long pid, String start) {
    }

    private static Optional<LockHolder> readLock(Path runDir) {
        Path lock = runDir.resolve(LOCK);
        try {
            String[] parts = Files.readString(lock, StandardCharsets.US_ASCII).trim().split(" ");
            long pid = Long.parseLong(parts[0]);
            return Optional.of(new LockHolder(pid, parts.length > 1 ? parts[1] : null));
        } catch (IOException | NumberFormatException e) {
            // no lock, a lock being written this instant, or damaged: no pid to go by
            return Optional.empty();
        }
    }

    private static boolean holderAlive(LockHolder h) {
        if (!isAlive(h.pid())) {
            return false;
        }
        if (h.start() == null) {
            // a lock without a start time (an older rmtemu's): rmtemu runs in a JVM, so a pid now
            // held by anything else is not its writer
            return isJvm(h.pid()).orElse(true);
        }
        // when the start of the live pid cannot be read, it is taken to be the writer (never take a live run's lock)
        return processStart(h.pid()).map(h.start()::equals).orElse(true);
    }

    /** Whether process {@code pid} runs a JVM (its program is named java), when that can be read. */
    public static Optional<Boolean> isJvm(long pid) {
        Optional<String> command = ProcessHandle.of(pid).flatMap(p -> p.info().command());
        if (command.isEmpty()) {
            try {
                byte[] cmdline = Files.readAllBytes(Path.of("/proc", Long.toString(pid), "cmdline"));
                int end = 0;
                while (end < cmdline.length && cmdline[end] != 0) {
                    end++;
                }
                if (end > 0) {
                    command = Optional.of(new String(cmdline, 0, end, StandardCharsets.UTF_8));
                }
            } catch (IOException | RuntimeException e) {
                // unreadable: unknown
            }
        }
        return command.map(c -> {
            Path name = Path.of(c).getFileName();
            return name != null && name.toString().startsWith("java");
        });
    }

    /** Field of /proc/PID/stat holding the process's start time in clock ticks after boot (proc(5): starttime). */
    static final int PROC_STAT_STARTTIME = 22;
    /** The kernel's id of this boot: with the start time in ticks it names one process for good. */
    static final Path BOOT_ID = Path.of("/proc/sys/kernel/random/boot_id");

    /**
     * When process {@code pid} started, as a token that differs between two processes that had
     * the same pid: the boot id and /proc/PID/stat's starttime, or where there is no /proc the
     * start instant Java reports.
     */
    static Optional<String> processStart(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"), StandardCharsets.US_ASCII);
            // "pid (comm) state ...": comm may hold spaces and parentheses, so count fields after the last ')'
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).trim().split(" ");
            String ticks = fields[PROC_STAT_STARTTIME - 3];
            Long.parseLong(ticks);
            String boot = Files.readString(BOOT_ID, StandardCharsets.US_ASCII).trim();
            return Optional.of(boot + "/" + ticks);
        } catch (IOException | RuntimeException e) {
            return ProcessHandle.of(pid).flatMap(p -> p.info().startInstant()).map(i -> "ms/" + i.toEpochMilli());
        }
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
            try {
                Files.writeString(temp, text, StandardCharsets.UTF_8);
                move(temp, target);
            } catch (IOException e) {
                deleteQuietly(temp);
                throw e;
            }
        } catch (IOException e) {
            throw writeFailure(dir.resolve(REPORT), e);
        }
    }

    private void lock() {
        long selfPid = ProcessHandle.current().pid();
        String self = selfPid + processStart(selfPid).map(t -> " " + t).orElse("");
        // Two attempts: the second after removing a lock whose writer is dead.
        for (int attempt = 0; attempt < 2; attempt++) {
            try {
                createLock(self);
                return;
            } catch (FileAlreadyExistsException e) {
                Optional<Long> pid = liveLockHolder(dir);
                if (pid.isPresent()) {
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
        // one name per process and thread: two starts never share (or delete) each other's
        Path temp = dir.resolve(TEMP_PREFIX + ProcessHandle.current().pid() + "-" + Thread.currentThread().getId() + "."
                + LOCK);
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
            // a simultaneous start's lock being created is not content
            return s.allMatch(p -> {
                String n = p.getFileName().toString();
                return n.equals(LOCK) || n.equals(RESERVE) || n.startsWith(TEMP_PREFIX) && n.endsWith("." + LOCK);
            });
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
