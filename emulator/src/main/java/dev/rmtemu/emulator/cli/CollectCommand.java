package dev.rmtemu.emulator.cli;

import java.util.Arrays;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import dev.rmtemu.emulator.spi.JournalDecoder;
import dev.rmtemu.emulator.run.AgedOutPayload;
import dev.rmtemu.emulator.run.DigestPayload;
import dev.rmtemu.emulator.journal.JournalHandler;
import dev.rmtemu.emulator.journal.JournalKinds;
import dev.rmtemu.emulator.journal.JournalReader;
import dev.rmtemu.emulator.rundir.RunDirectory;
import dev.rmtemu.model.UserError;
import org.agrona.DirectBuffer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.Callable;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;

/** {@code rmtemu collect}: prints a run's export journal, as a collector would receive it. */
@Command(name = "collect",
        mixinStandardHelpOptions = true,
        description = {
            "Print a run's export journal (what the data plane sent to collectors).",
            "",
            "Print the export journal of a run: what the data plane sent to its",
            "collectors (LossRadar digests, WBMon drop counters, LDS sketches, MIDST",
            "reports), one line per message in emission order, then a summary per kind.",
            "Works on a finished run or, with --follow, on a run that is still writing. --json decodes",
            "each message kind of the programs (not hex); see README for the objects.",
            "Exits 0 only for a journal with its end message; 6 when the run did not finish (killed,",
            "interrupted: end message marked aborted) or has not finished yet; 2 for a damaged journal",
            "(a closed journal's files are checked against the sizes and CRC32C in its rmtemu-journal.txt",
            "before they are read; a damaged journal of a run that did not finish also exits 6).",
            "--follow also ends, within a second, once the run's writer is gone (its lock's pid is dead)."
        })
public final class CollectCommand implements Callable<Integer> {

    /** Payload bytes shown in hex on a text line by default: enough to recognise a digest. */
    static final int DEFAULT_HEX_BYTES = 16;

    /** Exit code of a journal without a (normal) end message: the run did not finish, or not yet. */
    public static final int RUN_DID_NOT_FINISH = JournalReader.DID_NOT_FINISH_EXIT;

    /**
     * How often {@code --follow} looks whether the writer is still alive while the journal is
     * quiet: a killed run is noticed within a second, a live one costs one file read per look.
     */
    static final long WRITER_CHECK_NS = 500_000_000L;

    /** Messages per journal poll when printing what is there now. */
    private static final int POLL_BATCH = 1024;

    private static final char[] HEX = "0123456789abcdef".toCharArray();

    @Spec
    CommandSpec spec;

    @Option(names = "--journal", required = true, paramLabel = "DIR",
            description = "The export journal directory (RUN_DIR/journal), or a run directory that holds one.")
    Path journal;

    @Option(names = "--follow",
            description = "Keep reading while the run writes and stop at its end message, or once its writer is "
                    + "gone (without it: print the messages there now and stop).")
    boolean follow;

    @Option(names = "--json",
            description = "Print JSON lines instead of text: one object per message with its payload decoded"
                    + " ('message': a LossRadar digest's cells, a WBMon vconn's counters, an LDS sketch chunk, a MIDST"
                    + " report or event; 'payload' in hex for a kind no program decodes), then one summary object"
                    + " per kind and one end object.")
    boolean json;

    @Option(names = "--hex-bytes", paramLabel = "N", defaultValue = "" + DEFAULT_HEX_BYTES,
            description = "Payload bytes shown in hex on each text line (default: ${DEFAULT-VALUE}; "
                    + "--json always shows the whole payload).")
    int hexBytes;

    @Override
    public Integer call() {
        if (hexBytes < 0) {
            throw new UserError("collect: --hex-bytes must be zero or more, got " + hexBytes);
        }
        PrintWriter out = spec.commandLine().getOut();
        try {
            return collect(out);
        } catch (InternalError e) {
            // a fault on a memory-mapped queue file (truncated, or cut off by a full disk) can surface
            // after the access that caused it, in compiled code, so it is caught around the whole read
            throw new UserError("journal " + journal + ": a queue file is truncated or damaged (" + e.getMessage() + ")", e);
        }
    }

