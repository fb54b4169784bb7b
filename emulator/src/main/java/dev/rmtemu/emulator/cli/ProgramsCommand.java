package dev.rmtemu.emulator.cli;

import dev.rmtemu.model.program.ParamSpec;
import dev.rmtemu.model.program.ProgramFactory;
import dev.rmtemu.model.program.ProgramRegistry;
import dev.rmtemu.model.target.TargetProfile;
import dev.rmtemu.model.target.TargetProfiles;
import picocli.CommandLine.Command;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import java.io.PrintWriter;

/** {@code rmtemu programs}: the stage programs and targets available, with parameters. */
@Command(name = "programs",
        mixinStandardHelpOptions = true,
        description = "List the stage programs on the class path with their parameters (name=default [range] meaning), and the built-in targets.")
public final class ProgramsCommand implements Runnable {
    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        PrintWriter out = spec.commandLine().getOut();
        out.println("Programs:");
        for (ProgramFactory f : new ProgramRegistry().all().values()) {
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
