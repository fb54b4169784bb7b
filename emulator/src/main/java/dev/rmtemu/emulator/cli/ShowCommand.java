package dev.rmtemu.emulator.cli;

import dev.rmtemu.emulator.spi.ProgramPlugins;
import dev.rmtemu.model.program.P4Printer;
import dev.rmtemu.model.program.ProgramParams;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;

/** {@code rmtemu show}: a program as a P4 programmer reads it. */
@Command(name = "show",
        resourceBundle = "dev.rmtemu.emulator.cli.help.show",
        modelTransformer = ProgramOptions.Required.class,
        mixinStandardHelpOptions = true,
        description = {
            "Print a stage program the way a P4 programmer reads it.",
            "",
            "Its PHV fields, then per gress and stage the hash units, registers with their register",
            "actions (conditions, predicated updates, output, and the stateful-ALU template), tables,",
            "and the stage's control flow: gateways as 'if', table applications as 'switch' on the",
            "action, VLIW instructions as assignments. The text is P4-like, not input for a P4",
            "compiler. Exit 2 on an unknown program or parameter."
        },
        footer = {"", "Examples:",
            "  rmtemu show --program hashpipe --param stages=2",
            "  rmtemu show --program examples/CountMinSketch.java"})
public final class ShowCommand implements Runnable {
    @Mixin
    ProgramOptions programOptions;

    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        PrintWriter out = spec.commandLine().getOut();
        out.print(P4Printer.print(ProgramPlugins.registry().build(programOptions.program, ProgramParams.parseAssignments(programOptions.params))));
        out.flush();
    }
}