    private int collect(PrintWriter out) {
        try (JournalReader reader = JournalReader.open(journal)) {
            Printer printer = new Printer(reader, out);
            Path runDir = runDirectoryOf(reader.directory());
            if (follow) {
                reader.tail(printer, () -> writerPid(runDir) != null, WRITER_CHECK_NS);
            } else {
                while (reader.poll(printer, POLL_BATCH) > 0) {
                    // poll until the journal has nothing more right now
                }
            }
            if (reader.kinds() == null) {
                if (reader.isSealed()) {
                    throw new UserError("journal " + reader.directory() + ": damaged export journal: no header message, "
                            + "but its manifest says the run ended");
                }
                Long live = writerPid(runDir);
                throw new UserError(live != null
                        ? "journal " + reader.directory() + ": holds no header message yet (the run, pid " + live
                                + ", has only just created it; try --follow)"
                        : "journal " + reader.directory() + ": run did not finish and its journal holds no readable "
                                + "message (no " + JournalReader.MANIFEST + "; empty or damaged queue files)",
                        RUN_DID_NOT_FINISH, null);
            }
            if (reader.isSealed() && !reader.isEnded()) {
                throw new UserError("journal " + reader.directory() + ": damaged export journal: no end message, but "
                        + "its manifest says the run ended");
            }
            Long writer = reader.isEnded() ? null : writerPid(runDir);
            printer.summary(writer);
            out.flush();
            if (reader.isAborted()) {
                throw new UserError("run did not finish: " + reader.messagesRead()
                        + " messages (stopped early: the end message is marked aborted)", RUN_DID_NOT_FINISH, null);
            }
            if (reader.isEnded() && !reader.isSealed() && !reader.isSealedNow() && writerPid(runDir) == null) {
                throw new UserError("run did not finish: " + reader.messagesRead() + " messages (the journal has its end "
                        + "message but no " + JournalReader.MANIFEST + ": its run was killed while closing it, or the "
                        + "manifest was removed)", RUN_DID_NOT_FINISH, null);
            }
            if (!reader.isEnded()) {
                throw new UserError(writer == null
                        ? "run did not finish: " + reader.messagesRead() + " messages"
                        : "run has not finished yet (pid " + writer + " is writing): " + reader.messagesRead()
                                + " messages so far; use --follow to wait for its end", RUN_DID_NOT_FINISH, null);
            }
            String failure = runFailure(runDir, reader.directory());
            if (failure != null) {
                throw new UserError("run did not finish: " + reader.messagesRead() + " messages (the journal is whole, but "
                        + RunDirectory.REPORT + " says: " + failure + ")", RUN_DID_NOT_FINISH, null);
            }
        }
        return 0;
    }

    /**
     * What ended the run of {@code runDir} after its journal was closed (a full disk while it
     * wrote its outputs), as its report.json says ({@code complete: false} with
     * {@code interrupted_by}); null when it says nothing of the kind or there is no run directory.
     */
    private static String runFailure(Path runDir, Path journalDir) {
        if (runDir.equals(journalDir)) {
            return null;
        }
        try {
            JsonNode report = JSON.readTree(runDir.resolve(RunDirectory.REPORT).toFile());
            if (report == null || report.path(RunDirectory.COMPLETE_KEY).asBoolean(true)
                    || !report.path(RunDirectory.INTERRUPTED_KEY).isTextual()) {
                return null;
            }
            return report.get(RunDirectory.INTERRUPTED_KEY).asText();
        } catch (IOException e) {
            return null; // no report.json (a journal written outside a run directory), or not ours
        }
    }

    /** The run directory of a journal directory: its parent when it is a run's journal/ subdirectory. */
    private static Path runDirectoryOf(Path journalDir) {
        Path parent = journalDir.toAbsolutePath().getParent();
        return journalDir.getFileName().toString().equals(RunDirectory.JOURNAL) && parent != null ? parent : journalDir;
    }

    /** The pid of the run writing into {@code runDir} if its lock names the live process that took it, else null. */
    private static Long writerPid(Path runDir) {
        return RunDirectory.liveLockHolder(runDir).orElse(null);
    }

    private static final ObjectMapper JSON = new ObjectMapper();
    /** Learning digests name their fields in their payload: one decoder reads every program's. */
    private static final DigestPayload DIGESTS = new DigestPayload();
    /** Entries the idle-time sweep reported aged out. */
    private static final AgedOutPayload AGED_OUT = new AgedOutPayload();

    /**
     * One message of {@code --json}: {@code message} is the decoded payload; {@code payload}
     * (hex) only for a kind without a decoder or one its decoder refused ({@code decode_error}).
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record MessageLine(long cycle, @JsonProperty("switch") int switchId, int pipe, String kind, int length, Object message,
                              String payload, String decodeError) {
    }

    /** Per kind: messages, payload bytes and (when there were any) the first and last cycle. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record SummaryLine(String summary, long messages, long bytes, Long firstCycle, Long lastCycle) {
    }

    /** The last line: whether the journal has its end message, its cycle, and {@code aborted} when the run stopped early. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record EndLine(boolean end, long messages, Long endCycle, Boolean aborted) {
    }

    private static String jsonLine(Object line) {
        try {
            return JSON.writeValueAsString(line);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("collect line does not serialise: " + e.getOriginalMessage(), e);
        }
    }

    /** Prints each message and counts per kind. */
    private final class Printer implements JournalHandler {
        private final JournalReader reader;
        private final PrintWriter out;
        private final StringBuilder line = new StringBuilder(256);
        private final Map<String, JournalDecoder> decoders = JournalDecoder.registered();
        private long[] messages = new long[0];
        private long[] bytes = new long[0];
        private long[] firstCycle = new long[0];
        private long[] lastCycle = new long[0];

        Printer(JournalReader reader, PrintWriter out) {
            this.reader = reader;
            this.out = out;
        }

