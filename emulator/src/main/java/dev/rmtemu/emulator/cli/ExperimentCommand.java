package dev.rmtemu.emulator.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rmtemu.emulator.spi.CsvTables;
import dev.rmtemu.emulator.spi.Experiment;
import dev.rmtemu.emulator.output.ExperimentPlots;
import dev.rmtemu.emulator.rundir.OutputPaths;
import dev.rmtemu.emulator.host.DiskFull;
import dev.rmtemu.emulator.rundir.RunDirectory;
import dev.rmtemu.emulator.spi.ProgramPlugin;
import dev.rmtemu.emulator.spi.ProgramPlugins;
import dev.rmtemu.model.UserError;
import dev.rmtemu.model.program.ProgramParams;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.TreeMap;
import java.util.concurrent.Callable;

/** {@code rmtemu experiment NAME}: reproduce a paper's result and print its tables. */
@Command(name = "experiment",
        mixinStandardHelpOptions = true,
        description = {
            "Reproduce a paper's result on generated traffic and print its tables.",
            "",
            "Run an experiment that reproduces a paper's headline result on generated traffic and",
            "print its tables (or --json). 'rmtemu experiment --list' lists the experiments and",
            "their options; options are given as --opt key=value.",
            "",
            "--out DIR also keeps the results in DIR (a run directory: locked while written,",
            "report.json lists its files, every file written under a temporary name and renamed):",
            "DIR/NAME.json (the JSON --json prints) and one CSV per table, DIR/NAME-TABLE.csv, one",
            "for each top-level array of rows in that JSON (snake_case header, plain numbers).",
            "The tables are still printed.",
            "",
            "--plots DIR draws the figures: per table DIR/NAME-TABLE.html (a page of ECharts charts,",
            "bundled, works offline: the paper's figures redrawn with our numbers, each with the x, y,",
            "lines and panels the paper has, e.g. HashPipe's false negatives against memory, one line",
            "per algorithm and d, one chart per k; the paper's values as marked points where the",
            "experiment has them) and DIR/NAME-TABLE.echarts.json (the charts' options, to re-draw).",
            "A table that is a table in the paper gets no figure.",
            "DIR is a run directory like --out's, and may be the same one.",
            "",
            "Example:",
            "  rmtemu experiment wbmon --opt part=a --out results/wbmon --plots results/wbmon"
        })
