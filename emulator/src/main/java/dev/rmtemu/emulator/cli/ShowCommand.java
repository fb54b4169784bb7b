package dev.rmtemu.emulator.cli;

import dev.rmtemu.model.compiler.TablePlacer;
import dev.rmtemu.model.program.P4Printer;
import dev.rmtemu.model.program.ProgramParams;
import dev.rmtemu.model.parse.DefaultParseGraph;
import dev.rmtemu.model.parse.ParseGraph;
import dev.rmtemu.model.parse.ParseGraphPrinter;
import dev.rmtemu.model.parse.ParserLimitsCheck;
import dev.rmtemu.model.program.StageProgram;
import dev.rmtemu.model.target.TargetProfile;
import dev.rmtemu.model.target.TargetProfiles;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
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
            "compiler. A program that names no stages is shown as the compiler places it on",
            "--target, each element with its stage and why it is there (the dependency, the pin or",
            "the full stage that put it there). Exit 2 on an unknown program or parameter, 3 when",
            "it cannot be placed on --target."
        },
        footer = {"", "Examples:",
            "  rmtemu show --program hashpipe --param stages=2",
            "  rmtemu show --program counter --parser --target tofino1",
            "  rmtemu show --program examples/CountMinSketch.java"})
public final class ShowCommand implements Runnable {
    @Mixin
    ProgramOptions programOptions;

    @Mixin
    TargetOption targetOption;

    @Option(names = "--parser", description = {
        "Print the program's parse graph instead: its headers (fields, widths, variable-length",
        "tails), value sets and states with their select branches, and the parser TCAM rows each",
        "state takes on --target (select branches, one state per legal length of a variable-length",
        "tail, states wider than the parser's input buffer split). Every program parses with the",
        "default graph (Ethernet, two VLAN tags, ARP, IPv4 and options, IPv6 and its extension",
        "headers, TCP and options, UDP, ICMP, ICMPv6). Exit 3 when it does not fit the target."})
    boolean parser;

    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        PrintWriter out = spec.commandLine().getOut();
        StageProgram built = programOptions.registry(targetOption.target).build(programOptions.program,
                ProgramParams.parseAssignments(programOptions.params));
        TargetProfile profile = TargetProfiles.load(targetOption.target);
        // a program that names no stages is shown as the compiler places it on --target
        StageProgram program = TablePlacer.placeIfNeeded(built, profile);
        if (parser) {
            ParseGraph graph = DefaultParseGraph.build();
            out.print(ParseGraphPrinter.text(graph, ParserLimitsCheck.check(program.name(), graph, profile)));
        } else {
            out.print(P4Printer.print(program));
        }
        out.flush();
    }
}
