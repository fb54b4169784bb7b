package dev.rmtemu.emulator.cli;

import dev.rmtemu.emulator.spi.ProgramPlugins;
import dev.rmtemu.emulator.json.Json;
import dev.rmtemu.model.program.ParamSpec;
import dev.rmtemu.model.program.ProgramFactory;
import dev.rmtemu.model.target.TargetProfile;
import dev.rmtemu.model.target.TargetProfiles;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

/** {@code rmtemu programs}: the stage programs and targets available, with parameters. */
@Command(name = "programs",
        mixinStandardHelpOptions = true,
        description = "List the stage programs on the class path with their parameters (name=default [range] meaning), and the built-in targets.")
public final class ProgramsCommand implements Runnable {
    @Spec
    CommandSpec spec;

    @Option(names = "--json", description = "Print JSON: each program with its parameters (name, default, type,"
            + " range or choices, meaning), and each built-in target.")
    boolean json;

    /** What {@code programs --json} prints. */
    public record Listing(List<ProgramEntry> programs, List<TargetEntry> targets) {
    }

    public record ProgramEntry(String name, String description, List<ParamSpec> params) {
    }

    public record TargetEntry(String name, String description) {
    }

    @Override
    public void run() {
        PrintWriter out = spec.commandLine().getOut();
        if (json) {
            List<ProgramEntry> programs = new ArrayList<>();
            for (ProgramFactory f : ProgramPlugins.registry().all().values()) {
                programs.add(new ProgramEntry(f.name(), f.description(), f.params()));
            }
            List<TargetEntry> targets = new ArrayList<>();
            for (String name : TargetProfiles.BUILT_IN) {
                targets.add(new TargetEntry(name, TargetProfiles.builtIn(name).description()));
            }
            out.print(Json.write(new Listing(programs, targets)));
            out.flush();
            return;
        }
        out.println("Programs:");
        for (ProgramFactory f : ProgramPlugins.registry().all().values()) {
            out.println("  " + f.name() + " - " + f.description());
            for (ParamSpec s : f.params()) {
                out.println("      " + s.describe());
            }
        }
        out.println("Targets:");
        for (String name : TargetProfiles.BUILT_IN) {
            TargetProfile t = TargetProfiles.builtIn(name);
            out.println("  " + name + " - " + t.description());
        }
        out.flush();
    }
}