public final class ExperimentCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(index = "0", arity = "0..1", paramLabel = "NAME", description = "Experiment to run.")
    String name;

    @Option(names = "--opt", paramLabel = "KEY=VALUE", description = "Experiment option; repeat for several.")
    List<String> opts = new ArrayList<>();

    @Option(names = "--json", description = "Print the results as JSON instead of tables.")
    boolean json;

    @Option(names = "--list", description = "List the experiments and their options.")
    boolean list;

    @Option(names = "--out", paramLabel = "DIR",
            description = "Also keep DIR/NAME.json and DIR/NAME-TABLE.csv per table (see above).")
    Path outDir;

    @Option(names = "--plots", paramLabel = "DIR",
            description = "Also draw the figures into DIR: NAME-TABLE.html and NAME-TABLE.echarts.json per table with a figure.")
    Path plotsDir;

    @Option(names = "--force", description = "With --out: write into a non-empty directory that is not a run directory.")
    boolean force;

    /**
     * The experiments on the class path, by name: the programs' ({@link ProgramPlugin#experiment()})
     * and any registered on its own under {@code META-INF/services/dev.rmtemu.emulator.experiment.Experiment}.
     */
    public static Map<String, Experiment> available() {
        Map<String, Experiment> all = new TreeMap<>();
        for (ProgramPlugin p : ProgramPlugins.registered()) {
            p.experiment().ifPresent(e -> all.put(e.name(), e));
        }
        for (Experiment e : ServiceLoader.load(Experiment.class)) {
            all.put(e.name(), e);
        }
        return all;
    }

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        Map<String, Experiment> all = available();
        if (list || name == null) {
            out.println("Experiments:");
            if (all.isEmpty()) {
                out.println("  (none on the class path)");
            }
            for (Experiment e : all.values()) {
                out.println("  " + e.name() + " - " + e.description());
                for (String o : e.options()) {
                    out.println("      " + o);
                }
            }
            out.flush();
            return list ? 0 : UserError.BAD_INPUT;
        }
        Experiment e = all.get(name);
        if (e == null) {
            throw new UserError("unknown experiment '" + name + "' (available: "
                    + (all.isEmpty() ? "none" : String.join(", ", all.keySet())) + ")");
        }
        Map<String, String> options = ProgramParams.parseAssignments(opts);
        PrintWriter err = spec.commandLine().getErr();
        if (outDir == null && plotsDir == null) {
            if (force) {
                throw new UserError("--force needs --out DIR or --plots DIR");
            }
            return e.run(options, json, out, err);
        }
        // the same checks and one-line refusals as replay's --out
        Path data = outDir == null ? null : OutputPaths.directory("--out", outDir);
        Path plots = plotsDir == null ? null : OutputPaths.directory("--plots", plotsDir);
        return runInto(e, options, data, plots, out, err);
    }

    /**
     * Runs {@code e} once, prints its tables (or JSON), keeps its JSON and CSV tables in {@code dataDir}
     * and draws its figures into {@code plotDir} (either may be null; both may be one directory).
     */
    private int runInto(Experiment e, Map<String, String> options, Path dataDir, Path plotDir, PrintWriter out,
                        PrintWriter err) {
        ObjectNode inputs = JsonNodeFactory.instance.objectNode();
        inputs.put("experiment", e.name());
        ObjectNode given = inputs.putObject("options");
        new TreeMap<>(options).forEach(given::put);
        boolean same = dataDir != null && plotDir != null
                && dataDir.toAbsolutePath().normalize().equals(plotDir.toAbsolutePath().normalize());
        // opened (and refused) before the run: a bad DIR should not cost a long experiment
        try (RunDirectory data = dataDir == null ? null : RunDirectory.open(dataDir, force, inputs);
             RunDirectory plots = plotDir == null || same ? null : RunDirectory.open(plotDir, force, inputs)) {
            try {
                Experiment.Output o = e.produce(options, err);
                List<CsvTables.Table> tables = CsvTables.of(o.json());
                ObjectNode report = JsonNodeFactory.instance.objectNode();
                report.put("experiment", e.name());
                report.set("inputs", inputs);
                List<String> wrote = new ArrayList<>();
                if (data != null) {
                    String jsonFile = e.name() + ".json";
                    data.writeString(jsonFile, o.json());
                    report.put("json", jsonFile);
                    ArrayNode names = report.putArray("tables");
                    for (CsvTables.Table t : tables) {
                        String file = e.name() + "-" + t.name() + ".csv";
                        data.writeString(file, t.csv());
                        names.add(file);
                    }
                    wrote.add(dataDir.resolve(jsonFile) + " and " + names.size() + " CSV table" + (names.size() == 1 ? "" : "s")
                            + " in " + dataDir);
                }
                RunDirectory figuresInto = data != null && same ? data : plots;
                if (figuresInto != null) {
                    ObjectNode figureReport = same ? report : JsonNodeFactory.instance.objectNode();
                    if (!same) {
                        figureReport.put("experiment", e.name());
                        figureReport.set("inputs", inputs);
                    }
                    ArrayNode figures = figureReport.putArray("figures");
                    for (ExperimentPlots.Figure f : ExperimentPlots.of(e.name(), tables, e.plots())) {
                        String base = e.name() + "-" + f.table();
                        figuresInto.writeString(base + ".html", f.html());
                        figuresInto.writeString(base + ".echarts.json", f.optionsJson());
                        figures.add(base + ".html");
                    }
                    wrote.add(figures.size() + " figure page" + (figures.size() == 1 ? "" : "s") + " in " + plotDir);
                    if (!same) {
                        plots.finish(figureReport, true, null);
                    }
                }
                if (data != null) {
                    data.finish(report, true, null);
                }
                out.print(json ? o.json() : o.tables());
                out.flush();
                err.println("experiment " + e.name() + ": wrote " + String.join("; ", wrote));
                err.flush();
                return 0;
            } catch (DiskFull full) {
                // as a replay does: each directory's report.json says complete: false and why
                for (RunDirectory d : new RunDirectory[] {data, plots}) {
                    if (d != null) {
                        d.failed(full);
                    }
                }
                throw full;
            }
        }
    }
}
