package dev.rmtemu.emulator.cli;

import dev.rmtemu.emulator.experiment.Experiment;
import dev.rmtemu.model.UserError;
import dev.rmtemu.model.program.ProgramParams;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
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
            "their options; options are given as --opt key=value."
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

    /** The experiments on the class path, by name. */
    public static Map<String, Experiment> available() {
        Map<String, Experiment> all = new TreeMap<>();
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
        return e.run(ProgramParams.parseAssignments(opts), json, out, spec.commandLine().getErr());
    }
}
