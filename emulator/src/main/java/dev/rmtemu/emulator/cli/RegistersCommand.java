package dev.rmtemu.emulator.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.rmtemu.emulator.output.SavedCounters;
import dev.rmtemu.emulator.output.SavedRegisters;
import dev.rmtemu.emulator.rundir.RunDirectory;
import dev.rmtemu.model.UserError;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** {@code rmtemu registers}: a register array's cells as a finished run left them. */
@Command(name = "registers",
        mixinStandardHelpOptions = true,
        description = {
            "Print a register array's cells as a finished replay left them.",
            "",
            "Reads RUN_DIR/registers/ARRAY.bin.gz, which a replay writes for every register array of its",
            "program (a network replay: RUN_DIR/registers/SWITCH/ARRAY.bin.gz, read with --switch), always",
            "when they are up to " + (SavedRegisters.ALWAYS_SAVE_BYTES >> 20) + " MiB uncompressed in all,"
                    + " else only with 'replay --save-registers'.",
            "Prints one row per cell of one pipe: 'index lo', or 'index lo hi' for a pair array, in decimal",
            "(words are unsigned); --csv prints the same as CSV with a header.",
            "ARRAY may also name a counter (TNA Counter or DirectCounter, report.json's",
            "results.externs.counters): its cells from RUN_DIR/counters/NAME.csv, 'index packets bytes', summed",
            "over the pipes, bytes with each frame's 4-byte CRC; a direct counter's index is its entry's handle.",
            "Every error (no run directory, run not complete, no such array, pipe or range out of",
            "bounds, damaged file) is one line and exit 2."
        },
        footer = {"", "Examples:",
            "  rmtemu registers runs/isp flow_count --range 0:16",
            "  rmtemu registers runs/hp hp_table_1 --pipe 1 --csv > table1.csv",
            "  rmtemu registers runs/ft --switch edge0 flow_count --range 0:8",
            "  rmtemu registers runs/l2 l2_fwd_hits --range 0:4"})