        @Override
        public void onMessage(int kind, long cycle, int switchId, int pipe, DirectBuffer payload, int offset, int length) {
            count(kind, cycle, length);
            String name = reader.kinds().name(kind);
            line.setLength(0);
            if (json) {
                out.println(jsonLine(message(cycle, switchId, pipe, name, payload, offset, length)));
                return;
            } else {
                line.append("cycle ").append(cycle)
                        .append(" switch ").append(switchId)
                        .append(" pipe ").append(pipe)
                        .append(" kind ").append(name)
                        .append(" length ").append(length);
                if (name.startsWith(DigestPayload.KIND_PREFIX) && digestFields(name, payload, offset, length)) {
                    out.println(line);
                    return;
                }
                int shown = Math.min(length, hexBytes);
                if (shown > 0) {
                    line.append(" bytes ");
                    hex(payload, offset, shown);
                    if (shown < length) {
                        line.append("...");
                    }
                }
            }
            out.println(line);
        }

        /** A learning digest's fields on a text line ({@code fields NAME=VALUE ...}); false for a damaged payload (shown in hex). */
        private boolean digestFields(String kind, DirectBuffer payload, int offset, int length) {
            Object fields;
            try {
                fields = DIGESTS.decode(kind, payload, offset, length);
            } catch (JournalDecoder.BadPayload e) {
                return false;
            }
            line.append(" fields");
            ((Map<?, ?>) fields).forEach((k, v) -> line.append(' ').append(k).append('=').append(v));
            return true;
        }

        /** A message as a JSON line: decoded by its program's decoder (a digest: by its field names), else its payload in hex. */
        private MessageLine message(long cycle, int switchId, int pipe, String kind, DirectBuffer payload, int offset, int length) {
            JournalDecoder d = decoders.get(kind);
            if (d == null && kind.startsWith(DigestPayload.KIND_PREFIX)) {
                d = DIGESTS;
            }
            if (d == null && kind.equals(AgedOutPayload.KIND)) {
                d = AGED_OUT;
            }
            if (d != null) {
                try {
                    return new MessageLine(cycle, switchId, pipe, kind, length, d.decode(kind, payload, offset, length), null, null);
                } catch (JournalDecoder.BadPayload e) {
                    line.setLength(0);
                    hex(payload, offset, length);
                    return new MessageLine(cycle, switchId, pipe, kind, length, null, line.toString(), e.getMessage());
                }
            }
            line.setLength(0);
            hex(payload, offset, length);
            return new MessageLine(cycle, switchId, pipe, kind, length, null, line.toString(), null);
        }

        private void hex(DirectBuffer buf, int offset, int n) {
            for (int i = 0; i < n; i++) {
                int b = buf.getByte(offset + i) & 0xff;
                line.append(HEX[b >>> 4]).append(HEX[b & 0xf]);
            }
        }

        private void count(int kind, long cycle, int length) {
            if (kind >= messages.length) {
                int n = reader.kinds().size();
                messages = Arrays.copyOf(messages, n);
                bytes = Arrays.copyOf(bytes, n);
                firstCycle = Arrays.copyOf(firstCycle, n);
                lastCycle = Arrays.copyOf(lastCycle, n);
            }
            if (messages[kind] == 0) {
                firstCycle[kind] = cycle;
            }
            messages[kind]++;
            bytes[kind] += length;
            lastCycle[kind] = cycle;
        }

        /** Per-kind totals in kind id order (registration order), then the end state ({@code writer}: a live writer's pid). */
        void summary(Long writer) {
            JournalKinds kinds = reader.kinds();
            for (int id = JournalKinds.FIRST_USER_KIND; id < kinds.size(); id++) {
                long n = id < messages.length ? messages[id] : 0;
                long b = id < bytes.length ? bytes[id] : 0;
                if (json) {
                    out.println(jsonLine(new SummaryLine(kinds.name(id), n, b, n > 0 ? firstCycle[id] : null,
                            n > 0 ? lastCycle[id] : null)));
                } else {
                    out.print("summary " + kinds.name(id) + ": " + n + " messages, " + b + " payload bytes");
                    if (n > 0) {
                        out.print(", cycles " + firstCycle[id] + ".." + lastCycle[id]);
                    }
                    out.println();
                }
            }
            if (json) {
                out.println(jsonLine(new EndLine(reader.isEnded(), reader.messagesRead(),
                        reader.isEnded() ? reader.endCycle() : null, reader.isAborted() ? true : null)));
            } else if (reader.isEnded()) {
                out.println((reader.isAborted() ? "run aborted at cycle " : "end of run at cycle ") + reader.endCycle()
                        + ": " + reader.messagesRead() + " messages");
            } else if (writer != null) {
                out.println("no end message yet: " + reader.messagesRead()
                        + " messages so far (run still writing; use --follow to wait for its end)");
            } else {
                out.println("no end message: " + reader.messagesRead() + " messages (the writer is gone)");
            }
        }
    }
}
