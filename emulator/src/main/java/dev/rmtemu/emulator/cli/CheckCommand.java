package dev.rmtemu.emulator.cli;

import dev.rmtemu.model.UserError;
import dev.rmtemu.model.p4.P4Front;
import dev.rmtemu.model.p4.preprocess.PreprocessorOptions;
import dev.rmtemu.model.p4.source.Diagnostic;
import dev.rmtemu.model.p4.source.Diagnostics;
import dev.rmtemu.model.target.TargetProfiles;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/** {@code rmtemu check FILE.p4}: is a P4_16 program well-formed, and if not, every error in it. */
@Command(name = "check",
        resourceBundle = "dev.rmtemu.emulator.cli.help.check",
        mixinStandardHelpOptions = true,
        description = {
            "Check a P4_16 program for TNA and print every error in it.",
            "",
            "The program is preprocessed as P4 uses the C preprocessor (#include, #define, #if ...,",
            "with -I and -D; __TARGET_TOFINO__ is 2 on --target tofino2, else 1), and #include <core.p4>",
            "and <tna.p4> resolve to rmtemu's own declarations of P4's core library and of TNA. Then the",
            "whole P4_16 grammar (specification v1.2.x) parses it, and its names are resolved: declared",
            "before use, once per scope, a type where a type is written, an action in a table's actions,",
            "a match kind after a key, a state after transition (with the closest name when one is near).",
            "Each error is one line 'FILE:LINE:COL: message' in your own file (through includes and",
            "macros), on stderr; all of them are printed, as a compiler does. The types of expressions",
            "are not checked yet, and compiling a P4 program to the pipeline is not available yet: a",
            "program without errors is reported as such and the command exits 8, never pretending to",
            "compile or run it.",
            "Exit 2 when the program has errors or the file cannot be read."
        },
        footer = {"", "Examples:",
            "  rmtemu check switch.p4",
            "  rmtemu check -I include -D USE_VLAN -D TABLE_SIZE=4096 switch.p4"})
public final class CheckCommand implements Callable<Integer> {
    /** Exit code for a program with no errors, since compiling it to the pipeline is not available yet. */
    public static final int EXIT_NOT_COMPILED = 8;

    @Mixin
    TargetOption targetOption;

    @Parameters(index = "0", paramLabel = "FILE.p4", description = "The P4_16 program to check.")
    Path file;

    @Option(names = "-I", paramLabel = "DIR", description = "Directory to search for #include files, after the including file's own "
            + "directory for \"...\" and before rmtemu's built-in library; repeat for several.")
    List<Path> includeDirs = new ArrayList<>();

    @Option(names = "-D", paramLabel = "NAME[=VALUE]", description = "Define a macro (value 1 when none is given); repeat for several.")
    List<String> defines = new ArrayList<>();

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        String profile = TargetProfiles.load(targetOption.target).name();
        PreprocessorOptions options = new PreprocessorOptions(includeDirs, defines, PreprocessorOptions.tofinoGeneration(profile));
        P4Front.Result result = P4Front.file(file, options);
        if (!result.ok()) {
            for (Diagnostic d : result.errors()) {
                err.println(d.line());
            }
            int n = result.errorCount();
            if (n > result.errors().size()) {
                err.println(file + ": " + (n - result.errors().size()) + " more errors not shown (the first "
                        + Diagnostics.MAX_KEPT + " are)");
            }
            err.flush();
            throw new UserError(file + ": " + n + (n == 1 ? " error" : " errors"));
        }
        out.println(file + ": no errors (preprocessed, parsed, names resolved; the types of expressions are not checked yet); "
                + "compiling P4 to the pipeline is not available yet");
        out.flush();
        return EXIT_NOT_COMPILED;
    }
}