public final class RegistersCommand implements Callable<Integer> {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern RANGE = Pattern.compile("(\\d{1,10}):(\\d{1,10})");

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "RUN_DIR", description = "Run directory of a finished replay (its --out).")
    Path runDir;

    @Parameters(index = "1", paramLabel = "ARRAY", description = "Register array name (as in report.json's 'registers'),"
            + " or a counter's.")
    String array;

    @Option(names = "--pipe", paramLabel = "P", defaultValue = "0", description = "Pipe whose instance of the array to print (default: ${DEFAULT-VALUE}).")
    int pipe;

    @Option(names = "--range", paramLabel = "A:B",
            description = "Cells A (inclusive) to B (exclusive), half-open like a Python slice: 0:16 is the first 16"
                    + " cells (default: every cell).")
    String range;

    @Option(names = "--switch", paramLabel = "NAME",
            description = "In a network run (replay --topology): the switch whose array to print.")
    String switchName;

    @Option(names = "--csv", description = "Print CSV with a header line (index,lo or index,lo,hi).")
    boolean csv;

    @Override
    public Integer call() {
        int[] cells = parseRange(range);
        if (pipe < 0) {
            throw new UserError("registers: --pipe must be zero or more, got " + pipe);
        }
        JsonNode report = finishedReport(runDir);
        JsonNode counters = report.path("results").path(SavedCounters.RESULTS_KEY).path("counters");
        if (switchName == null && counters.has(array) && !report.path("registers").has(array)) {
            PrintWriter out = spec.commandLine().getOut();
            printCounter(out, runDir, array, counters.get(array).path("cell_count").asInt(counters.get(array).path("size").asInt()), cells, csv);
            out.flush();
            return 0;
        }
        Path file = arrayFile(runDir, report, switchName, array);
        SavedRegisters.Cells c = SavedRegisters.read(file, array, pipe, cells);
        JsonNode by = report.get(RunDirectory.INTERRUPTED_KEY);
        if (by != null) {
            // a stopped run wrote its registers as they were when it stopped: readable, but say so
            PrintWriter err = spec.commandLine().getErr();
            err.println("warning: run " + runDir + " was interrupted by " + by.asText()
                    + ": the registers are as they were when it stopped, not after the whole trace");
            err.flush();
        }
        PrintWriter out = spec.commandLine().getOut();
        print(out, c, csv);
        out.flush();
        return 0;
    }

    /** A counter's cells {@code index packets bytes} from its file, or CSV with its header. */
    static void printCounter(PrintWriter out, Path dir, String counter, int size, int[] cells, boolean csv) {
        Path file = dir.resolve(SavedCounters.fileName(counter));
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UserError("registers: " + file + " is listed in the run's report but cannot be read");
        }
        int from = cells == null ? 0 : cells[0];
        int to = cells == null ? size : cells[1];
        if (to > size || lines.size() != size + 1) {
            throw new UserError(to > size ? "registers: --range " + from + ":" + to + " reaches past counter " + counter
                    + "'s " + size + " cells" : "registers: " + file + " does not hold " + size + " cells");
        }
        if (csv) {
            out.println(lines.get(0));
        }
        for (String line : lines.subList(1 + from, 1 + to)) {
            out.println(csv ? line : line.replace(',', ' '));
        }
    }

    /** Rows {@code index lo [hi]} separated by spaces, or CSV with a header. */
    static void print(PrintWriter out, SavedRegisters.Cells c, boolean csv) {
        String sep = csv ? "," : " ";
        if (csv) {
            out.print(c.hi() == null ? "index,lo\n" : "index,lo,hi\n");
        }
        StringBuilder line = new StringBuilder(64);
        for (int i = 0; i < c.lo().length; i++) {
            line.setLength(0);
            line.append(c.from() + i).append(sep).append(Long.toUnsignedString(c.lo()[i]));
            if (c.hi() != null) {
                line.append(sep).append(Long.toUnsignedString(c.hi()[i]));
            }
            out.print(line.append('\n'));
        }
    }

    /** {@code A:B} with A < B, or null for every cell. */
    static int[] parseRange(String range) {
        if (range == null) {
            return null;
        }
        Matcher m = RANGE.matcher(range);
        if (!m.matches()) {
            throw new UserError("registers: --range '" + range + "' is not A:B (cells A inclusive to B exclusive, e.g. 0:16)");
        }
        long from = Long.parseLong(m.group(1));
        long to = Long.parseLong(m.group(2));
        if (from >= to || to > Integer.MAX_VALUE) {
            throw new UserError("registers: --range " + range + " is empty or reversed: A must be less than B"
                    + " (cells A inclusive to B exclusive)");
        }
        return new int[] {(int) from, (int) to};
    }

    /** report.json of a finished (or interrupted) run in {@code dir}, or a one-line refusal naming the directory. */
    static JsonNode finishedReport(Path dir) {
        return finishedReport("registers", dir);
    }

    /** As {@link #finishedReport(Path)}, the refusals starting with {@code command}. */
    static JsonNode finishedReport(String command, Path dir) {
        if (!Files.exists(dir)) {
            throw new UserError(command + ": run directory " + dir + " does not exist");
        }
        if (!Files.isDirectory(dir)) {
            throw new UserError(command + ": " + dir + " is not a directory");
        }
        Path reportFile = dir.resolve(RunDirectory.REPORT);
        JsonNode report;
        try {
            report = Files.isRegularFile(reportFile) ? JSON.readTree(reportFile.toFile()) : null;
        } catch (IOException e) {
            report = null;
        }
        if (report == null || !report.path(RunDirectory.FILES_KEY).isArray()) {
            throw new UserError(command + ": " + dir + " is not a run directory (no " + RunDirectory.REPORT
                    + " with a '" + RunDirectory.FILES_KEY + "' manifest)");
        }
        // an interrupted run finished its files (read with a warning); one still running or killed did not
        if (!report.path(RunDirectory.COMPLETE_KEY).asBoolean(false) && report.get(RunDirectory.INTERRUPTED_KEY) == null) {
            throw new UserError(command + ": run " + dir + " is not complete (" + RunDirectory.REPORT
                    + " says complete: false; still running or killed)");
        }
        return report;
    }

    /**
     * The saved file of {@code array} (of switch {@code switchName} in a network run, null in a
     * single-switch one), checked against the run's manifest and the arrays its report names.
     */
    static Path arrayFile(Path dir, JsonNode report, String switchName, String array) {
        JsonNode switches = report.path("network").path("switches");
        JsonNode arrays;
        if (switches.isObject()) {
            if (switchName == null || !switches.has(switchName)) {
                TreeSet<String> names = new TreeSet<>();
                for (Iterator<Map.Entry<String, JsonNode>> it = switches.fields(); it.hasNext(); ) {
                    Map.Entry<String, JsonNode> e = it.next();
                    if (!e.getValue().path("register_arrays").isEmpty()) {
                        names.add(e.getKey());
                    }
                }
                String with = names.isEmpty() ? "no switch has register arrays" : "switches with arrays: "
                        + String.join(", ", names);
                throw new UserError(switchName == null
                        ? "registers: run " + dir + " is a network replay: name the switch with --switch (" + with + ")"
                        : "registers: no switch '" + switchName + "' in run " + dir + "; " + with);
            }
            arrays = switches.get(switchName).path("register_arrays");
        } else {
            if (switchName != null) {
                throw new UserError("registers: --switch " + switchName + ": run " + dir
                        + " is a single-switch replay (--switch is for network replays)");
            }
            arrays = report.path("registers");
        }
        TreeSet<String> known = new TreeSet<>();
        if (arrays.isArray()) {
            arrays.forEach(n -> known.add(n.asText()));
        } else {
            arrays.fieldNames().forEachRemaining(known::add);
        }
        String name = SavedRegisters.fileName(switchName, array);
        String folder = name.substring(0, name.lastIndexOf('/') + 1);
        TreeSet<String> saved = new TreeSet<>();
        boolean listed = false;
        for (JsonNode n : report.get(RunDirectory.FILES_KEY)) {
            String f = n.asText();
            if (f.startsWith(folder) && f.endsWith(SavedRegisters.SUFFIX) && f.indexOf('/', folder.length()) < 0) {
                saved.add(SavedRegisters.nameOf(f.substring(folder.length(), f.length() - SavedRegisters.SUFFIX.length())));
            }
            listed |= f.equals(name);
        }
        if (listed) {
            Path file = dir.resolve(name);
            if (!Files.isRegularFile(file)) {
                throw new UserError("registers: " + file + " is listed in the run's manifest but missing");
            }
            return file;
        }
        if (saved.isEmpty() && known.contains(array)) {
            throw new UserError("registers: run " + dir + " did not save its register arrays (over "
                    + (SavedRegisters.ALWAYS_SAVE_BYTES >> 20) + " MiB uncompressed); replay again with --save-registers");
        }
        known.addAll(saved);
        String where = switchName == null ? "" : " of switch " + switchName;
        throw new UserError("registers: no register array '" + array + "'" + where + " in run " + dir
                + (known.isEmpty() ? " (its program has none)" : "; its arrays: " + String.join(", ", known)));
    }
}
