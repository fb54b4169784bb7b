package dev.rmtemu.emulator.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.rmtemu.emulator.output.SavedCounters;
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
import java.util.List;
import java.util.TreeSet;
import java.util.concurrent.Callable;

/** {@code rmtemu counters}: a counter's cells (packets, bytes) as a finished run left them. */
@Command(name = "counters",
        mixinStandardHelpOptions = true,
        description = {
            "Print the counters (TNA Counter and DirectCounter) of a finished replay.",
            "",
            "Without COUNTER: one line per counter of the run's program, 'NAME packets P bytes B' (totals).",
            "With COUNTER: its cells from RUN_DIR/counters/COUNTER.csv, one row 'index packets bytes' per",
            "cell that counted something (--all: every cell), summed over the pipes; a direct counter's",
            "index is its table entry's handle. Bytes include each frame's 4-byte CRC.",
            "--csv prints the file as it is (index,packets,bytes, every cell).",
            "Every error (no run directory, run not complete, no such counter) is one line and exit 2."
        },
        footer = {"", "Examples:",
            "  rmtemu counters runs/l2",
            "  rmtemu counters runs/l2 l2_fwd_hits",
            "  rmtemu counters runs/l2 l2_fwd_hits --csv > hits.csv"})
public final class CountersCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "RUN_DIR", description = "Run directory of a finished replay (its --out).")
    Path runDir;

    @Parameters(index = "1", arity = "0..1", paramLabel = "COUNTER", description = "Counter name (as in report.json's"
            + " results.externs.counters).")
    String counter;

    @Option(names = "--all", description = "Print every cell, also those that counted nothing.")
    boolean all;

    @Option(names = "--csv", description = "Print the counter's CSV file (index,packets,bytes).")
    boolean csv;

    @Override
    public Integer call() {
        JsonNode report = RegistersCommand.finishedReport("counters", runDir);
        JsonNode counters = report.path("results").path(SavedCounters.RESULTS_KEY).path("counters");
        PrintWriter out = spec.commandLine().getOut();
        if (counter == null) {
            if (csv || all) {
                throw new UserError("counters: --csv and --all need a COUNTER");
            }
            counters.fieldNames().forEachRemaining(name -> {
                JsonNode c = counters.get(name);
                out.println(name + " packets " + c.path("packets").asText() + " bytes " + c.path("bytes").asText());
            });
            out.flush();
            return 0;
        }
        if (!counters.has(counter)) {
            TreeSet<String> names = new TreeSet<>();
            counters.fieldNames().forEachRemaining(names::add);
            throw new UserError("counters: no counter '" + counter + "' in run " + runDir
                    + (names.isEmpty() ? " (its program has none)" : " (counters: " + String.join(", ", names) + ")"));
        }
        Path file = runDir.resolve(SavedCounters.fileName(counter));
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UserError("counters: " + file + " is listed in the run's report but cannot be read");
        }
        if (csv) {
            lines.forEach(out::println);
        } else {
            for (String line : lines.subList(1, lines.size())) {
                String[] v = line.split(",");
                if (all || !v[1].equals("0") || !v[2].equals("0")) {
                    out.println(v[0] + " " + v[1] + " " + v[2]);
                }
            }
        }
        out.flush();
        return 0;
    }
}
