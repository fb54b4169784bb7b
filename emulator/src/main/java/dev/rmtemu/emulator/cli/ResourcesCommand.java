package dev.rmtemu.emulator.cli;

import dev.rmtemu.model.UserError;
import dev.rmtemu.model.parse.DefaultParseGraph;
import dev.rmtemu.model.parse.ParseGraph;
import dev.rmtemu.model.parse.ParseGraphPrinter;
import dev.rmtemu.model.parse.ParserLimitsCheck;
import dev.rmtemu.model.check.ReportRenderer;
import dev.rmtemu.model.check.ResourceReport;
import dev.rmtemu.model.compiler.Compilation;
import dev.rmtemu.model.compiler.ProgramCompiler;
import dev.rmtemu.model.program.ProgramParams;
import dev.rmtemu.model.program.StageProgram;
import dev.rmtemu.model.target.TargetProfile;
import dev.rmtemu.model.target.TargetProfiles;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import java.io.PrintWriter;
import java.util.concurrent.Callable;

/** {@code rmtemu resources}: does a program fit a target, and what does it use. */
@Command(name = "resources",
        resourceBundle = "dev.rmtemu.emulator.cli.help.resources",
        modelTransformer = ProgramOptions.Required.class,
        mixinStandardHelpOptions = true,
        description = {
            "Check whether a stage program fits a target; print its resource report.",
            "",
            "Compile a stage program for a target: run the compiler passes (printed in order) that",
            "check every hardware rule before a packet, then print the resource report: per stage and",
            "gress SRAM blocks, map RAMs, TCAM blocks, stateful ALUs, hash bits, logical tables, gateways,",
            "action data bus bytes and VLIW instructions (used/available/%%), totals and averages;",
            "per table and register its RAMs (data+spare), ways, entry bits and the rule that sized",
            "it, counted as the Tofino compiler lays a stage out; PHV containers, estimated pipeline",
            "latency, the stateful-ALU templates used, and the stage each match table was placed in",
            "with the earliest its dependencies allow. Exit 0 when the program fits; exit 3 when it",
            "does not, with the failing rows marked '!!' and one line per broken rule on stderr; exit 2",
            "on an unknown program,",
            "target or parameter. 'rmtemu programs' lists programs and their parameters."
        },
        footer = {"", "Examples:",
            "  rmtemu resources --program counter --target tofino1",
            "  rmtemu resources --program counter --target tofino1 --parser",
            "  rmtemu resources --program counter --target tofino1 --param cells=4194304   # exits 3",
            "  rmtemu resources --program l2fwd --target rmt --json > resources.json"})
public final class ResourcesCommand implements Callable<Integer> {
    @Mixin
    ProgramOptions programOptions;

    @Mixin
    TargetOption targetOption;

    /** Exit code when the program does not fit the target. */
    public static final int EXIT_DOES_NOT_FIT = 3;

    @Spec
    CommandSpec spec;

    @Option(names = "--json", description = "Print the report as JSON (shaped like the Tofino compiler's resources.json).")
    boolean json;

    @Option(names = "--parser", description = {
        "Also print the parser's resources: the parse graph (today the default one for every",
        "program) with the parser TCAM rows each state takes, in all and of the target's budget,",
        "and the PHV bits of its headers' fields and validity bits. Text only."})
    boolean parser;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if (parser && json) {
            throw new UserError("resources: --parser prints text; leave out --json");
        }
        TargetProfile profile = TargetProfiles.load(targetOption.target);
        StageProgram p = programOptions.registry(targetOption.target).build(programOptions.program, ProgramParams.parseAssignments(programOptions.params));
        Compilation c = ProgramCompiler.compile(p, profile);
        ResourceReport report = c.resources();
        if (json) {
            out.print(CompilerReport.json(ReportRenderer.json(report), c));
        } else {
            out.print(ReportRenderer.table(report));
            out.print(CompilerReport.table(c));
            if (parser) {
                ParseGraph graph = DefaultParseGraph.build();
                out.println();
                out.print(ParseGraphPrinter.text(graph, ParserLimitsCheck.check(p.name(), graph, profile)));
            }
        }
        out.flush();
        for (String line : c.warningLines()) {
            err.println("rmtemu: warning: " + line);
        }
        err.flush();
        if (!c.accepted()) {
            for (String line : c.lines()) {
                err.println("rmtemu: " + line);
            }
            err.flush();
            return EXIT_DOES_NOT_FIT;
        }
        return 0;
    }
}
